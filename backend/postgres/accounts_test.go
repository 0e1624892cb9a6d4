package postgres_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitor"
)

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if !apperr.Is(err, code) {
		t.Errorf("%s: err = %v, want code %s", what, err, code)
	}
}

func newUser(t *testing.T, s *postgres.AccountStore, email string) (*account.User, *account.Workspace) {
	t.Helper()
	u, w, err := s.CreateUser(context.Background(), email, "hash", email+"'s workspace")
	if err != nil {
		t.Fatalf("CreateUser(%s): %v", email, err)
	}
	return u, w
}

func TestAccountStoreErrors(t *testing.T) {
	t.Parallel()
	s := postgres.NewAccountStore(testenv.DB(t))
	ctx := context.Background()
	u, w := newUser(t, s, "alice@example.com")
	if w.Role != account.RoleOwner || w.Plan != account.PlanFree {
		t.Errorf("new workspace = %+v", w)
	}

	_, _, err := s.CreateUser(ctx, "ALICE@example.com", "hash", "x")
	wantCode(t, "email taken, other case", err, apperr.Conflict)
	if got, hash, err := s.UserByEmail(ctx, "Alice@Example.com"); err != nil || got.ID != u.ID || hash != "hash" {
		t.Errorf("UserByEmail = %+v, %q, %v", got, hash, err)
	}

	const missing = 1 << 40
	errs := map[string]error{
		"UserByEmail": func() error { _, _, err := s.UserByEmail(ctx, "nobody@example.com"); return err }(),
		"User":        func() error { _, err := s.User(ctx, missing); return err }(),
		"Workspace":   func() error { _, err := s.Workspace(ctx, missing); return err }(),
		"Rename":      func() error { _, err := s.RenameWorkspace(ctx, missing, "x"); return err }(),
		"Delete":      s.MarkWorkspaceDeleted(ctx, missing),
		"Role":        func() error { _, err := s.Role(ctx, w.ID, missing); return err }(),
		"Access":      func() error { _, err := s.Access(ctx, w.ID, missing); return err }(),
		"Require2FA":  func() error { _, _, err := s.SetRequire2FA(ctx, missing, true); return err }(),
		"SetRole":     func() error { _, err := s.SetRole(ctx, w.ID, missing, "viewer"); return err }(),
		"Remove":      s.RemoveMember(ctx, w.ID, missing),
		"Accept":      func() error { _, err := s.AcceptInvitation(ctx, u.ID, missing); return err }(),
		"Decline":     s.DeclineInvitation(ctx, u.ID, missing),
		"DelInvite":   s.DeleteInvitation(ctx, w.ID, missing),
		"Revoke":      s.RevokeAPIKey(ctx, w.ID, missing),
		"KeyByHash":   func() error { _, err := s.APIKeyByHash(ctx, []byte("nope")); return err }(),
		"SetPlan":     func() error { _, err := s.SetPlan(ctx, missing, "trial"); return err }(),
		"SetSysRole":  func() error { _, _, err := s.SetSystemRole(ctx, missing, "user"); return err }(),
	}
	for name, err := range errs {
		wantCode(t, name, err, apperr.NotFound)
	}

	// The 2FA requirement: set once (changed), again (unchanged), and what a member lacks.
	if a, err := s.Access(ctx, w.ID, u.ID); err != nil || a.Role != account.RoleOwner || a.MissingTwoFactor {
		t.Errorf("Access before = %+v, %v", a, err)
	}
	for i, wantChanged := range []bool{true, false} {
		if got, changed, err := s.SetRequire2FA(ctx, w.ID, true); err != nil || !got.Require2FA || changed != wantChanged {
			t.Errorf("SetRequire2FA #%d = %+v, %v, %v", i, got, changed, err)
		}
	}
	if a, err := s.Access(ctx, w.ID, u.ID); err != nil || !a.MissingTwoFactor {
		t.Errorf("Access required = %+v, %v", a, err)
	}
	if _, changed, err := s.SetRequire2FA(ctx, w.ID, false); err != nil || !changed {
		t.Errorf("SetRequire2FA off: %v, %v", changed, err)
	}

	bob, _ := newUser(t, s, "bob@example.com")
	if _, err := s.CreateInvitation(ctx, w.ID, bob.Email, "member", u.ID, nil, time.Now().Add(account.InvitationValidity)); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateInvitation(ctx, w.ID, "BOB@example.com", "viewer", u.ID, nil, time.Now().Add(account.InvitationValidity))
	wantCode(t, "invite twice, other case", err, apperr.Conflict)

	// Empty listings are empty slices (JSON []), not nil.
	if ms, err := s.Invitations(ctx, missing); err != nil || ms == nil || len(ms) != 0 {
		t.Errorf("Invitations(missing) = %#v, %v", ms, err)
	}
}

