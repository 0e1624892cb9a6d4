package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

type workspaceJSON struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Plan       string `json:"plan"`
	Role       string `json:"role"`
	Require2FA bool   `json:"require_2fa"`
}

// TestRequireTwoFactor walks a workspace's demand for two-factor sign-in: only an owner with
// 2FA of their own turns it on, and only on a plan with sso; members without 2FA are then
// refused on the workspace's routes (and let in once they have it, refused again the moment
// they turn it off), while its API keys keep working and the member's other workspaces are
// untouched. A downgrade below sso stops the setting applying; every change is audited.
func TestRequireTwoFactor(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signupOn("owner@example.com", "enterprise")
	member := s.joined(owner, "member@example.com", "member")
	admin := s.joined(owner, "admin@example.com", "admin")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	require := func(tn tenant, path string, on bool) response {
		t.Helper()
		return s.do("PATCH", path, tn.Token, map[string]any{"require_2fa": on})
	}

	// The enrolment answers its URL as a QR code too; /me tells whether 2FA is on.
	e := answer[struct {
		QRSVG string `json:"qr_svg"`
	}](t, s.do("POST", "/api/v1/me/2fa", owner.Token, nil), http.StatusOK, "enrol")
	if !strings.Contains(e.QRSVG, "<svg") || !strings.Contains(e.QRSVG, "</svg>") {
		t.Fatalf("qr_svg %.80q", e.QRSVG)
	}
	twoFactorOn := func(tn tenant) bool {
		t.Helper()
		return answer[struct {
			TwoFactor bool `json:"two_factor"`
		}](t, s.do("GET", "/api/v1/me", tn.Token, nil), http.StatusOK, "me").TwoFactor
	}
	if twoFactorOn(owner) {
		t.Fatal("a pending enrolment shows as on")
	}

	// Only an owner, with 2FA of their own, turns it on.
	wantError(t, require(owner, ws, true), http.StatusConflict, "own_2fa_required", "owner without 2FA")
	wantError(t, require(admin, ws, true), http.StatusForbidden, "owner_required", "admin")
	wantError(t, require(member, ws, true), http.StatusForbidden, "role_forbidden", "member")
	wantError(t, require(tenant{Token: owner.Key}, ws, true), http.StatusForbidden, "api_key_not_allowed", "API key")
	if r := s.do("GET", ws+"/links", member.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("nothing required yet: %d %s", r.Status, r.Body)
	}
	other := s.passwordLogin("owner@example.com", false) // a second session of the owner's
	otherToken := answer[loginJSON](t, other, http.StatusOK, "second session").AccessToken
	s.enrol2FA(owner)
	if !twoFactorOn(owner) {
		t.Fatal("/me: two_factor false after confirmation")
	}
	// Turning 2FA on ends the person's other sessions (opened by the password alone).
	wantError(t, s.do("GET", "/api/v1/me", otherToken, nil), http.StatusUnauthorized, "session_ended", "the other session after 2FA on")

	w := answer[workspaceJSON](t, require(owner, ws, true), http.StatusOK, "require 2FA")
	if !w.Require2FA || w.Role != "owner" {
		t.Fatalf("answer %+v", w)
	}
	if w = answer[workspaceJSON](t, s.do("GET", ws, owner.Token, nil), http.StatusOK, "get"); !w.Require2FA {
		t.Fatalf("GET %+v", w)
	}
	// Asking again changes nothing (and is not audited again); renaming alone keeps it.
	answer[workspaceJSON](t, require(owner, ws, true), http.StatusOK, "require again")
	if w = answer[workspaceJSON](t, s.do("PATCH", ws, owner.Token, map[string]any{"name": "Acme"}), http.StatusOK, "rename"); !w.Require2FA || w.Name != "Acme" {
		t.Fatalf("rename %+v", w)
	}

	// Members without 2FA: refused on every route of the workspace, for every role, while the
	// list of their workspaces still shows it (and why).
	for _, path := range []string{ws, ws + "/links", ws + "/members", ws + "/plan", ws + "/stats"} {
		wantError(t, s.do("GET", path, member.Token, nil), http.StatusForbidden, "2fa_required", "member GET "+path)
	}
	wantError(t, s.do("POST", ws+"/links", member.Token, map[string]any{"url": "https://example.com/"}), http.StatusForbidden, "2fa_required", "member POST link")
	wantError(t, s.do("GET", ws+"/api-keys", admin.Token, nil), http.StatusForbidden, "2fa_required", "admin")
	list := answer[struct {
		Workspaces []workspaceJSON `json:"workspaces"`
	}](t, s.do("GET", "/api/v1/workspaces", member.Token, nil), http.StatusOK, "list")
	found := false
	for _, lw := range list.Workspaces {
		found = found || (lw.ID == owner.WorkspaceID && lw.Require2FA)
		if lw.ID == member.WorkspaceID && lw.Require2FA {
			t.Fatalf("the member's own workspace requires 2FA: %+v", lw)
		}
	}
	if !found {
		t.Fatalf("the list hides the workspace or its setting: %+v", list)
	}
	// The member's own workspace is not affected; the workspace's API keys keep working.
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", member.WorkspaceID), member.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("member's own workspace: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", ws+"/links", owner.Key, nil); r.Status != http.StatusOK {
		t.Fatalf("API key: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", ws+"/links", owner.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("owner with 2FA: %d %s", r.Status, r.Body)
	}

	// With 2FA the member is let in; turning it off refuses them at once (no sign-out needed).
	secret, _ := s.enrol2FA(member)
	if r := s.do("GET", ws+"/links", member.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("member with 2FA: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", "/api/v1/me/2fa", member.Token, map[string]string{"code": totpCode(t, secret, 30e9)}); r.Status != http.StatusNoContent {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	wantError(t, s.do("GET", ws+"/links", member.Token, nil), http.StatusForbidden, "2fa_required", "member after turning 2FA off")

	// Below sso the setting is kept but does not apply; back on enterprise it does again.
	s.setPlan(owner, "personal")
	if r := s.do("GET", ws+"/links", member.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("on personal: %d %s", r.Status, r.Body)
	}
	if w = answer[workspaceJSON](t, s.do("GET", ws, member.Token, nil), http.StatusOK, "get on personal"); !w.Require2FA {
		t.Fatalf("the stored setting was lost: %+v", w)
	}
	s.setPlan(owner, "enterprise")
	wantError(t, s.do("GET", ws+"/links", member.Token, nil), http.StatusForbidden, "2fa_required", "back on enterprise")

	// Plans without sso cannot turn it on (turning it off is always allowed).
	personal := s.signupOn("personal@example.com", "personal")
	free := s.signup("free@example.com")
	s.enrol2FA(personal)
	for _, tn := range []tenant{personal, free} {
		path := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
		wantError(t, require(tn, path, true), http.StatusForbidden, "plan_required", "require on a plan without sso")
		if w := answer[workspaceJSON](t, require(tn, path, false), http.StatusOK, "off on a plan without sso"); w.Require2FA {
			t.Fatalf("%+v", w)
		}
	}

	// Turning it off lets the member in again.
	if w = answer[workspaceJSON](t, require(owner, ws, false), http.StatusOK, "off"); w.Require2FA {
		t.Fatalf("off: %+v", w)
	}
	if r := s.do("GET", ws+"/links", member.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("after off: %d %s", r.Status, r.Body)
	}

	// The audit log holds the two changes, the owner as actor; the others' logs hold none.
	var changes []bool
	for _, ev := range s.auditAll(t, owner.Token, owner.WorkspaceID, 50) {
		if ev.Action == "workspace.require_2fa_changed" {
			if ev.Actor.Type != "user" || ev.Actor.ID != owner.UserID || ev.Target != fmt.Sprintf("workspace:%d", owner.WorkspaceID) {
				t.Errorf("event %+v", ev)
			}
			changes = append(changes, ev.Details["require_2fa"] == true)
		}
	}
	if fmt.Sprint(changes) != "[false true]" {
		t.Fatalf("audited changes (newest first) %v, want [false true]", changes)
	}
}
