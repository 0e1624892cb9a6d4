package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/webhook"
)

// The tests of this file set up each paid feature on a plan that has it, downgrade the
// workspace (the operator's change of plan), prove that the feature's work no longer runs
// where it runs, and upgrade again to prove it resumes with the settings kept
// (docs/rules-and-plans.md#after-a-downgrade). "Nothing happened" is proven by a marker that
// says the system had its chance, never by a pause.

// TestDowngradeWebhooks: events of a workspace whose plan lost webhooks are dropped by the
// dispatcher, never sent, and not sent later either; new events are delivered once the plan
// has webhooks again.
func TestDowngradeWebhooks(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	a := s.signupOn("down-hooks-a@example.com", "personal")
	b := s.signupOn("down-hooks-b@example.com", "personal")
	rcvA, rcvB := newHookReceiver(t), newHookReceiver(t)
	ha := s.createHook(a, rcvA.url("/in"), "link.created")
	rcvA.setSecret(ha.Secret)
	hb := s.createHook(b, rcvB.url("/in"), "link.created")
	rcvB.setSecret(hb.Secret)

	before := s.createLink(a, map[string]any{"url": "https://example.com/before"})
	if got := linkOf(t, rcvA.waitType("link.created", 1, 10*time.Second)[0]); got["id"] != float64(before.ID) {
		t.Fatalf("on personal: %v", got)
	}

	s.setPlan(a, "free")
	during := s.createLink(a, map[string]any{"url": "https://example.com/during"})
	// The marker: a later event of a workspace on a paid plan is delivered, and the
	// downgraded workspace's delivery is no longer pending: the dispatcher took it and
	// recorded it dropped, with the plan's error, without sending it.
	marker := s.createLink(b, map[string]any{"url": "https://example.com/marker"})
	if got := linkOf(t, rcvB.waitType("link.created", 1, 10*time.Second)[0]); got["id"] != float64(marker.ID) {
		t.Fatalf("the marker: %v", got)
	}
	var status, errText string
	var attempt int
	eventually(t, 10*time.Second, "the downgraded workspace's delivery handled", func() bool {
		err := d.conn(t).QueryRow(context.Background(), `SELECT status, error, attempt FROM webhook_deliveries
			WHERE webhook_id = $1 AND (data -> 'link' ->> 'id')::bigint = $2`, ha.ID, during.ID).Scan(&status, &errText, &attempt)
		return err == nil && status != webhook.Pending
	})
	if status != webhook.Failed || errText != webhook.DroppedError {
		t.Errorf("the delivery during the downgrade: %s %q (attempt %d)", status, errText, attempt)
	}
	if got := rcvA.ofType("link.created"); len(got) != 1 {
		t.Fatalf("the downgraded workspace's receiver got %d deliveries, want only the one before", len(got))
	}
	// The webhook is kept, and its management answers plan_required meanwhile.
	wantReason(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks", a.WorkspaceID), a.Token, nil),
		http.StatusForbidden, "plan_required", "webhooks on free")

	s.setPlan(a, "personal")
	after := s.createLink(a, map[string]any{"url": "https://example.com/after"})
	got := rcvA.waitType("link.created", 2, 10*time.Second)
	if id := linkOf(t, got[1])["id"]; id != float64(after.ID) {
		t.Errorf("after the upgrade the receiver got link %v, want %d (the dropped %d is never sent)", id, after.ID, during.ID)
	}
	var dropped bool
	for _, dl := range s.hookDeliveries(a, ha.ID) {
		if dl.Status == webhook.Failed && dl.Error == webhook.DroppedError {
			dropped = true
		}
	}
	if !dropped {
		t.Errorf("the delivery log does not show the dropped delivery: %+v", s.hookDeliveries(a, ha.ID))
	}
	if w := answer[hookJSON](t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/webhooks/%d", a.WorkspaceID, ha.ID), a.Token, nil),
		http.StatusOK, "the webhook"); !w.Enabled || w.FailuresInRow != 0 {
		t.Errorf("a dropped delivery counted toward disabling: %+v", w)
	}
	rcvA.checkOnce()
	rcvB.checkOnce()
}

