package moderation

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

// Action is what a moderator decides about a link (docs/moderation.md#moderation-people).
type Action string

// A moderator approves a link (it passes, and works again if it was banned), bans it, or
// lifts its ban.
const (
	Approve Action = "approve"
	Ban     Action = "ban"
	Unban   Action = "unban"
	// KeepBan answers an appeal of a banned link: the ban stays (docs/moderation.md#appeals).
	KeepBan Action = "keep_ban"
)

// Actions are the moderators' actions, in the order the API lists them.
var Actions = []Action{Approve, Ban, Unban, KeepBan}

// State is the state the action leaves the link in; ok is false for an unknown action.
func (a Action) State() (s State, ok bool) {
	switch a {
	case Approve, Unban:
		return Passed, true
	case Ban, KeepBan:
		return Banned, true
	}
	return "", false
}

// The automatic decisions' actions, as the audit log names them beside the moderators'.
const (
	ActionPass = "pass"
	ActionFlag = "flag"
)

// ReviewSummary is the gist of a review: what the scorer said.
type ReviewSummary struct {
	ID        int64
	Score     float64
	Category  string
	Reason    string
	Scorer    string // "model" or "heuristic"
	Model     string
	CreatedAt time.Time
}

// ReviewRecord is a stored review as moderators read it.
type ReviewRecord struct {
	ReviewSummary
	// URL is the destination reviewed; Trigger why ("created", "visits", "target_changed",
	// "requested").
	URL, Trigger string
	Notes        []string
	Captures     []CaptureRecord
	Duration     time.Duration
}

// CaptureRecord is a stored capture; its screenshot is read on its own (Desk.Screenshot).
type CaptureRecord struct {
	Capture // without Text and Screenshot
	// HasScreenshot says a screenshot was stored.
	HasScreenshot bool
}

// Actor is the person who made a decision.
type Actor struct {
	ID    int64
	Email string
}

// Decision is one entry of the audit log: a decision on a link, the worker's or a moderator's.
type Decision struct {
	ID, LinkID, WorkspaceID int64
	// Action is ActionPass, ActionFlag or "ban" (the worker's), or an Action (a moderator's).
	Action string
	State  State
	// Note is the moderator's private note: moderators and operators read it, owners never.
	Note string
	// Reason is the standard reason given to the owner (one of Reasons, "" for none) and
	// ReasonText the moderator's words to the owner.
	Reason, ReasonText string
	// Actor is nil for the worker's decisions and for those of an account deleted since.
	Actor *Actor
	// ReviewID is the review decided on: the worker's, or the latest a moderator saw; nil when
	// there was none.
	ReviewID  *int64
	CreatedAt time.Time
	// Domain is the domain of a decision on a whole domain (ActionBanDomain,
	// ActionClearDomain; LinkID and WorkspaceID 0); "" for a decision on a link.
	Domain string
}

// Appeal is an owner's request that moderators look again at a flagged or banned link: one
// per link, resolved by the next decision.
type Appeal struct {
	LinkID, WorkspaceID int64
	UserID              *int64 // nil when an API key appealed, or the account is gone
	Message             string
	CreatedAt           time.Time
	ResolvedAt          *time.Time
	// Resolution is the deciding action and the words it gave the owner ("unban: the page
	// is harmless"); never the moderator's private note.
	Resolution string
	// Outcome is AppealUpheld or AppealRejected once answered ("" while open), and Answer the
	// moderator's words to the owner.
	Outcome, Answer string
}

// MaxAppeal bounds an appeal's message, MaxNote a decision's private note, and MaxReasonText
// its words to the owner, in characters.
const (
	MaxAppeal     = 2000
	MaxNote       = 2000
	MaxReasonText = 500
)

// The standard reasons a moderator gives an owner, which the web app translates. ReasonOther
// needs words of the moderator's own.
const (
	ReasonPhishing = "phishing"
	ReasonMalware  = "malware"
	ReasonScam     = "scam"
	ReasonSpam     = "spam"
	ReasonAdult    = "adult"
	ReasonCloaking = "cloaking"
	ReasonOther    = "other"
)

// Reasons are the standard reasons, in the order the API lists them.
var Reasons = []string{ReasonPhishing, ReasonMalware, ReasonScam, ReasonSpam, ReasonAdult, ReasonCloaking, ReasonOther}

