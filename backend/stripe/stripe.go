// Package stripe is billing's side of Stripe, the only package that imports stripe-go: it
// checks and reads webhook events into billing.Events, and opens Checkout and customer-portal
// sessions and lists invoices through Stripe's API (or STRIPE_API_BASE's stand-in).
package stripe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/shortlink/shortlink/backend/billing"
	"github.com/shortlink/shortlink/backend/plan"
)

// Tolerance is how old a webhook signature's timestamp may be.
const Tolerance = 5 * time.Minute

// Client implements billing.Payments over Stripe.
type Client struct {
	api           *stripego.Client
	webhookSecret string
	methods       []string
}

var _ billing.Payments = (*Client)(nil)

// New returns a client with the secret key, the webhook's signing secret, the payment method
// types Checkout offers, and the API's base URL ("" for Stripe's own).
func New(secretKey, webhookSecret, apiBase string, methods []string) *Client {
	cfg := &stripego.BackendConfig{
		HTTPClient:        &http.Client{Timeout: 20 * time.Second},
		LeveledLogger:     &stripego.LeveledLogger{Level: stripego.LevelError},
		MaxNetworkRetries: stripego.Int64(2),
	}
	if apiBase != "" {
		cfg.URL = stripego.String(apiBase)
	}
	return &Client{
		api:           stripego.NewClient(secretKey, stripego.WithBackends(stripego.NewBackendsWithConfig(cfg))),
		webhookSecret: webhookSecret,
		methods:       methods,
	}
}

// SignWebhook is the Stripe-Signature header Stripe would send with payload, signed with the
// webhook's secret at the given time; for tests and tools that play Stripe's part.
func SignWebhook(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// Event implements billing.Payments: the payload's signature is checked against the webhook
// secret within Tolerance, then the event is read from its own payload.
func (c *Client) Event(payload []byte, signature string) (billing.Event, error) {
	if err := webhook.ValidatePayloadWithTolerance(payload, signature, c.webhookSecret, Tolerance); err != nil {
		return billing.Event{}, fmt.Errorf("%w: %v", billing.ErrSignature, err)
	}
	// Read whatever API version the endpoint was created with: only the fields below are used.
	var ev stripego.Event
	if err := json.Unmarshal(payload, &ev); err != nil {
		return billing.Event{}, fmt.Errorf("read event: %w", err)
	}
	if ev.ID == "" || ev.Type == "" {
		return billing.Event{}, errors.New("read event: no id or type")
	}
	out := billing.Event{ID: ev.ID, Type: string(ev.Type), Created: time.Unix(ev.Created, 0).UTC()}
	if !billing.Handled(out.Type) || ev.Data == nil {
		return out, nil
	}
	raw := ev.Data.Raw
	switch out.Type {
	case billing.CheckoutCompleted:
		var s stripego.CheckoutSession
		if err := json.Unmarshal(raw, &s); err != nil {
			return out, fmt.Errorf("read checkout session: %w", err)
		}
		out.WorkspaceID = workspaceID(s.ClientReferenceID)
		if out.WorkspaceID == 0 {
			out.WorkspaceID = workspaceID(s.Metadata["workspace_id"])
		}
		out.Mode = string(s.Mode)
		out.Paid = s.PaymentStatus == stripego.CheckoutSessionPaymentStatusPaid ||
			s.PaymentStatus == stripego.CheckoutSessionPaymentStatusNoPaymentRequired
		if s.Customer != nil {
			out.CustomerID = s.Customer.ID
		}
		if s.Subscription != nil {
			out.SubscriptionID = s.Subscription.ID
		}
	case billing.SubscriptionCreated, billing.SubscriptionUpdated, billing.SubscriptionDeleted:
		var s stripego.Subscription
		if err := json.Unmarshal(raw, &s); err != nil {
			return out, fmt.Errorf("read subscription: %w", err)
		}
		out.WorkspaceID = workspaceID(s.Metadata["workspace_id"])
		out.SubscriptionID = s.ID
		if s.Customer != nil {
			out.CustomerID = s.Customer.ID
		}
		out.StripeStatus = string(s.Status)
		out.CancelAtPeriodEnd = s.CancelAtPeriodEnd
		if s.Items != nil && len(s.Items.Data) > 0 {
			it := s.Items.Data[0]
			if it.Price != nil {
				out.PriceID = it.Price.ID
			}
			if it.CurrentPeriodEnd > 0 {
				end := time.Unix(it.CurrentPeriodEnd, 0).UTC()
				out.PeriodEnd = &end
			}
		}
		if out.Type == billing.SubscriptionDeleted && s.EndedAt > 0 && out.PeriodEnd == nil {
			end := time.Unix(s.EndedAt, 0).UTC()
			out.PeriodEnd = &end
		}
	case billing.InvoicePaid, billing.InvoicePaymentFailed:
		var inv stripego.Invoice
		if err := json.Unmarshal(raw, &inv); err != nil {
			return out, fmt.Errorf("read invoice: %w", err)
		}
		if inv.Customer != nil {
			out.CustomerID = inv.Customer.ID
		}
		if inv.Parent != nil && inv.Parent.SubscriptionDetails != nil {
			d := inv.Parent.SubscriptionDetails
			out.WorkspaceID = workspaceID(d.Metadata["workspace_id"])
			if d.Subscription != nil {
				out.SubscriptionID = d.Subscription.ID
			}
		}
	}
	return out, nil
}

func workspaceID(s string) int64 {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		return 0
	}
	return id
}

