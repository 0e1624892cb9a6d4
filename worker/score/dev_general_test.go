package score

import "testing"

// The figures on the development set of the general signals (testdata/dev/general.yaml): a
// change that lowers them, or bans an honest page, fails TestGeneralDevSet. They are in-sample:
// the signals were written beside these pages.
const (
	generalBanRecall  = 1.0 // 23 of 23
	generalFlagRecall = 1.0 // 23 of 23
	generalFlagPrec   = 1.0 // no honest page flagged of 24
)

// TestGeneralDevSet runs the heuristics over testdata/dev/general.yaml, as TestLureDevSet does
// over lures.yaml, and checks the set: sourced, ids unique across the sets, both languages,
// more honest pages than abusive ones.
//
//	go test -count=1 -run TestGeneralDevSet -v ./worker/score/
func TestGeneralDevSet(t *testing.T) {
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	others = append(others, loadCases(t, "testdata/dev/pages.yaml")...)
	others = append(others, loadCases(t, "testdata/dev/lures.yaml")...)
	checkDevSet(t, "testdata/dev/general.yaml", others, generalBanRecall, generalFlagRecall, generalFlagPrec)
}
