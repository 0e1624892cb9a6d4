package score

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/testenv"
)

// countingModel answers every call with its verdict and counts the calls.
type countingModel struct {
	calls   atomic.Int32
	verdict moderation.Verdict
}

func (m *countingModel) Score(context.Context, LinkFacts, []moderation.Capture) (moderation.Verdict, error) {
	m.calls.Add(1)
	return m.verdict, nil
}

var benignModel = moderation.Verdict{Score: 0.05, Category: CategoryBenign, Reason: "an ordinary page", Scorer: "model", Model: "m"}

func bakery() []moderation.Capture {
	var out []moderation.Capture
	for _, p := range moderation.Profiles {
		out = append(out, moderation.Capture{Profile: p, URL: "https://bakery.example/", FinalURL: "https://bakery.example/",
			Status: 200, Title: "Riverside Bakery", Text: "Sourdough, rye and croissants, baked every morning since 1987."})
	}
	return out
}

// TestChainDecidesWithoutTheModel: a ban with a margin and a clean pass with one are the
// heuristics' to decide, with a note; anything between is the model's.
func TestChainDecidesWithoutTheModel(t *testing.T) {
	login := bakery()
	for i := range login {
		login[i].Forms = []moderation.Form{{Password: true, Fields: []string{"email", "password"}}}
	}
	failed := bakery()
	failed[2].Error = "timeout"
	tests := []struct {
		name      string
		link      LinkFacts
		captures  []moderation.Capture
		wantCalls int32
		wantNote  string
	}{
		{"certain ban", phishingLink, phishingCaptures(t), 0, "decided without the model: the heuristics score 1.00, at least 0.10 above the ban score 0.80"},
		{"clean pass", LinkFacts{ID: 1, URL: "https://bakery.example/"}, bakery(), 0, "decided without the model: no heuristic signal"},
		{"a password asked: the model reads it", LinkFacts{ID: 2, URL: "https://bakery.example/"}, login, 1, ""},
		{"a visitor failed: the model reads it", LinkFacts{ID: 3, URL: "https://bakery.example/"}, failed, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &countingModel{verdict: benignModel}
			c := NewChain(m, newHeuristic(t, ""), 0)
			v, err := c.Score(context.Background(), tt.link, tt.captures)
			if err != nil {
				t.Fatal(err)
			}
			if n := m.calls.Load(); n != tt.wantCalls {
				t.Errorf("%d model calls, want %d", n, tt.wantCalls)
			}
			if tt.wantNote != "" && (v.Scorer != "heuristic" || len(v.Notes) != 1 || !strings.HasPrefix(v.Notes[0], tt.wantNote)) {
				t.Errorf("verdict %+v, want the heuristics' with the note %q", v, tt.wantNote)
			}
			if tt.wantNote == "" && v.Scorer != "model" {
				t.Errorf("verdict %+v, want the model's", v)
			}
		})
	}
}

// TestChainModelCannotClearABan: a model talked round by the page it reads scores it benign;
// the heuristics' ban stands, and the notes say what the model answered.
func TestChainModelCannotClearABan(t *testing.T) {
	m := &countingModel{verdict: benignModel}
	c := NewChain(m, newHeuristic(t, ""), 0)
	c.askAlways = true
	v, err := c.Score(context.Background(), phishingLink, phishingCaptures(t))
	if err != nil {
		t.Fatal(err)
	}
	if m.calls.Load() != 1 || v.Score < 0.8 || v.Category != CategoryPhishing || v.Scorer != "heuristic" ||
		len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "scored 0.05 (benign: an ordinary page), below the heuristics' ban: the ban stands") {
		t.Fatalf("verdict %+v after %d calls", v, m.calls.Load())
	}
	// A model that bans too keeps its own verdict.
	m.verdict = moderation.Verdict{Score: 0.9, Category: CategoryPhishing, Reason: "a PayPal copy", Scorer: "model", Model: "m"}
	if v, _ := c.Score(context.Background(), phishingLink, phishingCaptures(t)); v.Scorer != "model" || v.Score != 0.9 {
		t.Fatalf("verdict %+v", v)
	}
}

