package moderation

import (
	"math/bits"

	"github.com/shortlink/shortlink/backend/link"
)

// Facts are what is known of a link when a decision is made on it, read with the link locked
// in the transaction that records the decision.
type Facts struct {
	// Status is the link's status now (link.StatusActive, link.StatusBanned, …).
	Status string
	// URL is the link's destination now.
	URL string
	// ReviewedURL is the destination the link's moderation state is about (the one last
	// reviewed, or approved by a moderator); "" when the link has no state yet.
	ReviewedURL string
	// Approved says the latest moderator's decision on the link approved it or lifted its ban.
	Approved bool
}

// Judgement is what decides: a moderator's Action or, when Action is "", a review's Verdict
// on the destination URL.
type Judgement struct {
	Action  Action
	Verdict Verdict
	URL     string
}

// Ruling is what a decision does to a link: the state it leaves it in and what the store
// writes.
type Ruling struct {
	State State
	// Action names the decision in the audit log: ActionPass, ActionFlag or "ban" for a
	// review, the moderator's Action otherwise.
	Action string
	// Note explains a state other than the verdict's.
	Note string
	// Status is the link's status afterwards; StatusChanged says it is not Facts.Status.
	Status        string
	StatusChanged bool
	// ReviewedURL is the destination the state is about afterwards.
	ReviewedURL string
	// DropDue says a review still due is dropped: beside a moderator's ban it would record a
	// state that contradicts it (a moderator who wants one asks for it).
	DropDue bool
	// Recheck says the destination changed while it was reviewed: the new one is due.
	Recheck bool
}

// The notes of a review whose verdict does not stand.
const (
	NoteStaysBanned = "the link stays banned until a moderator lifts the ban"
	NoteApproved    = "a moderator approved this destination; flagged instead of banned"
)

// Decide is the rule of every moderation decision. A moderator's action sets the state: a ban
// bans the link and drops the review still due; approve and unban pass it and lift a ban.
// A review's verdict sets the state by the thresholds, except that only a moderator lifts a
// ban (a banned link stays banned whatever the score), and that a moderator's approval of the
// destination reviewed stands (what would be banned is flagged). A held link (link.StatusHeld)
// is banned or released by its review: anything but a ban makes it active. A ruling on an
// unknown action has no State.
func Decide(f Facts, j Judgement, t Thresholds) Ruling {
	if j.Action != "" {
		return decideAction(f, j.Action)
	}
	r := Ruling{State: t.StateOf(j.Verdict), Status: f.Status, ReviewedURL: j.URL, Recheck: f.URL != j.URL}
	switch {
	case f.Status == link.StatusBanned && r.State != Banned:
		r.State, r.Note = Banned, NoteStaysBanned
	case r.State == Banned && f.Approved && f.ReviewedURL == j.URL:
		r.State, r.Note = Flagged, NoteApproved
	}
	switch r.State {
	case Passed:
		r.Action = ActionPass
	case Flagged:
		r.Action = ActionFlag
	case Banned:
		r.Action = string(Ban)
		r.Status = link.StatusBanned
	}
	if f.Status == link.StatusHeld && r.State != Banned && !r.Recheck {
		// Released; a destination changed during the review keeps it held for the new one's.
		r.Status = link.StatusActive
	}
	r.StatusChanged = r.Status != f.Status
	return r
}

// decideAction is Decide for a moderator's action: approving or unbanning a held link
// releases it.
func decideAction(f Facts, a Action) Ruling {
	state, ok := a.State()
	if !ok {
		return Ruling{}
	}
	r := Ruling{State: state, Action: string(a), Status: f.Status, ReviewedURL: f.ReviewedURL}
	switch {
	case state == Banned:
		r.Status, r.DropDue = link.StatusBanned, true
	case f.Status == link.StatusBanned, f.Status == link.StatusHeld:
		r.Status = link.StatusActive
	}
	if r.ReviewedURL == "" {
		// A link never reviewed has its destination now approved (or banned).
		r.ReviewedURL = f.URL
	}
	r.StatusChanged = r.Status != f.Status
	return r
}

// Milestone says people's visits to a link, going from before to after, reached a power of two
// (1, 2, 4, 8, …): a link is reviewed again then, so that a link that becomes popular is looked
// at again while a quiet one costs nothing. The visit ingest applies it to a whole batch in SQL
// (the function visits_milestone of migration 00019), which its tests compare with this one.
func Milestone(before, after int64) bool {
	return after > before && before >= 0 && bits.Len64(uint64(after)) > bits.Len64(uint64(before))
}
