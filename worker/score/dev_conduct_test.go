package score

import "testing"

// The figures on the development set of the conduct signals (testdata/dev/conduct.yaml): a
// change that lowers them, or bans an honest page, fails TestConductDevSet. They are in-sample:
// the signals were written beside these pages.
const (
	conductBanRecall  = 1.0 // 20 of 20
	conductFlagRecall = 1.0 // 20 of 20
	conductFlagPrec   = 1.0 // no honest page flagged
)

// TestConductDevSet runs the heuristics over testdata/dev/conduct.yaml, as TestStoryDevSet does
// over stories.yaml, and checks the set: sourced, ids unique across the sets, both languages,
// more honest pages than abusive ones.
//
//	go test -count=1 -run TestConductDevSet -v ./worker/score/
func TestConductDevSet(t *testing.T) {
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	for _, path := range []string{"testdata/dev/pages.yaml", "testdata/dev/lures.yaml", "testdata/dev/general.yaml", "testdata/dev/stories.yaml"} {
		others = append(others, loadCases(t, path)...)
	}
	checkDevSet(t, "testdata/dev/conduct.yaml", others, conductBanRecall, conductFlagRecall, conductFlagPrec)
}
