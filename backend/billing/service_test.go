package billing

import (
	"context"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
)

// pages is a Payments that keeps the addresses it was asked to send people back to.
type pages struct {
	checkout CheckoutRequest
	portal   string
}

func (p *pages) Event([]byte, string) (Event, error) { return Event{}, nil }
func (p *pages) Checkout(_ context.Context, r CheckoutRequest) (string, error) {
	p.checkout = r
	return "https://checkout.stripe.com/c/pay/x", nil
}
func (p *pages) Portal(_ context.Context, _, returnURL string) (string, error) {
	p.portal = returnURL
	return "https://billing.stripe.com/p/session/x", nil
}
func (p *pages) Invoices(context.Context, string, int) ([]Invoice, error) { return nil, nil }
func (p *pages) Price(context.Context, string) (plan.Money, error)        { return plan.Money{}, nil }

// oneSubscription is a Store holding one workspace's subscription.
type oneSubscription struct{ sub Subscription }

func (s oneSubscription) Apply(context.Context, Event, func(Subscription, bool) Decision) (bool, error) {
	return true, nil
}
func (s oneSubscription) Subscription(context.Context, int64) (Subscription, error) {
	return s.sub, nil
}

// TestReturnAddresses: the payment pages send people back to the web app's pages (under /app)
// of the workspace they paid for.
func TestReturnAddresses(t *testing.T) {
	t.Parallel()
	p := &pages{}
	svc := NewService(Options{Store: oneSubscription{Subscription{Status: None, CustomerID: "cus_1"}}, Payments: p,
		Prices: mustPrices(t), AppURL: "https://sho.rt/"})
	if _, err := svc.Checkout(context.Background(), 7, "enterprise", Year); err != nil {
		t.Fatal(err)
	}
	if p.checkout.SuccessURL != "https://sho.rt/app/plan?workspace=7&checkout=success&plan=enterprise" ||
		p.checkout.CancelURL != "https://sho.rt/app/plan?workspace=7&checkout=canceled" || p.checkout.PriceID != "price_ey" {
		t.Errorf("checkout: %+v", p.checkout)
	}
	if _, err := svc.Portal(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	if p.portal != "https://sho.rt/app/billing?workspace=7" {
		t.Errorf("portal returns to %s", p.portal)
	}
}

// TestCheckoutOnlyPricedPlans: a plan and interval with no price in STRIPE_PRICES is sold on
// request, and nobody is sent to a payment page for it.
func TestCheckoutOnlyPricedPlans(t *testing.T) {
	t.Parallel()
	p := &pages{}
	svc := NewService(Options{Store: oneSubscription{Subscription{Status: None}}, Payments: p, AppURL: "https://sho.rt/"})
	for _, c := range []struct{ plan, interval string }{{"enterprise", Month}, {"personal", Year}} {
		_, err := svc.Checkout(context.Background(), 7, c.plan, c.interval)
		if apperr.CodeOf(err) != apperr.Conflict || apperr.ReasonOf(err) != "plan_on_request" {
			t.Errorf("%s every %s: %v", c.plan, c.interval, err)
		}
	}
	if p.checkout.PriceID != "" || p.checkout.SuccessURL != "" {
		t.Errorf("sent to pay for a plan on request: %+v", p.checkout)
	}
}
