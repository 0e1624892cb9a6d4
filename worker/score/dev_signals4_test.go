package score

import "testing"

// The figures on the development set of the fourth round of signals (testdata/dev/signals4.yaml): a
// change that lowers them, or bans an honest page, fails TestSignals4DevSet. They are in-sample:
// the signals were written beside these pages.
const (
	signals4BanRecall  = 1.0  // 22 of 22
	signals4FlagRecall = 1.0  // 22 of 22
	signals4FlagPrec   = 0.91 // 22 of 24: two honest pages flagged, none banned (three before the seventh round: a protected deposit's interest read as a reward)
)

// TestSignals4DevSet runs the heuristics over testdata/dev/signals4.yaml, as TestStoryDevSet does
// over conduct.yaml, and checks the set: sourced, ids unique across the sets, both languages,
// more honest pages than abusive ones.
//
//	go test -count=1 -run TestSignals4DevSet -v ./worker/score/
func TestSignals4DevSet(t *testing.T) {
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	for _, path := range []string{"testdata/dev/pages.yaml", "testdata/dev/lures.yaml", "testdata/dev/general.yaml", "testdata/dev/stories.yaml", "testdata/dev/conduct.yaml"} {
		others = append(others, loadCases(t, path)...)
	}
	checkDevSet(t, "testdata/dev/signals4.yaml", others, signals4BanRecall, signals4FlagRecall, signals4FlagPrec)
}
