package planfacts_test

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/planfacts"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// What a plan changes for visitors: after a downgrade the rules the plan lacks stop, never a
// protective one (the password); WeChat closes on the free plan 10 days after creation; app-link
// files follow custom domains; a plan read within plan.CacheTTL is the one remembered.
func TestFacts(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := postgres.NewAccountStore(db)
	plans := plan.NewService(postgres.NewPlanStore(db), plan.NewGate(plan.DefaultTable()), nil, slog.New(slog.DiscardHandler))
	t.Cleanup(plans.Close)
	facts := planfacts.New(plans)

	_, free, err := accounts.CreateUser(ctx, "free@example.com", "hash", "free")
	if err != nil {
		t.Fatal(err)
	}
	_, paid, err := accounts.CreateUser(ctx, "paid@example.com", "hash", "paid")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.SetPlan(ctx, paid.ID, plan.Enterprise); err != nil {
		t.Fatal(err)
	}
	created := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rules := link.Rules{PasswordHash: "hash", Variants: []link.Variant{{URL: "https://e.com/a", Weight: 1}, {URL: "https://e.com/b", Weight: 1}}, WeChatGuide: true}

	for _, tc := range []struct {
		name         string
		workspace    int64
		now          time.Time
		inactive     []string
		wechatClosed bool
		appLinks     bool
	}{
		{name: "enterprise", workspace: paid.ID, now: created.Add(365 * 24 * time.Hour), appLinks: true},
		{name: "free, new link", workspace: free.ID, now: created.Add(24 * time.Hour), inactive: []string{"variants", "wechat_guide"}},
		{name: "free, 10 days on", workspace: free.ID, now: created.Add(10*24*time.Hour + time.Second), inactive: []string{"variants", "wechat_guide"}, wechatClosed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &link.Link{ID: 1, WorkspaceID: tc.workspace, CreatedAt: created, Rules: rules}
			inactive, closed, err := facts.Facts(ctx, l, tc.now)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(inactive, tc.inactive) || closed != tc.wechatClosed {
				t.Errorf("Facts = %v, wechat closed %v; want %v, %v", inactive, closed, tc.inactive, tc.wechatClosed)
			}
			if ok, err := facts.AppLinks(ctx, tc.workspace); err != nil || ok != tc.appLinks {
				t.Errorf("AppLinks = %v, %v; want %v", ok, err, tc.appLinks)
			}
		})
	}

	// A downgrade reaches visitors once the remembered plan is forgotten (plan.CacheTTL, or at
	// once on the node that made it).
	if _, err := accounts.SetPlan(ctx, paid.ID, plan.Free); err != nil {
		t.Fatal(err)
	}
	l := &link.Link{ID: 2, WorkspaceID: paid.ID, CreatedAt: created, Rules: rules}
	if inactive, _, err := facts.Facts(ctx, l, created); err != nil || len(inactive) != 0 {
		t.Fatalf("within plan.CacheTTL the remembered plan answers: %v %v", inactive, err)
	}
	plans.Forget(paid.ID)
	if inactive, _, err := facts.Facts(ctx, l, created); err != nil || !slices.Equal(inactive, []string{"variants", "wechat_guide"}) {
		t.Fatalf("after the downgrade: %v %v", inactive, err)
	}
	if ok, err := facts.AppLinks(ctx, paid.ID); err != nil || ok {
		t.Fatalf("after the downgrade, app links: %v %v", ok, err)
	}

	// A plan that could not be read is an error, not an answer that lets the rules through.
	if _, _, err := facts.Facts(ctx, &link.Link{WorkspaceID: 1 << 40, Rules: rules}, created); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("no such workspace: %v", err)
	}
}
