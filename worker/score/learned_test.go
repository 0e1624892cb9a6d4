package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/shortlink/shortlink/backend/moderation"
)

// labelledPage is one page the learned signal is trained on or measured with.
type labelledPage struct {
	set      string // the held-out set's folder, or the development file's path
	id       string
	url      string
	harmful  bool
	captures []moderation.Capture
	features []uint32
}

// learnedHeldOutSets are the held-out sets the learned signal is trained on and
// cross-validated over: heldout to heldout17, each read here only once it had been measured
// blind. A set written after them is the blind measure of the model and is not read here
// until it has been.
var learnedHeldOutSets = []string{"heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17"}

// learnedDevFiles are the described pages (calibrationCase) it is trained on too, and that
// TestModelCallsAcrossTheSets replicates: the calibration set and every development file.
var learnedDevFiles = []string{
	"testdata/calibration/pages.yaml", "testdata/calibration/dev.yaml",
	"testdata/dev/pages.yaml", "testdata/dev/lures.yaml", "testdata/dev/general.yaml", "testdata/dev/stories.yaml",
	"testdata/dev/conduct.yaml", "testdata/dev/signals4.yaml", "testdata/dev/signals5.yaml", "testdata/dev/signals6.yaml",
	"testdata/dev/signals7.yaml",
}

