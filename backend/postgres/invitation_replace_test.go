package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// ReplaceExpiredInvitation renews the workspace's invitation to an address only once it has
// expired by the time given: a valid one, or another workspace's, is not found and unchanged.
func TestReplaceExpiredInvitation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := postgres.NewAccountStore(testenv.DB(t))
	owner, w := newUser(t, s, "replace-owner@example.com")
	other, wo := newUser(t, s, "replace-other@example.com")
	now := time.Now().UTC().Truncate(time.Second)
	expired, err := s.CreateInvitation(ctx, w.ID, "carol@example.com", "member", owner.ID, []byte("hash-1"), now.Add(-time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	valid, err := s.CreateInvitation(ctx, w.ID, "dave@example.com", "member", owner.ID, []byte("hash-2"), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := s.CreateInvitation(ctx, wo.ID, "carol@example.com", "viewer", other.ID, []byte("hash-3"), now.Add(-time.Minute))
	if err != nil {
		t.Fatal(err)
	}

	until := now.Add(account.InvitationValidity)
	got, err := s.ReplaceExpiredInvitation(ctx, w.ID, "CAROL@example.com", "admin", owner.ID, []byte("hash-4"), now, until)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != expired.ID || got.Role != "admin" || !got.ExpiresAt.Equal(until) || !got.CreatedAt.Equal(now) || got.WorkspaceID != w.ID {
		t.Errorf("replaced: %+v, want invitation %d as admin until %s", got, expired.ID, until)
	}
	if _, err := s.InvitationPreview(ctx, expired.ID, []byte("hash-1")); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("the old link's secret: %v, want not found", err)
	}
	if _, err := s.ReplaceExpiredInvitation(ctx, w.ID, "dave@example.com", "admin", owner.ID, []byte("hash-5"), now, until); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("replacing a valid invitation: %v, want not found", err)
	}
	if _, err := s.ReplaceExpiredInvitation(ctx, w.ID, "erin@example.com", "admin", owner.ID, []byte("hash-6"), now, until); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("replacing an address never invited: %v, want not found", err)
	}
	invs, err := s.Invitations(ctx, wo.ID)
	if err != nil || len(invs) != 1 || invs[0].ID != theirs.ID || invs[0].Role != "viewer" || !invs[0].ExpiresAt.Equal(theirs.ExpiresAt) {
		t.Errorf("the other workspace's invitation: %+v %v", invs, err)
	}
	mine, err := s.Invitations(ctx, w.ID)
	if err != nil || len(mine) != 2 {
		t.Fatalf("the workspace's invitations: %+v %v", mine, err)
	}
	for _, inv := range mine {
		if inv.ID == valid.ID && (inv.Role != "member" || !inv.ExpiresAt.Equal(valid.ExpiresAt)) {
			t.Errorf("the valid invitation changed: %+v", inv)
		}
	}
}