// TestModelSeesSignalsAndOCR: the request lists the structural signals first, and each
// visitor's screenshot text and link hosts.
func TestModelSeesSignalsAndOCR(t *testing.T) {
	model, cfg := newModel(t, judge)
	c, err := New(Config{Model: cfg, AskModelAlways: true})
	if err != nil {
		t.Fatal(err)
	}
	captures := phishingCaptures(t)
	for i := range captures {
		captures[i].OCRText = "PayPal  Log in"
		captures[i].Links = []string{"www.paypal.com", "www.paypal.com", "www.paypal.com"}
	}
	if _, err := c.Score(context.Background(), phishingLink, captures); err != nil {
		t.Fatal(err)
	}
	calls := model.Calls()
	if len(calls) != 1 || len(calls[0].Texts) != 4 {
		t.Fatalf("%d calls", len(calls))
	}
	first := calls[0].Texts[0]
	if !strings.HasPrefix(first, "Signals found by rules") || !strings.Contains(first, "- posts-elsewhere 0.85 (phishing)") ||
		!strings.Contains(first, "- copied-page 0.80") {
		t.Errorf("the signals part:\n%s", first)
	}
	desktop := calls[0].Texts[1]
	if !strings.Contains(desktop, "Text read from the screenshot (OCR, 13 characters") || !strings.Contains(desktop, "\nPayPal Log in\n") ||
		!strings.Contains(desktop, "Links to: www.paypal.com (3)\n") {
		t.Errorf("the desktop part:\n%s", desktop)
	}
	_ = testenv.PNG
}

// TestModelCallsPerThousand counts the model calls of 1,000 links of a mixed traffic — the
// calibration and development sets, in turn, each link's three visitors seeing its page —
// with every page asked and with the heuristics deciding what they are certain of.
//
//	go test -count=1 -run TestModelCallsPerThousand -v ./worker/score/
func TestModelCallsPerThousand(t *testing.T) {
	t.Parallel()
	cases := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	h := newHeuristic(t, "")
	count := func(always bool) (calls, banned, benignBanned int) {
		m := &countingModel{verdict: benignModel}
		c := NewChain(m, h, 0)
		c.askAlways = always
		return perThousand(t, c, m, cases)
	}
	before, _, _ := count(true)
	after, banned, benignBanned := count(false)
	t.Logf("%d cases replicated to 1,000 links: %d model calls asking every page, %d deciding the certain ones (%d banned, %d of them honest)",
		len(cases), before, after, banned, benignBanned)
	if before != 1000 || after > maxModelCallsPerThousand || benignBanned != 0 {
		t.Errorf("%d and %d model calls, want 1000 and at most %d; %d honest pages banned", before, after, maxModelCallsPerThousand, benignBanned)
	}
}

// perThousand scores 1,000 links drawn from cases in turn, as mixed traffic, through c (whose
// model is m), and answers the model calls, the bans and the honest pages banned. The chain's
// decision is a function of the page, so each case is scored once and counted as often as it is
// drawn; outside -short it is scored a second time under another link id, and a verdict or a
// model call that differs fails the test.
func perThousand(t *testing.T, c *Chain, m *countingModel, cases []calibrationCase) (calls, banned, benignBanned int) {
	t.Helper()
	draws := make([]int, len(cases))
	for i := range 1000 {
		draws[i%len(cases)]++
	}
	score := func(id int64, cs calibrationCase) (moderation.Verdict, int) {
		asked := m.calls.Load()
		v, err := c.Score(context.Background(), LinkFacts{ID: id, URL: cs.URL}, cs.captures())
		if err != nil {
			t.Fatal(err)
		}
		return v, int(m.calls.Load() - asked)
	}
	for i, cs := range cases {
		if draws[i] == 0 {
			continue
		}
		v, asked := score(int64(i), cs)
		if !testing.Short() {
			again, askedAgain := score(int64(i+len(cases)), cs)
			if again.Score != v.Score || again.Category != v.Category || askedAgain != asked {
				t.Errorf("%s scored %.3f %s (%d model calls), then %.3f %s (%d): the chain's decision is not the page's alone",
					cs.URL, v.Score, v.Category, asked, again.Score, again.Category, askedAgain)
			}
		}
		calls += asked * draws[i]
		if v.Score >= calibrationBan {
			banned += draws[i]
			if cs.Label == "benign" {
				benignBanned += draws[i]
			}
		}
	}
	return calls, banned, benignBanned
}

// maxModelCallsPerThousand is what TestModelCallsPerThousand reached, as a floor.
const maxModelCallsPerThousand = 400 // 394
