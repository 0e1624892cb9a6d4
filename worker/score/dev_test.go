package score

import (
	"os"
	"strings"
	"testing"
)

// The figures on the development set of the page-structure signals (testdata/dev): a change
// that lowers them fails TestStructureDevSet. They are in-sample: the signals were written
// beside these pages.
const (
	structureBanRecall  = 0.91 // 34 of 37
	structureFlagRecall = 1.0  // 37 of 37
	structureFlagPrec   = 0.92 // 3 honest pages flagged of 40 flagged
)

// TestStructureDevSet runs the heuristics over testdata/dev/pages.yaml, as TestCalibration does
// over the calibration set, and checks the set: sourced, ids unique across the sets, both
// languages, more honest pages than abusive ones.
//
//	go test -count=1 -run TestStructureDevSet -v ./worker/score/
func TestStructureDevSet(t *testing.T) {
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	checkDevSet(t, "testdata/dev/pages.yaml", others, structureBanRecall, structureFlagRecall, structureFlagPrec)
}

// checkDevSet checks a development set at path: each case sourced in testdata/dev/README.md,
// its id unique across the set and others, ten cases at least of each language and kind, more
// honest pages than abusive ones; then the heuristics' figures on it against its floors.
func checkDevSet(t *testing.T, path string, others []calibrationCase, banRecall, flagRecall, flagPrec float64) {
	t.Helper()
	cases := loadCases(t, path)
	readme, err := os.ReadFile("testdata/dev/README.md")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range others {
		ids[c.ID] = true
	}
	count := map[string]int{}
	for _, c := range cases {
		if ids[c.ID] {
			t.Errorf("%s: a second case of that id", c.ID)
		}
		ids[c.ID] = true
		if c.Src == "" || !strings.Contains(string(readme), "| "+c.Src+" |") {
			t.Errorf("%s: source %q is not in README.md", c.ID, c.Src)
		}
		if c.Label != "phishing" && c.Label != "scam" && c.Label != "benign" {
			t.Errorf("%s: label %q", c.ID, c.Label)
		}
		lang, _, _ := strings.Cut(c.ID, "-")
		count[lang+" "+map[bool]string{true: "benign", false: "abusive"}[c.Label == "benign"]]++
	}
	for _, k := range []string{"en benign", "en abusive", "zh benign", "zh abusive"} {
		if count[k] < 10 {
			t.Errorf("%d cases %s, want at least 10", count[k], k)
		}
	}
	if count["en benign"]+count["zh benign"] <= count["en abusive"]+count["zh abusive"] {
		t.Errorf("%v: want more honest pages than abusive ones", count)
	}
	m := measure(t, cases)
	if m.banRecall < banRecall {
		t.Errorf("recall at the ban score %.3f, below %.3f", m.banRecall, banRecall)
	}
	if m.flagRecall < flagRecall {
		t.Errorf("recall at the flag score %.3f, below %.3f", m.flagRecall, flagRecall)
	}
	if m.flagPrec < flagPrec {
		t.Errorf("precision at the flag score %.3f, below %.3f", m.flagPrec, flagPrec)
	}
}
