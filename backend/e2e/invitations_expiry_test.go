package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// invitationExpiryJSON is an invitation's expiry as the lists and the preview answer it.
type invitationExpiryJSON struct {
	ID        int64     `json:"id"`
	ExpiresAt time.Time `json:"expires_at"`
	Expired   bool      `json:"expired"`
	InvitedBy string    `json:"invited_by"`
}

// errorReason returns an error answer's reason and message.
func (r response) errorReason(t *testing.T) (string, string) {
	t.Helper()
	var e struct {
		Error struct{ Reason, Message string } `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &e); err != nil {
		t.Fatalf("status %d body %q: %v", r.Status, r.Body, err)
	}
	return e.Error.Reason, e.Error.Message
}

// TestInvitationExpiry: an invitation is valid for 7 days from when it was sent, which the
// workspace's list, the invitee's list and the link's preview answer; the servers' clock moved
// past it, accepting it and signing up through its link answer 410 invitation_expired naming
// the inviter, and the lists say expired; resending renews it for 7 days and it is accepted.
func TestInvitationExpiry(t *testing.T) {
	d := newDeployment(t)
	clock := &movingClock{}
	d.now = clock.Now
	s := d.start(t)
	owner := s.signupOn("expiry-owner@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	invitee := s.signup("expiry-invitee@example.com")
	s.verify("expiry-invitee@example.com")
	sent := clock.Now()
	inv := answer[invitationExpiryJSON](t, s.do("POST", ws+"/invitations", owner.Token, map[string]any{"email": "expiry-invitee@example.com"}), http.StatusCreated, "invite")
	linkID, token := s.invitationLink(t, owner, "expiry-newcomer@example.com", "member")

	week := 7 * 24 * time.Hour
	near := func(got, want time.Time) bool { return got.Sub(want).Abs() < time.Minute }
	if !near(inv.ExpiresAt, sent.Add(week)) || inv.Expired {
		t.Fatalf("a new invitation expires at %s (expired %v), want about %s", inv.ExpiresAt, inv.Expired, sent.Add(week))
	}
	listed := func(path, token string) map[int64]invitationExpiryJSON {
		t.Helper()
		out := map[int64]invitationExpiryJSON{}
		for _, i := range answer[struct{ Invitations []invitationExpiryJSON }](t, s.do("GET", path, token, nil), http.StatusOK, "list "+path).Invitations {
			out[i.ID] = i
		}
		return out
	}
	if got := listed(ws+"/invitations", owner.Token)[inv.ID]; !near(got.ExpiresAt, sent.Add(week)) || got.Expired {
		t.Errorf("the workspace's list: %+v", got)
	}
	if got := listed("/api/v1/me/invitations", invitee.Token)[inv.ID]; got.Expired || got.InvitedBy != "expiry-owner@example.com" {
		t.Errorf("the invitee's list: %+v", got)
	}
	preview := func() invitationExpiryJSON {
		t.Helper()
		return answer[invitationExpiryJSON](t, s.do("GET", fmt.Sprintf("/api/v1/invitations/%d?token=%s", linkID, url.QueryEscape(token)), "", nil), http.StatusOK, "preview")
	}
	if p := preview(); p.Expired || !near(p.ExpiresAt, sent.Add(week)) {
		t.Errorf("the preview: %+v", p)
	}

	// A minute short of a week it still stands; past it, it is refused with a reason.
	clock.Add(week - time.Minute)
	if got := listed(ws+"/invitations", owner.Token)[inv.ID]; got.Expired {
		t.Errorf("expired a minute early: %+v", got)
	}
	clock.Add(2 * time.Minute)
	if got := listed(ws+"/invitations", owner.Token)[inv.ID]; !got.Expired {
		t.Errorf("the workspace's list past the week: %+v", got)
	}
	if got := listed("/api/v1/me/invitations", invitee.Token)[inv.ID]; !got.Expired {
		t.Errorf("the invitee's list past the week: %+v", got)
	}
	if p := preview(); !p.Expired || p.InvitedBy != "expiry-owner@example.com" {
		t.Errorf("the preview past the week: %+v", p)
	}
	refused := func(r response, what string) {
		t.Helper()
		reason, msg := r.errorReason(t)
		if r.Status != http.StatusGone || r.errorCode(t) != "gone" || reason != "invitation_expired" || !strings.Contains(msg, "expiry-owner@example.com") {
			t.Errorf("%s: %d %s, want 410 gone invitation_expired naming the inviter", what, r.Status, r.Body)
		}
	}
	refused(s.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID), invitee.Token, nil), "accepting")
	refused(s.do("POST", "/api/v1/auth/signup", "", map[string]any{"email": "expiry-newcomer@example.com", "password": "correct horse battery",
		"invitation": map[string]any{"id": linkID, "token": token}}), "signing up through the link")
	members := answer[struct{ Members []struct{ Email string } }](t, s.do("GET", ws+"/members", owner.Token, nil), http.StatusOK, "members")
	for _, m := range members.Members {
		if m.Email == "expiry-invitee@example.com" || m.Email == "expiry-newcomer@example.com" {
			t.Errorf("an expired invitation made %s a member", m.Email)
		}
	}

	// Resending renews it for a week from now, and it is accepted.
	renewed := answer[invitationExpiryJSON](t, s.do("POST", fmt.Sprintf("%s/invitations/%d/resend", ws, inv.ID), owner.Token, nil), http.StatusOK, "resend")
	if !near(renewed.ExpiresAt, clock.Now().Add(week)) || renewed.Expired {
		t.Errorf("resent: %+v, want expiry about %s", renewed, clock.Now().Add(week))
	}
	if got := listed(ws+"/invitations", owner.Token)[inv.ID]; got.Expired || !near(got.ExpiresAt, renewed.ExpiresAt) {
		t.Errorf("the list after the resend: %+v", got)
	}
	if r := s.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID), invitee.Token, nil); r.Status != http.StatusOK {
		t.Errorf("accepting the resent invitation: %d %s", r.Status, r.Body)
	}
}
