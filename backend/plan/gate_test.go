package plan_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
)

// TestFeatures is the plans table of docs/rules-and-plans.md, feature by feature and plan by plan.
func TestFeatures(t *testing.T) {
	g := plan.NewGate(plan.DefaultTable())
	// Columns: free, trial, personal, enterprise.
	want := map[plan.Feature][4]bool{
		plan.WeChatAccess:  {false, true, true, true},
		plan.Dashboard:     {false, true, true, true},
		plan.Password:      {false, true, true, true},
		plan.RealtimeEdit:  {false, true, true, true},
		plan.Export:        {false, true, true, true},
		plan.BrowserGuide:  {false, true, true, true},
		plan.CustomDomains: {false, true, false, true},
		plan.ABTest:        {false, true, false, true},
		plan.Batch:         {false, true, false, true},
		plan.Geo:           {false, true, false, true},
		plan.Form:          {false, false, false, true},
		plan.SSO:           {false, false, false, true},
		plan.AuditLog:      {false, false, false, true},
		plan.Webhooks:      {false, true, true, true},
	}
	if len(want) != len(plan.Features) {
		t.Fatalf("%d features tested, %d exist", len(want), len(plan.Features))
	}
	// The cheapest plan each message must name.
	names := map[plan.Feature]string{
		plan.Password: "personal", plan.RealtimeEdit: "personal", plan.Export: "personal",
		plan.BrowserGuide: "personal", plan.Dashboard: "personal", plan.WeChatAccess: "personal",
		plan.CustomDomains: "enterprise", plan.ABTest: "enterprise", plan.Batch: "enterprise",
		plan.Geo: "enterprise", plan.Form: "enterprise", plan.SSO: "enterprise", plan.AuditLog: "enterprise",
		plan.Webhooks: "personal",
	}
	for _, f := range plan.Features {
		for i, p := range plan.Names {
			err := g.Require(p, f)
			if got := err == nil; got != want[f][i] {
				t.Errorf("%s on %s: allowed %v, want %v", f, p, got, want[f][i])
				continue
			}
			if err == nil {
				continue
			}
			if apperr.CodeOf(err) != apperr.PlanRequired {
				t.Errorf("%s on %s: code %s", f, p, apperr.CodeOf(err))
			}
			msg := apperr.MessageOf(err)
			if !strings.Contains(msg, "the "+names[f]+" plan") || !strings.Contains(msg, string(f)) {
				t.Errorf("%s on %s: message %q does not name %q and the feature", f, p, msg, names[f])
			}
			if trial := want[f][1] && p == plan.Free; trial != strings.Contains(msg, "7-day trial") {
				t.Errorf("%s on %s: message %q, trial hint should be %v", f, p, msg, trial)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	tbl := plan.DefaultTable()
	want := map[string][3]plan.Limit{ // links a month, members, custom domains
		plan.Free:       {100, 1, 0},
		plan.Trial:      {1000, 3, 1},
		plan.Personal:   {10000, 3, 0},
		plan.Enterprise: {plan.Unlimited, plan.Unlimited, plan.Unlimited},
	}
	for name, w := range want {
		l := tbl[name].Limits
		if got := [3]plan.Limit{l.LinksPerMonth, l.Members, l.CustomDomains}; got != w {
			t.Errorf("%s limits %v, want %v", name, got, w)
		}
		if l.RequestsPerMinute < 1 && l.RequestsPerMinute != plan.Unlimited {
			t.Errorf("%s rate limit %v", name, l.RequestsPerMinute)
		}
	}
	b, _ := json.Marshal(tbl[plan.Enterprise].Limits)
	if !strings.Contains(string(b), `"links_per_month":null`) || !strings.Contains(string(b), `"members":null`) {
		t.Errorf("unlimited limits in JSON: %s", b)
	}
}

func TestLinkFields(t *testing.T) {
	g := plan.NewGate(plan.DefaultTable())
	tests := []struct {
		plan   string
		fields []string
		edit   bool
		want   string // "" allowed, else the field named in the refusal
	}{
		{plan.Free, []string{"url", "title", "alias", "expires_at", "max_visits", "og"}, false, ""},
		{plan.Free, []string{"expires_at", "max_visits", "og"}, true, ""},
		{plan.Free, []string{"url"}, true, "url"},
		{plan.Free, []string{"title", "password"}, false, "password"},
		{plan.Free, []string{"wechat_guide"}, false, "wechat_guide"},
		{plan.Personal, []string{"password", "wechat_guide", "url"}, true, ""},
		{plan.Personal, []string{"variants"}, false, "variants"},
		{plan.Personal, []string{"device_targets"}, false, "device_targets"},
		{plan.Personal, []string{"geo"}, false, "geo"},
		{plan.Personal, []string{"country_targets"}, false, "country_targets"},
		{plan.Trial, []string{"variants", "device_targets", "geo", "country_targets", "wechat_guide", "password", "url"}, true, ""},
		{plan.Trial, []string{"form"}, false, "form"},
		{plan.Enterprise, []string{"form", "variants", "geo", "password", "wechat_guide", "url"}, true, ""},
	}
	for _, tt := range tests {
		err := g.CheckLinkFields(tt.plan, tt.fields, tt.edit)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %v edit=%v: %v", tt.plan, tt.fields, tt.edit, err)
		case tt.want != "" && (apperr.CodeOf(err) != apperr.PlanRequired || !strings.HasPrefix(apperr.MessageOf(err), tt.want+":")):
			t.Errorf("%s %v edit=%v: %v, want plan_required naming %s", tt.plan, tt.fields, tt.edit, err, tt.want)
		}
	}
	for field, f := range map[string]plan.Feature{"variants": plan.ABTest, "device_targets": plan.ABTest, "geo": plan.Geo,
		"country_targets": plan.Geo, "wechat_guide": plan.BrowserGuide, "password": plan.Password, "form": plan.Form} {
		if got, ok := plan.LinkFieldFeature(field); !ok || got != f {
			t.Errorf("LinkFieldFeature(%s) = %s, %v", field, got, ok)
		}
	}
	// Protective rules (password, geo, form) are never inactive: they must not fail open.
	if got := g.InactiveLinkFields(plan.Free, []string{"password", "variants", "expires_at", "og", "geo", "form", "country_targets"}); strings.Join(got, ",") != "variants,country_targets" {
		t.Errorf("inactive on free: %v", got)
	}
	if got := g.InactiveLinkFields(plan.Personal, []string{"password", "variants", "geo", "device_targets"}); strings.Join(got, ",") != "variants,device_targets" {
		t.Errorf("inactive on personal: %v", got)
	}
}

func TestEffective(t *testing.T) {
	now := time.Date(2025, 3, 10, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Second), now.Add(time.Hour)
	tests := []struct {
		plan string
		ends *time.Time
		want string
	}{
		{plan.Trial, &future, plan.Trial},
		{plan.Trial, &past, plan.Free},
		{plan.Trial, &now, plan.Free},
		{plan.Trial, nil, plan.Trial},
		{plan.Personal, &past, plan.Personal},
		{plan.Free, &future, plan.Free},
	}
	for _, tt := range tests {
		if got := plan.Effective(tt.plan, now, tt.ends); got != tt.want {
			t.Errorf("Effective(%s, %v) = %s, want %s", tt.plan, tt.ends, got, tt.want)
		}
	}
}

func TestQuotas(t *testing.T) {
	g := plan.NewGate(plan.DefaultTable())
	tests := []struct {
		plan          string
		used, n, want int64
	}{
		{plan.Free, 0, 1, 1},
		{plan.Free, 99, 1, 1},
		{plan.Free, 100, 1, 0},
		{plan.Free, 98, 5, 2},
		{plan.Free, 150, 5, 0}, // a lowered limit
		{plan.Trial, 0, 1000, 1000},
		{plan.Personal, 9999, 3, 1},
		{plan.Enterprise, 1 << 40, 1000, 1000},
	}
	for _, tt := range tests {
		got, err := g.GrantLinks(tt.plan, tt.used, tt.n)
		if got != tt.want {
			t.Errorf("GrantLinks(%s, %d, %d) = %d, want %d", tt.plan, tt.used, tt.n, got, tt.want)
		}
		if (got < tt.n) != apperr.Is(err, apperr.QuotaExceeded) {
			t.Errorf("GrantLinks(%s, %d, %d): err %v", tt.plan, tt.used, tt.n, err)
		}
		if err != nil && !strings.Contains(apperr.MessageOf(err), "allows") {
			t.Errorf("quota message %q does not name the limit", apperr.MessageOf(err))
		}
	}
	if err := g.CheckMembers(plan.Free, 1, 1); !apperr.Is(err, apperr.QuotaExceeded) || !strings.Contains(apperr.MessageOf(err), "1 members") {
		t.Errorf("second member on free: %v", err)
	}
	if err := g.CheckMembers(plan.Trial, 2, 1); err != nil {
		t.Errorf("third member on trial: %v", err)
	}
	if err := g.CheckMembers(plan.Enterprise, 500, 1); err != nil {
		t.Errorf("enterprise members: %v", err)
	}
	if err := g.CheckDomains(plan.Personal, 0); !apperr.Is(err, apperr.PlanRequired) {
		t.Errorf("domain on personal: %v", err)
	}
	if err := g.CheckDomains(plan.Trial, 0); err != nil {
		t.Errorf("first domain on trial: %v", err)
	}
	if err := g.CheckDomains(plan.Trial, 1); !apperr.Is(err, apperr.QuotaExceeded) {
		t.Errorf("second domain on trial: %v", err)
	}
	created := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	if !g.WeChatAccess(plan.Free, created, created.Add(9*24*time.Hour)) || g.WeChatAccess(plan.Free, created, created.Add(10*24*time.Hour)) {
		t.Error("free links open from WeChat for exactly 10 days")
	}
	if !g.WeChatAccess(plan.Personal, created, created.Add(1000*24*time.Hour)) {
		t.Error("personal links open from WeChat for ever")
	}
}

func TestParseTable(t *testing.T) {
	tbl, err := plan.ParseTable(" free.links_per_month=500, enterprise.requests_per_minute=unlimited,trial.members=5 ")
	if err != nil {
		t.Fatal(err)
	}
	if tbl[plan.Free].Limits.LinksPerMonth != 500 || tbl[plan.Enterprise].Limits.RequestsPerMinute != plan.Unlimited || tbl[plan.Trial].Limits.Members != 5 {
		t.Errorf("overrides not applied: %+v", tbl)
	}
	if tbl[plan.Personal].Limits != plan.DefaultTable()[plan.Personal].Limits {
		t.Error("a plan not named changed")
	}
	if tbl, err := plan.ParseTable(""); err != nil || tbl[plan.Free].Limits.LinksPerMonth != 100 {
		t.Errorf("empty: %v", err)
	}
	for _, bad := range []string{"free", "gold.members=3", "free.colour=3", "free.links_per_month=-1", "free.links_per_month=x", "free.members=0", "free=3"} {
		if _, err := plan.ParseTable(bad); err == nil {
			t.Errorf("ParseTable(%q) accepted", bad)
		}
	}
}

// TestOffers is the plans listing: every plan once, cheapest first, the table's features and
// limits, and seed 004's prices (the trial's ¥1).
func TestOffers(t *testing.T) {
	tbl, err := plan.ParseTable("free.links_per_month=500")
	if err != nil {
		t.Fatal(err)
	}
	offers := plan.NewGate(tbl).Offers()
	var ids []string
	for _, o := range offers {
		ids = append(ids, o.ID)
		if len(o.Features) != len(plan.Features) {
			t.Errorf("%s: %d features", o.ID, len(o.Features))
		}
		for _, f := range plan.Features {
			if o.Features[f] != tbl[o.ID].Has(f) {
				t.Errorf("%s: feature %s %v", o.ID, f, o.Features[f])
			}
		}
		if o.Limits != tbl[o.ID].Limits {
			t.Errorf("%s: limits %+v", o.ID, o.Limits)
		}
	}
	if strings.Join(ids, ",") != "free,trial,personal,enterprise" {
		t.Fatalf("plans %v", ids)
	}
	if offers[0].Limits.LinksPerMonth != 500 {
		t.Errorf("PLAN_LIMITS not applied: %v", offers[0].Limits.LinksPerMonth)
	}
	trial := offers[1]
	if trial.Prices.Once == nil || *trial.Prices.Once != (plan.Money{Amount: 100, Currency: "CNY"}) || trial.Days != 7 {
		t.Errorf("trial: %+v", trial)
	}
	if offers[2].Prices.Monthly != nil || offers[3].Prices.Yearly != nil {
		t.Errorf("paid plans have no price in the seeds: %+v %+v", offers[2].Prices, offers[3].Prices)
	}
	b, _ := json.Marshal(offers[3])
	if !strings.Contains(string(b), `"monthly":null`) || !strings.Contains(string(b), `"links_per_month":null`) {
		t.Errorf("enterprise in JSON: %s", b)
	}
}

func TestStateAt(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	before, after := now.Add(-time.Second), now.Add(time.Second)
	for _, tt := range []struct {
		st   plan.State
		want string
	}{
		{plan.State{Plan: plan.Free}, plan.Free},
		{plan.State{Plan: plan.Free, BilledPlan: plan.Enterprise}, plan.Enterprise},
		{plan.State{Plan: plan.Free, BilledPlan: plan.Personal, BilledUntil: &after}, plan.Personal},
		{plan.State{Plan: plan.Free, BilledPlan: plan.Personal, BilledUntil: &before}, plan.Free},
		{plan.State{Plan: plan.Trial, TrialEndsAt: &before, BilledPlan: plan.Personal, BilledUntil: &before}, plan.Free},
		{plan.State{Plan: plan.Trial, TrialEndsAt: &after, BilledPlan: plan.Personal, BilledUntil: &before}, plan.Trial},
	} {
		if got := tt.st.At(now); got != tt.want {
			t.Errorf("%+v.At = %s, want %s", tt.st, got, tt.want)
		}
	}
}
