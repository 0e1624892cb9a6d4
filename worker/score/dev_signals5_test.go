package score

import "testing"

// The figures on the development set of the fifth round of signals (testdata/dev/signals5.yaml):
// a change that lowers them, or bans an honest page, fails TestSignals5DevSet. They are
// in-sample: the signals were written beside these pages.
const (
	signals5BanRecall  = 1.0  // 20 of 20
	signals5FlagRecall = 1.0  // 20 of 20
	signals5FlagPrec   = 0.95 // 20 of 21 (24 honest pages): one honest page flagged (a driver's PIN read as a payment PIN, an older rule), none banned
)

// TestSignals5DevSet runs the heuristics over testdata/dev/signals5.yaml, as TestSignals4DevSet
// does over signals4.yaml, and checks the set: sourced, ids unique across the sets, both
// languages, more honest pages than abusive ones.
//
//	go test -count=1 -run TestSignals5DevSet -v ./worker/score/
func TestSignals5DevSet(t *testing.T) {
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	for _, path := range []string{"testdata/dev/pages.yaml", "testdata/dev/lures.yaml", "testdata/dev/general.yaml", "testdata/dev/stories.yaml", "testdata/dev/conduct.yaml", "testdata/dev/signals4.yaml"} {
		others = append(others, loadCases(t, path)...)
	}
	checkDevSet(t, "testdata/dev/signals5.yaml", others, signals5BanRecall, signals5FlagRecall, signals5FlagPrec)
}
