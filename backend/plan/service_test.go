package plan_test

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// clock is a settable time for the service.
type clock struct{ t atomic.Pointer[time.Time] }

func (c *clock) now() time.Time      { return *c.t.Load() }
func (c *clock) set(t time.Time)     { c.t.Store(&t) }
func (c *clock) add(d time.Duration) { c.set(c.now().Add(d)) }

type fixture struct {
	svc      *plan.Service
	accounts *postgres.AccountStore
	store    *postgres.PlanStore
	clock    *clock
}

func newFixture(t *testing.T, limits string) *fixture {
	t.Helper()
	db := testenv.DB(t)
	tbl, err := plan.ParseTable(limits)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{accounts: postgres.NewAccountStore(db), store: postgres.NewPlanStore(db), clock: &clock{}}
	f.clock.set(time.Now())
	f.svc = plan.NewService(f.store, plan.NewGate(tbl), f.clock.now, slog.New(slog.DiscardHandler))
	t.Cleanup(f.svc.Close)
	return f
}

func (f *fixture) workspace(t *testing.T, email string) *account.Workspace {
	t.Helper()
	_, w, err := f.accounts.CreateUser(context.Background(), email, "hash", "ws")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestTrial(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	w := f.workspace(t, "alice@example.com")

	st, err := f.svc.StartTrial(ctx, w.ID)
	if err != nil || st.Plan != plan.Trial || !st.TrialEndsAt.Equal(f.clock.now().Add(plan.TrialLength).Truncate(time.Microsecond)) {
		t.Fatalf("StartTrial: %+v, %v", st, err)
	}
	if p, _ := f.svc.Effective(ctx, w.ID); p != plan.Trial {
		t.Errorf("during the trial: %s", p)
	}
	if _, err := f.svc.StartTrial(ctx, w.ID); !apperr.Is(err, apperr.TrialUsed) {
		t.Errorf("second trial: %v", err)
	}
	f.clock.add(plan.TrialLength)
	s, err := f.svc.Status(ctx, w.ID)
	if err != nil || s.Plan != plan.Free || s.Features[plan.Password] || s.Limits.LinksPerMonth != 100 || !s.TrialUsed || s.TrialEndsAt == nil {
		t.Errorf("lapsed trial: %+v, %v", s, err)
	}
	if _, err := f.svc.StartTrial(ctx, w.ID); !apperr.Is(err, apperr.TrialUsed) {
		t.Errorf("trial after the lapse: %v", err)
	}
	if err := f.svc.Require(ctx, w.ID, plan.Password); !apperr.Is(err, apperr.PlanRequired) {
		t.Errorf("password after the lapse: %v", err)
	}

	paid := f.workspace(t, "bob@example.com")
	if _, err := f.accounts.SetPlan(ctx, paid.ID, plan.Enterprise); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.StartTrial(ctx, paid.ID); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("trial from enterprise: %v", err)
	}
	if _, err := f.svc.StartTrial(ctx, 1<<40); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("trial of a missing workspace: %v", err)
	}
}

func TestStatus(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "personal.links_per_month=20")
	ctx := context.Background()
	w := f.workspace(t, "alice@example.com")
	for _, p := range plan.Names {
		if _, err := f.accounts.SetPlan(ctx, w.ID, p); err != nil {
			t.Fatal(err)
		}
		s, err := f.svc.Status(ctx, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		row := plan.DefaultTable()[p]
		if s.Plan != p || len(s.Features) != len(plan.Features) || s.Usage.Members != 1 {
			t.Errorf("%s: %+v", p, s)
		}
		for _, ft := range plan.Features {
			if s.Features[ft] != row.Has(ft) {
				t.Errorf("%s: feature %s = %v", p, ft, s.Features[ft])
			}
		}
		if p == plan.Personal && s.Limits.LinksPerMonth != 20 {
			t.Errorf("PLAN_LIMITS override not shown: %+v", s.Limits)
		}
	}
}

