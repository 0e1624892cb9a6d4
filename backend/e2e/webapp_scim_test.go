package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// An owner on the enterprise plan opens provisioning from the settings, copies the SCIM base
// URL, makes a token (shown once, working at once for the identity provider) and revokes it
// (refused at once).
func TestWebAppSCIM(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		owner := "scim-owner-" + l.name + "@example.com"
		tn := s.signupOn(owner, "enterprise")
		w := walk(t, s, l)
		w.signIn(owner, "correct horse battery")

		w.open("/settings", w.tr("Workspace settings", "工作区设置"))
		w.click(w.p.GetByTestId("open-scim"))
		w.at("/scim")
		w.see(w.heading(w.tr("SCIM provisioning", "SCIM 自动预配")))
		url := fmt.Sprintf("/scim/v2/%d", tn.WorkspaceID)
		if got, err := w.p.GetByTestId("scim-url").TextContent(); err != nil || !strings.HasSuffix(got, url) {
			t.Fatalf("base URL %q: %v", got, err)
		}
		w.see(w.text(w.tr("No SCIM tokens yet.", "还没有 SCIM 令牌。")))
		// Without a mapping of the owner's, the names of the groups decide the roles.
		w.see(w.p.GetByTestId("scim-roles").GetByText(w.tr("named admin, member or viewer gives its members that role", "名为 admin、member 或 viewer 的组会赋予其成员相应角色")))
		w.fill(w.p.GetByTestId("scim-token-name"), "Okta")
		w.click(w.p.GetByTestId("create-scim-token"))
		shown := w.p.GetByTestId("new-scim-token").Locator("code")
		w.see(shown)
		token, err := shown.TextContent()
		if err != nil || !strings.HasPrefix(token, "sl_scim_") {
			t.Fatalf("token %q: %v", token, err)
		}
		w.accessible("scim")
		w.shoot("scim")
		if r := s.scimCall("GET", tn.WorkspaceID, "/ServiceProviderConfig", token, ""); r.Status != http.StatusOK {
			t.Fatalf("the new token: %d %s", r.Status, r.Body)
		}

		// Opened again, the page lists the token by its prefix, never the secret.
		w.open("/scim", w.tr("SCIM provisioning", "SCIM 自动预配"))
		w.see(w.text("Okta"))
		w.wholeTitles("scim")
		w.breaksAtSpaces("the token's date", w.p.GetByTestId("scim-token-created"))
		if html, _ := w.p.Content(); strings.Contains(html, token) {
			t.Fatal("the page shows the token again")
		}
		w.click(w.button(w.tr("Revoke", "撤销")))
		w.click(w.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Revoke", "撤销")}))
		w.see(w.text(w.tr("No SCIM tokens yet.", "还没有 SCIM 令牌。")))
		wantSCIMError(t, s.scimCall("GET", tn.WorkspaceID, "/ServiceProviderConfig", token, ""), http.StatusUnauthorized, "", "the revoked token")

		// With the owner's mapping (set through the API), the page shows it, roles in the
		// reader's words, and no longer claims the names decide.
		if r := s.do("PUT", fmt.Sprintf("/api/v1/workspaces/%d/scim-roles", tn.WorkspaceID), tn.Token,
			map[string]any{"mappings": map[string]string{"Engineering": "admin", "Support": "viewer"}}); r.Status != http.StatusOK {
			t.Fatalf("mapping: %d %s", r.Status, r.Body)
		}
		w.open("/scim", w.tr("SCIM provisioning", "SCIM 自动预配"))
		roles := w.p.GetByTestId("scim-role")
		if err := expectLocator(roles).ToHaveCount(2); err != nil {
			t.Fatalf("[%s] the mapping: %v", l.name, err)
		}
		w.see(roles.Filter(playwright.LocatorFilterOptions{HasText: "engineering"}).GetByText(w.tr("Admin", "管理员")))
		w.see(roles.Filter(playwright.LocatorFilterOptions{HasText: "support"}).GetByText(w.tr("Viewer", "只读")))
		if err := expectLocator(w.p.GetByTestId("scim-roles").GetByText(w.tr("named admin, member or viewer", "名为 admin、member 或 viewer"))).ToHaveCount(0); err != nil {
			t.Errorf("[%s] the default rule beside a mapping: %v", l.name, err)
		}
		w.accessible("scim, a mapping")
		w.wholeTitles("scim, a mapping")
		w.shoot("scim-roles")
	})
}
