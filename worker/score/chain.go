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
	// BanScore is MODERATION_BAN_SCORE: the heuristics' score from which the model's answer
	// cannot clear a page, and, BanMargin above it, from which the model is not asked.
	// 0 means DefaultBanScore.
	BanScore float64
	// AskModelAlways has the model read every page, those the heuristics are certain of too
	// (tests of the model's path; a deployment that wants its reasons on every verdict).
	AskModelAlways bool
}

// DefaultBanScore is the score from which a link is banned (MODERATION_BAN_SCORE).
const DefaultBanScore = 0.8

// BanMargin is how far above the ban score the heuristics must score to ban without asking
// the model (docs/moderation.md, "Fewer model calls").
const BanMargin = 0.1

// Chain scores with the model when there is one and with the heuristics otherwise, or when the
// model failed after its retries.
type Chain struct {
	model       Scorer // nil: no model configured
	heuristic   *Heuristic
	reviewScore float64
	banScore    float64
	askAlways   bool
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
		m.rules = h
		model = m
	}
	c := NewChain(model, h, cfg.ReviewScore)
	if cfg.BanScore != 0 {
		if cfg.BanScore < c.reviewScore || cfg.BanScore > 1 {
			return nil, fmt.Errorf("new scorer: ban score %v is outside [review score, 1]", cfg.BanScore)
		}
		c.banScore = cfg.BanScore
	}
	c.askAlways = cfg.AskModelAlways
	return c, nil
}

// NewChain returns a chain of model (nil when none is configured) and h. reviewScore 0 means
// DefaultReviewScore.
func NewChain(model Scorer, h *Heuristic, reviewScore float64) *Chain {
	if reviewScore == 0 {
		reviewScore = DefaultReviewScore
	}
	return &Chain{model: model, heuristic: h, reviewScore: reviewScore, banScore: DefaultBanScore}
}

// Score judges the destination. The heuristics score first; when they are certain (Certain),
// their verdict is the chain's and the model is not asked. Otherwise the model is asked, and
// the heuristics decide when there is no model or it failed after its retries (the failure in
// the verdict's notes). A model's verdict never clears a page the heuristics ban: below their
// ban, theirs stands. A model's verdict below the review score is raised to it when the
// visitors were shown materially different pages (cloaking). It returns an error only when ctx
// was cancelled: a review whose deadline passed still gets the heuristics' verdict.
func (c *Chain) Score(ctx context.Context, link LinkFacts, captures []moderation.Capture) (moderation.Verdict, error) {
	hv, err := c.heuristic.Score(context.WithoutCancel(ctx), link, captures)
	if err != nil {
		return moderation.Verdict{}, fmt.Errorf("score link %d: %w", link.ID, err)
	}
	if c.model == nil {
		return hv, nil
	}
	if why, ok := c.Certain(hv, captures); ok && !c.askAlways {
		hv.Notes = append(hv.Notes, "decided without the model: "+why)
		return hv, nil
	}
	v, err := c.model.Score(ctx, link, captures)
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return moderation.Verdict{}, fmt.Errorf("score link %d: %w", link.ID, err)
		}
		hv.Notes = append(hv.Notes, modelNote(err))
		return hv, nil
	}
	if hv.Score >= c.banScore && v.Score < c.banScore {
		// A model reads the page it judges, and a page can talk it round: what the page does
		// (the structural rules) bans it whatever the model says.
		hv.Notes = append(hv.Notes, fmt.Sprintf("the model (%s) scored %.2f (%s: %s), below the heuristics' ban: the ban stands",
			v.Model, v.Score, v.Category, truncate(v.Reason, 200)))
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

// Certain says whether the heuristics' verdict hv is certain enough to stand without the
// model, and why: a ban with a margin (a score of at least the ban score + BanMargin), or a
// clean pass with one — no signal at all, every visitor's page complete, and no page asking for
// a password, a code, a card, a PIN, an ID number or a recovery phrase off a listed brand's
// own hosts. Everything between is the model's to judge.
func (c *Chain) Certain(hv moderation.Verdict, captures []moderation.Capture) (string, bool) {
	if hv.Score >= c.banScore+BanMargin {
		return fmt.Sprintf("the heuristics score %.2f, at least %.2f above the ban score %.2f", hv.Score, BanMargin, c.banScore), true
	}
	if hv.Score > 0 || len(captures) == 0 {
		return "", false
	}
	for _, cp := range captures {
		if cp.Error != "" || cp.FinalURL == "" || cp.Status >= 400 {
			return "", false
		}
		if pageAsks(cp).any(askPassword|askPIN|askCard|askCVV|askID|askOTP|askSecret) && !ownedByBrand(captureHost(cp)) {
			return "", false
		}
		if walletAddressRE.MatchString(cp.Text) || walletAddressRE.MatchString(cp.OCRText) {
			return "", false
		}
	}
	return "no heuristic signal, every visitor's page complete, and none asks for a secret", true
}

// modelNote is how a model's failure reads in a verdict's notes: "model: 500 …".
func modelNote(err error) string {
	var me *ModelError
	if errors.As(err, &me) {
		return me.Error()
	}
	return "model: " + err.Error()
}
