package score

import (
	"os"
	"strings"
	"testing"
)

// The figures on the development set of the lures' signals (testdata/dev/lures.yaml): a change
// that lowers them, or bans an honest page, fails TestLureDevSet. They are in-sample: the
// signals were written beside these pages.
const (
	lureBanRecall  = 1.0 // 20 of 20
	lureFlagRecall = 1.0 // 20 of 20
	lureFlagPrec   = 1.0 // no honest page flagged of 30
)

// TestLureDevSet runs the heuristics over testdata/dev/lures.yaml, as TestStructureDevSet does
// over pages.yaml, and checks the set: sourced, ids unique across the sets, both languages,
// more honest pages than abusive ones.
//
//	go test -count=1 -run TestLureDevSet -v ./worker/score/
func TestLureDevSet(t *testing.T) {
	cases := loadCases(t, "testdata/dev/lures.yaml")
	readme, err := os.ReadFile("testdata/dev/README.md")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	for _, c := range append(others, loadCases(t, "testdata/dev/pages.yaml")...) {
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
	if m.banRecall < lureBanRecall {
		t.Errorf("recall at the ban score %.3f, below %.3f", m.banRecall, lureBanRecall)
	}
	if m.flagRecall < lureFlagRecall {
		t.Errorf("recall at the flag score %.3f, below %.3f", m.flagRecall, lureFlagRecall)
	}
	if m.flagPrec < lureFlagPrec {
		t.Errorf("precision at the flag score %.3f, below %.3f", m.flagPrec, lureFlagPrec)
	}
}