// Checkout implements billing.Payments.
func (c *Client) Checkout(ctx context.Context, r billing.CheckoutRequest) (string, error) {
	ws := strconv.FormatInt(r.WorkspaceID, 10)
	p := &stripego.CheckoutSessionCreateParams{
		ClientReferenceID:  stripego.String(ws),
		SuccessURL:         stripego.String(r.SuccessURL),
		CancelURL:          stripego.String(r.CancelURL),
		LineItems:          []*stripego.CheckoutSessionCreateLineItemParams{{Price: stripego.String(r.PriceID), Quantity: stripego.Int64(1)}},
		PaymentMethodTypes: stripego.StringSlice(c.methods),
		Metadata:           map[string]string{"workspace_id": ws},
	}
	if r.CustomerID != "" {
		p.Customer = stripego.String(r.CustomerID)
	}
	if slices.Contains(c.methods, "wechat_pay") {
		// Checkout shows WeChat Pay's QR code in a browser; Stripe requires the client named.
		p.PaymentMethodOptions = &stripego.CheckoutSessionCreatePaymentMethodOptionsParams{
			WeChatPay: &stripego.CheckoutSessionCreatePaymentMethodOptionsWeChatPayParams{Client: stripego.String("web")}}
	}
	if r.Subscription {
		p.Mode = stripego.String(string(stripego.CheckoutSessionModeSubscription))
		p.SubscriptionData = &stripego.CheckoutSessionCreateSubscriptionDataParams{
			Metadata: map[string]string{"workspace_id": ws},
		}
	} else {
		p.Mode = stripego.String(string(stripego.CheckoutSessionModePayment))
		if r.CustomerID == "" {
			p.CustomerCreation = stripego.String(string(stripego.CheckoutSessionCustomerCreationAlways))
		}
	}
	s, err := c.api.V1CheckoutSessions.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("stripe checkout session: %w", err)
	}
	return s.URL, nil
}

// Portal implements billing.Payments.
func (c *Client) Portal(ctx context.Context, customerID, returnURL string) (string, error) {
	s, err := c.api.V1BillingPortalSessions.Create(ctx, &stripego.BillingPortalSessionCreateParams{
		Customer: stripego.String(customerID), ReturnURL: stripego.String(returnURL)})
	if err != nil {
		return "", fmt.Errorf("stripe portal session: %w", err)
	}
	return s.URL, nil
}

// Invoices implements billing.Payments: the customer's newest invoices, at most limit.
func (c *Client) Invoices(ctx context.Context, customerID string, limit int) ([]billing.Invoice, error) {
	out := []billing.Invoice{}
	p := &stripego.InvoiceListParams{Customer: stripego.String(customerID)}
	p.Limit = stripego.Int64(int64(limit))
	for inv, err := range c.api.V1Invoices.List(ctx, p) {
		if err != nil {
			return nil, fmt.Errorf("stripe invoices: %w", err)
		}
		out = append(out, billing.Invoice{ID: inv.ID, Number: inv.Number, Amount: inv.AmountDue,
			Currency: string(inv.Currency), Status: string(inv.Status), Created: time.Unix(inv.Created, 0).UTC(),
			HostedInvoiceURL: inv.HostedInvoiceURL})
		if len(out) >= limit {
			break
		}
	}
	return out, nil
}

// Price implements billing.Payments: the amount, currency and interval of a Price object.
func (c *Client) Price(ctx context.Context, priceID string) (plan.Money, error) {
	p, err := c.api.V1Prices.Retrieve(ctx, priceID, nil)
	if err != nil {
		return plan.Money{}, fmt.Errorf("stripe price: %w", err)
	}
	m := plan.Money{Amount: p.UnitAmount, Currency: strings.ToUpper(string(p.Currency))}
	if p.Recurring != nil {
		m.Interval, m.IntervalCount = string(p.Recurring.Interval), max(p.Recurring.IntervalCount, 1)
	}
	return m, nil
}
