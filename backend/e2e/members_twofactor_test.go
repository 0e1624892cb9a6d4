package e2e

import (
	"fmt"
	"net/http"
	"testing"
)

// TestMembersTwoFactor: the members list says which member has two-factor sign-in on, to the
// workspace's members only.
func TestMembersTwoFactor(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signupOn("mfa-owner@example.com", "enterprise")
	s.enrol2FA(owner)
	member := s.joined(owner, "mfa-member@example.com", "member")
	outsider := s.signup("mfa-outsider@example.com")

	path := fmt.Sprintf("/api/v1/workspaces/%d/members", owner.WorkspaceID)
	for _, who := range []tenant{owner, member} {
		list := answer[struct {
			Members []struct {
				Email     string `json:"email"`
				TwoFactor *bool  `json:"two_factor"`
			} `json:"members"`
		}](t, s.do("GET", path, who.Token, nil), http.StatusOK, "members")
		got := map[string]bool{}
		for _, m := range list.Members {
			if m.TwoFactor == nil {
				t.Fatalf("%s without two_factor", m.Email)
			}
			got[m.Email] = *m.TwoFactor
		}
		if len(got) != 2 || !got["mfa-owner@example.com"] || got["mfa-member@example.com"] {
			t.Errorf("the members' two-factor sign-in: %v", got)
		}
	}
	if r := s.do("GET", path, outsider.Token, nil); r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
		t.Errorf("another workspace's members: %d %s", r.Status, r.Body)
	}
}
