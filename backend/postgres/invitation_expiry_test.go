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

// Migration 00056 gives the invitations waiting 7 days from when they were sent, and goes
// down and up again.
func TestInvitationExpiryMigration(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	if _, err := provider.DownTo(ctx, 55); err != nil {
		t.Fatal(err)
	}
	s := postgres.NewAccountStore(db)
	u, w := newUser(t, s, "sender@example.com")
	sent := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO invitations (workspace_id, email, role, invited_by, created_at)
		VALUES ($1, 'waiting@example.com', 'member', $2, $3)`, w.ID, u.ID, sent); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
	invs, err := s.Invitations(ctx, w.ID)
	if err != nil || len(invs) != 1 {
		t.Fatalf("invitations: %v %v", invs, err)
	}
	if want := sent.Add(7 * 24 * time.Hour); !invs[0].ExpiresAt.Equal(want) || invs[0].InvitedBy != "sender@example.com" {
		t.Errorf("a waiting invitation expires at %s (by %q), want %s", invs[0].ExpiresAt, invs[0].InvitedBy, want)
	}
	if _, err := provider.DownTo(ctx, 55); err != nil {
		t.Fatal(err)
	}
	var kept bool
	if err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
		WHERE table_name = 'invitations' AND column_name = 'expires_at')`).Scan(&kept); err != nil || kept {
		t.Fatalf("down kept expires_at (%v)", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
}

// The store refuses an invitation past its expiry by the database's clock, whatever the
// service decided: the accept and the sign-up through its link find nothing.
func TestExpiredInvitationIsNotAccepted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := postgres.NewAccountStore(testenv.DB(t))
	owner, w := newUser(t, s, "owner@example.com")
	bob, _ := newUser(t, s, "bob@example.com")
	past := time.Now().Add(-time.Minute)
	inv, err := s.CreateInvitation(ctx, w.ID, bob.Email, "member", owner.ID, []byte("hash-1"), past)
	if err != nil {
		t.Fatal(err)
	}
	if !inv.ExpiresAt.Equal(past.UTC().Truncate(time.Microsecond)) {
		t.Errorf("expires at %s, want %s", inv.ExpiresAt, past)
	}
	if _, err := s.AcceptInvitation(ctx, bob.ID, inv.ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("accepting an expired invitation: %v, want not_found", err)
	}
	late, err := s.CreateInvitation(ctx, w.ID, "carol@example.com", "member", owner.ID, []byte("hash-2"), past)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.CreateInvitedUser(ctx, "carol@example.com", "hash", late.ID, []byte("hash-2")); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("signing up through an expired invitation: %v, want not_found", err)
	}
	// Renewed, it is accepted.
	if _, err := s.RenewInvitation(ctx, w.ID, inv.ID, []byte("hash-3"), time.Now().Add(account.InvitationValidity)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvitation(ctx, bob.ID, inv.ID); err != nil {
		t.Errorf("accepting the renewed invitation: %v", err)
	}
}
