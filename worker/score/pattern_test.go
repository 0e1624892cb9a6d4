package score

import (
	"context"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
)

// TestPatternWithoutCase: a pattern matched without regard to case takes no letter as written
// for its prefilter: every case of it matches.
func TestPatternWithoutCase(t *testing.T) {
	p := mustPattern(`(?i)chase|支付宝`)
	for _, s := range []string{"Chase", "CHASE", "chase", "支付宝"} {
		if !p.MatchString(s) {
			t.Errorf("%q missed", s)
		}
	}
}

// TestPrefiltersChangeNoVerdict: every tenth labelled page (the held-out sets' recordings and
// the development files; every fortieth under -short) scores the same, reason for reason, with
// the prefilters and without them; PREFILTER_ALL=1 compares every page. It logs how much of the
// heuristic's time they save.
func TestPrefiltersChangeNoVerdict(t *testing.T) {
	every := 10
	if testing.Short() {
		every = 40
	}
	var pages []labelledPage
	for i, p := range loadLabelled(t) {
		if i%every == 0 || os.Getenv("PREFILTER_ALL") != "" {
			pages = append(pages, p)
		}
	}
	h := newHeuristic(t, "")
	score := func() ([]moderation.Verdict, time.Duration) {
		start := time.Now()
		out := make([]moderation.Verdict, len(pages))
		for i, p := range pages {
			v, err := h.Score(context.Background(), moderation.LinkFacts{ID: int64(i + 1), URL: p.url}, p.captures)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = v
		}
		return out, time.Since(start)
	}
	filtered, fast := score()
	unfiltered.Store(true)
	whole, slow := score()
	unfiltered.Store(false)
	for i := range pages {
		if !reflect.DeepEqual(filtered[i], whole[i]) {
			t.Errorf("%s/%s: with the prefilters %+v, without %+v", pages[i].set, pages[i].id, filtered[i], whole[i])
		}
	}
	with := 0
	for _, p := range patterns {
		if p.need != nil {
			with++
		}
	}
	t.Logf("%d pages: %v with the prefilters (%d of %d expressions have one), %v without", len(pages), fast.Round(time.Millisecond), with, len(patterns), slow.Round(time.Millisecond))
}
