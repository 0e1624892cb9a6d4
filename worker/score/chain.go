package score

import (
	"context"
	"errors"
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// Config configures the scorer of a deployment.
type Config struct {
	Model     ModelConfig
	Heuristic HeuristicConfig
	// ReviewScore is MODERATION_REVIEW_SCORE: cloaking alone scores at least this much.
	// 0 means DefaultReviewScore.
	ReviewScore float64
}

// Chain scores with the model when there is one and with the heuristics otherwise, or when the
// model failed after its retries.
type Chain struct {
	model       Scorer // nil: no model configured
	heuristic   *Heuristic
	reviewScore float64
}

// New returns the scorer cfg describes: the model when cfg.Model names one, backed by the
// heuristics; the heuristics alone otherwise.
func New(cfg Config) (*Chain, error) {
	if cfg.ReviewScore == 0 {
		cfg.ReviewScore = DefaultReviewScore
	}
	if cfg.Heuristic.ReviewScore == 0 {
		cfg.Heuristic.ReviewScore = cfg.ReviewScore
	}
	h, err := NewHeuristic(cfg.Heuristic)
	if err != nil {
		return nil, fmt.Errorf("new scorer: %w", err)
	}
	var model Scorer
	if cfg.Model.Configured() {
		m, err := NewModel(cfg.Model)
		if err != nil {
			return nil, fmt.Errorf("new scorer: %w", err)
		}
		model = m
	}
	return NewChain(model, h, cfg.ReviewScore), nil
}

// NewChain returns a chain of model (nil when none is configured) and h. reviewScore 0 means
// DefaultReviewScore.
func NewChain(model Scorer, h *Heuristic, reviewScore float64) *Chain {
	if reviewScore == 0 {
		reviewScore = DefaultReviewScore
	}
	return &Chain{model: model, heuristic: h, reviewScore: reviewScore}
}

// Score asks the model, and the heuristics when there is no model or the model failed; the
// failure goes into the verdict's notes. A model's verdict below the review score is raised to
// it when the visitors were shown materially different pages (cloaking). It returns an error
// only when ctx was cancelled: a review whose deadline passed still gets the heuristics' verdict.
func (c *Chain) Score(ctx context.Context, link LinkFacts, captures []moderation.Capture) (moderation.Verdict, error) {
	if c.model == nil {
		return c.heuristic.Score(ctx, link, captures)
	}
	v, err := c.model.Score(ctx, link, captures)
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return moderation.Verdict{}, fmt.Errorf("score link %d: %w", link.ID, err)
		}
		hv, herr := c.heuristic.Score(context.WithoutCancel(ctx), link, captures)
		if herr != nil {
			return moderation.Verdict{}, fmt.Errorf("score link %d: %w (after %v)", link.ID, herr, err)
		}
		hv.Notes = append(hv.Notes, modelNote(err))
		return hv, nil
	}
	if s, ok := Cloaking(captures, c.reviewScore); ok && v.Score < c.reviewScore {
		v.Notes = append(v.Notes, fmt.Sprintf("cloaking: %s; score raised from %.2f (%s) to %.2f",
			s.Detail, v.Score, v.Category, c.reviewScore))
		v.Score = c.reviewScore
		v.Category = CategoryCloaking
	}
	return v, nil
}

// modelNote is how a model's failure reads in a verdict's notes: "model: 500 …".
func modelNote(err error) string {
	var me *ModelError
	if errors.As(err, &me) {
		return me.Error()
	}
	return "model: " + err.Error()
}