// Explanation is what a moderator says of a decision: the standard reason and the words shown
// to the link's owner, and a private note for the audit log.
type Explanation struct {
	Reason, ReasonText, Note string
	// OwnerMessage is the moderator's answer to the owner's appeal ("" for none: ReasonText
	// answers it then).
	OwnerMessage string
}

// check refuses an explanation the action cannot have: a reason must be a standard one, and
// "other" needs words of its own; texts are bounded.
func (e Explanation) check(a Action) error {
	if err := checkText("note", e.Note, 0, MaxNote); err != nil {
		return err
	}
	if err := checkText("reason_text", e.ReasonText, 0, MaxReasonText); err != nil {
		return apperr.Errorf(apperr.Invalid, "reason_text must be text of at most %d characters", MaxReasonText).
			For("reason_text_too_long", "reason_text")
	}
	// A ban without a reason is accepted (the API's decision body of old named only the note):
	// its owner is told that a moderator banned the link, never the note. The web app asks for
	// a reason.
	switch {
	case e.Reason != "" && !slices.Contains(Reasons, e.Reason):
		return apperr.Errorf(apperr.Invalid, "reason must be one of %s", strings.Join(Reasons, ", ")).
			For("reason_unknown", "reason")
	case e.Reason == ReasonOther && e.ReasonText == "":
		return apperr.Errorf(apperr.Invalid, "the reason \"other\" needs reason_text, the words shown to the owner").
			For("reason_text_required", "reason_text")
	}
	return nil
}

// QueueItem is a link waiting in the moderators' queue, with its latest review (nil when it
// has none).
type QueueItem struct {
	Link   *link.Link
	Review *ReviewSummary
	// WorkspaceName and OwnerEmail say whose link it is (the workspace's first owner; "" when
	// it has none), OwnerLanguage the language that owner reads the app's mails in ("en",
	// "zh"; "" without an owner): a moderator's words reach them as written; Visits is how
	// many visits of people it has had.
	WorkspaceName, OwnerEmail, OwnerLanguage string
	Visits                                   int64
	// Appeal is the link's open appeal, in the appealed tab; nil elsewhere.
	Appeal *Appeal
	// Place is the item's place in the queue: the next page starts after it.
	Place QueueCursor
}

// Appealed is the desk's tab of links with an open appeal, beside the states' tabs.
const Appealed = "appealed"

// Counts are how many links each tab of the desk holds, each counted up to CountCap.
type Counts struct {
	Pending, Flagged, Banned, Passed, Appealed int
}

// CountCap bounds each count of Counts: the desk shows "1000+" rather than count every link
// that ever passed.
const CountCap = 1000

// QueueCursor is the place of a queue item: when the link entered its state (or fell due, for
// pending links, or was appealed, in the appealed tab) and its ID. A page continues after the
// cursor of its last item.
type QueueCursor struct {
	At     time.Time
	LinkID int64
}

// String encodes the cursor for clients, who treat it as opaque.
func (c QueueCursor) String() string {
	return strconv.FormatInt(c.At.UnixMicro(), 36) + "." + strconv.FormatInt(c.LinkID, 36)
}

// ParseQueueCursor decodes a cursor made by String; "" is the first page (a zero cursor).
func ParseQueueCursor(s string) (QueueCursor, error) {
	if s == "" {
		return QueueCursor{}, nil
	}
	at, id, ok := strings.Cut(s, ".")
	us, err1 := strconv.ParseInt(at, 36, 64)
	n, err2 := strconv.ParseInt(id, 36, 64)
	if !ok || err1 != nil || err2 != nil || n <= 0 || us <= 0 {
		return QueueCursor{}, apperr.Errorf(apperr.Invalid, "cursor %q is not valid", s).For("value_invalid", "cursor")
	}
	return QueueCursor{At: time.UnixMicro(us), LinkID: n}, nil
}

// LinkFile is everything moderators see of a link: the link with its state, its latest
// reviews (newest first), every decision on it (newest first) and its appeal.
type LinkFile struct {
	Link *link.Link
	// WorkspaceName, OwnerEmail, OwnerLanguage and Visits say whose link it is and how
	// visited, as in the queue.
	WorkspaceName, OwnerEmail, OwnerLanguage string
	Visits                                   int64

	Reviews   []ReviewRecord
	Decisions []Decision
	Appeal    *Appeal
}

// MaxFileReviews is how many reviews a LinkFile holds.
const MaxFileReviews = 20

