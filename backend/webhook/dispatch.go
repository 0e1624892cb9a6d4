package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shortlink/shortlink/backend/locale"
	"github.com/shortlink/shortlink/backend/netguard"
	"github.com/shortlink/shortlink/backend/plan"
)

// Sender posts deliveries to receivers: the one HTTP client of webhooks. It connects only
// through the address guard and follows no redirect (a 3xx is a failure), so no hop can lead
// to a refused address.
type Sender struct {
	client *http.Client
}

// NewSender returns a Sender whose guard lets loopback addresses through when allowLoopback
// (tests only).
func NewSender(allowLoopback bool) *Sender {
	dialer := &netguard.Dialer{AllowLoopback: allowLoopback, Timeout: Timeout}
	return &Sender{client: &http.Client{
		Timeout: Timeout,
		Transport: &http.Transport{
			Proxy:                 nil, // a proxy would connect where the guard cannot see
			DialContext:           dialer.DialContext,
			TLSHandshakeTimeout:   Timeout,
			ResponseHeaderTimeout: Timeout,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Body is a delivery's JSON body: {"id", "type", "created_at", "data"}.
func Body(d Delivery) ([]byte, error) {
	data := d.Data
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	return json.Marshal(struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		CreatedAt time.Time       `json:"created_at"`
		Data      json.RawMessage `json:"data"`
	}{d.MessageID, d.Event, d.CreatedAt.UTC(), data})
}

// Send posts one attempt of c, signed at now; it answers the receiver's status code (0 when
// none came), what was sent and got back, and an error when the attempt did not deliver.
func (s *Sender) Send(ctx context.Context, c Claimed, now time.Time) (int, Exchange, error) {
	var ex Exchange
	body, err := Body(c.Delivery)
	if err != nil {
		return 0, ex, fmt.Errorf("webhook body: %w", err)
	}
	ts := now.Unix()
	sig, err := Sign(c.Secret, c.MessageID, ts, body)
	if err != nil {
		return 0, ex, err
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return 0, ex, fmt.Errorf("webhook request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Shortlink-Webhooks/1.0")
	req.Header.Set("webhook-id", c.MessageID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set(SignatureHeader, sig)
	ex.RequestHeaders = recordedHeaders(req.Header)
	resp, err := s.client.Do(req)
	if err != nil {
		if netguard.IsRefused(err) {
			var r *netguard.RefusedError
			errors.As(err, &r)
			return 0, ex, errors.New("address refused: " + r.Reason)
		}
		return 0, ex, err
	}
	// The answer's first bytes are kept, one more telling whether there were more; the rest,
	// up to 64 KiB, is read so the connection can be used again.
	head, _ := io.ReadAll(io.LimitReader(resp.Body, MaxAnswerBody+1))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	ex.Answer, ex.AnswerTruncated = AnswerText(head)
	ex.AnswerContentType = contentTypeOf(resp.Header)
	if !Accepted(resp.StatusCode) {
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			return resp.StatusCode, ex, fmt.Errorf("status %d: redirects are not followed", resp.StatusCode)
		}
		return resp.StatusCode, ex, fmt.Errorf("status %d", resp.StatusCode)
	}
	return resp.StatusCode, ex, nil
}

// Mailer sends one mail; mail.SMTP is one.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Plans says whether a workspace's plan has a feature now, from a cache of at most
// plan.CacheTTL; *plan.Service is one.
type Plans interface {
	Allows(ctx context.Context, workspaceID int64, f plan.Feature) (bool, error)
}

// DispatcherOptions configure a Dispatcher.
type DispatcherOptions struct {
	Store  Store
	Sender *Sender
	// Plans is asked before every send whether the workspace's plan still has webhooks;
	// nil sends every delivery.
	Plans Plans
	// Mail tells owners of disabled webhooks; nil: the log does.
	Mail Mailer
	// RetryDelays are the waits before each retry (WEBHOOK_RETRY_DELAYS).
	RetryDelays []time.Duration
	// DisableAfter is the failed deliveries in a row that disable a webhook.
	DisableAfter int
	// AppURL is the web app's address, for the mail.
	AppURL string
	Log    *slog.Logger
}

// Dispatcher sends due deliveries of the outbox. Every node runs one: a delivery is leased
// to one dispatcher at a time, and one that dies mid-send leaves it to be claimed again
// when the lease ends (Standard Webhooks receivers drop a repeated webhook-id).
type Dispatcher struct {
	o     DispatcherOptions
	lease time.Duration
	batch int
	poll  time.Duration
	wake  chan struct{}
	// rounds counts the rounds of Run finished (Rounds).
	rounds atomic.Int64
}

// Rounds answers how many rounds of Run have finished, each a claim of due deliveries and
// their sending: a test waits for a round that began after an event to know the dispatcher
// had its chance to send what the event wrote.
func (d *Dispatcher) Rounds() int64 { return d.rounds.Load() }

// NewDispatcher returns a Dispatcher; Run starts it.
func NewDispatcher(o DispatcherOptions) *Dispatcher {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Dispatcher{o: o, lease: 3 * Timeout, batch: 16, poll: 250 * time.Millisecond, wake: make(chan struct{}, 1)}
}

// UseMail sets the mail that tells owners of disabled webhooks; call it before Run.
func (d *Dispatcher) UseMail(m Mailer) { d.o.Mail = m }

// Wake makes Run look for due deliveries now.
func (d *Dispatcher) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Run sends due deliveries until ctx ends; the deliveries under way finish first.
func (d *Dispatcher) Run(ctx context.Context) {
	t := time.NewTicker(d.poll)
	defer t.Stop()
	for {
		n, err := d.Step(ctx)
		if err != nil && ctx.Err() == nil {
			d.o.Log.Warn("webhooks: claim deliveries", "err", err)
		}
		d.rounds.Add(1)
		if n == d.batch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-d.wake:
		}
	}
}

// Step claims due deliveries and sends them, at once; it answers how many it claimed.
func (d *Dispatcher) Step(ctx context.Context) (int, error) {
	if ctx.Err() != nil {
		return 0, nil
	}
	claimed, err := d.o.Store.Claim(ctx, d.batch, time.Now().Add(d.lease))
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	for _, c := range claimed {
		switch send, err := d.planAllows(ctx, c.WorkspaceID); {
		case err != nil:
			// Not known: nothing is sent, and the lease ends with the delivery due again.
			d.o.Log.Warn("webhooks: read the plan; the delivery waits", "delivery", c.ID, "workspace", c.WorkspaceID, "err", err)
			continue
		case !send:
			d.drop(context.WithoutCancel(ctx), c)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.Deliver(context.WithoutCancel(ctx), c, true)
		}()
	}
	wg.Wait()
	return len(claimed), nil
}

// planAllows reports whether the workspace's plan has webhooks now.
func (d *Dispatcher) planAllows(ctx context.Context, workspaceID int64) (bool, error) {
	if d.o.Plans == nil {
		return true, nil
	}
	return d.o.Plans.Allows(ctx, workspaceID, plan.Webhooks)
}

// DroppedError is the error recorded on a delivery dropped because the workspace's plan does
// not include webhooks (docs/rules-and-plans.md#after-a-downgrade).
const DroppedError = "plan_required: not sent, the workspace's plan does not include webhooks"

// drop records a claimed delivery as failed without sending it: its workspace's plan lost
// webhooks. It is never sent later (no burst of old events when the plan comes back) and
// counts toward no disabling.
func (d *Dispatcher) drop(ctx context.Context, c Claimed) {
	r := Result{ID: c.ID, WebhookID: c.WebhookID, Attempt: c.Attempt + 1, Status: Failed, Error: DroppedError}
	if _, err := d.o.Store.Finish(ctx, r, d.o.DisableAfter); err != nil {
		// The lease ends and the delivery is looked at again.
		d.o.Log.Error("webhooks: record a dropped delivery", "delivery", c.ID, "err", err)
	}
}

// Deliver makes one attempt of a claimed delivery and records it; a test delivery (not
// countsToDisable) is tried once and disables nothing. It answers the delivery as recorded.
func (d *Dispatcher) Deliver(ctx context.Context, c Claimed, countsToDisable bool) Delivery {
	now := time.Now()
	code, ex, err := d.o.Sender.Send(ctx, c, now)
	r := Result{ID: c.ID, WebhookID: c.WebhookID, Attempt: c.Attempt + 1, CountsToDisable: countsToDisable, Status: Delivered, Exchange: ex}
	if code != 0 {
		r.ResponseCode = &code
	}
	if err != nil {
		r.Error = truncate(err.Error(), 500)
		r.Status = Failed
		if countsToDisable {
			if next, ok := NextAttempt(time.Now(), r.Attempt, d.o.RetryDelays); ok {
				r.Status, r.NextAt = Pending, next
			}
		}
	}
	owner, ferr := d.o.Store.Finish(ctx, r, d.o.DisableAfter)
	if ferr != nil {
		// The lease ends and the delivery is tried again.
		d.o.Log.Error("webhooks: record a delivery", "delivery", c.ID, "err", ferr)
	}
	if owner.Email != "" {
		d.disabled(ctx, c, owner, r.Error)
	}
	out := c.Delivery
	out.Attempt, out.Status, out.ResponseCode, out.Error, out.At = r.Attempt, r.Status, r.ResponseCode, r.Error, now
	out.Exchange = ex
	return out
}

// disabled tells the workspace's owner, in their language, that a webhook was disabled.
func (d *Dispatcher) disabled(ctx context.Context, c Claimed, owner locale.Recipient, lastErr string) {
	d.o.Log.Warn("webhooks: disabled after failures in a row", "webhook", c.WebhookID, "workspace", c.WorkspaceID, "failures", d.o.DisableAfter)
	if d.o.Mail == nil {
		return
	}
	subject, body := disabledMail(owner.Language, c, d.o.DisableAfter, lastErr, d.o.AppURL)
	if err := d.o.Mail.Send(ctx, owner.Email, subject, body); err != nil {
		d.o.Log.Warn("webhooks: mail the owner of a disabled webhook", "webhook", c.WebhookID, "err", err)
	}
}

func disabledMail(lang locale.Tag, c Claimed, failures int, lastErr, appURL string) (subject, body string) {
	enable := fmt.Sprintf("PATCH /api/v1/workspaces/%d/webhooks/%d {\"enabled\": true}", c.WorkspaceID, c.WebhookID)
	if lang == locale.Chinese {
		return "您的 Webhook 已停用", fmt.Sprintf("您发往 %s 的 Webhook 连续 %d 次投递失败，已被停用；不会再向它发送事件。\n\n"+
			"最后一次错误：%s\n\n接收方恢复后，请在应用中（%s/app）或使用 %s 重新启用。\n",
			c.URL, failures, lastErr, appURL, enable)
	}
	return "Your webhook was disabled", fmt.Sprintf("Your webhook to %s failed %d deliveries in a row and was disabled; no more events are sent to it.\n\n"+
		"The last error: %s\n\nWhen the receiver works again, enable the webhook in the app (%s/app) or with %s.\n",
		c.URL, failures, lastErr, appURL, enable)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
