package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// TestExpiredInvitationLetsGo: an expired invitation holds no place of the plan's members and
// no longer keeps its address: on a plan of two members (the owner and one more), another
// address is invited once the first invitation expired; inviting the expired address again
// replaces its invitation (a new link and expiry, the new role; the old link shows nothing),
// while a valid one's address stays already_invited; resending an expired invitation into a full plan is
// refused as inviting is; accepting an expired one stays 410 invitation_expired; another
// workspace's invitation of the same address is untouched throughout.
func TestExpiredInvitationLetsGo(t *testing.T) {
	d := newDeployment(t)
	clock := &movingClock{}
	d.now = clock.Now
	s := d.start(t, "PLAN_LIMITS", "free.members=2")
	owner := s.signup("letgo-owner@example.com")
	other := s.signup("letgo-other@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	first := s.signup("letgo-first@example.com")
	s.verify("letgo-first@example.com")
	week := 7 * 24 * time.Hour
	near := func(got, want time.Time) bool { return got.Sub(want).Abs() < time.Minute }

	invite := func(tn tenant, email, role string) response {
		t.Helper()
		return s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", tn.WorkspaceID), tn.Token, map[string]any{"email": email, "role": role})
	}
	refusedAs := func(r response, status int, reason, what string) {
		t.Helper()
		if got, _ := r.errorReason(t); r.Status != status || got != reason {
			t.Errorf("%s: %d %s, want %d %s", what, r.Status, r.Body, status, reason)
		}
	}
	type invitationJSON struct {
		ID        int64     `json:"id"`
		Email     string    `json:"email"`
		Role      string    `json:"role"`
		ExpiresAt time.Time `json:"expires_at"`
		Expired   bool      `json:"expired"`
	}
	listed := func(tn tenant) map[string]invitationJSON {
		t.Helper()
		out := map[string]invitationJSON{}
		path := fmt.Sprintf("/api/v1/workspaces/%d/invitations", tn.WorkspaceID)
		for _, i := range answer[struct{ Invitations []invitationJSON }](t, s.do("GET", path, tn.Token, nil), http.StatusOK, "list").Invitations {
			out[i.Email] = i
		}
		return out
	}
	preview := func(id int64, token string) int {
		return s.do("GET", fmt.Sprintf("/api/v1/invitations/%d?token=%s", id, url.QueryEscape(token)), "", nil).Status
	}

	oldID, oldToken := s.invitationLink(t, owner, "letgo-first@example.com", "member")
	otherInv := answer[invitationJSON](t, invite(other, "letgo-first@example.com", "viewer"), http.StatusCreated, "the other workspace invites")
	s.mailbox.WaitSubject(t, "letgo-first@example.com", "You are invited") // the other workspace's mail
	refusedAs(invite(owner, "letgo-second@example.com", "member"), http.StatusForbidden, "member_limit_reached", "a second invitation while the first is valid")
	refusedAs(invite(owner, "letgo-first@example.com", "viewer"), http.StatusConflict, "already_invited", "the same address while it is valid")

	// Past the week the first invitation holds no place: another address is invited.
	clock.Add(week + time.Minute)
	if got := listed(owner)["letgo-first@example.com"]; !got.Expired {
		t.Fatalf("the first invitation past the week: %+v", got)
	}
	second := answer[invitationJSON](t, invite(owner, "letgo-second@example.com", "member"), http.StatusCreated, "a second address once the first expired")
	refusedAs(s.do("POST", fmt.Sprintf("%s/invitations/%d/resend", ws, oldID), owner.Token, nil), http.StatusForbidden, "member_limit_reached",
		"resending the expired invitation into a full plan")
	refusedAs(s.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", oldID), first.Token, nil), http.StatusGone, "invitation_expired",
		"accepting the expired invitation")

	// The second expires too: the first address is invited again, replacing its invitation.
	clock.Add(week + time.Minute)
	newID, newToken := s.invitationLink(t, owner, "letgo-first@example.com", "viewer")
	if newID != oldID {
		t.Errorf("the replaced invitation is %d, want the expired one's id %d", newID, oldID)
	}
	got := listed(owner)
	if inv := got["letgo-first@example.com"]; inv.Expired || inv.Role != "viewer" || !near(inv.ExpiresAt, clock.Now().Add(week)) {
		t.Errorf("the replaced invitation: %+v, want viewer valid until about %s", inv, clock.Now().Add(week))
	}
	if len(got) != 2 || got["letgo-second@example.com"].ID != second.ID || !got["letgo-second@example.com"].Expired {
		t.Errorf("the workspace's invitations: %+v", got)
	}
	if st := preview(oldID, oldToken); st != http.StatusNotFound {
		t.Errorf("the replaced invitation's old link: %d, want 404", st)
	}
	if st := preview(newID, newToken); st != http.StatusOK {
		t.Errorf("the new link: %d", st)
	}
	refusedAs(invite(owner, "letgo-first@example.com", "member"), http.StatusConflict, "already_invited", "the renewed address again")
	refusedAs(invite(owner, "letgo-third@example.com", "member"), http.StatusForbidden, "member_limit_reached", "a third address while the renewed one holds the place")

	// The other workspace's invitation of the same address kept its own role and expiry.
	if inv := listed(other)["letgo-first@example.com"]; inv.ID != otherInv.ID || inv.Role != "viewer" || !near(inv.ExpiresAt, otherInv.ExpiresAt) || !inv.Expired {
		t.Errorf("the other workspace's invitation: %+v, want %+v expired", inv, otherInv)
	}
	if inv := listed(owner)["letgo-first@example.com"]; inv.ID == otherInv.ID {
		t.Errorf("the owner's list shows the other workspace's invitation %d", inv.ID)
	}

	if r := s.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", newID), first.Token, nil); r.Status != http.StatusOK {
		t.Errorf("accepting the replaced invitation: %d %s", r.Status, r.Body)
	}
}