// Decided is what a moderator's decision did.
type Decided struct {
	// Link is the link afterwards, with its moderation state.
	Link     *link.Link
	Decision Decision
	// StatusChanged says the link was banned or its ban lifted.
	StatusChanged bool
	// AppealAnswered says the decision answered the link's open appeal; Appeal is that appeal,
	// answered (nil when none was open).
	AppealAnswered bool
	Appeal         *Appeal
}

// DeskStore keeps what moderators read and decide (package postgres). Reads by link ID span
// every workspace: moderators review them all; owners' calls name their workspace.
type DeskStore interface {
	// Queue lists up to limit+1 links in state s after the cursor: for flagged, passed and
	// banned, those whose state changed last first; for pending, links due for a review that
	// have none, the latest due first.
	Queue(ctx context.Context, s State, after QueueCursor, limit int) ([]QueueItem, error)
	// Appealed lists up to limit+1 links with an open appeal after the cursor, the latest
	// appealed first.
	Appealed(ctx context.Context, after QueueCursor, limit int) ([]QueueItem, error)
	// Counts counts the links of each tab, each up to CountCap.
	Counts(ctx context.Context) (Counts, error)
	// File returns the link's file; not_found when there is no such link.
	File(ctx context.Context, linkID int64) (*LinkFile, error)
	// Screenshot returns a capture's PNG; not_found when there is none.
	Screenshot(ctx context.Context, reviewID int64, p Profile) ([]byte, error)
	// Decide applies a moderator's action to the link in one transaction: its state, its
	// status (which every node's cache follows), the decision in the audit log, and its open
	// appeal resolved. The explanation's reason and words become what the owner is shown; its
	// note stays in the audit log. Returns not_found when there is no such link.
	Decide(ctx context.Context, linkID, actorID int64, a Action, e Explanation) (*Decided, error)
	// RequestReview makes the link due for a review now (reason "requested") and returns when
	// it is due; not_found when there is no such link.
	RequestReview(ctx context.Context, linkID int64) (time.Time, error)
	// Appeal records the owner's appeal of one of the workspace's links: not_found when the
	// link is not in the workspace, conflict when it is neither flagged nor banned or was
	// appealed before.
	Appeal(ctx context.Context, workspaceID, linkID, userID int64, message string) (*Appeal, error)
	// AppealOf returns the link's appeal, nil when there is none.
	AppealOf(ctx context.Context, workspaceID, linkID int64) (*Appeal, error)
	// Audit lists up to limit decisions with IDs below before (0: the newest), newest first.
	Audit(ctx context.Context, before int64, limit int) ([]Decision, error)
}

// Desk is what people do with the moderation: moderators read the queue and a link's file and
// decide; owners appeal; operators read the audit log.
type Desk struct {
	store    DeskStore
	queue    *Queue
	log      *slog.Logger
	changed  func(context.Context, *link.Link)
	answered func(*Decided)
}

// NewDesk returns the desk on store; requested reviews are queued in queue.
func NewDesk(store DeskStore, queue *Queue, log *slog.Logger) *Desk {
	return &Desk{store: store, queue: queue, log: log}
}

// OnStatusChanged tells fn of every link a decision banned or unbanned, for the caches (the
// change feed brings every node along within a second anyway).
func (d *Desk) OnStatusChanged(fn func(context.Context, *link.Link)) { d.changed = fn }

// OnAppealAnswered tells fn of every decision that answered an open appeal, once it is
// committed (AppealMail.Answered mails it).
func (d *Desk) OnAppealAnswered(fn func(*Decided)) { d.answered = fn }

// MaxPage is the largest page of the queue and of the audit log.
const MaxPage = 100