func TestCheckLinkFields(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	w := f.workspace(t, "alice@example.com")
	if err := f.svc.CheckLinkFields(ctx, 1<<40, []string{"url", "title", "expires_at"}, false); err != nil {
		t.Errorf("ungated fields need no plan (nor a workspace read): %v", err)
	}
	if err := f.svc.CheckLinkFields(ctx, w.ID, []string{"url", "variants"}, false); !apperr.Is(err, apperr.PlanRequired) {
		t.Errorf("variants on free: %v", err)
	}
	if err := f.svc.CheckLinkFields(ctx, w.ID, []string{"url"}, true); !apperr.Is(err, apperr.PlanRequired) {
		t.Errorf("editing url on free: %v", err)
	}
	if _, err := f.svc.StartTrial(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.CheckLinkFields(ctx, w.ID, []string{"url", "variants", "geo"}, true); err != nil {
		t.Errorf("on trial: %v", err)
	}
	if err := f.svc.CheckMembers(ctx, w.ID, 2); err != nil {
		t.Errorf("3 members on trial: %v", err)
	}
	if err := f.svc.CheckMembers(ctx, w.ID, 3); !apperr.Is(err, apperr.QuotaExceeded) {
		t.Errorf("4 members on trial: %v", err)
	}
}

// TestReserve fires more creates at once than a free workspace may make in a month: exactly
// the limit is granted and counted, and a batch gets the rows that fit.
func TestReserve(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	w := f.workspace(t, "alice@example.com")
	other := f.workspace(t, "bob@example.com")

	var granted, refused atomic.Int64
	var wg sync.WaitGroup
	for range 300 {
		wg.Go(func() {
			n, err := f.svc.Reserve(ctx, w.ID, 1)
			granted.Add(int64(n))
			switch {
			case n == 1 && err == nil:
			case n == 0 && apperr.Is(err, apperr.QuotaExceeded):
				refused.Add(1)
			default:
				t.Errorf("Reserve: %d, %v", n, err)
			}
		})
	}
	wg.Wait()
	if granted.Load() != 100 || refused.Load() != 200 {
		t.Errorf("granted %d, refused %d; want 100 and 200", granted.Load(), refused.Load())
	}
	if u, err := f.svc.Usage(ctx, w.ID); err != nil || u.LinksThisMonth != 100 {
		t.Errorf("usage %+v, %v", u, err)
	}

	// Three links were not created after all: a batch of five gets three, and the error for
	// the other two names the limit.
	f.svc.Release(w.ID, 3)
	n, err := f.svc.Reserve(ctx, w.ID, 5)
	if n != 3 || !apperr.Is(err, apperr.QuotaExceeded) || apperr.MessageOf(err) == "" {
		t.Errorf("batch after release: %d, %v", n, err)
	}

	// Another workspace is untouched; a new month starts afresh.
	if n, err := f.svc.Reserve(ctx, other.ID, 100); n != 100 || err != nil {
		t.Errorf("other workspace: %d, %v", n, err)
	}
	f.clock.add(32 * 24 * time.Hour)
	if n, err := f.svc.Reserve(ctx, w.ID, 1); n != 1 || err != nil {
		t.Errorf("next month: %d, %v", n, err)
	}
	if u, _ := f.svc.Usage(ctx, w.ID); u.LinksThisMonth != 1 {
		t.Errorf("next month's usage: %+v", u)
	}

	// Enterprise counts without a limit.
	if _, err := f.accounts.SetPlan(ctx, other.ID, plan.Enterprise); err != nil {
		t.Fatal(err)
	}
	if n, err := f.svc.Reserve(ctx, other.ID, 5000); n != 5000 || err != nil {
		t.Errorf("enterprise: %d, %v", n, err)
	}
	if n, err := f.svc.Reserve(ctx, 1<<40, 1); n != 0 || !apperr.Is(err, apperr.NotFound) {
		t.Errorf("missing workspace: %d, %v", n, err)
	}
}

// BenchmarkReserve measures reservations of one link each from many goroutines at once, as
// the create path would make them.
func BenchmarkReserve(b *testing.B) {
	db := testenv.DB(b)
	accounts := postgres.NewAccountStore(db)
	_, w, err := accounts.CreateUser(context.Background(), "bench@example.com", "hash", "ws")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := accounts.SetPlan(context.Background(), w.ID, plan.Enterprise); err != nil {
		b.Fatal(err)
	}
	svc := plan.NewService(postgres.NewPlanStore(db), plan.NewGate(plan.DefaultTable()), nil, slog.New(slog.DiscardHandler))
	defer svc.Close()
	b.SetParallelism(64)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := svc.Reserve(context.Background(), w.ID, 1); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// TestCached: the plan read where paid work runs is remembered for CacheTTL, forgotten at
// once by Forget, and a trial's end is seen at once (the state is kept, not the answer).
func TestCached(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "")
	ctx := context.Background()
	w := f.workspace(t, "cached@example.com")
	if _, err := f.accounts.SetPlan(ctx, w.ID, plan.Enterprise); err != nil {
		t.Fatal(err)
	}
	if ok, err := f.svc.Allows(ctx, w.ID, plan.Webhooks); err != nil || !ok {
		t.Fatalf("enterprise allows webhooks: %v %v", ok, err)
	}
	if _, err := f.accounts.SetPlan(ctx, w.ID, plan.Free); err != nil {
		t.Fatal(err)
	}
	if p, err := f.svc.Cached(ctx, w.ID); err != nil || p != plan.Enterprise {
		t.Fatalf("within CacheTTL the remembered plan answers: %q %v", p, err)
	}
	f.svc.Forget(w.ID)
	if ok, err := f.svc.Allows(ctx, w.ID, plan.Webhooks); err != nil || ok {
		t.Fatalf("after Forget, free allows webhooks: %v %v", ok, err)
	}

	// A trial read into the cache lapses at its end, not CacheTTL later.
	tw := f.workspace(t, "cached-trial@example.com")
	if _, err := f.svc.StartTrial(ctx, tw.ID); err != nil {
		t.Fatal(err)
	}
	if p, _ := f.svc.Cached(ctx, tw.ID); p != plan.Trial {
		t.Fatalf("trial: %q", p)
	}
	f.clock.add(plan.TrialLength)
	if p, _ := f.svc.Cached(ctx, tw.ID); p != plan.Free {
		t.Fatalf("a lapsed trial from the cache: %q", p)
	}
	if _, err := f.svc.Cached(ctx, 1<<40); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("no such workspace: %v", err)
	}
}
