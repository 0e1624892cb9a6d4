package postgres_test

import (
	"context"
	"slices"
	"testing"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestRevokeKeysCreatedBy: the keys a user made are revoked per workspace or everywhere, with
// the reason; the keys of others stay live; APIKeyByHash tells the creator's current role.
func TestRevokeKeysCreatedBy(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	s := postgres.NewAccountStore(db)
	ctx := context.Background()
	a, wsA := newUser(t, s, "a@example.com")
	b, wsB := newUser(t, s, "b@example.com")
	key := func(ws *account.Workspace, by *account.User, hash string) *account.APIKey {
		t.Helper()
		k, err := s.CreateAPIKey(ctx, &account.APIKey{WorkspaceID: ws.ID, Name: hash, Prefix: "sl_x",
			Scopes: []string{"links:read"}, CreatedBy: &by.ID}, []byte(hash))
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	aInA, aInA2, bInB := key(wsA, a, "a-in-a"), key(wsA, a, "a-in-a-2"), key(wsB, b, "b-in-b")
	// A is also an admin of B, with a key there.
	if _, err := db.Pool.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role) VALUES ($1, $2, 'admin')`, wsB.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	aInB := key(wsB, a, "a-in-b")

	if k, err := s.APIKeyByHash(ctx, []byte("a-in-b")); err != nil || k.CreatorRole != account.RoleAdmin {
		t.Errorf("APIKeyByHash(a-in-b) = %+v, %v; want creator role admin", k, err)
	}
	ids, err := s.RevokeKeysCreatedBy(ctx, a.ID, wsB.ID, account.RevokedCreatorDemoted)
	if err != nil || !slices.Equal(ids, []int64{aInB.ID}) {
		t.Fatalf("RevokeKeysCreatedBy(a, B) = %v, %v; want [%d]", ids, err, aInB.ID)
	}
	k, _ := s.APIKeyByHash(ctx, []byte("a-in-b"))
	if k.RevokedAt == nil || k.RevokedReason == nil || *k.RevokedReason != account.RevokedCreatorDemoted {
		t.Errorf("revoked key = %+v", k)
	}
	// Revoked keys are listed only when asked for.
	if live, _ := s.APIKeys(ctx, wsB.ID, false); len(live) != 1 || live[0].ID != bInB.ID {
		t.Errorf("live keys of B = %+v", live)
	}
	if all, _ := s.APIKeys(ctx, wsB.ID, true); len(all) != 2 {
		t.Errorf("all keys of B = %+v", all)
	}

	// Everywhere: the rest of A's keys, once; B's key stays.
	ids, err = s.RevokeKeysCreatedBy(ctx, a.ID, 0, account.RevokedCreatorRemoved)
	slices.Sort(ids)
	if err != nil || !slices.Equal(ids, []int64{aInA.ID, aInA2.ID}) {
		t.Errorf("RevokeKeysCreatedBy(a, everywhere) = %v, %v", ids, err)
	}
	if k, _ := s.APIKeyByHash(ctx, []byte("a-in-b")); *k.RevokedReason != account.RevokedCreatorDemoted {
		t.Errorf("a revoked key was revoked again: %+v", k)
	}
	if k, _ := s.APIKeyByHash(ctx, []byte("b-in-b")); k.RevokedAt != nil || k.CreatorRole != account.RoleOwner {
		t.Errorf("another user's key = %+v", k)
	}
	if err := s.RevokeAPIKey(ctx, wsB.ID, bInB.ID); err != nil {
		t.Fatal(err)
	}
	if k, _ := s.APIKeyByHash(ctx, []byte("b-in-b")); k.RevokedReason == nil || *k.RevokedReason != account.RevokedByManager {
		t.Errorf("key revoked by a manager = %+v", k)
	}
}

// TestDeletedUsersKeys: deleting a user, by whatever code, revokes the keys they made before
// created_by becomes NULL.
func TestDeletedUsersKeys(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	s := postgres.NewAccountStore(db)
	ctx := context.Background()
	owner, ws := newUser(t, s, "owner@example.com")
	gone, _ := newUser(t, s, "gone@example.com")
	if _, err := db.Pool.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role) VALUES ($1, $2, 'admin')`, ws.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	for _, by := range []*account.User{owner, gone} {
		if _, err := s.CreateAPIKey(ctx, &account.APIKey{WorkspaceID: ws.ID, Name: by.Email, Prefix: "sl_x",
			Scopes: []string{"links:read"}, CreatedBy: &by.ID}, []byte(by.Email)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM users WHERE id = $1`, gone.ID); err != nil {
		t.Fatal(err)
	}
	k, err := s.APIKeyByHash(ctx, []byte(gone.Email))
	if err != nil || k.CreatedBy != nil || k.RevokedAt == nil || k.RevokedReason == nil ||
		*k.RevokedReason != account.RevokedCreatorDeleted || k.CreatorRole != "" {
		t.Errorf("deleted user's key = %+v, %v; want revoked for creator_deleted", k, err)
	}
	if k, _ := s.APIKeyByHash(ctx, []byte(owner.Email)); k.RevokedAt != nil {
		t.Errorf("the owner's key was revoked: %+v", k)
	}
}
