package score

import "testing"

// The figures on the development set of the seventh round of signals (testdata/dev/signals7.yaml):
// a change that lowers them, or bans an honest page, fails TestSignals7DevSet. They are
// in-sample: the signals were written beside these pages.
const (
	signals7BanRecall  = 1.0 // 64 of 64
	signals7FlagRecall = 1.0 // 64 of 64
	signals7FlagPrec   = 1.0 // 64 of 64 (65 honest pages): none flagged, none banned
)

// TestSignals7DevSet runs the heuristics over testdata/dev/signals7.yaml, as TestSignals5DevSet
// does over signals5.yaml, and checks the set: sourced, ids unique across the sets, both
// languages, more honest pages than abusive ones.
//
//	go test -count=1 -run TestSignals7DevSet -v ./worker/score/
func TestSignals7DevSet(t *testing.T) {
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	for _, path := range []string{"testdata/dev/pages.yaml", "testdata/dev/lures.yaml", "testdata/dev/general.yaml", "testdata/dev/stories.yaml", "testdata/dev/conduct.yaml", "testdata/dev/signals4.yaml", "testdata/dev/signals5.yaml", "testdata/dev/signals6.yaml"} {
		others = append(others, loadCases(t, path)...)
	}
	checkDevSet(t, "testdata/dev/signals7.yaml", others, signals7BanRecall, signals7FlagRecall, signals7FlagPrec)
}
