package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// apiError is an error answer's code, reason and field.
func apiError(t *testing.T, r response) (code, reason, field string) {
	t.Helper()
	var e struct {
		Error struct{ Code, Reason, Field string } `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("status %d body %q is not an error", r.Status, r.Body)
	}
	return e.Error.Code, e.Error.Reason, e.Error.Field
}

// invitationLink invites email into owner's workspace as role and returns the ID and token of
// the link in the mail; failures fail t (a subtest's own, in a walk).
func (s *server) invitationLink(t *testing.T, owner tenant, email, role string) (int64, string) {
	t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", owner.WorkspaceID), owner.Token, map[string]any{"email": email, "role": role})
	inv := answer[struct{ ID int64 }](t, r, http.StatusCreated, "invite "+email)
	link := s.mailbox.WaitSubject(t, strings.ToLower(email), "You are invited").Link(t)
	u, err := url.Parse(link)
	if err != nil || u.Path != fmt.Sprintf("/app/invitations/%d", inv.ID) || u.Query().Get("token") == "" {
		t.Fatalf("invitation link %q (invitation %d)", link, inv.ID)
	}
	return inv.ID, u.Query().Get("token")
}

// TestInvitationLinkSignup: the secret of an invitation mail's link shows, signed out, the
// workspace, the inviter, the role and the address, and nothing for any other ID or token;
// signing up with it and the invited address joins the workspace, verified, with no workspace
// of one's own, once.
func TestInvitationLinkSignup(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("owner@example.com")
	other := s.signup("other@example.com")
	id, token := s.invitationLink(t, owner, "New@Example.com", "admin")
	otherID, _ := s.invitationLink(t, other, "someone@example.com", "member")

	preview := func(id int64, token string) response {
		return s.do("GET", fmt.Sprintf("/api/v1/invitations/%d?token=%s", id, url.QueryEscape(token)), "", nil)
	}
	r := preview(id, token)
	var p map[string]any
	r.json(t, &p)
	if r.Status != http.StatusOK || p["workspace_name"] != "owner's workspace" || p["invited_by"] != "owner@example.com" ||
		p["role"] != "admin" || p["email"] != "new@example.com" || p["id"] != float64(id) || p["has_account"] != false {
		t.Fatalf("preview: %d %s", r.Status, r.Body)
	}
	if keys := slices.Sorted(maps.Keys(p)); !slices.Equal(keys, []string{"email", "expired", "expires_at", "has_account", "id", "invited_by", "role", "workspace_name"}) {
		t.Errorf("the preview tells %v", keys)
	}
	// An address with an account already (written in other letters' case) logs in instead.
	memberID, memberToken := s.invitationLink(t, owner, "Other@Example.com", "member")
	if r := preview(memberID, memberToken); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"has_account":true`) {
		t.Errorf("an invited account's preview: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/invitations/%d", owner.WorkspaceID, memberID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	wrong := preview(id, strings.Repeat("A", len(token)))
	for name, r := range map[string]response{
		"wrong token":               wrong,
		"no token":                  preview(id, ""),
		"another invitation's ID":   preview(otherID, token),
		"an ID that does not exist": preview(id+1000, token),
	} {
		if r.Status != http.StatusNotFound || string(r.Body) != string(wrong.Body) {
			t.Errorf("%s: %d %s, want 404 like a wrong token", name, r.Status, r.Body)
		}
	}

	signup := func(email, token string) response {
		return s.do("POST", "/api/v1/auth/signup", "", map[string]any{"email": email, "password": "correct horse battery",
			"invitation": map[string]any{"id": id, "token": token}})
	}
	if r := signup("intruder@example.com", token); r.Status != http.StatusBadRequest {
		t.Errorf("another address: %d %s", r.Status, r.Body)
	} else if _, reason, field := apiError(t, r); reason != "invitation_email_mismatch" || field != "email" {
		t.Errorf("another address: reason %q field %q", reason, field)
	}
	if r := signup("new@example.com", strings.Repeat("A", len(token))); r.Status != http.StatusBadRequest {
		t.Errorf("a wrong token: %d %s", r.Status, r.Body)
	} else if _, reason, _ := apiError(t, r); reason != "invitation_invalid" {
		t.Errorf("a wrong token: reason %q", reason)
	}

	r = signup("NEW@example.com", token)
	out := answer[struct {
		User struct {
			ID            int64
			EmailVerified bool `json:"email_verified"`
		}
		Workspace struct {
			ID   int64
			Role string
		}
		AccessToken string `json:"access_token"`
	}](t, r, http.StatusCreated, "sign up through the invitation")
	if out.Workspace.ID != owner.WorkspaceID || out.Workspace.Role != "admin" || !out.User.EmailVerified {
		t.Errorf("signed up into %+v, verified %v; want workspace %d as admin, verified", out.Workspace, out.User.EmailVerified, owner.WorkspaceID)
	}
	var mine struct {
		Workspaces []struct{ ID int64 } `json:"workspaces"`
	}
	s.do("GET", "/api/v1/workspaces", out.AccessToken, nil).json(t, &mine)
	if len(mine.Workspaces) != 1 || mine.Workspaces[0].ID != owner.WorkspaceID {
		t.Errorf("the new account's workspaces: %+v, want only the inviting one", mine.Workspaces)
	}
	// Used up: the link shows nothing more and signs nobody up again.
	if r := preview(id, token); r.Status != http.StatusNotFound {
		t.Errorf("preview after use: %d", r.Status)
	}
	var invs struct {
		Invitations []struct{ ID int64 } `json:"invitations"`
	}
	s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/invitations", owner.WorkspaceID), owner.Token, nil).json(t, &invs)
	if len(invs.Invitations) != 0 {
		t.Errorf("the owner still sees invitations %+v", invs.Invitations)
	}
	// The other workspace's invitation and members are untouched.
	s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/invitations", other.WorkspaceID), other.Token, nil).json(t, &invs)
	if len(invs.Invitations) != 1 || invs.Invitations[0].ID != otherID {
		t.Errorf("the other workspace's invitations: %+v", invs.Invitations)
	}
	// Signing up without an invitation still makes a workspace of one's own.
	if tn := s.signup("plain@example.com"); tn.WorkspaceID == owner.WorkspaceID || tn.WorkspaceID == 0 {
		t.Errorf("plain sign-up: workspace %d", tn.WorkspaceID)
	}
}

// TestInvitationsCountAgainstMemberLimit: invitations waiting take a place of the plan's
// members, so a workspace cannot invite past its plan; withdrawing one frees the place, and
// another workspace's count is its own.
func TestInvitationsCountAgainstMemberLimit(t *testing.T) {
	s := newDeployment(t).start(t, "PLAN_LIMITS", "free.members=2")
	owner := s.signup("owner@example.com")
	other := s.signup("other@example.com")
	invite := func(tn tenant, email string) response {
		return s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", tn.WorkspaceID), tn.Token, map[string]any{"email": email, "role": "member"})
	}
	first := answer[struct{ ID int64 }](t, invite(owner, "first@example.com"), http.StatusCreated, "the first invitation")
	r := invite(owner, "second@example.com")
	if r.Status != http.StatusForbidden {
		t.Fatalf("inviting past the limit: %d %s", r.Status, r.Body)
	}
	if code, reason, field := apiError(t, r); code != "quota_exceeded" || reason != "member_limit_reached" || field != "email" {
		t.Errorf("inviting past the limit: %s %s %s", code, reason, field)
	}
	if r := invite(other, "second@example.com"); r.Status != http.StatusCreated {
		t.Errorf("another workspace invites: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/invitations/%d", owner.WorkspaceID, first.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("withdraw: %d %s", r.Status, r.Body)
	}
	if r := invite(owner, "second@example.com"); r.Status != http.StatusCreated {
		t.Errorf("inviting after withdrawing one: %d %s", r.Status, r.Body)
	}
}

// TestTransferOwnership: only an owner hands the workspace over, only to one of its members;
// the old owner stays as an admin and may no longer delete it, the new one may; another
// workspace is untouched throughout.
func TestTransferOwnership(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("owner@example.com")
	admin := s.joined(owner, "admin@example.com", "admin")
	member := s.joined(owner, "member@example.com", "member")
	outsider := s.signup("outsider@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	transfer := func(tn tenant, path string, to int64) response {
		return s.do("POST", path+"/transfer", tn.Token, map[string]any{"user_id": to})
	}
	roles := func(tn tenant, path string) map[int64]string {
		var out struct {
			Members []struct {
				UserID int64 `json:"user_id"`
				Role   string
			}
		}
		r := s.do("GET", path+"/members", tn.Token, nil)
		r.json(t, &out)
		m := map[int64]string{}
		for _, x := range out.Members {
			m[x.UserID] = x.Role
		}
		return m
	}

	for name, c := range map[string]struct {
		by     tenant
		path   string
		to     int64
		status int
	}{
		"an admin":                     {admin, ws, member.UserID, http.StatusForbidden},
		"a member":                     {member, ws, member.UserID, http.StatusForbidden},
		"to someone not a member":      {owner, ws, outsider.UserID, http.StatusNotFound},
		"to oneself":                   {owner, ws, owner.UserID, http.StatusBadRequest},
		"in a workspace not one's own": {owner, fmt.Sprintf("/api/v1/workspaces/%d", outsider.WorkspaceID), admin.UserID, http.StatusNotFound},
		"by an API key":                {tenant{Token: owner.Key}, ws, member.UserID, http.StatusForbidden},
	} {
		if r := transfer(c.by, c.path, c.to); r.Status != c.status {
			t.Errorf("%s: %d %s, want %d", name, r.Status, r.Body, c.status)
		}
	}
	if r := transfer(owner, ws, outsider.UserID); r.Status == http.StatusNotFound {
		if _, reason, field := apiError(t, r); reason != "not_a_member" || field != "user_id" {
			t.Errorf("to a non-member: reason %q field %q", reason, field)
		}
	}
	if got := roles(owner, ws); got[owner.UserID] != "owner" || got[member.UserID] != "member" || got[admin.UserID] != "admin" {
		t.Fatalf("roles after refused transfers: %v", got)
	}

	r := transfer(owner, ws, member.UserID)
	if m := answer[struct {
		UserID int64 `json:"user_id"`
		Role   string
	}](t, r, http.StatusOK, "transfer"); m.UserID != member.UserID || m.Role != "owner" {
		t.Errorf("transfer answered %+v", m)
	}
	if got := roles(owner, ws); got[owner.UserID] != "admin" || got[member.UserID] != "owner" {
		t.Errorf("roles after the transfer: %v", got)
	}
	if got := roles(outsider, fmt.Sprintf("/api/v1/workspaces/%d", outsider.WorkspaceID)); len(got) != 1 || got[outsider.UserID] != "owner" {
		t.Errorf("the other workspace's members: %v", got)
	}
	// The old owner, now an admin, neither hands over nor deletes the workspace again.
	if r := transfer(owner, ws, admin.UserID); r.Status != http.StatusForbidden {
		t.Errorf("the old owner transfers again: %d", r.Status)
	}
	if r := s.do("DELETE", ws, owner.Token, nil); r.Status != http.StatusForbidden {
		t.Errorf("the old owner deletes: %d", r.Status)
	}
	if r := s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d", outsider.WorkspaceID), member.Token, nil); r.Status != http.StatusNotFound {
		t.Errorf("the new owner deletes another workspace: %d", r.Status)
	}
	if r := s.do("DELETE", ws, member.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("the new owner deletes: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", ws, owner.Token, nil); r.Status != http.StatusNotFound {
		t.Errorf("the deleted workspace: %d", r.Status)
	}
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d", outsider.WorkspaceID), outsider.Token, nil); r.Status != http.StatusOK {
		t.Errorf("the other workspace after the deletion: %d", r.Status)
	}
}
