package score

import "testing"

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
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	others = append(others, loadCases(t, "testdata/dev/pages.yaml")...)
	checkDevSet(t, "testdata/dev/lures.yaml", others, lureBanRecall, lureFlagRecall, lureFlagPrec)
}
