package account_test

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/postgres"
)

// TestKeysFollowTheirCreator: a key stops, on this node and (through OnKeyRevoked) on
// another that has it cached, as soon as its creator leaves, is removed or is demoted below
// admin; the others' keys go on working; promoting the creator again brings nothing back.
func TestKeysFollowTheirCreator(t *testing.T) {
	t.Parallel()
	node1, db := newService(t) // the node that mails, so that signup can verify addresses
	store := postgres.NewAccountStore(db)
	node2 := account.NewService(store, auth.NewHasher(2, time.Minute), slog.New(slog.DiscardHandler))
	t.Cleanup(node2.Close)
	var announced []int64
	for _, n := range []*account.Service{node1, node2} {
		n.OnKeyRevoked(func(_ context.Context, id int64) {
			announced = append(announced, id)
			node1.ForgetKey(id)
			node2.ForgetKey(id)
		})
	}
	ctx := context.Background()
	owner, ws := signup(t, node1, "owner@example.com")
	bob, _ := signup(t, node1, "bob@example.com")
	carol, _ := signup(t, node1, "carol@example.com")
	join(t, node1, ws, owner, bob, account.RoleAdmin)
	join(t, node1, ws, owner, carol, account.RoleAdmin)

	newKey := func(by *account.User, scopes ...string) (*account.APIKey, string) {
		t.Helper()
		k, secret, err := node1.CreateAPIKey(ctx, ws.ID, by.ID, by.Email, scopes)
		if err != nil {
			t.Fatal(err)
		}
		return k, secret
	}
	bobWrite, bobWriteSecret := newKey(bob, account.ScopeLinksWrite)
	bobRead, bobReadSecret := newKey(bob, account.ScopeLinksRead)
	carolKey, carolSecret := newKey(carol, account.ScopeStatsRead)
	_, ownerSecret := newKey(owner, account.ScopeLinksWrite)
	works := func(what, secret string, want bool) {
		t.Helper()
		for i, n := range []*account.Service{node1, node2} {
			_, err := n.AuthenticateAPIKey(ctx, secret)
			if want && err != nil {
				t.Errorf("%s on node %d: %v, want it to work", what, i+1, err)
			}
			if !want && !apperr.Is(err, apperr.Unauthorized) {
				t.Errorf("%s on node %d: %v, want unauthorized", what, i+1, err)
			}
		}
	}
	for _, s := range []string{bobWriteSecret, bobReadSecret, carolSecret, ownerSecret} {
		works("a new key", s, true) // and now cached on both nodes
	}

	// Bob becomes a viewer: neither of his keys may outlive that.
	if _, err := node1.SetMemberRole(ctx, ws.ID, account.RoleOwner, bob.ID, account.RoleViewer); err != nil {
		t.Fatal(err)
	}
	works("bob's links:write key after his demotion", bobWriteSecret, false)
	works("bob's links:read key after his demotion", bobReadSecret, false)
	works("carol's key", carolSecret, true)
	works("the owner's key", ownerSecret, true)
	slices.Sort(announced)
	if !slices.Equal(announced, []int64{bobWrite.ID, bobRead.ID}) {
		t.Errorf("announced %v, want bob's keys %d and %d", announced, bobWrite.ID, bobRead.ID)
	}
	// Admin again: the revoked keys stay revoked.
	if _, err := node1.SetMemberRole(ctx, ws.ID, account.RoleOwner, bob.ID, account.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	works("bob's key after his promotion", bobWriteSecret, false)

	// Carol leaves.
	if err := node2.RemoveMember(ctx, ws.ID, carol.ID, account.RoleAdmin, carol.ID); err != nil {
		t.Fatal(err)
	}
	works("carol's key after she left", carolSecret, false)
	works("the owner's key", ownerSecret, true)

	// The listing says who made each key and why it was revoked.
	all, err := node1.APIKeysWithRevoked(ctx, ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[int64]string{}
	for _, k := range all {
		if k.CreatedBy == nil {
			t.Errorf("key %d has no creator", k.ID)
		}
		if k.RevokedReason != nil {
			reasons[k.ID] = *k.RevokedReason
		}
	}
	want := map[int64]string{bobWrite.ID: account.RevokedCreatorDemoted, bobRead.ID: account.RevokedCreatorDemoted,
		carolKey.ID: account.RevokedCreatorRemoved}
	if len(all) != 4 || len(reasons) != len(want) {
		t.Errorf("keys %+v, reasons %v; want %v", all, reasons, want)
	}
	for id, r := range want {
		if reasons[id] != r {
			t.Errorf("key %d revoked for %q, want %q", id, reasons[id], r)
		}
	}
	if live, _ := node1.APIKeys(ctx, ws.ID); len(live) != 1 {
		t.Errorf("live keys = %+v, want the owner's", live)
	}
}

// TestKeyOfCreatorWithoutRights: a key whose creator no longer holds the rights to it is
// refused even where no revocation happened (a role changed behind the service's back, or a
// key made while its creator was being demoted).
func TestKeyOfCreatorWithoutRights(t *testing.T) {
	t.Parallel()
	svc, db := newService(t)
	store := postgres.NewAccountStore(db)
	ctx := context.Background()
	owner, ws := signup(t, svc, "owner@example.com")
	dave, _ := signup(t, svc, "dave@example.com")
	join(t, svc, ws, owner, dave, account.RoleAdmin)
	_, secret, err := svc.CreateAPIKey(ctx, ws.ID, dave.ID, "k", []string{account.ScopeLinksRead})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.SetRole(ctx, ws.ID, dave.ID, account.RoleMember); err != nil {
		t.Fatal(err)
	}
	fresh := account.NewService(store, auth.NewHasher(2, time.Minute), slog.New(slog.DiscardHandler))
	t.Cleanup(fresh.Close)
	if _, err := fresh.AuthenticateAPIKey(ctx, secret); !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("key of a creator now member: %v, want unauthorized", err)
	}
	// A key with no creator (their account is gone) works nowhere either.
	_, orphan, err := svc.CreateAPIKey(ctx, ws.ID, 0, "orphan", []string{account.ScopeLinksRead})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.AuthenticateAPIKey(ctx, orphan); !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("key without a creator: %v, want unauthorized", err)
	}
}

// TestRevokeKeysCreatedByEverywhere: with no workspace, every key the user made goes.
func TestRevokeKeysCreatedByEverywhere(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	u, ws1 := signup(t, svc, "u@example.com")
	ws2, err := svc.CreateWorkspace(ctx, u.ID, "second")
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for _, w := range []int64{ws1.ID, ws2.ID} {
		_, s, err := svc.CreateAPIKey(ctx, w, u.ID, "k", []string{account.ScopeLinksRead})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.AuthenticateAPIKey(ctx, s); err != nil {
			t.Fatal(err)
		}
		secrets = append(secrets, s)
	}
	n, err := svc.RevokeKeysCreatedBy(ctx, u.ID, 0, account.RevokedCreatorDeleted)
	if err != nil || n != 2 {
		t.Fatalf("RevokeKeysCreatedBy = %d, %v; want 2", n, err)
	}
	for _, s := range secrets {
		if _, err := svc.AuthenticateAPIKey(ctx, s); !apperr.Is(err, apperr.Unauthorized) {
			t.Errorf("revoked key: %v", err)
		}
	}
}
