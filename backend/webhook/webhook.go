// Package webhook holds a workspace's webhooks: the events they subscribe to, their signing
// as the Standard Webhooks specification says, the schedule of retries and the rule that
// disables a webhook that keeps failing. The deliveries wait in an outbox in PostgreSQL
// (backend/postgres); the Dispatcher sends them through the address guard (backend/netguard).
package webhook

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/locale"
)

// The events a webhook may subscribe to; the names are part of the API (docs/api.md).
const (
	LinkCreated    = "link.created"
	LinkUpdated    = "link.updated"
	LinkDeleted    = "link.deleted"
	LinkClicked    = "link.clicked"
	LinkBanned     = "link.banned"
	DomainVerified = "domain.verified"
	ImportFinished = "import.finished"
	// Test is the event of the test button; no webhook subscribes to it.
	Test = "webhook.test"
)

// Events lists every event a webhook may subscribe to.
var Events = []string{LinkCreated, LinkUpdated, LinkDeleted, LinkClicked, LinkBanned, DomainVerified, ImportFinished}

// Retention is how long the log keeps a delivery that was delivered or failed.
const Retention = 30 * 24 * time.Hour

// MaxClicks is how many clicks one link.clicked delivery carries at most.
const MaxClicks = 1000

// Timeout is how long a receiver has to answer: a 2xx within it is delivered.
const Timeout = 10 * time.Second

// maxURLLength bounds a webhook's URL.
const maxURLLength = 2048

// Delivery statuses.
const (
	Pending   = "pending"
	Delivered = "delivered"
	Failed    = "failed"
)

// Webhook is a workspace's subscription. Secret is shown once, at creation.
type Webhook struct {
	ID            int64
	WorkspaceID   int64
	URL           string
	Events        []string
	Secret        string
	Enabled       bool
	FailuresInRow int
	CreatedAt     time.Time
}

// Patch is an edit of a webhook: each field set when present.
type Patch struct {
	URL     *string
	Events  []string // nil: unchanged
	Enabled *bool
}

// Delivery is one message to one webhook, with what its last attempt got.
type Delivery struct {
	ID           int64
	WebhookID    int64
	WorkspaceID  int64
	MessageID    string
	Event        string
	CreatedAt    time.Time
	Data         json.RawMessage
	Attempt      int
	Status       string
	ResponseCode *int
	Error        string
	At           time.Time
	// Exchange is what the last attempt sent and got back (empty before any).
	Exchange
	// ResentFrom is the delivery this one sent again, if any; that one may since be purged.
	ResentFrom *int64
}

// Click is one visit as a link.clicked delivery reports it.
type Click struct {
	WorkspaceID int64     `json:"-"`
	LinkID      int64     `json:"link_id"`
	At          time.Time `json:"at"`
	Country     string    `json:"country,omitempty"`
	Device      string    `json:"device,omitempty"`
	OS          string    `json:"os,omitempty"`
	Browser     string    `json:"browser,omitempty"`
	Referrer    string    `json:"referrer,omitempty"`
	Bot         bool      `json:"bot,omitempty"`
}

