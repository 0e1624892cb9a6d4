package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/postgres"
)

// planJSON is GET …/plan.
type planJSON struct {
	Plan        string            `json:"plan"`
	TrialEndsAt *time.Time        `json:"trial_ends_at"`
	TrialUsed   bool              `json:"trial_used"`
	Features    map[string]bool   `json:"features"`
	Limits      map[string]*int64 `json:"limits"`
	Usage       struct {
		LinksThisMonth int64 `json:"links_this_month"`
		Members        int64 `json:"members"`
	} `json:"usage"`
}

func (s *server) plan(tn tenant, token string) planJSON {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/plan", tn.WorkspaceID), token, nil)
	return answer[planJSON](s.t, r, http.StatusOK, "get plan")
}

func (s *server) operatorToken() string {
	s.t.Helper()
	r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "operator@sho.rt", "password": "operator-password"})
	if r.Status != http.StatusOK {
		s.t.Fatalf("operator login: %d %s", r.Status, r.Body)
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	r.json(s.t, &out)
	return out.AccessToken
}

func TestTrialThroughAPI(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t, "PLAN_LIMITS", "free.members=1") // the free plan's limit, which the tests' defaults lift
	alice := s.signup("alice@example.com")
	trial := fmt.Sprintf("/api/v1/workspaces/%d/trial", alice.WorkspaceID)

	p := s.plan(alice, alice.Token)
	if p.Plan != plan.Free || p.TrialEndsAt != nil || p.TrialUsed || p.Features["password"] || len(p.Features) != len(plan.Features) ||
		*p.Limits["links_per_month"] != 100 || *p.Limits["members"] != 1 || p.Usage.Members != 1 {
		t.Fatalf("new workspace's plan: %+v", p)
	}

	// API keys do not start trials; owners do, once.
	if r := s.do("POST", trial, alice.Key, nil); r.Status != http.StatusForbidden {
		t.Errorf("trial with an API key: %d %s", r.Status, r.Body)
	}
	before := time.Now()
	r := s.do("POST", trial, alice.Token, nil)
	var ws struct {
		ID          int64     `json:"id"`
		Plan        string    `json:"plan"`
		TrialEndsAt time.Time `json:"trial_ends_at"`
	}
	r.json(t, &ws)
	if r.Status != http.StatusOK || ws.ID != alice.WorkspaceID || ws.Plan != plan.Trial ||
		ws.TrialEndsAt.Before(before.Add(plan.TrialLength-time.Minute)) || ws.TrialEndsAt.After(time.Now().Add(plan.TrialLength)) {
		t.Fatalf("start trial: %d %s", r.Status, r.Body)
	}
	p = s.plan(alice, alice.Token)
	if p.Plan != plan.Trial || !p.Features["ab_test"] || p.Features["form"] || *p.Limits["links_per_month"] != 1000 || !p.TrialUsed {
		t.Errorf("plan on trial: %+v", p)
	}
	if r := s.do("POST", trial, alice.Token, nil); r.Status != http.StatusConflict || r.errorCode(t) != "trial_used" {
		t.Errorf("second trial: %d %s", r.Status, r.Body)
	}

	// Seven days later the trial answers as free, and it cannot be started again.
	db := d.db(t)
	lapsed := time.Now().Add(-time.Minute)
	if err := postgres.NewPlanStore(db).SetTrialEnd(context.Background(), alice.WorkspaceID, &lapsed); err != nil {
		t.Fatal(err)
	}
	p = s.plan(alice, alice.Token)
	if p.Plan != plan.Free || p.Features["ab_test"] || *p.Limits["links_per_month"] != 100 || p.TrialEndsAt == nil {
		t.Errorf("plan after the trial: %+v", p)
	}
	if r := s.do("POST", trial, alice.Token, nil); r.Status != http.StatusConflict || r.errorCode(t) != "trial_used" {
		t.Errorf("trial after the lapse: %d %s", r.Status, r.Body)
	}
}

