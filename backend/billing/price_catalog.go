package billing

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/shortlink/shortlink/backend/plan"
)

// PriceTTL is how long the prices read from Stripe's Price objects are kept before they are
// read again: a price changed in Stripe's dashboard shows within it.
const PriceTTL = 10 * time.Minute

// priceCatalog keeps the plans' prices as Stripe last gave them.
type priceCatalog struct {
	mu     sync.Mutex
	at     time.Time
	prices map[string]plan.Prices
}

// PlanPrices are what each plan sold through Stripe costs, by plan name, read from the Price
// objects of STRIPE_PRICES (cached for PriceTTL): personal and enterprise monthly and yearly,
// the trial once. A plan missing here cannot be bought. Errors when Stripe cannot be read: the
// caller then offers nothing to buy rather than a price it does not know.
func (s *Service) PlanPrices(ctx context.Context) (map[string]plan.Prices, error) {
	c := s.catalog
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if s.now != nil {
		now = s.now()
	}
	if c.prices != nil && now.Sub(c.at) < PriceTTL {
		return c.prices, nil
	}
	read := func(id string) (*plan.Money, error) {
		if id == "" {
			return nil, nil
		}
		m, err := s.payments.Price(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("read price %s: %w", id, err)
		}
		return &m, nil
	}
	out := map[string]plan.Prices{}
	for _, name := range Plans {
		var p plan.Prices
		var err error
		month, _ := s.prices.ID(name, "month")
		year, _ := s.prices.ID(name, "year")
		if p.Monthly, err = read(month); err != nil {
			return nil, err
		}
		if p.Yearly, err = read(year); err != nil {
			return nil, err
		}
		s.warnMislisted(name+".month", month, p.Monthly, "month")
		s.warnMislisted(name+".year", year, p.Yearly, "year")
		if p.Monthly != nil || p.Yearly != nil {
			out[name] = p
		}
	}
	once, err := read(s.prices.Trial())
	if err != nil {
		return nil, err
	}
	if once != nil {
		s.warnMislisted("trial", s.prices.Trial(), once, "")
		once.Interval, once.IntervalCount = "", 0
		out[plan.Trial] = plan.Prices{Once: once}
	}
	c.prices, c.at = out, now
	return out, nil
}

// Mislisted says how a price read from Stripe disagrees with the key STRIPE_PRICES lists it
// under ("personal.year" charged every month, "trial" charged again and again, every three
// months where the key says every month), or "" when it agrees. A price not read from the
// provider (no interval known) agrees.
func Mislisted(m plan.Money, interval string) string {
	if m.Interval == "" && interval != "" {
		return ""
	}
	switch {
	case interval == "" && m.Interval != "":
		return fmt.Sprintf("recurring every %d %s, not a one-off payment", max(m.IntervalCount, 1), m.Interval)
	case interval != "" && (m.Interval != interval || max(m.IntervalCount, 1) != 1):
		return fmt.Sprintf("charged every %d %s, not every %s", max(m.IntervalCount, 1), m.Interval, interval)
	}
	return ""
}

// warnMislisted logs a price listed in STRIPE_PRICES under a key its Price object contradicts
// (docs/billing.md, "Prices"): the plans listing shows the price as Stripe charges it, but
// Checkout of that interval would sell it.
func (s *Service) warnMislisted(key, id string, m *plan.Money, interval string) {
	if m == nil || s.log == nil {
		return
	}
	if why := Mislisted(*m, interval); why != "" {
		s.log.Warn("STRIPE_PRICES lists a price under a key its Stripe Price contradicts", "key", key, "price", id, "stripe", why)
	}
}
