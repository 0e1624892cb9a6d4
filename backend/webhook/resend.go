package webhook

import (
	"context"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Resendable says whether a delivery of w may be sent again now: not to a disabled webhook
// (enabling it is the owner's decision, docs/api.md, "Webhooks"), and not while the delivery
// is pending (the dispatcher still sends it, and a batch of clicks may still grow).
func Resendable(w Webhook, d Delivery) error {
	if !w.Enabled {
		return apperr.Errorf(apperr.Conflict, "the webhook is disabled: enable it before resending").For("webhook_disabled", "")
	}
	if d.Status == Pending {
		return apperr.Errorf(apperr.Conflict, "the delivery is still pending: it is sent by itself").For("webhook_delivery_pending", "")
	}
	return nil
}

// Resend sends a delivery's message again now, once: the same event, data and message id
// (webhook-id), as a new delivery whose ResentFrom names the original. It goes through the
// guard, the signing and the Timeout of every delivery, as the test does (sendNow), and
// answers the new delivery as recorded.
func (s *Service) Resend(ctx context.Context, workspaceID, id, deliveryID int64) (*Delivery, error) {
	d, w, err := s.store.Resend(ctx, workspaceID, id, deliveryID, time.Now().Add(2*Timeout), Resendable)
	if err != nil {
		return nil, err
	}
	return s.sendNow(ctx, d, w), nil
}
