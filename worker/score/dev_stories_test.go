package score

import "testing"

// The figures on the development set of the story signals (testdata/dev/stories.yaml): a
// change that lowers them, or bans an honest page, fails TestStoryDevSet. They are in-sample:
// the signals were written beside these pages.
const (
	storyBanRecall  = 1.0  // 39 of 39
	storyFlagRecall = 1.0  // 39 of 39
	storyFlagPrec   = 0.96 // 1 honest page flagged of 40 flagged (an insurer's claim form: payment-form's card and ID)
)

// TestStoryDevSet runs the heuristics over testdata/dev/stories.yaml, as TestGeneralDevSet
// does over general.yaml, and checks the set: sourced, ids unique across the sets, both
// languages, more honest pages than abusive ones.
//
//	go test -count=1 -run TestStoryDevSet -v ./worker/score/
func TestStoryDevSet(t *testing.T) {
	t.Parallel()
	others := append(loadCalibration(t), loadCases(t, "testdata/calibration/dev.yaml")...)
	others = append(others, loadCases(t, "testdata/dev/pages.yaml")...)
	others = append(others, loadCases(t, "testdata/dev/lures.yaml")...)
	others = append(others, loadCases(t, "testdata/dev/general.yaml")...)
	checkDevSet(t, "testdata/dev/stories.yaml", others, storyBanRecall, storyFlagRecall, storyFlagPrec)
}
