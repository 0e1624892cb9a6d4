package billing

import "time"

// The Stripe event types billing applies; any other is acknowledged and ignored.
const (
	CheckoutCompleted    = "checkout.session.completed"
	SubscriptionCreated  = "customer.subscription.created"
	SubscriptionUpdated  = "customer.subscription.updated"
	SubscriptionDeleted  = "customer.subscription.deleted"
	InvoicePaid          = "invoice.paid"
	InvoicePaymentFailed = "invoice.payment_failed"
)

// Handled reports whether events of this type change anything.
func Handled(eventType string) bool {
	switch eventType {
	case CheckoutCompleted, SubscriptionCreated, SubscriptionUpdated, SubscriptionDeleted,
		InvoicePaid, InvoicePaymentFailed:
		return true
	}
	return false
}

// Event is a Stripe event reduced to what billing decides on, read from its own payload.
type Event struct {
	ID      string
	Type    string
	Created time.Time
	// WorkspaceID is the Checkout Session's client_reference_id or the subscription's
	// metadata.workspace_id; 0 when the payload carries neither (invoices).
	WorkspaceID    int64
	CustomerID     string
	SubscriptionID string

	// Checkout sessions: "subscription" or "payment" (the trial), and whether it is paid.
	Mode string
	Paid bool

	// Subscriptions: Stripe's status, the item's price and period end, the cancel flag.
	StripeStatus      string
	PriceID           string
	PeriodEnd         *time.Time
	CancelAtPeriodEnd bool
}

// Outcome is what applying an event decided.
type Outcome struct {
	// Changed is set when Subscription is to be stored.
	Changed      bool
	Subscription Subscription
	// StartTrial is set by a paid trial checkout: the workspace's trial starts (once).
	StartTrial bool
	// Ignored says why the event changes nothing ("" when it does).
	Ignored string
	// Ends names the subscription the event ended ("" when none): an ended subscription is
	// final, and the store remembers it so that no later event about it grants a plan again.
	Ends string
}

// StatusOf maps Stripe's subscription status to the API's.
func StatusOf(stripeStatus string) Status {
	switch stripeStatus {
	case "active", "trialing":
		return Active
	case "past_due", "unpaid":
		return PastDue
	case "canceled", "incomplete_expired":
		return Canceled
	}
	return None
}

// Apply decides how event e changes cur, the workspace's subscription (the zero value with
// Status None when it has none); ended tells whether e's subscription ended before (the store
// remembers every subscription an Outcome.Ends named). An event older (by Created) than the last
// one applied to the same subscription changes nothing; so does an event of another subscription
// while cur's is live, unless that one is active. An ended subscription is final
// (docs/rules-and-plans.md, "Billing on Stripe"): no later event about it, whatever its
// Created, grants a plan again; only its paid period may still end sooner. A new subscription
// replaces it as any other.
func Apply(cur Subscription, e Event, ended bool, prices Prices) Outcome {
	if !Handled(e.Type) {
		return Outcome{Subscription: cur, Ignored: "event type not handled"}
	}
	if cur.Status == "" {
		cur.Status = None
	}
	if e.Type == CheckoutCompleted {
		return applyCheckout(cur, e)
	}
	if e.SubscriptionID == "" {
		return Outcome{Subscription: cur, Ignored: "no subscription"}
	}
	own := cur.SubscriptionID == e.SubscriptionID
	if own && cur.LastEvent != nil && e.Created.Before(*cur.LastEvent) {
		return Outcome{Subscription: cur, Ignored: "stale event"}
	}
	o := applyEvent(cur, e, ended || own && cur.Status == Canceled, prices)
	if ends(e) && (o.Ignored == "" || !own) {
		// Another subscription's end is remembered even when it changes nothing here, so that
		// none of its later events can replace the workspace's own.
		o.Ends = e.SubscriptionID
	}
	return o
}

// ends reports whether e puts its subscription in a terminal state: deleted, or a status
// Stripe never moves out of.
func ends(e Event) bool {
	return e.Type == SubscriptionDeleted ||
		(e.Type == SubscriptionCreated || e.Type == SubscriptionUpdated) && StatusOf(e.StripeStatus) == Canceled
}

