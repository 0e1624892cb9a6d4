package e2e

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

type pricedPlansJSON struct {
	Plans []struct {
		ID     string `json:"id"`
		Prices struct {
			Monthly *moneyJSON `json:"monthly"`
			Yearly  *moneyJSON `json:"yearly"`
			Once    *moneyJSON `json:"once"`
		} `json:"prices"`
	} `json:"plans"`
	Checkout bool `json:"checkout"`
}

type moneyJSON struct {
	Amount        int64  `json:"amount"`
	Currency      string `json:"currency"`
	Interval      string `json:"interval"`
	IntervalCount int64  `json:"interval_count"`
}

// TestPlanPricesFromStripe: with billing on, GET /api/v1/plans prices every plan sold through
// Stripe from its Price objects (stripe-mock's: 20.00 USD a month), the trial as a one-off
// payment; a plan without a Stripe price shows none; the free plan costs nothing in the same
// currency. stripe-mock's monthly Prices listed as the yearly ones and as the trial are logged
// as contradicting their keys. Without billing the prices are the catalogue's and nothing is
// read from Stripe.
func TestPlanPricesFromStripe(t *testing.T) {
	d := newDeployment(t)
	d.logs = &logBuffer{}
	s := startBillingOn(t, d, "STRIPE_PRICES", "personal.month=price_pm,personal.year=price_py,enterprise.month=price_em,enterprise.year=price_ey,trial=price_trial")
	for range 2 { // the second answer comes from the cache, the same
		got := answer[pricedPlansJSON](t, s.do("GET", "/api/v1/plans", "", nil), http.StatusOK, "plans")
		if !got.Checkout || len(got.Plans) != 4 {
			t.Fatalf("plans: %+v", got)
		}
		for _, p := range got.Plans {
			pr := p.Prices
			switch p.ID {
			case "personal", "enterprise":
				if pr.Monthly == nil || pr.Monthly.Amount != 2000 || pr.Monthly.Currency != "USD" || pr.Monthly.Interval != "month" ||
					pr.Monthly.IntervalCount != 1 || pr.Yearly == nil || pr.Yearly.Amount != 2000 || pr.Once != nil {
					t.Errorf("%s: %+v %+v %+v", p.ID, pr.Monthly, pr.Yearly, pr.Once)
				}
			case "trial":
				if pr.Once == nil || pr.Once.Amount != 2000 || pr.Once.Currency != "USD" || pr.Once.Interval != "" || pr.Once.IntervalCount != 0 || pr.Monthly != nil {
					t.Errorf("trial: %+v %+v", pr.Once, pr.Monthly)
				}
			case "free":
				// Nothing, in the currency the others are sold in: no CN¥0 beside $20.
				if pr.Monthly == nil || pr.Monthly.Amount != 0 || pr.Monthly.Currency != "USD" || pr.Yearly == nil || pr.Yearly.Currency != "USD" {
					t.Errorf("free: %+v %+v", pr.Monthly, pr.Yearly)
				}
			}
		}
	}
	// Read once (the second answer came from the cache): a warning per contradicted key.
	var warned []string
	for _, l := range d.logs.lines() {
		if strings.Contains(l, "level=WARN") && strings.Contains(l, "contradicts") {
			warned = append(warned, l)
		}
	}
	for _, key := range []string{"key=personal.year", "key=enterprise.year", "key=trial"} {
		if n := len(slices.DeleteFunc(slices.Clone(warned), func(l string) bool { return !strings.Contains(l, key+" ") })); n != 1 {
			t.Errorf("%d warnings for %s, want 1:\n%s", n, key, strings.Join(warned, "\n"))
		}
	}
	if len(warned) != 3 {
		t.Errorf("%d warnings of contradicted prices, want 3 (the monthly keys agree):\n%s", len(warned), strings.Join(warned, "\n"))
	}

	off := newDeployment(t).start(t)
	got := answer[pricedPlansJSON](t, off.do("GET", "/api/v1/plans", "", nil), http.StatusOK, "plans without billing")
	for _, p := range got.Plans {
		switch p.ID {
		case "personal", "enterprise":
			if p.Prices.Monthly != nil || p.Prices.Yearly != nil || p.Prices.Once != nil {
				t.Errorf("%s without billing: %+v", p.ID, p.Prices)
			}
		case "trial":
			if p.Prices.Once == nil || p.Prices.Once.Amount != 100 || p.Prices.Once.Currency != "CNY" {
				t.Errorf("trial without billing: %+v", p.Prices.Once)
			}
		}
	}
}