// loadLabelled reads every labelled page: the browser's recordings of the held-out sets named
// above (worker/browse/testdata) and the development files' described pages.
func loadLabelled(t *testing.T) []labelledPage {
	t.Helper()
	var pages []labelledPage
	for _, set := range learnedHeldOutSets {
		dir := filepath.Join("..", "browse", "testdata", set)
		raw, err := os.ReadFile(filepath.Join(dir, "manifest.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var manifest []struct {
			ID    string `yaml:"id"`
			Label string `yaml:"label"`
		}
		if err := yaml.Unmarshal(raw, &manifest); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		label := map[string]string{}
		for _, m := range manifest {
			label[m.ID] = m.Label
		}
		raw, err = os.ReadFile(filepath.Join(dir, "captures.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			Pages []struct {
				ID       string               `json:"id"`
				URL      string               `json:"url"`
				Captures []moderation.Capture `json:"captures"`
			} `json:"pages"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, p := range rec.Pages {
			l, ok := label[p.ID]
			if !ok {
				t.Fatalf("%s: %s is not in the manifest", dir, p.ID)
			}
			pages = append(pages, labelledPage{set: set, id: p.ID, url: p.URL, harmful: l != "benign", captures: p.Captures})
		}
	}
	for _, file := range learnedDevFiles {
		for _, c := range loadCases(t, file) {
			pages = append(pages, labelledPage{set: file, id: c.ID, url: c.URL, harmful: c.Label != "benign", captures: c.captures()})
		}
	}
	for i := range pages {
		pages[i].features = learnedFeatures(pages[i].captures)
	}
	return pages
}

// trainLearned fits the logistic regression to pages: AdaGrad over the pages in an order
// drawn from a fixed seed, each class weighted to count as much as the other, an L2 penalty.
// The same pages give the same model, byte for byte.
func trainLearned(pages []labelledPage) *learnedModel {
	const (
		epochs = 40
		rate   = 0.2
		l2     = 1e-4
	)
	n := 1 << learnedBits
	w, g := make([]float64, n), make([]float64, n)
	var bias, gBias float64
	harmful := 0
	for _, p := range pages {
		if p.harmful {
			harmful++
		}
	}
	weight := map[bool]float64{true: float64(len(pages)) / float64(2*max(1, harmful)), false: float64(len(pages)) / float64(2*max(1, len(pages)-harmful))}
	order := make([]int, len(pages))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			p := pages[i]
			if len(p.features) == 0 {
				continue
			}
			scale := 1 / math.Sqrt(float64(len(p.features)))
			z := bias
			for _, f := range p.features {
				z += w[f] * scale
			}
			y := 0.0
			if p.harmful {
				y = 1
			}
			d := (1/(1+math.Exp(-z)) - y) * weight[p.harmful]
			for _, f := range p.features {
				grad := d*scale + l2*w[f]
				g[f] += grad * grad
				w[f] -= rate * grad / math.Sqrt(g[f]+1e-8)
			}
			gBias += d * d
			bias -= rate * d / math.Sqrt(gBias+1e-8)
		}
	}
	m := &learnedModel{bias: float32(bias), w: make([]float32, n)}
	for i, v := range w {
		m.w[i] = float32(v)
	}
	return m
}

// rulesScore is the heuristics' score of a page without the learned signal.
func rulesScore(t *testing.T, h *Heuristic, p labelledPage) float64 {
	t.Helper()
	v, err := h.Score(context.Background(), moderation.LinkFacts{ID: 1, URL: p.url, ShortURL: "https://sho.rt/abc"}, p.captures)
	if err != nil {
		t.Fatalf("%s: %v", p.id, err)
	}
	return v.Score
}

// learnedTier is one way of weighing the model's chance: it flags (weightLearnedFlag) from
// flagAt and bans alone (weightLearnedBan) from banAt; 1 means never.
type learnedTier struct {
	name          string
	flagAt, banAt float64
}

// combined is the score of a page whose rules scored rules with the learned signal of
// chance p added, as Heuristic.Score combines signals and rounds the score.
func (tr learnedTier) combined(rules, p float64) float64 {
	w := 0.0
	if p >= tr.flagAt {
		w = weightLearnedFlag
	}
	if p >= tr.banAt {
		w = weightLearnedBan
	}
	return float64(int((1-(1-rules)*(1-w))*1000+0.5)) / 1000
}

// learnedWrittenFrom names, for each development file written from the misses of held-out
// sets, those sets (testdata/dev/README.md).
var learnedWrittenFrom = map[string]map[string]bool{
	"testdata/dev/general.yaml":  {"heldout": true, "heldout2": true, "heldout3": true},
	"testdata/dev/stories.yaml":  {"heldout4": true},
	"testdata/dev/conduct.yaml":  {"heldout5": true},
	"testdata/dev/signals4.yaml": {"heldout6": true},
	"testdata/dev/signals5.yaml": {"heldout7": true},
	"testdata/dev/signals6.yaml": {"heldout8": true},
	"testdata/dev/signals7.yaml": {"heldout9": true},
}

// learnedWrittenAt orders the sets as they were written: held-out set k at k, a development
// file written from a set's misses just after it, the first development files before all.
func learnedWrittenAt(set string) float64 {
	if i := slices.Index(learnedHeldOutSets, set); i >= 0 {
		return float64(i + 1)
	}
	at := 0.0
	for s := range learnedWrittenFrom[set] {
		at = max(at, learnedWrittenAt(s)+0.5)
	}
	return at
}

// TestLearnedCrossValidation measures the learned signal the only way that counts: for each
// held-out set k of heldout to heldout11, the model is trained on every other labelled page
// (the other held-out sets and the development files) and scores set k's pages, beside the
// rules alone; each development file is left out in turn the same way. It trains 22 models three ways,
// so it runs only when asked:
//
//	LEARNED_CV=1 go test -count=1 -run TestLearnedCrossValidation -v ./worker/score/
func TestLearnedCrossValidation(t *testing.T) {
	if os.Getenv("LEARNED_CV") != "1" {
		t.Skip("the learned signal's cross-validation is opt-in: LEARNED_CV=1")
	}
	start := time.Now()
	pages := loadLabelled(t)
	h := newHeuristic(t, "")
	h.learned = nil // the rules alone; the learned signal is added below
	rules := make([]float64, len(pages))
	for i, p := range pages {
		rules[i] = rulesScore(t, h, p)
	}
	folds := append(append([]string{}, learnedHeldOutSets...), learnedDevFiles...)
	// outOfFold is each page's chance by the model trained, for its fold, on the pages that
	// trains says it may be trained on.
	outOfFold := func(trains func(fold string, p labelledPage) bool) []float64 {
		prob := make([]float64, len(pages))
		for _, fold := range folds {
			var train []labelledPage
			for _, p := range pages {
				if p.set != fold && trains(fold, p) {
					train = append(train, p)
				}
			}
			m := trainLearned(train)
			for i, p := range pages {
				if p.set == fold {
					prob[i] = m.prob(p.features)
				}
			}
		}
		return prob
	}
	// Leave one set out: every other page.
	prob := outOfFold(func(string, labelledPage) bool { return true })
	// Stricter: without the development file written from the left-out set's misses either.
	strict := outOfFold(func(fold string, p labelledPage) bool {
		return learnedWrittenFrom[p.set] == nil || !learnedWrittenFrom[p.set][fold]
	})
	// In time: only what was written before the left-out set was measured blind (the
	// development files are left out as in the first).
	inTime := outOfFold(func(fold string, p labelledPage) bool {
		return !strings.HasPrefix(fold, "heldout") || learnedWrittenAt(p.set) < learnedWrittenAt(fold)
	})
	t.Logf("%d pages, %d folds, trained and scored in %s", len(pages), len(folds), time.Since(start).Round(time.Millisecond))

	tiers := []learnedTier{
		{"ban 0.99", 1, 0.99}, {"ban 0.95", 1, 0.95}, {"ban 0.9", 1, 0.9},
		{"flag 0.9", 0.9, 1}, {"flag 0.8", 0.8, 1}, {"flag 0.7", 0.7, 1},
		{"flag 0.9 ban 0.97", 0.9, 0.97}, {"flag 0.8 ban 0.95", 0.8, 0.95}, {"flag 0.8 ban 0.85 (shipped)", learnedFlagAt, learnedBanAt},
	}
	type tally struct{ harmful, banned, flagged, honest, honestBanned, honestFlagged int }
	count := func(set string, score func(i int) float64) tally {
		var n tally
		for i, p := range pages {
			if set != "" && p.set != set || set == "" && strings.HasPrefix(p.set, "heldout") {
				continue
			}
			s := score(i)
			switch {
			case p.harmful:
				n.harmful++
				if s >= calibrationBan {
					n.banned++
				} else if s >= calibrationFlag {
					n.flagged++
				}
			default:
				n.honest++
				if s >= calibrationBan {
					n.honestBanned++
				} else if s >= calibrationFlag {
					n.honestFlagged++
				}
			}
		}
		return n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s %-22s", "set", "rules alone")
	for _, tr := range tiers {
		fmt.Fprintf(&b, " %-22s", "+ "+tr.name)
	}
	b.WriteString(" learned alone\n")
	row := func(label, set string) {
		alone := count(set, func(i int) float64 { return rules[i] })
		learnedAlone := count(set, func(i int) float64 { return learnedTier{"", learnedFlagAt, learnedBanAt}.combined(0, prob[i]) })
		fmt.Fprintf(&b, "%-12s %-22s", label, fmt.Sprintf("%d/%d b, %d/%d hb %d hf", alone.banned, alone.harmful, alone.honestBanned, alone.honest, alone.honestFlagged))
		for _, tr := range tiers {
			n := count(set, func(i int) float64 { return tr.combined(rules[i], prob[i]) })
			fmt.Fprintf(&b, " %-22s", fmt.Sprintf("%d/%d b, %d hb %d hf", n.banned, n.harmful, n.honestBanned, n.honestFlagged))
		}
		fmt.Fprintf(&b, " %d b %d f, %d hb %d hf\n", learnedAlone.banned, learnedAlone.flagged, learnedAlone.honestBanned, learnedAlone.honestFlagged)
	}
	for _, set := range learnedHeldOutSets {
		row(set, set)
	}
	row("dev files", "")
	t.Log(b.String())

	// The shipped tiers under the three ways of leaving out.
	shipped := learnedTier{"shipped", learnedFlagAt, learnedBanAt}
	b.Reset()
	fmt.Fprintf(&b, "\n%-12s %-22s %-22s %-22s %-22s\n", "set", "rules alone", "+ one set out", "+ strict", "+ in time")
	for _, set := range append(append([]string{}, learnedHeldOutSets...), "") {
		label := set
		if set == "" {
			label = "dev files"
		}
		alone := count(set, func(i int) float64 { return rules[i] })
		fmt.Fprintf(&b, "%-12s %-22s", label, fmt.Sprintf("%d/%d b, %d hb %d hf", alone.banned, alone.harmful, alone.honestBanned, alone.honestFlagged))
		for _, pr := range [][]float64{prob, strict, inTime} {
			n := count(set, func(i int) float64 { return shipped.combined(rules[i], pr[i]) })
			la := count(set, func(i int) float64 { return shipped.combined(0, pr[i]) })
			fmt.Fprintf(&b, " %-22s", fmt.Sprintf("%d b, %d hb %d hf (%d/%d, %d)", n.banned, n.honestBanned, n.honestFlagged, la.banned, la.banned+la.flagged, la.honestBanned+la.honestFlagged))
		}
		b.WriteString("\n")
	}
	t.Logf("the shipped tiers (flag %.2f, ban %.2f) by the way the sets are left out; in brackets the learned signal alone: banned / flagged or banned, honest flagged or banned:%s", learnedFlagAt, learnedBanAt, b.String())

	// The rules' misses and the honest pages the model scores highest, by set.
	var misses strings.Builder
	for i, p := range pages {
		if p.harmful && rules[i] < calibrationBan || !p.harmful && prob[i] >= 0.7 {
			fmt.Fprintf(&misses, "%-34s %-8v rules %.3f learned %.3f\n", p.set+"/"+p.id, p.harmful, rules[i], prob[i])
		}
	}
	t.Logf("the rules' misses, and honest pages the model scores 0.7 or more:\n%s", misses.String())
}

// TestLearnedWrite trains the model on every labelled page and writes learned.bin:
//
//	make learned-model
func TestLearnedWrite(t *testing.T) {
	if os.Getenv("LEARNED_WRITE") != "1" {
		t.Skip("writing learned.bin is opt-in: make learned-model (LEARNED_WRITE=1)")
	}
	m := trainLearned(loadLabelled(t))
	if err := os.WriteFile("learned.bin", m.encode(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLearnedInSample scores every labelled page with the heuristics and the embedded model,
// which was trained on them all: no honest page may be banned, and the honest pages flagged
// are logged beside the rules' own.
//
//	go test -count=1 -run TestLearnedInSample -v ./worker/score/
func TestLearnedInSample(t *testing.T) {
	if testing.Short() {
		// Every page again (20 s): each set's own test checks its honest pages under -short.
		t.Skip("-short: the development, calibration and held-out sets' own tests score each set with the model")
	}
	t.Parallel()
	pages := loadLabelled(t)
	h := newHeuristic(t, "")
	// The score with and without the learned signal, as Heuristic.Score combines the signals.
	scores := func(p labelledPage) (with, alone float64) {
		passWith, passAlone := 1.0, 1.0
		for _, s := range h.Signals(moderation.LinkFacts{ID: 1, URL: p.url, ShortURL: "https://sho.rt/abc"}, p.captures) {
			passWith *= 1 - s.Weight
			if s.Kind != "learned" {
				passAlone *= 1 - s.Weight
			}
		}
		round := func(pass float64) float64 { return float64(int((1-pass)*1000+0.5)) / 1000 }
		return round(passWith), round(passAlone)
	}
	var honest, flagged, rulesFlagged, harmful, banned, rulesBanned int
	for _, p := range pages {
		with, alone := scores(p)
		if p.harmful {
			harmful++
			if with >= calibrationBan {
				banned++
			}
			if alone >= calibrationBan {
				rulesBanned++
			}
			continue
		}
		honest++
		if with >= calibrationBan {
			t.Errorf("%s/%s: an honest page banned with the learned signal (%.3f, the rules alone %.3f)", p.set, p.id, with, alone)
		}
		if with >= calibrationFlag {
			flagged++
		}
		if alone >= calibrationFlag {
			rulesFlagged++
		}
	}
	t.Logf("%d pages: %d of %d harmful banned (%d by the rules alone); %d of %d honest flagged (%d by the rules alone), none banned",
		len(pages), banned, harmful, rulesBanned, flagged, honest, rulesFlagged)
}

// BenchmarkLearnedSignal is the learned signal's cost per page: its features and its score,
// on the pages of the first held-out set.
//
//	go test -run '^$' -bench BenchmarkLearnedSignal ./worker/score/
func BenchmarkLearnedSignal(b *testing.B) {
	t := &testing.T{}
	var pages []labelledPage
	for _, p := range loadLabelled(t) {
		if p.set == learnedHeldOutSets[0] {
			pages = append(pages, p)
		}
	}
	m, err := embeddedLearned()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.prob(pages[i%len(pages)].features)
	}
}

// TestLearnedSignal checks the embedded model and the signal's tiers: the model decodes and
// encodes to the same bytes, and a signal's weight follows the model's chance.
func TestLearnedSignal(t *testing.T) {
	m, err := embeddedLearned()
	if err != nil {
		t.Fatal(err)
	}
	if string(m.encode()) != string(learnedBin) {
		t.Error("learned.bin does not encode back to itself")
	}
	if _, err := decodeLearned(learnedBin[:100]); err == nil {
		t.Error("a cut model decoded")
	}
	h := newHeuristic(t, "")
	page := func(title, text string) []moderation.Capture {
		return []moderation.Capture{{Profile: moderation.Desktop, URL: "https://example.org/", FinalURL: "https://example.org/", Status: 200, Title: title, Text: text}}
	}
	tests := []struct {
		name string
		p    float64
		want float64 // the signal's weight, 0 for none
	}{
		{"below the flag", learnedFlagAt - 0.01, 0},
		{"a flag", learnedFlagAt + 0.001, weightLearnedFlag},
		{"a ban", learnedBanAt + 0.001, weightLearnedBan},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A model of a bias alone scores every page at that chance.
			h.learned = &learnedModel{bias: float32(math.Log(tt.p / (1 - tt.p))), w: make([]float32, 1<<learnedBits)}
			s, ok := h.learnedSignal(page("Our bakery", "Bread and cakes baked every morning."))
			if got := map[bool]float64{true: s.Weight}[ok]; got != tt.want {
				t.Errorf("weight %v, want %v (%+v)", got, tt.want, s)
			}
			if ok && s.Category != CategoryScam {
				t.Errorf("category %s, want scam on a page that asks nothing", s.Category)
			}
		})
	}
}
