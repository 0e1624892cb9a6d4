package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

func TestPlanStoreTrial(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	accounts, plans := postgres.NewAccountStore(db), postgres.NewPlanStore(db)
	ctx := context.Background()
	_, w := newUser(t, accounts, "alice@example.com")

	st, err := plans.State(ctx, w.ID)
	if err != nil || st.Plan != plan.Free || st.TrialEndsAt != nil || st.TrialUsed {
		t.Fatalf("new workspace: %+v, %v", st, err)
	}
	ends := time.Now().Add(plan.TrialLength).UTC().Truncate(time.Microsecond)
	st, started, err := plans.StartTrial(ctx, w.ID, ends)
	if err != nil || !started || st.Plan != plan.Trial || !st.TrialUsed || st.TrialEndsAt == nil || !st.TrialEndsAt.Equal(ends) {
		t.Fatalf("StartTrial: %+v, %v, %v", st, started, err)
	}
	st, started, err = plans.StartTrial(ctx, w.ID, ends.Add(time.Hour))
	if err != nil || started || !st.TrialEndsAt.Equal(ends) {
		t.Errorf("second StartTrial: %+v, %v, %v", st, started, err)
	}

	// The operator moving the workspace to another plan ends the timed trial; moving it back
	// to trial gives a trial without an end, not the lapsed one.
	past := time.Now().Add(-time.Hour)
	if err := plans.SetTrialEnd(ctx, w.ID, &past); err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.SetPlan(ctx, w.ID, plan.Trial); err != nil {
		t.Fatal(err)
	}
	if st, _ := plans.State(ctx, w.ID); st.TrialEndsAt != nil || !st.TrialUsed || st.Plan != plan.Trial {
		t.Errorf("after the operator's trial: %+v", st)
	}
	if _, err := accounts.SetPlan(ctx, w.ID, plan.Free); err != nil {
		t.Fatal(err)
	}
	if _, started, _ := plans.StartTrial(ctx, w.ID, ends); started {
		t.Error("a workspace started a second trial")
	}

	// A paid workspace does not start the trial.
	_, w2 := newUser(t, accounts, "bob@example.com")
	if _, err := accounts.SetPlan(ctx, w2.ID, plan.Personal); err != nil {
		t.Fatal(err)
	}
	if st, started, err := plans.StartTrial(ctx, w2.ID, ends); err != nil || started || st.Plan != plan.Personal || st.TrialUsed {
		t.Errorf("trial from personal: %+v, %v, %v", st, started, err)
	}

	const missing = 1 << 40
	_, _, err = plans.StartTrial(ctx, missing, ends)
	wantCode(t, "StartTrial of a missing workspace", err, apperr.NotFound)
	_, err = plans.State(ctx, missing)
	wantCode(t, "State of a missing workspace", err, apperr.NotFound)
	wantCode(t, "SetTrialEnd of a missing workspace", plans.SetTrialEnd(ctx, missing, nil), apperr.NotFound)
	if n, err := plans.Members(ctx, w.ID); err != nil || n != 1 {
		t.Errorf("members: %d, %v", n, err)
	}
}

// TestPlanStoreUsageExact runs many rounds at once, as many nodes would, against workspaces
// with a limit: the counts end exact and no limit is passed.
func TestPlanStoreUsageExact(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	accounts, plans := postgres.NewAccountStore(db), postgres.NewPlanStore(db)
	ctx := context.Background()
	_, a := newUser(t, accounts, "a@example.com")
	_, b := newUser(t, accounts, "b@example.com")
	month := plan.MonthOf(time.Now())
	const limit = 150
	grant := func(c *plan.UsageChange) int64 { return max(0, min(c.Want, limit-c.Used)) }

	var mu sync.Mutex
	granted := map[int64]int64{}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			changes := []*plan.UsageChange{{WorkspaceID: b.ID, Want: 3}, {WorkspaceID: a.ID, Want: 5}, {WorkspaceID: 1 << 40, Want: 1}}
			if i%2 == 0 { // the other order: rows are still locked in one order
				changes[0], changes[1] = changes[1], changes[0]
			}
			if err := plans.ChangeUsage(ctx, month, changes, grant); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, c := range changes {
				if c.WorkspaceID == 1<<40 && (c.Found || c.Granted != 0) {
					t.Errorf("a missing workspace was granted: %+v", c)
				}
				granted[c.WorkspaceID] += c.Granted
			}
		})
	}
	wg.Wait()
	for ws, want := range map[int64]int64{a.ID: limit, b.ID: 120} {
		n, err := plans.LinksCreated(ctx, ws, month)
		if err != nil || n != want || granted[ws] != want {
			t.Errorf("workspace %d: count %d, granted %d, want %d (%v)", ws, n, granted[ws], want, err)
		}
	}

	// A release gives links back; it never goes below zero; other months are apart.
	changes := []*plan.UsageChange{{WorkspaceID: a.ID, Release: 10, Want: 4}, {WorkspaceID: b.ID, Release: 500}}
	if err := plans.ChangeUsage(ctx, month, changes, grant); err != nil {
		t.Fatal(err)
	}
	if changes[0].Used != limit-10 || changes[0].Granted != 4 || changes[1].Used != 0 {
		t.Errorf("release round: %+v %+v", changes[0], changes[1])
	}
	if n, _ := plans.LinksCreated(ctx, a.ID, month); n != limit-6 {
		t.Errorf("after release: %d", n)
	}
	if n, _ := plans.LinksCreated(ctx, b.ID, month); n != 0 {
		t.Errorf("after a large release: %d", n)
	}
	if n, err := plans.LinksCreated(ctx, a.ID, month.AddDate(0, 1, 0)); err != nil || n != 0 {
		t.Errorf("next month: %d, %v", n, err)
	}
}