// TestPlanAfterOperatorChange moves a workspace through every plan as an operator and reads
// the plan as its owner after each move; the limits are the configured ones.
func TestPlanAfterOperatorChange(t *testing.T) {
	s := newDeployment(t).start(t, "PLAN_LIMITS", "personal.links_per_month=25,enterprise.members=50,free.members=1")
	bob := s.signup("bob@example.com")
	op := s.operatorToken()
	tbl := plan.DefaultTable()
	limits := map[string][2]*int64{ // links a month, members
		plan.Free:       {ptr(100), ptr(1)},
		plan.Trial:      {ptr(1000), ptr(3)},
		plan.Personal:   {ptr(25), ptr(3)},
		plan.Enterprise: {nil, ptr(50)},
	}
	for _, name := range []string{plan.Enterprise, plan.Personal, plan.Trial, plan.Free} {
		r := s.do("PATCH", fmt.Sprintf("/api/v1/admin/workspaces/%d", bob.WorkspaceID), op, map[string]string{"plan": name})
		if r.Status != http.StatusOK {
			t.Fatalf("operator sets %s: %d %s", name, r.Status, r.Body)
		}
		p := s.plan(bob, bob.Token)
		if p.Plan != name || p.TrialEndsAt != nil {
			t.Errorf("%s: plan %s, trial ends %v", name, p.Plan, p.TrialEndsAt)
		}
		for _, f := range plan.Features {
			if p.Features[string(f)] != tbl[name].Has(f) {
				t.Errorf("%s: feature %s = %v", name, f, p.Features[string(f)])
			}
		}
		want := limits[name]
		if !sameLimit(p.Limits["links_per_month"], want[0]) || !sameLimit(p.Limits["members"], want[1]) {
			t.Errorf("%s: limits %v %v, want %v %v", name, show(p.Limits["links_per_month"]), show(p.Limits["members"]), show(want[0]), show(want[1]))
		}
	}
	// An operator's trial has no end and does not use up the workspace's own trial.
	if r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/trial", bob.WorkspaceID), bob.Token, nil); r.Status != http.StatusOK {
		t.Errorf("trial after the operator's changes: %d %s", r.Status, r.Body)
	}
}

func ptr(n int64) *int64 { return &n }

func sameLimit(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func show(n *int64) string {
	if n == nil {
		return "null"
	}
	return fmt.Sprint(*n)
}

// TestPlansListing is GET /api/v1/plans: public, every plan cheapest first, the table the
// server enforces (PLAN_LIMITS applied), and seed 004's prices.
func TestPlansListing(t *testing.T) {
	s := newDeployment(t).start(t, "PLAN_LIMITS", "personal.links_per_month=20000")
	type money struct {
		Amount   int64  `json:"amount"`
		Currency string `json:"currency"`
	}
	type listing struct {
		Plans []struct {
			ID     string `json:"id"`
			Name   string `json:"name"`
			Prices struct {
				Monthly, Yearly, Once *money
			} `json:"prices"`
			Days     int               `json:"days"`
			Features map[string]bool   `json:"features"`
			Limits   map[string]*int64 `json:"limits"`
		} `json:"plans"`
		Features []string `json:"features"`
		Checkout *bool    `json:"checkout"`
	}
	alice := s.signup("alice@example.com")
	for _, token := range []string{"", alice.Token} {
		out := answer[listing](t, s.do("GET", "/api/v1/plans", token, nil), http.StatusOK, "list plans")
		if len(out.Plans) != 4 || out.Checkout == nil || *out.Checkout || len(out.Features) != len(plan.Features) || out.Features[0] != "password" {
			t.Fatalf("plans: %+v", out)
		}
		want := []string{plan.Free, plan.Trial, plan.Personal, plan.Enterprise}
		for i, p := range out.Plans {
			if p.ID != want[i] || p.Name == "" || len(p.Features) != len(plan.Features) {
				t.Errorf("plan %d: %+v", i, p)
			}
		}
		free, trial, personal, ent := out.Plans[0], out.Plans[1], out.Plans[2], out.Plans[3]
		if free.Prices.Monthly == nil || free.Prices.Monthly.Amount != 0 || free.Features["password"] {
			t.Errorf("free: %+v", free)
		}
		if trial.Prices.Once == nil || *trial.Prices.Once != (money{100, "CNY"}) || trial.Days != 7 || !trial.Features["batch"] || trial.Features["form"] {
			t.Errorf("trial: %+v", trial)
		}
		if personal.Limits["links_per_month"] == nil || *personal.Limits["links_per_month"] != 20000 || personal.Prices.Monthly != nil {
			t.Errorf("personal: %+v", personal)
		}
		if ent.Limits["links_per_month"] != nil || ent.Limits["members"] != nil || !ent.Features["form"] {
			t.Errorf("enterprise: %+v", ent)
		}
	}
}
