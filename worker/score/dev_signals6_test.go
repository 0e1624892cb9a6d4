package score

import "testing"

// The figures on the development set of the sixth round of signals (testdata/dev/signals6.yaml):
// a change that lowers them, or bans an honest page, fails TestSignals6DevSet. They are
// in-sample: the signals were written beside these pages.
const (
	signals6BanRecall  = 1.0 // 20 of 20
	signals6FlagRecall = 1.0 // 20 of 20
	signals6FlagPrec   = 1.0 // 20 of 20 (27 honest pages): none flagged, none banned
)

// TestSignals6DevSet runs the heuristics over testdata/dev/signals6.yaml, as TestSignals5DevSet
// does over signals5.yaml, and checks the set: sourced, ids unique across the sets, both
// languages, more honest pages than abusive ones.
//
//	go test -count=1 -run TestSignals6DevSet -v ./worker/score/
func TestSignals6DevSet(t *testing.T) {
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	for _, path := range []string{"testdata/dev/pages.yaml", "testdata/dev/lures.yaml", "testdata/dev/general.yaml", "testdata/dev/stories.yaml", "testdata/dev/conduct.yaml", "testdata/dev/signals4.yaml", "testdata/dev/signals5.yaml"} {
		others = append(others, loadCases(t, path)...)
	}
	checkDevSet(t, "testdata/dev/signals6.yaml", others, signals6BanRecall, signals6FlagRecall, signals6FlagPrec)
}
