package housekeeping_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/housekeeping"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/webhook"
)

type fixture struct {
	db       *postgres.DB
	accounts *account.Service
	store    *postgres.AccountStore
	now      time.Time
	chores   *housekeeping.Chores
}

func newFixture(t *testing.T, domains, sso housekeeping.Checker) *fixture {
	t.Helper()
	db := testenv.DB(t)
	log := slog.New(slog.DiscardHandler)
	f := &fixture{db: db, store: postgres.NewAccountStore(db), now: time.Now()}
	f.accounts = account.NewService(f.store, auth.NewHasher(1, time.Second), log)
	t.Cleanup(f.accounts.Close)
	f.chores = housekeeping.New(housekeeping.Options{
		Workspaces: f.accounts,
		Sessions:   postgres.NewRefreshTokenStore(db),
		Changes:    postgres.NewLinkChanges(db),
		Audit:      audit.NewLog(postgres.NewAuditStore(db), []byte("secret"), 24*time.Hour, log),
		Deliveries: webhook.NewService(postgres.NewWebhookStore(db), nil, false, log),
		Domains:    domains, SSO: sso, CheckEvery: time.Hour,
		Now: func() time.Time { return f.now },
		Log: log,
	})
	return f
}

func (f *fixture) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := f.db.Pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if _, err := f.db.Pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatal(err)
	}
}

// The hour's chores delete expired sessions, the change feed's entries past ChangeRetention and
// audit events past their retention, and nothing younger.
func TestHour(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	ctx := context.Background()
	u, w, err := f.store.CreateUser(ctx, "owner@example.com", "hash", "w")
	if err != nil {
		t.Fatal(err)
	}
	tokens := postgres.NewRefreshTokenStore(f.db)
	expired, live := uuid.New(), uuid.New()
	for i, s := range []struct {
		family  uuid.UUID
		expires time.Time
	}{{expired, time.Now().Add(-time.Hour)}, {live, time.Now().Add(time.Hour)}} {
		if err := tokens.CreateRefresh(ctx, u.ID, s.family, []byte{byte(i)}, s.expires, auth.ViaPassword); err != nil {
			t.Fatal(err)
		}
	}
	f.exec(t, `INSERT INTO links (id, workspace_id, key, url, url_hash) VALUES (1, $1, 'a', 'https://e.com/a', 1)`, w.ID)
	f.exec(t, `UPDATE links SET url = 'https://e.com/a2', updated_at = now() WHERE id = 1`)
	f.exec(t, `INSERT INTO audit_events (workspace_id, at, actor_type, action) VALUES ($1, now() - interval '2 days', 'system', 'old'), ($1, now(), 'system', 'new')`, w.ID)

	f.chores.Hour(ctx)
	if n := f.count(t, `SELECT count(*) FROM refresh_tokens WHERE family = $1`, expired); n != 0 {
		t.Errorf("%d tokens of the expired session left", n)
	}
	if n := f.count(t, `SELECT count(*) FROM refresh_tokens WHERE family = $1`, live); n != 1 {
		t.Errorf("%d tokens of the live session left, want 1", n)
	}
	if n := f.count(t, `SELECT count(*) FROM link_changes`); n != 1 {
		t.Errorf("%d change entries left within ChangeRetention, want 1", n)
	}
	if n := f.count(t, `SELECT count(*) FROM audit_events WHERE workspace_id = $1`, w.ID); n != 1 {
		t.Errorf("%d audit events left, want the one within the retention", n)
	}

	f.now = time.Now().Add(housekeeping.ChangeRetention + time.Minute)
	f.chores.Hour(ctx)
	if n := f.count(t, `SELECT count(*) FROM link_changes`); n != 0 {
		t.Errorf("%d change entries left past ChangeRetention", n)
	}
}

// The minute's chore finishes removing a workspace deleted a while ago whose deleting node
// stopped: its links and the workspace go.
func TestMinute(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	ctx := context.Background()
	_, w, err := f.store.CreateUser(ctx, "gone@example.com", "hash", "gone")
	if err != nil {
		t.Fatal(err)
	}
	_, kept, err := f.store.CreateUser(ctx, "kept@example.com", "hash", "kept")
	if err != nil {
		t.Fatal(err)
	}
	f.exec(t, `INSERT INTO links (id, workspace_id, key, url, url_hash) VALUES (1, $1, 'a', 'https://e.com/a', 1), (2, $2, 'b', 'https://e.com/b', 2)`, w.ID, kept.ID)
	f.exec(t, `UPDATE workspaces SET deleted_at = now() - interval '1 hour' WHERE id = $1`, w.ID)

	f.chores.Minute(ctx)
	if n := f.count(t, `SELECT count(*) FROM links WHERE workspace_id = $1`, w.ID); n != 0 {
		t.Errorf("%d links of the deleted workspace left", n)
	}
	if n := f.count(t, `SELECT count(*) FROM workspaces WHERE id = $1`, w.ID); n != 0 {
		t.Errorf("the deleted workspace is still there")
	}
	if n := f.count(t, `SELECT count(*) FROM links WHERE workspace_id = $1`, kept.ID); n != 1 {
		t.Errorf("%d links of another workspace left, want 1", n)
	}
}

// checker counts its rounds and answers err.
type checker struct {
	calls atomic.Int64
	err   error
}

func (c *checker) CheckPending(context.Context) (int, error) {
	c.calls.Add(1)
	return 1, c.err
}

// A round of domain checks checks the sign-on domains even when the custom domains' check
// failed, and counts.
func TestCheckDomainsRound(t *testing.T) {
	t.Parallel()
	domains, sso := &checker{err: errors.New("dns down")}, &checker{}
	c := housekeeping.New(housekeeping.Options{Domains: domains, SSO: sso, CheckEvery: time.Hour, Log: slog.New(slog.DiscardHandler)})
	for range 2 {
		c.CheckDomainsRound(context.Background())
	}
	if domains.calls.Load() != 2 || sso.calls.Load() != 2 || c.DomainCheckRounds() != 2 {
		t.Errorf("domains checked %d times, sso %d, rounds %d; want 2 each", domains.calls.Load(), sso.calls.Load(), c.DomainCheckRounds())
	}
}
