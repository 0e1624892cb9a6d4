package httpapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/billing"
)

// billingOn answers 409 billing_disabled and false when billing is off (no STRIPE_SECRET_KEY).
func (s *Server) billingOn(c *gin.Context) bool {
	if s.billing != nil {
		return true
	}
	s.fail(c, apperr.Errorf(apperr.Conflict, "billing is off on this service: an operator sets plans").For("billing_disabled", ""))
	return false
}

type checkoutRequest struct {
	Plan     string `json:"plan"`
	Interval string `json:"interval"`
}

type urlAnswer struct {
	URL string `json:"url"`
}

// checkout opens a Stripe Checkout Session subscribing the workspace to a plan.
func (s *Server) checkout(c *gin.Context) {
	if !s.billingOn(c) {
		return
	}
	var in checkoutRequest
	if !s.bind(c, &in) {
		return
	}
	url, err := s.billing.Checkout(c.Request.Context(), workspaceID(c), in.Plan, in.Interval)
	s.reply(c, http.StatusOK, urlAnswer{URL: url}, err)
}

// billingPortal opens a Stripe customer-portal session of the workspace's customer.
func (s *Server) billingPortal(c *gin.Context) {
	if !s.billingOn(c) {
		return
	}
	url, err := s.billing.Portal(c.Request.Context(), workspaceID(c))
	s.reply(c, http.StatusOK, urlAnswer{URL: url}, err)
}

// getBilling answers the workspace's plan, subscription and newest invoices.
func (s *Server) getBilling(c *gin.Context) {
	if !s.billingOn(c) {
		return
	}
	o, err := s.billing.Overview(c.Request.Context(), workspaceID(c))
	s.replyNoStore(c, o, err)
}

// trialCheckout is POST …/trial with billing on: a Checkout Session for the trial's one-off
// payment, whose success (the webhook) starts the trial. Paying is the owner's, as for a
// subscription (docs/rules-and-plans.md, "Billing on Stripe"): an admin, who may start the free
// trial without billing, is refused here as at …/billing/checkout.
func (s *Server) trialCheckout(c *gin.Context) {
	if role := roleOf(c); !account.RoleAllows(role, account.PermOwn) {
		s.fail(c, roleForbidden(role))
		return
	}
	url, err := s.billing.TrialCheckout(c.Request.Context(), workspaceID(c))
	s.reply(c, http.StatusOK, urlAnswer{URL: url}, err)
}

// billingWebhook applies one of Stripe's events. The signature is checked before anything
// else; each event is applied once, so Stripe's retries and replays change nothing twice.
func (s *Server) billingWebhook(c *gin.Context) {
	if !s.billingOn(c) {
		return
	}
	payload, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, s.maxBody))
	if err != nil {
		s.fail(c, err)
		return
	}
	e, err := s.billing.Event(payload, c.GetHeader("Stripe-Signature"))
	if errors.Is(err, billing.ErrSignature) {
		s.webhookFailed(c, "signature", err)
		s.fail(c, apperr.Errorf(apperr.Invalid, "the Stripe-Signature header is missing, malformed, too old or does not match").For("webhook_signature", ""))
		return
	}
	if err != nil {
		s.webhookFailed(c, "unparsable", err)
		s.fail(c, apperr.Errorf(apperr.Invalid, "the event cannot be read: %v", err).For("json_invalid", ""))
		return
	}
	if !billing.Handled(e.Type) {
		c.JSON(http.StatusOK, gin.H{"received": true, "applied": false})
		return
	}
	ws, err := s.billing.Handle(c.Request.Context(), e)
	if err != nil {
		s.webhookFailed(c, "store", err, "event", e.ID, "type", e.Type)
		s.fail(c, err) // a 500: Stripe retries the event
		return
	}
	if ws != 0 {
		s.rates.forget(ws) // the plan's request budget changes with it
	}
	c.JSON(http.StatusOK, gin.H{"received": true})
}

// webhookFailures counts the webhook calls that applied nothing, by reason: "signature" (missing,
// forged or too old), "unparsable" (signed but no event) and "store" (the database failed; Stripe
// retries). Operators alert on it: a wrong STRIPE_WEBHOOK_SECRET refuses every event.
var webhookFailures = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shortlink_billing_webhook_failures_total",
	Help: "Stripe webhook calls that applied nothing, by reason (signature, unparsable, store).",
}, []string{"reason"})

// webhookFailureReasons are the values of webhookFailures' reason label.
var webhookFailureReasons = []string{"signature", "unparsable", "store"}

// showWebhookFailures puts each reason's series on /metrics at 0, so that an alert on its
// increase sees the first failure.
func showWebhookFailures() {
	for _, r := range webhookFailureReasons {
		webhookFailures.WithLabelValues(r)
	}
}

// webhookFailed counts a failed webhook call and logs it with its reason.
func (s *Server) webhookFailed(c *gin.Context, reason string, err error, attrs ...any) {
	webhookFailures.WithLabelValues(reason).Inc()
	s.log.Warn("billing: webhook failed", append([]any{"reason", reason, "err", err,
		"request_id", c.GetString(requestIDKey)}, attrs...)...)
}
