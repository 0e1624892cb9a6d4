package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestInvitationsTellNothing: inviting an address with an account and one without answer
// alike, the first time and the second; the address sees its invitation once it signs up.
// Invitations are limited per workspace, across processes, with 429 and Retry-After.
func TestInvitationsTellNothing(t *testing.T) {
	d := limiterDeployment(t)
	a := d.start(t, "INVITES_PER_HOUR", "5")
	b := d.start(t, "INVITES_PER_HOUR", "5")
	owner := a.signup("owner@example.com")
	known := a.signup("known@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	invite := func(s *server, email string) response {
		return s.do("POST", ws+"/invitations", owner.Token, map[string]any{"email": email, "role": "member"})
	}
	fields := func(r response) []string {
		var m map[string]any
		r.json(t, &m)
		return slices.Sorted(maps.Keys(m))
	}

	k, u := invite(a, "known@example.com"), invite(a, "Unknown@Example.com")
	if k.Status != http.StatusCreated || u.Status != http.StatusCreated {
		t.Fatalf("invite: known %d %s, unknown %d %s", k.Status, k.Body, u.Status, u.Body)
	}
	if fk, fu := fields(k), fields(u); !slices.Equal(fk, fu) || slices.Contains(fk, "user_id") {
		t.Errorf("answers differ or name a user: %v and %v", fk, fu)
	}
	var inv struct {
		ID    int64
		Email string
	}
	u.json(t, &inv)
	if inv.Email != "unknown@example.com" {
		t.Errorf("invited email = %q, want it normalised", inv.Email)
	}
	// The invited address is told where to accept, with the secret that shows the invitation
	// before signing in (TestInvitationLinkSignup).
	mail := a.mailbox.WaitSubject(t, "unknown@example.com", "You are invited")
	if want := fmt.Sprintf("http://%s/app/invitations/%d?token=", shortHost, inv.ID); !strings.Contains(mail.Body, want) {
		t.Errorf("invitation mail %q:\n%s\nwant a link to %s…", mail.Subject, mail.Body, want)
	}
	k2, u2 := invite(b, "KNOWN@example.com"), invite(b, "unknown@example.com")
	if k2.Status != u2.Status || k2.Status != http.StatusConflict ||
		strings.ReplaceAll(string(k2.Body), "known@", "unknown@") != string(u2.Body) {
		t.Errorf("inviting again: known %d %s, unknown %d %s", k2.Status, k2.Body, u2.Status, u2.Body)
	}

	// The address signs up and finds its invitation.
	unknown := b.signup("UNKNOWN@example.com")
	b.verify("unknown@example.com")
	var mine struct {
		Invitations []struct{ ID int64 } `json:"invitations"`
	}
	a.do("GET", "/api/v1/me/invitations", unknown.Token, nil).json(t, &mine)
	if len(mine.Invitations) != 1 || mine.Invitations[0].ID != inv.ID {
		t.Fatalf("the new account's invitations: %+v", mine)
	}
	if r := a.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID), known.Token, nil); r.Status != http.StatusNotFound {
		t.Errorf("someone else accepts: %d %s", r.Status, r.Body)
	}
	if r := a.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID), unknown.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	if r := b.do("GET", ws, unknown.Token, nil); r.Status != http.StatusOK {
		t.Errorf("the new member sees the workspace: %d", r.Status)
	}

	// Four invitations so far, on two processes; the fifth passes, the sixth is refused.
	if r := invite(a, "fifth@example.com"); r.Status != http.StatusCreated {
		t.Fatalf("5th invitation: %d %s", r.Status, r.Body)
	}
	r := invite(b, "sixth@example.com")
	if r.Status != http.StatusTooManyRequests || r.errorCode(t) != "rate_limited" {
		t.Fatalf("6th invitation: %d %s, want 429 rate_limited", r.Status, r.Body)
	}
	if s, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || s < 1 || s > 3600 {
		t.Errorf("Retry-After = %q", r.Header.Get("Retry-After"))
	}
	// Another workspace has its own budget.
	r = a.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", known.WorkspaceID), known.Token, map[string]any{"email": "sixth@example.com"})
	if r.Status != http.StatusCreated {
		t.Errorf("another workspace's invitation: %d %s", r.Status, r.Body)
	}
	var list struct {
		Invitations []json.RawMessage `json:"invitations"`
	}
	a.do("GET", ws+"/invitations", owner.Token, nil).json(t, &list)
	if len(list.Invitations) != 2 { // known and fifth; unknown accepted
		t.Errorf("pending invitations: %s", list.Invitations)
	}
}

// TestUnverifiedSeesNoInvitations: an account that registered someone else's address and never
// verified it neither sees the invitations sent to that address nor answers them; once the
// address is verified, it does.
func TestUnverifiedSeesNoInvitations(t *testing.T) {
	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner-inv@example.com")
	r := a.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", owner.WorkspaceID), owner.Token,
		map[string]any{"email": "ceo@victim.example", "role": "admin"})
	if r.Status != http.StatusCreated {
		t.Fatalf("invite: %d %s", r.Status, r.Body)
	}
	var inv struct{ ID int64 }
	r.json(t, &inv)
	squatter := a.signup("ceo@victim.example")
	var mine struct {
		Invitations []struct{ ID int64 } `json:"invitations"`
	}
	a.do("GET", "/api/v1/me/invitations", squatter.Token, nil).json(t, &mine)
	if len(mine.Invitations) != 0 {
		t.Errorf("an unverified account sees %+v", mine.Invitations)
	}
	if r := a.do("DELETE", fmt.Sprintf("/api/v1/me/invitations/%d", inv.ID), squatter.Token, nil); r.Status != http.StatusForbidden || r.errorCode(t) != "email_unverified" {
		t.Errorf("an unverified account declines: %d %s", r.Status, r.Body)
	}
	if r := a.do("DELETE", fmt.Sprintf("/api/v1/me/invitations/%d", inv.ID+1000), squatter.Token, nil); r.Status != http.StatusNotFound {
		t.Errorf("another's invitation, unverified: %d %s", r.Status, r.Body)
	}
	a.verify("ceo@victim.example")
	a.do("GET", "/api/v1/me/invitations", squatter.Token, nil).json(t, &mine)
	if len(mine.Invitations) != 1 || mine.Invitations[0].ID != inv.ID {
		t.Errorf("verified, the account sees %+v", mine.Invitations)
	}
}
