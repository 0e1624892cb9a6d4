package httpapi

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/moderation"
)

// domainEntryAnswer is a domain as the desk lists it (docs/moderation.md#moderation-at-scale): a
// moderator's decision with who made it and the private note, or a hold with the review whose
// ban holds it; and how many links have a review of a page on it.
type domainEntryAnswer struct {
	domainDecisionAnswer
	Links     int64                `json:"links"`
	HeldUntil *time.Time           `json:"held_until,omitempty"`
	Review    *reviewSummaryAnswer `json:"review,omitempty"`
}

// moderationDomains lists the domains whose new links are stopped (?state=banned, held, or
// both when none) or those cleared (?state=cleared), a page at a time.
func (s *Server) moderationDomains(c *gin.Context) {
	limit, err := intQuery(c, "limit", 50)
	if err != nil {
		s.fail(c, err)
		return
	}
	after, err := moderation.ParseDomainCursor(c.Query("cursor"))
	if err != nil {
		s.fail(c, err)
		return
	}
	list, next, err := s.moderation.DomainList(c.Request.Context(), c.Query("state"), after, limit)
	out := make([]domainEntryAnswer, len(list))
	for i, e := range list {
		out[i] = domainEntryAnswer{domainDecisionAnswer: answerDomainDecision(e.DomainDecision), Links: e.Links,
			HeldUntil: e.HeldUntil, Review: answerReviewSummary(e.Review)}
	}
	cur := ""
	if next != nil {
		cur = next.String()
	}
	s.replyNoStore(c, gin.H{"items": out, "next_cursor": cur}, err)
}