// Store keeps webhooks and their outbox. Methods taking a workspace return NotFound for a
// webhook of another workspace.
type Store interface {
	Create(ctx context.Context, w *Webhook) error
	List(ctx context.Context, workspaceID int64) ([]Webhook, error)
	Get(ctx context.Context, workspaceID, id int64) (*Webhook, error)
	Update(ctx context.Context, workspaceID, id int64, p Patch) (*Webhook, error)
	Delete(ctx context.Context, workspaceID, id int64) error
	Deliveries(ctx context.Context, workspaceID, id int64, limit int) ([]Delivery, error)
	// Delivery answers one delivery of the webhook id; NotFound unless both are the workspace's.
	Delivery(ctx context.Context, workspaceID, id, deliveryID int64) (*Delivery, error)
	// Resend writes a new delivery of the same message as deliveryID (its event, data and
	// message id), linked to it by ResentFrom and leased to the caller until leaseUntil. In
	// the same transaction, with the webhook's row locked, allow is asked whether the webhook
	// and the original may be sent again; its error is answered as it is.
	Resend(ctx context.Context, workspaceID, id, deliveryID int64, leaseUntil time.Time, allow func(Webhook, Delivery) error) (*Delivery, *Webhook, error)
	// Enqueue writes a delivery of event with data for every enabled webhook of the
	// workspace that subscribes to it.
	Enqueue(ctx context.Context, workspaceID int64, event string, data any) error
	// EnqueueTest writes a test delivery to one webhook, leased to the caller until leaseUntil.
	EnqueueTest(ctx context.Context, workspaceID, id int64, data any, leaseUntil time.Time) (*Delivery, *Webhook, error)
	// Clicked adds clicks to the link.clicked batches of the webhooks that subscribe to
	// them: one batch per webhook and second, of at most MaxClicks clicks.
	Clicked(ctx context.Context, clicks []Click) error
	// Claim leases up to n due deliveries until leaseUntil, with their webhooks; a leased
	// delivery is claimed by no one else until its lease ends.
	Claim(ctx context.Context, n int, leaseUntil time.Time) ([]Claimed, error)
	// Finish records an attempt of a claimed delivery: its new status, the response code
	// and error, when to try again (pending). A delivery that failed for good counts one
	// more failure in a row on its webhook, one delivered clears the count; when the count
	// reaches disableAfter, the webhook is disabled and Finish answers its owner (Email "" otherwise).
	Finish(ctx context.Context, r Result, disableAfter int) (disabledOwner locale.Recipient, err error)
	// PurgeBefore removes the delivered and failed deliveries last tried before t.
	PurgeBefore(ctx context.Context, t time.Time) (int64, error)
}

// Claimed is a delivery leased to a dispatcher, with where and how to send it.
type Claimed struct {
	Delivery
	URL    string
	Secret string
}

// Result is what one attempt of a delivery did.
type Result struct {
	ID           int64
	WebhookID    int64
	Status       string
	Attempt      int
	ResponseCode *int
	Error        string
	NextAt       time.Time
	// CountsToDisable: a test delivery's failure disables nothing.
	CountsToDisable bool
	// Exchange is what the attempt sent and got back.
	Exchange Exchange
}

// ValidateURL checks a webhook's URL: absolute https (http too when allowHTTP, for tests),
// with a host, no credentials, at most 2048 characters.
func ValidateURL(raw string, allowHTTP bool) (*url.URL, error) {
	if raw == "" {
		return nil, apperr.Errorf(apperr.Invalid, "url is required").For("webhook_url_invalid", "url")
	}
	if len(raw) > maxURLLength {
		return nil, apperr.Errorf(apperr.Invalid, "url is longer than %d characters", maxURLLength).For("webhook_url_invalid", "url")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return nil, apperr.Errorf(apperr.Invalid, "url must be an absolute https URL").For("webhook_url_invalid", "url")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !allowHTTP {
			return nil, apperr.Errorf(apperr.Invalid, "url must use https").For("webhook_url_insecure", "url")
		}
	default:
		return nil, apperr.Errorf(apperr.Invalid, "url must be an absolute https URL").For("webhook_url_invalid", "url")
	}
	if u.User != nil {
		return nil, apperr.Errorf(apperr.Invalid, "url must not carry credentials").For("webhook_url_invalid", "url")
	}
	return u, nil
}

// ValidateEvents checks a subscription's events: at least one, each known; it answers them
// without repeats, in the order of Events.
func ValidateEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return nil, apperr.Errorf(apperr.Invalid, "events must name at least one event").For("webhook_events_empty", "events")
	}
	for _, e := range events {
		if !slices.Contains(Events, e) {
			return nil, apperr.Errorf(apperr.Invalid, "unknown event %q (use %s)", e, strings.Join(Events, ", ")).For("webhook_event_unknown", "events")
		}
	}
	out := make([]string, 0, len(events))
	for _, e := range Events {
		if slices.Contains(events, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// NextAttempt is when attempt (1 for the first) of a delivery that just failed is tried
// again: delays[attempt-1] later; ok is false when every retry is spent (the delivery failed).
func NextAttempt(now time.Time, attempt int, delays []time.Duration) (time.Time, bool) {
	if attempt < 1 || attempt > len(delays) {
		return time.Time{}, false
	}
	return now.Add(delays[attempt-1]), true
}

// ShouldDisable says a webhook with failures deliveries failed in a row is disabled.
func ShouldDisable(failures, disableAfter int) bool {
	return disableAfter > 0 && failures >= disableAfter
}

// Accepted says a receiver's status code delivers a message: any 2xx. Redirects are not
// followed, so a 3xx is a failure.
func Accepted(code int) bool { return code >= 200 && code < 300 }
