package moderation_test

import (
	"testing"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
)

func TestDecide(t *testing.T) {
	const (
		url   = "https://e.com/a"
		other = "https://e.com/b"
	)
	review := func(score float64) moderation.Judgement {
		return moderation.Judgement{Verdict: moderation.Verdict{Score: score}, URL: url}
	}
	moderator := func(a moderation.Action) moderation.Judgement { return moderation.Judgement{Action: a} }
	active := moderation.Facts{Status: link.StatusActive, URL: url, ReviewedURL: url}
	banned := moderation.Facts{Status: link.StatusBanned, URL: url, ReviewedURL: url}
	held := moderation.Facts{Status: link.StatusHeld, URL: url}
	approved := moderation.Facts{Status: link.StatusActive, URL: url, ReviewedURL: url, Approved: true}
	with := func(f moderation.Facts, edit func(*moderation.Facts)) moderation.Facts { edit(&f); return f }

	tests := []struct {
		name string
		f    moderation.Facts
		j    moderation.Judgement
		t    moderation.Thresholds
		want moderation.Ruling
	}{
		// Reviews: the thresholds.
		{"a low score passes", active, review(0.1), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Passed, Action: "pass", Status: link.StatusActive, ReviewedURL: url}},
		{"at the review score the link is flagged", active, review(0.5), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Flagged, Action: "flag", Status: link.StatusActive, ReviewedURL: url}},
		{"at the ban score the link is banned", active, review(0.8), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, ReviewedURL: url}},
		{"thresholds of its own", active, review(0.3), moderation.Thresholds{Ban: 0.9, Review: 0.2},
			moderation.Ruling{State: moderation.Flagged, Action: "flag", Status: link.StatusActive, ReviewedURL: url}},
		{"a disabled link is banned too", with(active, func(f *moderation.Facts) { f.Status = link.StatusDisabled }), review(0.95), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, ReviewedURL: url}},
		{"a first review: no state yet", with(active, func(f *moderation.Facts) { f.ReviewedURL = "" }), review(0.1), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Passed, Action: "pass", Status: link.StatusActive, ReviewedURL: url}},

		// A held link is banned or released by its review, or by a moderator.
		{"a held link that passes is released", held, review(0.1), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Passed, Action: "pass", Status: link.StatusActive, StatusChanged: true, ReviewedURL: url}},
		{"a held link that is flagged is released, flagged", held, review(0.6), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Flagged, Action: "flag", Status: link.StatusActive, StatusChanged: true, ReviewedURL: url}},
		{"a held link that fails is banned", held, review(0.9), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, ReviewedURL: url}},
		{"a held link whose destination changed meanwhile stays held", with(held, func(f *moderation.Facts) { f.URL = other }), review(0.1), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Passed, Action: "pass", Status: link.StatusHeld, ReviewedURL: url, Recheck: true}},
		{"a moderator's approval releases a held link", held, moderator(moderation.Approve), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Passed, Action: "approve", Status: link.StatusActive, StatusChanged: true, ReviewedURL: url}},
		{"a moderator's ban of a held link", held, moderator(moderation.Ban), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, DropDue: true, ReviewedURL: url}},

		// Only a moderator lifts a ban.
		{"a banned link that now passes stays banned", banned, review(0.1), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Note: moderation.NoteStaysBanned, Status: link.StatusBanned, ReviewedURL: url}},
		{"a banned link that is now flagged stays banned", banned, review(0.6), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Note: moderation.NoteStaysBanned, Status: link.StatusBanned, ReviewedURL: url}},
		{"a banned link banned again: no note, no change", banned, review(0.9), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, ReviewedURL: url}},

		// A moderator's approval of the destination stands.
		{"an approved destination is flagged, not banned", approved, review(0.99), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Flagged, Action: "flag", Note: moderation.NoteApproved, Status: link.StatusActive, ReviewedURL: url}},
		{"an approved destination still passes", approved, review(0.1), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Passed, Action: "pass", Status: link.StatusActive, ReviewedURL: url}},
		{"an approved destination still flags", approved, review(0.6), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Flagged, Action: "flag", Status: link.StatusActive, ReviewedURL: url}},
		{"an approval of another destination does not stand", with(approved, func(f *moderation.Facts) { f.ReviewedURL = other }), review(0.99), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, ReviewedURL: url}},
		{"an approval of a link never reviewed does not stand", with(approved, func(f *moderation.Facts) { f.ReviewedURL = "" }), review(0.99), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, ReviewedURL: url}},
		{"an approved banned link is flagged and keeps its status", with(banned, func(f *moderation.Facts) { f.Approved = true }), review(0.99), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Flagged, Action: "flag", Note: moderation.NoteApproved, Status: link.StatusBanned, ReviewedURL: url}},

		// The destination changed while it was reviewed: the new one is due.
		{"a destination changed during the review", with(active, func(f *moderation.Facts) { f.URL = other }), review(0.1), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Passed, Action: "pass", Status: link.StatusActive, ReviewedURL: url, Recheck: true}},
		{"a ban of a destination changed during the review", with(active, func(f *moderation.Facts) { f.URL = other }), review(0.9), moderation.DefaultThresholds,
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, ReviewedURL: url, Recheck: true}},

		// Moderators.
		{"a moderator bans and drops the review due", active, moderator(moderation.Ban), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, StatusChanged: true, ReviewedURL: url, DropDue: true}},
		{"a ban of a banned link changes no status", banned, moderator(moderation.Ban), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Banned, Action: "ban", Status: link.StatusBanned, ReviewedURL: url, DropDue: true}},
		{"a moderator lifts a ban", banned, moderator(moderation.Unban), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Passed, Action: "unban", Status: link.StatusActive, StatusChanged: true, ReviewedURL: url}},
		{"an approval lifts a ban", banned, moderator(moderation.Approve), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Passed, Action: "approve", Status: link.StatusActive, StatusChanged: true, ReviewedURL: url}},
		{"an approval of an active link changes no status", active, moderator(moderation.Approve), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Passed, Action: "approve", Status: link.StatusActive, ReviewedURL: url}},
		{"an approval leaves a disabled link disabled", with(active, func(f *moderation.Facts) { f.Status = link.StatusDisabled }), moderator(moderation.Approve), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Passed, Action: "approve", Status: link.StatusDisabled, ReviewedURL: url}},
		{"the destination approved is the one last reviewed", with(active, func(f *moderation.Facts) { f.URL = other }), moderator(moderation.Approve), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Passed, Action: "approve", Status: link.StatusActive, ReviewedURL: url}},
		{"a link never reviewed has its destination now approved", with(active, func(f *moderation.Facts) { f.ReviewedURL = "" }), moderator(moderation.Approve), moderation.Thresholds{},
			moderation.Ruling{State: moderation.Passed, Action: "approve", Status: link.StatusActive, ReviewedURL: url}},
		{"the worker's actions are not a moderator's", active, moderator(moderation.ActionPass), moderation.Thresholds{},
			moderation.Ruling{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := moderation.Decide(tt.f, tt.j, tt.t); got != tt.want {
				t.Errorf("Decide(%+v, %+v)\n got %+v\nwant %+v", tt.f, tt.j, got, tt.want)
			}
		})
	}
}

func TestMilestone(t *testing.T) {
	for _, c := range []struct {
		before, after int64
		want          bool
	}{
		{0, 1, true}, {1, 2, true}, {2, 3, false}, {3, 4, true}, {4, 7, false}, {5, 9, true},
		{0, 100, true}, {1023, 1024, true}, {1024, 2047, false}, {7, 7, false}, {8, 4, false},
		{1 << 40, 1<<41 - 1, false}, {1<<62 - 1, 1 << 62, true},
	} {
		if got := moderation.Milestone(c.before, c.after); got != c.want {
			t.Errorf("Milestone(%d, %d) = %v, want %v", c.before, c.after, got, c.want)
		}
	}
}
