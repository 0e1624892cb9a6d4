package httpapi

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/webhook"
)

// deliveryDetail is one delivery with what its last attempt sent and got back: the row of the
// log, the request's headers and body, and the first 4 KiB of the answer's body.
type deliveryDetail struct {
	deliveryAnswer
	RequestHeaders map[string]string `json:"request_headers"`
	// RequestBody is the JSON body sent, as text; "" before any attempt.
	RequestBody  string `json:"request_body"`
	ResponseBody string `json:"response_body"`
}

func answerDeliveryDetail(d webhook.Delivery) deliveryDetail {
	out := deliveryDetail{deliveryAnswer: answerDelivery(d), RequestHeaders: d.RequestHeaders, ResponseBody: d.Answer}
	if out.RequestHeaders == nil {
		out.RequestHeaders = map[string]string{}
	}
	if d.Attempt > 0 {
		if body, err := webhook.Body(d); err == nil {
			out.RequestBody = string(body)
		}
	}
	return out
}

// deliveryOf reads the webhook and the delivery the path names, in that order: a webhook of
// another workspace is not found before its delivery's id is looked at.
func (s *Server) deliveryOf(c *gin.Context) (*webhook.Webhook, int64, bool) {
	h, ok := s.webhookOf(c)
	if !ok {
		return nil, 0, false
	}
	id, ok := s.pathID(c, "delivery", "webhook delivery")
	return h, id, ok
}

// webhookDelivery answers one delivery of a webhook, with its request and answer.
func (s *Server) webhookDelivery(c *gin.Context) {
	h, id, ok := s.deliveryOf(c)
	if !ok {
		return
	}
	d, err := s.webhooks.Delivery(c.Request.Context(), workspaceID(c), h.ID, id)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.replyNoStore(c, answerDeliveryDetail(*d), nil)
}

// resendWebhookDelivery sends a delivery's message again now and answers the new delivery.
func (s *Server) resendWebhookDelivery(c *gin.Context) {
	h, id, ok := s.deliveryOf(c)
	if !ok {
		return
	}
	s.deliverNow(c, func(ctx context.Context) (*webhook.Delivery, error) {
		return s.webhooks.Resend(ctx, workspaceID(c), h.ID, id)
	}, func(d *webhook.Delivery) {
		s.auditedHere(c, audit.WebhookResent, audit.Target("webhook", h.ID),
			map[string]any{"delivery": d.ID, "resent_from": id, "event": d.Event, "status": d.Status, "response_code": d.ResponseCode})
	})
}

// deliverNow is the one way a request sends a delivery while it waits (the test button, a
// resend): it costs webhookTestCost requests of the rate limit (past it, nothing is sent),
// then send runs, recorded is told of the delivery as recorded, and the answer is
// {"delivery": …} with its request and answer.
func (s *Server) deliverNow(c *gin.Context, send func(context.Context) (*webhook.Delivery, error), recorded func(*webhook.Delivery)) {
	if !s.charge(c, webhookTestCost) {
		return
	}
	d, err := send(c.Request.Context())
	if err != nil {
		s.fail(c, err)
		return
	}
	recorded(d)
	s.replyNoStore(c, gin.H{"delivery": answerDeliveryDetail(*d)}, nil)
}
