// Package score judges a link's destination from what the browser saw of it (docs/moderation.md#moderation-scoring):
// a model reached through an OpenAI-compatible chat API when one is configured, heuristics that
// need no network otherwise, and the heuristics again when the model fails — saying so in the
// verdict's notes, so a failure is never a silent pass.
package score

import (
	"context"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/moderation"
)

// LinkFacts are what a scorer knows of the link besides the captures.
type LinkFacts = moderation.LinkFacts

// Scorer judges a link's destination from the captures of its visitors.
type Scorer interface {
	Score(ctx context.Context, link LinkFacts, captures []moderation.Capture) (moderation.Verdict, error)
}

// DefaultReviewScore is the score from which a link goes to a moderator (MODERATION_REVIEW_SCORE).
const DefaultReviewScore = 0.5

// The categories of a verdict (moderation.Verdict.Category).
const (
	CategoryPhishing = "phishing"
	CategoryMalware  = "malware"
	CategoryScam     = "scam"
	CategoryAdult    = "adult"
	CategorySpam     = "spam"
	CategoryCloaking = "cloaking"
	CategoryBenign   = "benign"
)

// Categories are the categories a verdict may have, the model's answer included.
var Categories = []string{
	CategoryPhishing, CategoryMalware, CategoryScam, CategoryAdult, CategorySpam, CategoryCloaking,
	CategoryBenign,
}

// MaxReason bounds a verdict's reason, in characters.
const MaxReason = 500

func knownCategory(c string) bool {
	for _, k := range Categories {
		if c == k {
			return true
		}
	}
	return false
}

// truncate cuts s to at most n characters, marking a cut with "…" (counted in n).
func truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}
