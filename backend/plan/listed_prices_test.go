package plan

import (
	"strings"
	"testing"
)

func TestParsePrices(t *testing.T) {
	got, err := ParsePrices("personal.monthly=2900 cny, personal.yearly=29000 CNY,enterprise.monthly=99900 USD,trial.once=none")
	if err != nil {
		t.Fatal(err)
	}
	if m := got[Personal].Monthly; m == nil || m.Amount != 2900 || m.Currency != "CNY" {
		t.Errorf("personal monthly: %+v", m)
	}
	if y := got[Personal].Yearly; y == nil || y.Amount != 29000 {
		t.Errorf("personal yearly: %+v", y)
	}
	if m := got[Enterprise].Monthly; m == nil || m.Currency != "USD" || got[Enterprise].Yearly != nil {
		t.Errorf("enterprise: %+v", got[Enterprise])
	}
	if got[Trial].Once != nil {
		t.Errorf("trial once: %+v, want none", got[Trial].Once)
	}
	if f := got[Free].Monthly; f == nil || f.Amount != 0 {
		t.Errorf("free keeps its default: %+v", got[Free])
	}
	// The defaults are not changed by a parse.
	if again, _ := ParsePrices(""); again[Trial].Once == nil || again[Personal].Monthly != nil {
		t.Errorf("defaults: %+v", again)
	}
	for _, bad := range []string{"personal=2900 CNY", "gold.monthly=1 CNY", "personal.weekly=1 CNY",
		"personal.monthly=-1 CNY", "personal.monthly=2900", "personal.monthly=2900 yuan", "personal.monthly=1.5 CNY"} {
		if _, err := ParsePrices(bad); err == nil || !strings.Contains(err.Error(), "\"") {
			t.Errorf("%q: %v, want an error naming it", bad, err)
		}
	}
}

func TestWithPrices(t *testing.T) {
	prices, _ := ParsePrices("personal.monthly=2900 CNY")
	offers := WithPrices(NewGate(DefaultTable()).Offers(), prices)
	for _, o := range offers {
		if o.ID == Personal && (o.Prices.Monthly == nil || o.Prices.Monthly.Amount != 2900) {
			t.Errorf("personal offer: %+v", o.Prices)
		}
	}
}

func TestFreeInSoldCurrency(t *testing.T) {
	usd := func(n int64) *Money { return &Money{Amount: n, Currency: "USD"} }
	free := func() Prices { return defaultPrices[Free] }
	for _, c := range []struct {
		name   string
		others []Prices
		want   string
	}{
		{"sold in one currency", []Prices{{Once: usd(2000)}, {Monthly: usd(2000), Yearly: usd(20000)}}, "USD"},
		{"nothing sold", []Prices{{}, {}}, "CNY"},
		{"mixed currencies", []Prices{{Once: &Money{Amount: 100, Currency: "CNY"}}, {Monthly: usd(2000)}}, "CNY"},
	} {
		offers := []Offer{{ID: Free, Prices: free()}}
		for _, p := range c.others {
			offers = append(offers, Offer{ID: Personal, Prices: p})
		}
		FreeInSoldCurrency(offers)
		if m, y := offers[0].Prices.Monthly, offers[0].Prices.Yearly; m.Currency != c.want || y.Currency != c.want || m.Amount != 0 {
			t.Errorf("%s: free at %+v %+v, want 0 %s", c.name, m, y, c.want)
		}
	}
	if defaultPrices[Free].Monthly.Currency != "CNY" {
		t.Errorf("the catalogue's free price was changed: %+v", defaultPrices[Free].Monthly)
	}
}