// applyEvent is Apply past the checks of the event itself.
func applyEvent(cur Subscription, e Event, ended bool, prices Prices) Outcome {
	if ended {
		return applyEnded(cur, e)
	}
	if cur.SubscriptionID != e.SubscriptionID && cur.LastEvent != nil && e.Created.Before(*cur.LastEvent) {
		return Outcome{Subscription: cur, Ignored: "stale event"}
	}
	invoice := e.Type == InvoicePaid || e.Type == InvoicePaymentFailed
	if invoice && cur.SubscriptionID != e.SubscriptionID {
		// An invoice moves only the subscription the workspace holds; a subscription's own
		// events bring its state, whichever comes first.
		return Outcome{Subscription: cur, Ignored: "invoice of another subscription"}
	}
	next := cur
	if cur.SubscriptionID != "" && cur.SubscriptionID != e.SubscriptionID {
		// Another subscription of the workspace: only an active one replaces a live one.
		if (cur.Status == Active || cur.Status == PastDue) && StatusOf(e.StripeStatus) != Active {
			return Outcome{Subscription: cur, Ignored: "another subscription"}
		}
		next = Subscription{WorkspaceID: cur.WorkspaceID, CustomerID: cur.CustomerID, Status: None}
	}
	next.SubscriptionID = e.SubscriptionID
	if e.CustomerID != "" {
		next.CustomerID = e.CustomerID
	}
	created := e.Created
	next.LastEvent = &created
	if invoice {
		return applyInvoice(cur, next, e)
	}
	return applySubscription(cur, next, e, prices)
}

// applyEnded: an event about an ended subscription changes nothing but, when it is the
// workspace's own and the event says it is still ended, an earlier end of its paid period. Ties
// in Created included: an active status never revives it.
func applyEnded(cur Subscription, e Event) Outcome {
	ignored := Outcome{Subscription: cur, Ignored: "subscription ended"}
	if cur.SubscriptionID != e.SubscriptionID || !ends(e) || e.PeriodEnd == nil || cur.PeriodEnd == nil ||
		!e.PeriodEnd.Before(*cur.PeriodEnd) {
		return ignored
	}
	next := cur
	end, created := *e.PeriodEnd, e.Created
	next.PeriodEnd, next.LastEvent = &end, &created
	return Outcome{Changed: true, Subscription: next}
}

// applyCheckout: a paid trial checkout starts the trial; a subscription checkout names the
// customer and subscription, whose state comes with the subscription's own events.
func applyCheckout(cur Subscription, e Event) Outcome {
	next := cur
	if e.Mode == "payment" {
		if !e.Paid {
			return Outcome{Subscription: cur, Ignored: "trial checkout not paid"}
		}
		if next.CustomerID == "" && e.CustomerID != "" {
			next.CustomerID = e.CustomerID
			return Outcome{Changed: true, Subscription: next, StartTrial: true}
		}
		return Outcome{Subscription: cur, StartTrial: true}
	}
	if e.CustomerID != "" {
		next.CustomerID = e.CustomerID
	}
	if e.SubscriptionID != "" && cur.SubscriptionID == "" {
		next.SubscriptionID = e.SubscriptionID
	}
	if next == cur {
		return Outcome{Subscription: cur, Ignored: "nothing new"}
	}
	return Outcome{Changed: true, Subscription: next}
}

// applySubscription takes a subscription event's status, plan, period and cancel flag.
func applySubscription(cur, next Subscription, e Event, prices Prices) Outcome {
	st := StatusOf(e.StripeStatus)
	if e.Type == SubscriptionDeleted {
		st = Canceled
	}
	if pl, iv, ok := prices.Plan(e.PriceID); ok {
		next.Plan, next.Interval = pl, iv
	} else if e.PriceID != "" {
		return Outcome{Subscription: cur, Ignored: "price not in STRIPE_PRICES"}
	}
	if e.PeriodEnd != nil {
		end := *e.PeriodEnd
		next.PeriodEnd = &end
	}
	next.CancelAtPeriodEnd = e.CancelAtPeriodEnd
	if st != None {
		next.Status = st
	}
	next.PastDueSince = pastDueSince(next, cur, e.Created)
	return Outcome{Changed: true, Subscription: next}
}

// applyInvoice: a paid invoice ends a past-due state, a failed one starts it.
func applyInvoice(cur, next Subscription, e Event) Outcome {
	if e.Type == InvoicePaid {
		if next.Status == PastDue || next.Status == None {
			next.Status = Active
		}
		next.PastDueSince = nil
	} else {
		if next.Status == Active || next.Status == None {
			next.Status = PastDue
		}
		next.PastDueSince = pastDueSince(next, cur, e.Created)
	}
	return Outcome{Changed: true, Subscription: next}
}

// pastDueSince keeps the time a subscription first fell past due across later events, so that
// repeated failures do not stretch the grace.
func pastDueSince(next, cur Subscription, at time.Time) *time.Time {
	if next.Status != PastDue {
		return nil
	}
	if cur.Status == PastDue && cur.PastDueSince != nil && cur.SubscriptionID == next.SubscriptionID {
		return cur.PastDueSince
	}
	return &at
}
