package httpapi

import (
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
)

// linkAppealAnswer is a link's appeal as its owner reads it in the link's moderation
// (docs/moderation.md#appeals): open, upheld or rejected, the owner's message, the moderator's
// answer once there is one, and when it was made or answered.
type linkAppealAnswer struct {
	State   string    `json:"state"`
	Message string    `json:"message"`
	Answer  string    `json:"answer,omitempty"`
	At      time.Time `json:"at"`
}

func answerLinkAppeal(a *moderation.Appeal) *linkAppealAnswer {
	if a == nil {
		return nil
	}
	out := &linkAppealAnswer{State: moderation.AppealOpen, Message: a.Message, At: a.CreatedAt}
	if a.ResolvedAt != nil {
		out.State, out.Answer, out.At = a.Outcome, a.Answer, *a.ResolvedAt
		if out.State == "" {
			out.State = moderation.AppealUpheld
		}
	}
	return out
}