// TestDowngradeSSO: a workspace whose plan lost sso signs nobody in (403 plan_required, reason
// sso_plan_required, a sign-in under way included) and no longer enforces it: its members sign
// in with their passwords. The settings are kept; an upgrade brings both back.
func TestDowngradeSSO(t *testing.T) {
	ns := startDNS(t)
	d := newDeployment(t)
	s := d.start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startIdP(t, newIdPStorage(idpUsers{
		"ann": idpUser("ann", "ann@down-sso.com", true),
		"bob": idpUser("bob", "bob@down-sso.com", true),
	}))
	owner := s.signupOn("down-sso-owner@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	settings := map[string]any{"issuer": p.URL, "client_id": "shortlink", "client_secret": idpClientSecret, "email_domain": "down-sso.com"}
	st := answer[ssoJSON](t, s.do("PUT", ws+"/sso", owner.Token, settings), http.StatusOK, "put sso")
	ns.set(st.Verification.Name, st.Verification.Value)
	if st = answer[ssoJSON](t, s.do("POST", ws+"/sso/verify", owner.Token, nil), http.StatusOK, "verify"); !st.Verified {
		t.Fatalf("not verified: %+v", st)
	}
	// Bob has a password and joins through sign-on; then the owner enforces it.
	s.signup("bob@down-sso.com")
	s.verify("bob@down-sso.com")
	bb := s.ssoBrowser()
	if r := s.ssoFinish(s.ssoSignIn(bb, "bob@down-sso.com", "bob"), stateCookie(bb)); r.Status != http.StatusFound {
		t.Fatalf("bob's sign-on: %d %s", r.Status, r.Body)
	}
	settings["enforce"] = true
	delete(settings, "client_secret")
	if st = answer[ssoJSON](t, s.do("PUT", ws+"/sso", owner.Token, settings), http.StatusOK, "enforce"); !st.Enforce {
		t.Fatalf("enforce: %+v", st)
	}
	password := map[string]string{"email": "bob@down-sso.com", "password": "correct horse battery"}
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", password), http.StatusForbidden, "sso_required", "password with enforce")
	// A sign-in started on enterprise, to be finished after the downgrade.
	ann := s.ssoBrowser()
	underWay := s.ssoSignIn(ann, "ann@down-sso.com", "ann")

	s.setPlan(owner, "personal")
	r := s.do("GET", "/api/v1/auth/sso/start?email=ann@down-sso.com", "", nil)
	wantReason(t, r, http.StatusForbidden, "sso_plan_required", "start on personal")
	if r.errorCode(t) != "plan_required" {
		t.Errorf("start on personal: code %s, want plan_required", r.errorCode(t))
	}
	wantReason(t, s.ssoFinish(underWay, stateCookie(ann)), http.StatusForbidden, "sso_plan_required", "a sign-in under way")
	req, _ := http.NewRequest("GET", s.base+"/api/v1/auth/sso/start?email=ann@down-sso.com", nil)
	req.Header.Set("Accept", "text/html")
	if r := s.send(req); r.Status != http.StatusFound || r.Header.Get("Location") != "/app/login?sso_error=sso_plan_required" {
		t.Errorf("a browser's start on personal: %d %v", r.Status, r.Header)
	}
	// Enforce lapses with the plan: the member's password works again.
	s.login("bob@down-sso.com")
	var enforce bool
	if err := d.conn(t).QueryRow(context.Background(), `SELECT enforce FROM workspace_sso WHERE workspace_id = $1`,
		owner.WorkspaceID).Scan(&enforce); err != nil || !enforce {
		t.Errorf("the settings were not kept: enforce %v, %v", enforce, err)
	}

	s.setPlan(owner, "enterprise")
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", password), http.StatusForbidden, "sso_required", "password after the upgrade")
	ann = s.ssoBrowser()
	if r := s.ssoFinish(s.ssoSignIn(ann, "ann@down-sso.com", "ann"), stateCookie(ann)); r.Status != http.StatusFound {
		t.Errorf("sign-on after the upgrade: %d %s", r.Status, r.Body)
	}
}

// TestDowngradeAuditLog: reading and exporting the audit log answer 403 plan_required once the
// plan lost audit_log; events are still recorded meanwhile, and read again after an upgrade.
func TestDowngradeAuditLog(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("down-audit@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	rename := func(name string) {
		t.Helper()
		if r := s.do("PATCH", ws, tn.Token, map[string]any{"name": name}); r.Status != http.StatusOK {
			t.Fatalf("rename: %d %s", r.Status, r.Body)
		}
	}
	rename("Before")
	if r := s.do("GET", ws+"/audit.csv", tn.Token, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "workspace.renamed") {
		t.Fatalf("export on enterprise: %d %s", r.Status, r.Body)
	}

	s.setPlan(tn, "personal")
	rename("During")
	wantReason(t, s.do("GET", ws+"/audit.csv", tn.Token, nil), http.StatusForbidden, "plan_required", "export on personal")
	wantReason(t, s.do("GET", ws+"/audit", tn.Token, nil), http.StatusForbidden, "plan_required", "read on personal")

	s.setPlan(tn, "enterprise")
	r := s.do("GET", ws+"/audit.csv", tn.Token, nil)
	if r.Status != http.StatusOK || strings.Count(string(r.Body), "workspace.renamed") != 2 || !strings.Contains(string(r.Body), "During") {
		t.Errorf("export after the upgrade (the rename during the downgrade recorded): %d %s", r.Status, r.Body)
	}
}

// TestDowngradeAppLinks: a custom domain of a workspace whose plan lost custom domains keeps
// its links answering, but its app-link files are not served (a bare 404), cannot be set, and
// a pending domain is not proven; an upgrade serves the kept files again.
func TestDowngradeAppLinks(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	tn := s.signupOn("down-applinks@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	dm := s.addDomain(tn, "down.example.com")
	ns.set(dm.Verification.Name, dm.Verification.Value)
	if got := s.verifyDomain(tn, dm.ID); !got.Verified {
		t.Fatalf("not verified: %+v", got)
	}
	path := fmt.Sprintf("%s/domains/%d/app-links", ws, dm.ID)
	files := map[string]any{
		"apple_app_site_association": map[string]any{"applinks": map[string]any{"details": []any{
			map[string]any{"appID": "TEAM.com.example.down", "paths": []string{"/*"}}}}},
		"assetlinks": []any{map[string]any{"relation": []string{"delegate_permission/common.handle_all_urls"},
			"target": map[string]any{"namespace": "android_app", "package_name": "com.example.down"}}},
	}
	if r := s.do("PUT", path, tn.Token, files); r.Status != http.StatusOK {
		t.Fatalf("put app links: %d %s", r.Status, r.Body)
	}
	l := s.createLink(tn, map[string]any{"url": "https://example.com/on-domain", "domain": "down.example.com"})
	served := func(what string, want int) {
		t.Helper()
		for _, p := range []string{"/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"} {
			if r := s.visitHost("down.example.com", "GET", p); r.Status != want {
				t.Errorf("%s: %s answered %d %s, want %d", what, p, r.Status, r.Body, want)
			}
		}
	}
	served("on enterprise", http.StatusOK)
	pending := s.addDomain(tn, "pending.example.com")

	s.setPlan(tn, "free")
	served("on free", http.StatusNotFound)
	if r := s.visitHost("down.example.com", "GET", "/"+l.Code); r.Status != http.StatusFound {
		t.Errorf("the domain's link on free: %d, want it still redirecting", r.Status)
	}
	wantReason(t, s.do("PUT", path, tn.Token, files), http.StatusForbidden, "plan_required", "setting app links on free")
	if r := s.do("GET", path, tn.Token, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "com.example.down") {
		t.Errorf("the files are kept: %d %s", r.Status, r.Body)
	}
	ns.set(pending.Verification.Name, pending.Verification.Value)
	wantReason(t, s.do("POST", fmt.Sprintf("%s/domains/%d/verify", ws, pending.ID), tn.Token, nil),
		http.StatusForbidden, "plan_required", "proving a pending domain on free")

	s.setPlan(tn, "enterprise")
	served("after the upgrade", http.StatusOK)
	if got := s.verifyDomain(tn, pending.ID); !got.Verified {
		t.Errorf("the pending domain after the upgrade: %+v", got)
	}
}

// TestDowngradeRequestGates: the features whose work is done in the request that asks for it
// (data export, the dashboard, batch creation, changing a link's target) answer 403
// plan_required from the first request after a downgrade, and again work after an upgrade.
func TestDowngradeRequestGates(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("down-requests@example.com", "trial")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/target"})
	gates := []struct {
		feature, method, path string
		body                  any
	}{
		{"export", "GET", ws + "/links/export.csv", nil},
		{"export", "GET", ws + "/visits/export.csv", nil},
		{"dashboard", "GET", ws + "/stats", nil},
		{"batch", "POST", ws + "/links/batch", map[string]any{"links": []any{map[string]any{"url": "https://example.com/b"}}}},
		{"realtime_edit", "PATCH", fmt.Sprintf("%s/links/%d", ws, l.ID), map[string]any{"url": "https://example.com/new"}},
	}
	check := func(plan string, allowed bool) {
		t.Helper()
		for _, g := range gates {
			r := s.do(g.method, g.path, tn.Key, g.body)
			switch {
			case allowed && r.Status/100 != 2:
				t.Errorf("%s on %s: %s %s answered %d %s", g.feature, plan, g.method, g.path, r.Status, r.Body)
			case !allowed && (r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required"):
				t.Errorf("%s on %s: %s %s answered %d %s, want 403 plan_required", g.feature, plan, g.method, g.path, r.Status, r.Body)
			}
		}
	}
	check("trial", true)
	s.setPlan(tn, "free")
	check("free", false)
	s.setPlan(tn, "enterprise")
	check("enterprise", true)
}
