package billing

import (
	"testing"

	"github.com/shortlink/shortlink/backend/plan"
)

func TestMislisted(t *testing.T) {
	for _, c := range []struct {
		m        plan.Money
		interval string
		want     string
	}{
		{plan.Money{Amount: 2000, Interval: "month", IntervalCount: 1}, "month", ""},
		{plan.Money{Amount: 20000, Interval: "year", IntervalCount: 1}, "year", ""},
		{plan.Money{Amount: 100}, "", ""},
		// Not read from the provider: nothing to contradict.
		{plan.Money{Amount: 2000}, "month", ""},
		{plan.Money{Amount: 2000, Interval: "month", IntervalCount: 1}, "year", "charged every 1 month, not every year"},
		{plan.Money{Amount: 5000, Interval: "month", IntervalCount: 3}, "month", "charged every 3 month, not every month"},
		{plan.Money{Amount: 100, Interval: "month", IntervalCount: 1}, "", "recurring every 1 month, not a one-off payment"},
	} {
		if got := Mislisted(c.m, c.interval); got != c.want {
			t.Errorf("Mislisted(%+v, %q) = %q, want %q", c.m, c.interval, got, c.want)
		}
	}
}
