package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/webhook"
)

// webhookAnswer is a webhook as the API shows it; the secret only at creation.
type webhookAnswer struct {
	ID            int64     `json:"id"`
	URL           string    `json:"url"`
	Events        []string  `json:"events"`
	Enabled       bool      `json:"enabled"`
	FailuresInRow int       `json:"failures_in_row"`
	CreatedAt     time.Time `json:"created_at"`
	Secret        string    `json:"secret,omitempty"`
}

func answerWebhook(w *webhook.Webhook, withSecret bool) webhookAnswer {
	a := webhookAnswer{ID: w.ID, URL: w.URL, Events: w.Events, Enabled: w.Enabled, FailuresInRow: w.FailuresInRow, CreatedAt: w.CreatedAt}
	if withSecret {
		a.Secret = w.Secret
	}
	return a
}

// deliveryAnswer is one delivery of the log.
type deliveryAnswer struct {
	ID           int64     `json:"id"`
	MessageID    string    `json:"message_id"`
	Event        string    `json:"event"`
	Attempt      int       `json:"attempt"`
	Status       string    `json:"status"`
	ResponseCode *int      `json:"response_code"`
	Error        string    `json:"error"`
	At           time.Time `json:"at"`
	// The answer's Content-Type and whether its body was longer than the 4 KiB kept; the
	// bodies themselves only in the delivery's own answer (deliveryDetail).
	ResponseContentType string `json:"response_content_type"`
	ResponseTruncated   bool   `json:"response_truncated"`
	ResentFrom          *int64 `json:"resent_from"`
}

func answerDelivery(d webhook.Delivery) deliveryAnswer {
	return deliveryAnswer{ID: d.ID, MessageID: d.MessageID, Event: d.Event, Attempt: d.Attempt, Status: d.Status,
		ResponseCode: d.ResponseCode, Error: d.Error, At: d.At.UTC(),
		ResponseContentType: d.AnswerContentType, ResponseTruncated: d.AnswerTruncated, ResentFrom: d.ResentFrom}
}

type webhookRequest struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

type webhookPatch struct {
	URL     *string   `json:"url"`
	Events  *[]string `json:"events"`
	Enabled *bool     `json:"enabled"`
}

// webhooksAllowed answers false (and the error) unless the workspace's plan has webhooks.
func (s *Server) webhooksAllowed(c *gin.Context) bool {
	if err := s.plans.Require(c.Request.Context(), workspaceID(c), plan.Webhooks); err != nil {
		s.fail(c, err)
		return false
	}
	return true
}

// webhookOf answers the webhook the path names: not found unless it is the workspace's
// (whatever the plan), then plan_required unless the plan has webhooks.
func (s *Server) webhookOf(c *gin.Context) (*webhook.Webhook, bool) {
	id, ok := s.pathID(c, "id", "webhook")
	if !ok {
		return nil, false
	}
	w, err := s.webhooks.Get(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return nil, false
	}
	return w, s.webhooksAllowed(c)
}

// createWebhook subscribes a URL to events; the answer shows the secret, once.
func (s *Server) createWebhook(c *gin.Context) {
	var in webhookRequest
	if !s.bind(c, &in) || !s.webhooksAllowed(c) {
		return
	}
	w, err := s.webhooks.Create(c.Request.Context(), workspaceID(c), in.URL, in.Events)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.auditedHere(c, audit.WebhookCreated, audit.Target("webhook", w.ID), map[string]any{"url": w.URL, "events": w.Events})
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, answerWebhook(w, true))
}

// listWebhooks answers the workspace's webhooks.
func (s *Server) listWebhooks(c *gin.Context) {
	if !s.webhooksAllowed(c) {
		return
	}
	ws, err := s.webhooks.List(c.Request.Context(), workspaceID(c))
	out := make([]webhookAnswer, len(ws))
	for i := range ws {
		out[i] = answerWebhook(&ws[i], false)
	}
	s.replyNoStore(c, gin.H{"webhooks": out}, err)
}

// getWebhook answers one webhook.
func (s *Server) getWebhook(c *gin.Context) {
	if w, ok := s.webhookOf(c); ok {
		s.replyNoStore(c, answerWebhook(w, false), nil)
	}
}

// updateWebhook edits a webhook's URL, events or enabled state.
func (s *Server) updateWebhook(c *gin.Context) {
	h, ok := s.webhookOf(c)
	if !ok {
		return
	}
	var in webhookPatch
	if !s.bind(c, &in) {
		return
	}
	p := webhook.Patch{URL: in.URL, Enabled: in.Enabled}
	if in.Events != nil {
		p.Events = *in.Events
		if p.Events == nil {
			p.Events = []string{}
		}
	}
	w, err := s.webhooks.Update(c.Request.Context(), workspaceID(c), h.ID, p)
	if err != nil {
		s.fail(c, err)
		return
	}
	// The fields the request set, with their new values.
	changed := map[string]any{}
	if in.URL != nil {
		changed["url"] = w.URL
	}
	if in.Events != nil {
		changed["events"] = w.Events
	}
	if in.Enabled != nil {
		changed["enabled"] = w.Enabled
	}
	s.auditedHere(c, audit.WebhookUpdated, audit.Target("webhook", w.ID), changed)
	s.replyNoStore(c, answerWebhook(w, false), nil)
}

// deleteWebhook removes a webhook and its deliveries.
func (s *Server) deleteWebhook(c *gin.Context) {
	if h, ok := s.webhookOf(c); ok {
		err := s.webhooks.Delete(c.Request.Context(), workspaceID(c), h.ID)
		if err == nil {
			s.auditedHere(c, audit.WebhookDeleted, audit.Target("webhook", h.ID), map[string]any{"url": h.URL})
		}
		s.noContent(c, err)
	}
}

// webhookDeliveries answers a webhook's latest 100 deliveries, newest first.
func (s *Server) webhookDeliveries(c *gin.Context) {
	h, ok := s.webhookOf(c)
	if !ok {
		return
	}
	ds, err := s.webhooks.Deliveries(c.Request.Context(), workspaceID(c), h.ID, 100)
	out := make([]deliveryAnswer, len(ds))
	for i, d := range ds {
		out[i] = answerDelivery(d)
	}
	s.replyNoStore(c, gin.H{"deliveries": out}, err)
}

// testWebhook sends a webhook.test delivery now and answers how it went. It costs
// webhookTestCost requests of the rate limit: it sends a request out and may wait 10 s on it.
func (s *Server) testWebhook(c *gin.Context) {
	h, ok := s.webhookOf(c)
	if !ok {
		return
	}
	s.deliverNow(c, func(ctx context.Context) (*webhook.Delivery, error) {
		return s.webhooks.Test(ctx, workspaceID(c), h.ID)
	}, func(d *webhook.Delivery) {
		s.auditedHere(c, audit.WebhookTested, audit.Target("webhook", h.ID), map[string]any{"status": d.Status, "response_code": d.ResponseCode})
	})
}
