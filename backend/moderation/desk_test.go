package moderation_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/moderation"
)

// refusingStore stands in for the store: a decision that passes the desk's checks reaches it.
type refusingStore struct{ moderation.DeskStore }

var errReached = errors.New("reached the store")

func (refusingStore) Decide(context.Context, int64, int64, moderation.Action, moderation.Explanation) (*moderation.Decided, error) {
	return nil, errReached
}

func TestDecideExplanations(t *testing.T) {
	desk := moderation.NewDesk(refusingStore{}, nil, nil)
	tests := []struct {
		name   string
		action string
		e      moderation.Explanation
		reason string // the error's reason; "" when the decision reaches the store
	}{
		{"ban with a reason", "ban", moderation.Explanation{Reason: "phishing"}, ""},
		{"ban with words and a note", "ban", moderation.Explanation{Reason: "scam", ReasonText: "fake shop", Note: "private"}, ""},
		{"ban without a reason (the note alone, as the API took it before reasons)", "ban", moderation.Explanation{Note: "phishing kit"}, ""},
		{"unknown reason", "ban", moderation.Explanation{Reason: "ugly"}, "reason_unknown"},
		{"reason in capitals", "ban", moderation.Explanation{Reason: "PHISHING"}, "reason_unknown"},
		{"other without words", "ban", moderation.Explanation{Reason: "other"}, "reason_text_required"},
		{"other with words", "ban", moderation.Explanation{Reason: "other", ReasonText: "impersonates us"}, ""},
		{"words too long", "ban", moderation.Explanation{Reason: "spam", ReasonText: strings.Repeat("é", moderation.MaxReasonText+1)}, "reason_text_too_long"},
		{"approve without a reason", "approve", moderation.Explanation{}, ""},
		{"unban with words", "unban", moderation.Explanation{ReasonText: "the page is harmless"}, ""},
		{"approve with an unknown reason", "approve", moderation.Explanation{Reason: "fine"}, "reason_unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := desk.Decide(context.Background(), 1, 2, tt.action, tt.e)
			if tt.reason == "" {
				if !errors.Is(err, errReached) {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Code != apperr.Invalid || ae.Reason != tt.reason {
				t.Fatalf("got %v, want invalid (%s)", err, tt.reason)
			}
		})
	}
}
