package moderation

import (
	"context"
	"time"

	"github.com/shortlink/shortlink/backend/link"
)

// State is a link's moderation state (docs/moderation.md).
type State string

// The states: not reviewed yet, reviewed and harmless, waiting for a moderator, banned.
const (
	Pending State = "pending"
	Passed  State = "passed"
	Flagged State = "flagged"
	Banned  State = "banned"
)

// Thresholds turn a score into a state: at or above Ban the link is banned, at or above
// Review it is flagged for a moderator, below it passes (MODERATION_BAN_SCORE,
// MODERATION_REVIEW_SCORE).
type Thresholds struct {
	Ban, Review float64
}

// DefaultThresholds are the defaults of docs/moderation.md.
var DefaultThresholds = Thresholds{Ban: 0.8, Review: 0.5}

// StateOf is the state a verdict gives.
func (t Thresholds) StateOf(v Verdict) State {
	switch {
	case v.Score >= t.Ban:
		return Banned
	case v.Score >= t.Review:
		return Flagged
	default:
		return Passed
	}
}

// Job is a due review as the worker takes it: the link, its destination now, and why.
type Job struct {
	LinkID, WorkspaceID int64
	Key                 string // the link's key on its domain
	URL                 string
	Reason              string // "created", "held", "visits", "target_changed", "requested"
	// Seq identifies this request for a review: a new reason arriving while the review runs
	// changes it, and the link stays due.
	Seq      int64
	Attempts int
	DueAt    time.Time
}

// Review is what the worker found: what each visitor saw, the scorer's verdict, how long it took.
type Review struct {
	Captures []Capture
	Verdict  Verdict
	Duration time.Duration
	// Destination and Domain are the destination as moderation normalises it and its
	// registrable domain, recorded for sharing and reputation ("" when it has none).
	Destination, Domain string
	// Shared is the review whose verdict this one took instead of opening the browser, and
	// SharedHow why: "destination" (the same page) or "domain" (the domain's record); nil and
	// "" for a review that opened the browser.
	Shared    *Shared
	SharedHow string
	// Record, when set on a review that opened the browser, has the recording keep its domain's
	// hold (moderation_holds) by this reputation: held while Record.Holds says so.
	Record *Reputation
}

// Outcome is what recording a review decided.
type Outcome struct {
	ReviewID int64
	State    State
	// Note explains a state other than the verdict's (a moderator's approval stands).
	Note string
	// StillDue says the link was asked for again while the review ran, or its destination
	// changed meanwhile.
	StillDue bool
	// Link is the link afterwards when the review changed its status (banned it, or released a
	// held link), for the caches; nil otherwise.
	Link *link.Link
}

// Store keeps the reviews and the due list durably (package postgres).
type Store interface {
	// Due lists every link due, for Queue.Rebuild.
	Due(ctx context.Context) ([]Due, error)
	// DueCreated records as due ('created') the links created since the given time that have
	// never been reviewed, and returns those it added.
	DueCreated(ctx context.Context, since time.Time) ([]Due, error)
	// Jobs reads the due reviews of the links; links deleted meanwhile, or no longer due, are
	// left out (and no longer due).
	Jobs(ctx context.Context, linkIDs []int64) ([]Job, error)
	// Record stores a review and the decision Decide makes of it with t, in one transaction:
	// the link's state, its status when banned (which every node's cache follows), the
	// decision in the audit log, and the due row removed unless asked for again meanwhile.
	Record(ctx context.Context, j Job, r Review, t Thresholds) (Outcome, error)
	// Failed counts a failed attempt at the job and returns the attempts so far.
	Failed(ctx context.Context, j Job, reason string) (int, error)
	// Shared is the newest review of the destination (as Destinations.Normalise gives it) made
	// since the given time that opened the browser; nil when none.
	Shared(ctx context.Context, destination string, since time.Time) (*Shared, error)
	// DomainVerdicts are the domain's newest reviews made since the given time that opened the
	// browser, newest first, at most n, with their states by t.
	DomainVerdicts(ctx context.Context, domain string, since time.Time, n int, t Thresholds) ([]DomainVerdict, error)
	// DomainState is a moderator's standing decision on the domain: DomainBanned (with the
	// category its links are banned as), DomainCleared or "".
	DomainState(ctx context.Context, domain string) (state, category string, err error)
	// HoldDomain takes the domain for one review of a new link at a time, across every worker
	// process, without waiting: ok false when another review holds it. release gives it back;
	// a worker that dies gives back what it held at once.
	HoldDomain(ctx context.Context, domain string) (release func(), ok bool, err error)
}