func checkLimit(limit int) error {
	if limit < 1 || limit > MaxPage {
		return apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	return nil
}

// Queue returns a page of the links in state (flagged when "") or, for Appealed, of those
// with an open appeal, and the cursor of the next page (nil when there is none).
func (d *Desk) Queue(ctx context.Context, state string, after QueueCursor, limit int) ([]QueueItem, *QueueCursor, error) {
	if err := checkLimit(limit); err != nil {
		return nil, nil, err
	}
	var items []QueueItem
	var err error
	switch s := State(state); s {
	case "":
		items, err = d.store.Queue(ctx, Flagged, after, limit)
	case Pending, Passed, Flagged, Banned:
		items, err = d.store.Queue(ctx, s, after, limit)
	case Appealed:
		items, err = d.store.Appealed(ctx, after, limit)
	default:
		return nil, nil, apperr.Errorf(apperr.Invalid, "state must be pending, passed, flagged, banned or appealed").
			For("value_invalid", "state")
	}
	if err != nil {
		return nil, nil, err
	}
	if len(items) > limit {
		return items[:limit], &items[limit-1].Place, nil
	}
	return items, nil, nil
}

// Counts returns how many links each tab of the desk holds, each up to CountCap.
func (d *Desk) Counts(ctx context.Context) (Counts, error) { return d.store.Counts(ctx) }

// File returns everything moderators see of a link.
func (d *Desk) File(ctx context.Context, linkID int64) (*LinkFile, error) {
	return d.store.File(ctx, linkID)
}

// Screenshot returns the PNG a visitor profile saw in a review.
func (d *Desk) Screenshot(ctx context.Context, reviewID int64, profile string) ([]byte, error) {
	for _, p := range Profiles {
		if string(p) == profile {
			return d.store.Screenshot(ctx, reviewID, p)
		}
	}
	return nil, apperr.Errorf(apperr.NotFound, "screenshot not found").For("screenshot_not_found", "")
}

// Decide applies a moderator's action with its explanation; a ban needs a reason.
func (d *Desk) Decide(ctx context.Context, linkID, actorID int64, action string, e Explanation) (*Decided, error) {
	a := Action(action)
	if _, ok := a.State(); !ok {
		return nil, apperr.Errorf(apperr.Invalid, "action must be approve, ban, unban or keep_ban").For("value_invalid", "action")
	}
	e = Explanation{Reason: strings.TrimSpace(e.Reason), ReasonText: strings.TrimSpace(e.ReasonText), Note: strings.TrimSpace(e.Note),
		OwnerMessage: strings.TrimSpace(e.OwnerMessage)}
	if err := e.check(a); err != nil {
		return nil, err
	}
	if err := checkText("owner_message", e.OwnerMessage, 0, MaxAppeal); err != nil {
		return nil, err
	}
	out, err := d.store.Decide(ctx, linkID, actorID, a, e)
	if err != nil {
		return nil, err
	}
	if out.StatusChanged && d.changed != nil {
		d.changed(ctx, out.Link)
	}
	if out.AppealAnswered && d.answered != nil {
		d.answered(out)
	}
	return out, nil
}

// RequestReview has the link reviewed again as soon as a worker is free. The review is
// recorded as due in PostgreSQL first; a Redis that does not take it only delays it until the
// workers rebuild their queue from PostgreSQL.
func (d *Desk) RequestReview(ctx context.Context, linkID int64) (time.Time, error) {
	at, err := d.store.RequestReview(ctx, linkID)
	if err != nil {
		return time.Time{}, err
	}
	if d.queue != nil {
		if err := d.queue.Request(ctx, at, linkID); err != nil {
			d.log.Warn("requested review not queued in redis; the workers' rebuild picks it up", "link", linkID, "err", err)
		}
	}
	return at, nil
}

// Appeal records an owner's appeal of a flagged or banned link.
func (d *Desk) Appeal(ctx context.Context, workspaceID, linkID, userID int64, message string) (*Appeal, error) {
	message = strings.TrimSpace(message)
	if err := checkText("message", message, 1, MaxAppeal); err != nil {
		return nil, err
	}
	return d.store.Appeal(ctx, workspaceID, linkID, userID, message)
}

// AppealOf returns the link's appeal, nil when there is none.
func (d *Desk) AppealOf(ctx context.Context, workspaceID, linkID int64) (*Appeal, error) {
	return d.store.AppealOf(ctx, workspaceID, linkID)
}

// Audit returns a page of the audit log, newest first, and the ID the next page starts
// before (0 when there is none).
func (d *Desk) Audit(ctx context.Context, before int64, limit int) ([]Decision, int64, error) {
	if err := checkLimit(limit); err != nil {
		return nil, 0, err
	}
	ds, err := d.store.Audit(ctx, before, limit+1)
	if err != nil {
		return nil, 0, err
	}
	if len(ds) > limit {
		ds = ds[:limit]
		return ds, ds[limit-1].ID, nil
	}
	return ds, 0, nil
}

// checkText refuses text that is not between min and max characters of valid UTF-8 without
// NUL characters.
func checkText(field, s string, min, max int) error {
	n := utf8.RuneCountInString(s)
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 || n < min || n > max {
		if min > 0 {
			return apperr.Errorf(apperr.Invalid, "%s must be text of %d to %d characters", field, min, max).For("text_length", field)
		}
		return apperr.Errorf(apperr.Invalid, "%s must be text of at most %d characters", field, max).For("text_length", field)
	}
	return nil
}