// TestAccountStoreScoping: every tenant method given workspace A and an ID from B finds
// nothing and changes nothing.
func TestAccountStoreScoping(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	s := postgres.NewAccountStore(db)
	ctx := context.Background()
	a, wsA := newUser(t, s, "a@example.com")
	b, wsB := newUser(t, s, "b@example.com")
	c, _ := newUser(t, s, "c@example.com")
	invB, err := s.CreateInvitation(ctx, wsB.ID, c.Email, "viewer", b.ID, nil, time.Now().Add(account.InvitationValidity))
	if err != nil {
		t.Fatal(err)
	}
	keyB, err := s.CreateAPIKey(ctx, &account.APIKey{WorkspaceID: wsB.ID, Name: "b", Prefix: "sl_b", Scopes: []string{"links:read"}, CreatedBy: &b.ID}, []byte("hash-b"))
	if err != nil {
		t.Fatal(err)
	}

	_, err = s.SetRole(ctx, wsA.ID, b.ID, "viewer")
	wantCode(t, "SetRole of B's owner through A", err, apperr.NotFound)
	wantCode(t, "RemoveMember of B's owner through A", s.RemoveMember(ctx, wsA.ID, b.ID), apperr.NotFound)
	wantCode(t, "DeleteInvitation of B's through A", s.DeleteInvitation(ctx, wsA.ID, invB.ID), apperr.NotFound)
	wantCode(t, "RevokeAPIKey of B's through A", s.RevokeAPIKey(ctx, wsA.ID, keyB.ID), apperr.NotFound)
	wantCode(t, "DeclineInvitation of C's by A", s.DeclineInvitation(ctx, a.ID, invB.ID), apperr.NotFound)
	if ids, err := s.RevokeKeysCreatedBy(ctx, b.ID, wsA.ID, account.RevokedCreatorRemoved); err != nil || len(ids) != 0 {
		t.Errorf("RevokeKeysCreatedBy of B's owner in A = %v, %v; want nothing revoked", ids, err)
	}
	if err := s.TouchAPIKey(ctx, wsA.ID, keyB.ID, time.Now()); err != nil {
		t.Fatal(err)
	}

	k, err := s.APIKeyByHash(ctx, []byte("hash-b"))
	if err != nil || k.ID != keyB.ID || k.RevokedAt != nil || k.LastUsedAt != nil {
		t.Errorf("B's key changed through A: %+v, %v", k, err)
	}
	if role, err := s.Role(ctx, wsB.ID, b.ID); err != nil || role != "owner" {
		t.Errorf("B's owner changed through A: %q, %v", role, err)
	}
	if invs, _ := s.Invitations(ctx, wsB.ID); len(invs) != 1 {
		t.Errorf("B's invitation removed through A: %+v", invs)
	}
	for name, n := range map[string]int{
		"members":     len(must(s.Members(ctx, wsA.ID))),
		"invitations": len(must(s.Invitations(ctx, wsA.ID))),
		"api keys":    len(must(s.APIKeys(ctx, wsA.ID, true))),
	} {
		want := map[string]int{"members": 1}[name]
		if n != want {
			t.Errorf("A lists %d %s, want %d", n, name, want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestTouchAPIKey(t *testing.T) {
	t.Parallel()
	s := postgres.NewAccountStore(testenv.DB(t))
	ctx := context.Background()
	_, ws := newUser(t, s, "a@example.com")
	k, err := s.CreateAPIKey(ctx, &account.APIKey{WorkspaceID: ws.ID, Name: "k", Prefix: "sl_k", Scopes: []string{"stats:read"}}, []byte("h"))
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	t0 := t1.Add(-time.Hour)
	for _, at := range []time.Time{t1, t0} { // a node with a slow clock writes second
		if err := s.TouchAPIKey(ctx, ws.ID, k.ID, at); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := s.APIKeyByHash(ctx, []byte("h"))
	if got.LastUsedAt == nil || !got.LastUsedAt.Equal(t1) {
		t.Errorf("last_used_at = %v, want %v (it only moves forward)", got.LastUsedAt, t1)
	}
}

// TestLastOwnerRace: two owners remove each other at the same moment. Without the lock both
// deletes would see one other owner and succeed, leaving no owner.
func TestLastOwnerRace(t *testing.T) {
	t.Parallel()
	s := postgres.NewAccountStore(testenv.DB(t))
	ctx := context.Background()
	for i := range 10 {
		a, ws := newUser(t, s, fmt.Sprintf("a%d@example.com", i))
		b, _ := newUser(t, s, fmt.Sprintf("b%d@example.com", i))
		inv, err := s.CreateInvitation(ctx, ws.ID, b.Email, "admin", a.ID, nil, time.Now().Add(account.InvitationValidity))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcceptInvitation(ctx, b.ID, inv.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetRole(ctx, ws.ID, b.ID, "owner"); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		wg.Go(func() { errs[0] = s.RemoveMember(ctx, ws.ID, a.ID) })
		wg.Go(func() { _, errs[1] = s.SetRole(ctx, ws.ID, b.ID, "member") })
		wg.Wait()
		failed := 0
		for _, err := range errs {
			if err != nil {
				wantCode(t, "losing change", err, apperr.Conflict)
				failed++
			}
		}
		ms, _ := s.Members(ctx, ws.ID)
		owners := 0
		for _, m := range ms {
			if m.Role == "owner" {
				owners++
			}
		}
		if failed != 1 || owners != 1 {
			t.Fatalf("round %d: %d changes failed and %d owners remain, want 1 and 1", i, failed, owners)
		}
	}
}

func TestRefreshTokenStore(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	s := postgres.NewRefreshTokenStore(db)
	u, _ := newUser(t, postgres.NewAccountStore(db), "a@example.com")
	ctx := context.Background()
	hash := func(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }
	fam, other := uuid.New(), uuid.New()
	for tok, f := range map[string]uuid.UUID{"live": fam, "second": fam, "elsewhere": other} {
		if err := s.CreateRefresh(ctx, u.ID, f, hash(tok), time.Now().Add(time.Hour), auth.ViaPassword); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateRefresh(ctx, u.ID, fam, hash("old"), time.Now().Add(-time.Second), auth.ViaPassword); err != nil {
		t.Fatal(err)
	}

	expires := time.Now().Add(time.Hour)
	use, err := s.RotateRefresh(ctx, hash("live"), hash("live+1"), expires)
	if err != nil || use.UserID != u.ID || use.Family != fam || use.Reused {
		t.Fatalf("RotateRefresh(live) = %+v, %v", use, err)
	}
	// The successor is stored with the use, in the same family.
	if use, err := s.RotateRefresh(ctx, hash("live+1"), hash("live+2"), expires); err != nil || use.Family != fam || use.Reused {
		t.Fatalf("RotateRefresh(successor) = %+v, %v", use, err)
	}
	use, err = s.RotateRefresh(ctx, hash("live"), hash("live+1"), expires)
	if err != nil || !use.Reused || use.Revoked || use.Family != fam || !bytes.Equal(use.Successor, hash("live+1")) ||
		use.UsedAgo < 0 || use.UsedAgo > time.Minute {
		t.Errorf("RotateRefresh(live) again = %+v, %v; want Reused with its successor, moments ago", use, err)
	}
	_, err = s.RotateRefresh(ctx, hash("old"), hash("old+1"), expires)
	wantCode(t, "expired", err, apperr.NotFound)
	_, err = s.RotateRefresh(ctx, hash("unknown"), hash("unknown+1"), expires)
	wantCode(t, "unknown", err, apperr.NotFound)

	if err := s.RevokeFamily(ctx, fam); err != nil {
		t.Fatal(err)
	}
	if use, err := s.RotateRefresh(ctx, hash("second"), hash("second+1"), expires); err != nil || !use.Reused || !use.Revoked {
		t.Errorf("RotateRefresh(revoked) = %+v, %v; want Reused and Revoked", use, err)
	}
	if use, err := s.RotateRefresh(ctx, hash("live"), hash("live+1"), expires); err != nil || !use.Revoked {
		t.Errorf("RotateRefresh(used, family revoked) = %+v, %v; want Revoked", use, err)
	}
	if use, err := s.RotateRefresh(ctx, hash("elsewhere"), hash("elsewhere+1"), expires); err != nil || use.Reused {
		t.Errorf("another family was revoked: %+v, %v", use, err)
	}

	// Only families whose every token expired are purged, whole.
	dead := uuid.New()
	for i, ago := range []time.Duration{48 * time.Hour, time.Hour} {
		if err := s.CreateRefresh(ctx, u.ID, dead, hash(fmt.Sprint("dead", i)), time.Now().Add(-ago), auth.ViaPassword); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.PurgeExpired(ctx); err != nil || n != 2 {
		t.Fatalf("PurgeExpired = %d, %v; want the 2 tokens of the dead family", n, err)
	}
	if use, err := s.RotateRefresh(ctx, hash("second"), hash("second+1"), expires); err != nil || !use.Reused {
		t.Errorf("a live family lost its expired token's record: %+v, %v", use, err)
	}
}

// TestPurgeOneBatchAtATime: while one node removes a batch of a deleted workspace, another
// node's batch of it answers ErrPurgeBusy rather than a short batch, and the workspace row is
// not deleted while links remain (its cascade would remove them all in one statement).
func TestPurgeOneBatchAtATime(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	ws := newWorkspace(t, db)
	if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, url, url_hash)
		SELECT i, $1, 'k'||i, 'https://e.com/', i FROM generate_series(1, 3000) i`, ws); err != nil {
		t.Fatal(err)
	}
	store := postgres.NewAccountStore(db)
	if err := store.MarkWorkspaceDeleted(ctx, ws); err != nil {
		t.Fatal(err)
	}
	nodeA, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = nodeA.Rollback(ctx) }()
	if _, err := nodeA.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashint8($2))`, 0x5107, ws); err != nil {
		t.Fatal(err)
	}
	if _, err := store.DeleteWorkspaceLinks(ctx, ws, 1000); !errors.Is(err, account.ErrPurgeBusy) {
		t.Fatalf("a second batch while one runs: %v, want ErrPurgeBusy", err)
	}
	if done, err := store.FinishWorkspaceDeletion(ctx, ws); err != nil || done {
		t.Fatalf("finish with links left: %v, %v", done, err)
	}
	if err := nodeA.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		refs, err := store.DeleteWorkspaceLinks(ctx, ws, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(refs) > 1000 {
			t.Fatalf("a batch of %d", len(refs))
		}
		if len(refs) < 1000 {
			break
		}
	}
	// Visits of the workspace's links, and one of another workspace's, yesterday (a day whose
	// breakdowns are summed: they are in both the hourly and the daily rows).
	yesterday := time.Now().AddDate(0, 0, -1)
	var evs []visit.Event
	for i := range 20 {
		v := &visitor.Visitor{IP: netip.AddrFrom4([4]byte{10, 0, 0, byte(i)}), Country: "DE"}
		evs = append(evs, visit.NewEvent(yesterday, visit.Target{LinkID: int64(1 + i%3), WorkspaceID: ws}, -1, v, "", "ua", visit.NewHasher(nil)))
	}
	other := visit.NewEvent(yesterday, visit.Target{LinkID: 99999, WorkspaceID: ws + 1}, -1, &visitor.Visitor{Country: "FR"}, "", "ua", visit.NewHasher(nil))
	// Yesterday's month summed too: the visits are added to the monthly rows as well.
	if _, err := db.Pool.Exec(ctx, `UPDATE visit_rollups SET key_days_before = key_days_before + 62,
		key_months_before = date_trunc('month', key_days_before + 62)::date`); err != nil {
		t.Fatal(err)
	}
	// Counted in sketches at once: the link days have both a set and a sketch.
	if _, err := postgres.NewVisits(db).CountExactly(0).Insert(ctx, []visit.Batch{append(evs, other)}); err != nil {
		t.Fatal(err)
	}
	if done, err := store.FinishWorkspaceDeletion(ctx, ws); err != nil || !done {
		t.Fatalf("finish with no link left: %v, %v", done, err)
	}
	for _, table := range []string{"visits", "visit_hours", "visit_totals", "visit_key_hours", "visit_key_days", "visit_key_months", "visitor_sets", "visitor_sketches", "moderation_due"} {
		var mine, others int
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE link_id < 99999), count(*) FILTER (WHERE link_id = 99999) FROM `+table).Scan(&mine, &others); err != nil {
			t.Fatal(err)
		}
		if mine != 0 || others == 0 {
			t.Errorf("%s: %d rows of the removed workspace left, %d of the other", table, mine, others)
		}
	}
}

// TestAliasReservationGoesWithItsLink: deleting a code-shaped alias's link (or its workspace's
// links) deletes its reservation, so that no node keeps it in memory.
func TestAliasReservationGoesWithItsLink(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	ws := newWorkspace(t, db)
	links := postgres.NewLinkStore(db)
	for i, key := range []string{"Qq1Ww2", "Ee3Rr4"} {
		if err := links.ReserveID(ctx, ws, 0, key, int64(1_000_000+i), 10); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, is_alias, url, url_hash) VALUES ($1, $2, $3, true, 'https://e.com/', 1)`, i+1, ws, key); err != nil {
			t.Fatal(err)
		}
	}
	count := func() (n int) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM reserved_ids WHERE id >= 1000000`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := links.Delete(ctx, ws, 1); err != nil || count() != 1 {
		t.Fatalf("after deleting one alias: %v, %d reservations", err, count())
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM workspaces WHERE id = $1`, ws); err != nil || count() != 0 {
		t.Fatalf("after the workspace's cascade: %v, %d reservations", err, count())
	}
}
