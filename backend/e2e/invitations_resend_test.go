package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestResendInvitation: resending mails the invitation again with a new link (the old one
// stops working), is audited, and refuses bad input, a member without the manage permission
// and another workspace's invitation alike.
func TestResendInvitation(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signupOn("resend-owner@example.com", "enterprise")
	viewer := s.joined(owner, "resend-viewer@example.com", "viewer")
	other := s.signup("resend-other@example.com")
	id, oldToken := s.invitationLink(t, owner, "resend-invitee@example.com", "member")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	r := s.do("POST", fmt.Sprintf("%s/invitations/%d/resend", ws, id), owner.Token, nil)
	inv := answer[struct {
		ID    int64  `json:"id"`
		Email string `json:"email"`
	}](t, r, http.StatusOK, "resend")
	if inv.ID != id || inv.Email != "resend-invitee@example.com" {
		t.Errorf("resent %+v", inv)
	}
	link := s.mailbox.WaitSubject(t, "resend-invitee@example.com", "You are invited").Link(t)
	u, err := url.Parse(link)
	if err != nil || u.Path != fmt.Sprintf("/app/invitations/%d", id) || u.Query().Get("token") == "" || u.Query().Get("token") == oldToken {
		t.Fatalf("the new mail's link %q", link)
	}
	preview := func(token string) int {
		return s.do("GET", fmt.Sprintf("/api/v1/invitations/%d?token=%s", id, url.QueryEscape(token)), "", nil).Status
	}
	if got := preview(oldToken); got != http.StatusNotFound {
		t.Errorf("the old link after a resend: %d, want 404", got)
	}
	if got := preview(u.Query().Get("token")); got != http.StatusOK {
		t.Errorf("the new link: %d, want 200", got)
	}
	found := false
	for _, e := range s.auditAll(t, owner.Token, owner.WorkspaceID, 50) {
		if e.Action == "invitation.resent" && e.Target == fmt.Sprintf("invitation:%d", id) && e.Actor.Email == "resend-owner@example.com" {
			found = true
		}
	}
	if !found {
		t.Error("no invitation.resent in the audit log")
	}

	for _, c := range []struct {
		name, path, token string
		status            int
		code              string
	}{
		{"an ID that is no number", ws + "/invitations/abc/resend", owner.Token, http.StatusNotFound, "not_found"},
		{"an invitation that does not exist", fmt.Sprintf("%s/invitations/%d/resend", ws, id+1000), owner.Token, http.StatusNotFound, "not_found"},
		{"a viewer", fmt.Sprintf("%s/invitations/%d/resend", ws, id), viewer.Token, http.StatusForbidden, "forbidden"},
		{"another workspace's owner", fmt.Sprintf("%s/invitations/%d/resend", ws, id), other.Token, http.StatusNotFound, "not_found"},
		{"the invitation through another workspace", fmt.Sprintf("/api/v1/workspaces/%d/invitations/%d/resend", other.WorkspaceID, id), other.Token, http.StatusNotFound, "not_found"},
	} {
		r := s.do("POST", c.path, c.token, nil)
		if r.Status != c.status || r.errorCode(t) != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
		}
	}
	// None of the refusals mailed anything: the next mail to the invitee is the one sent now.
	s.do("POST", fmt.Sprintf("%s/invitations/%d/resend", ws, id), owner.Token, nil)
	last := s.mailbox.WaitSubject(t, "resend-invitee@example.com", "You are invited").Link(t)
	if strings.Contains(last, u.Query().Get("token")) {
		t.Errorf("the last resend kept the link %q", last)
	}
}
