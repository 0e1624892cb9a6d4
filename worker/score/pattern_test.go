package score

import (
	"context"
	"os"
	"reflect"
	"regexp/syntax"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/visitor/prefilter"
)

// TestRequiredExact: the strings one of which every match holds, byte for byte
// (prefilter.RequiredExact): a literal's longest run, each branch of an alternation, nothing for
// an optional part, and a letter matched without regard to case never required as written.
func TestRequiredExact(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string
	}{
		{`\bnew (?:operating |bank )?account\b`, []string{"account"}},
		{`transfer|wire|汇款`, []string{"transfer", "wire", "汇款"}},
		{`(?:原|旧)账户`, []string{"账户"}},
		{`(?i)chase`, nil},
		{`(?i)支付|atm`, nil},
		{`(?i)支付|交易`, []string{"支付", "交易"}},
		{`(?i)pay 支付宝`, []string{" 支付宝"}},
		{`colou?r`, []string{"colo"}},
		{`[0-9]{6,}`, nil},
		{`a*`, nil},
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got := prefilter.RequiredExact(re.Simplify())
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("required(%q) = %q, want %q", c.expr, got, want)
		}
	}
	if p := mustPattern(`(?i)chase`); !p.MatchString("Chase") || p.may("Chase") != true {
		t.Error("a pattern without regard to case missed another case")
	}
}

// TestPrefiltersChangeNoVerdict: every tenth labelled page (the held-out sets' recordings and
// the development files) scores the same, reason for reason, with the prefilters and without
// them; PREFILTER_ALL=1 compares every page. It logs how much of the heuristic's time they save.
func TestPrefiltersChangeNoVerdict(t *testing.T) {
	var pages []labelledPage
	for i, p := range loadLabelled(t) {
		if i%10 == 0 || os.Getenv("PREFILTER_ALL") != "" {
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
