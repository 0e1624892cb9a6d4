package stripe

import (
	"errors"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/billing"
)

// Events are read from their own payload, whether Stripe sends IDs or expanded objects.
func TestEvent(t *testing.T) {
	c := New("sk_test_1", "whsec_1", "http://127.0.0.1:1", []string{"card"})
	now := time.Now()
	for _, tc := range []struct {
		name, payload string
		want          billing.Event
	}{
		{"checkout", `{"id":"evt_1","type":"checkout.session.completed","created":1700000000,"data":{"object":{"object":"checkout.session",
			"client_reference_id":"42","mode":"subscription","payment_status":"paid","customer":{"id":"cus_1","object":"customer"},"subscription":"sub_1"}}}`,
			billing.Event{ID: "evt_1", Type: billing.CheckoutCompleted, WorkspaceID: 42, CustomerID: "cus_1", SubscriptionID: "sub_1", Mode: "subscription", Paid: true}},
		{"subscription", `{"id":"evt_2","type":"customer.subscription.updated","created":1700000000,"data":{"object":{"id":"sub_1","object":"subscription",
			"customer":"cus_1","status":"past_due","cancel_at_period_end":true,"metadata":{"workspace_id":"42"},
			"items":{"object":"list","data":[{"id":"si_1","price":{"id":"price_pm"},"current_period_end":1700086400}]}}}}`,
			billing.Event{ID: "evt_2", Type: billing.SubscriptionUpdated, WorkspaceID: 42, CustomerID: "cus_1", SubscriptionID: "sub_1",
				StripeStatus: "past_due", PriceID: "price_pm", CancelAtPeriodEnd: true}},
		{"invoice", `{"id":"evt_3","type":"invoice.payment_failed","created":1700000000,"data":{"object":{"id":"in_1","object":"invoice","customer":"cus_1",
			"parent":{"type":"subscription_details","subscription_details":{"subscription":"sub_1","metadata":{"workspace_id":"42"}}}}}}`,
			billing.Event{ID: "evt_3", Type: billing.InvoicePaymentFailed, WorkspaceID: 42, CustomerID: "cus_1", SubscriptionID: "sub_1"}},
		{"other", `{"id":"evt_4","type":"charge.refunded","created":1700000000,"data":{"object":{"id":"ch_1"}}}`,
			billing.Event{ID: "evt_4", Type: "charge.refunded"}},
		{"bad workspace", `{"id":"evt_5","type":"checkout.session.completed","created":1700000000,"data":{"object":{"client_reference_id":"-3","mode":"payment"}}}`,
			billing.Event{ID: "evt_5", Type: billing.CheckoutCompleted, Mode: "payment"}},
	} {
		got, err := c.Event([]byte(tc.payload), SignWebhook([]byte(tc.payload), "whsec_1", now))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !got.Created.Equal(time.Unix(1700000000, 0)) {
			t.Errorf("%s: created %v", tc.name, got.Created)
		}
		if tc.name == "subscription" && (got.PeriodEnd == nil || got.PeriodEnd.Unix() != 1700086400) {
			t.Errorf("%s: period end %v", tc.name, got.PeriodEnd)
		}
		got.Created, got.PeriodEnd = time.Time{}, nil
		if got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	payload := []byte(`{"id":"evt_1","type":"invoice.paid","created":1700000000,"data":{"object":{}}}`)
	for name, sig := range map[string]string{
		"none": "", "other secret": SignWebhook(payload, "whsec_2", now), "old": SignWebhook(payload, "whsec_1", now.Add(-6*time.Minute)),
		"garbage": "t=1,v1=00",
	} {
		if _, err := c.Event(payload, sig); !errors.Is(err, billing.ErrSignature) {
			t.Errorf("signature %s: %v", name, err)
		}
	}
}
