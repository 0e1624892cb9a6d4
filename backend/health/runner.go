package health

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shortlink/shortlink/backend/locale"
)

// Due is a link leased to a checker: its destination and its health so far.
type Due struct {
	LinkID      int64
	WorkspaceID int64
	// URL is the link's destination now; Host its host name.
	URL  string
	Host string
	// Active: the link redirects (active and not expired); others are not checked.
	Active bool
	// Record is the link's health, about its destination now (an empty record when the
	// destination changed since the last check).
	Record Record
}

// Store keeps links' health (link_health) and the digests sent.
type Store interface {
	// Sweep gives health rows to up to n links after the shared sweep cursor (due at once),
	// resets those whose destination changed, and moves the cursor, back to the first link
	// after the last. It answers how many links it looked at; 0 when another node holds the
	// cursor or swept less than pace ago (the nodes together sweep n links a pace).
	Sweep(ctx context.Context, n int, pace time.Duration) (int, error)
	// Claim leases up to n due links until leaseUntil, at most perHost of one host; a leased
	// link is claimed by no one else until its lease ends.
	Claim(ctx context.Context, n, perHost int, leaseUntil time.Time) ([]Due, error)
	// Get answers link's health as Due (Record empty before a first check, or when the
	// destination changed since), or a not_found error if it is not in the workspace.
	Get(ctx context.Context, workspaceID, linkID int64) (*Due, error)
	// Record writes what a check of d found, and when the link is due again.
	Record(ctx context.Context, d Due, rec Record, next time.Time) error
	// Postpone makes a leased link due at next without a check.
	Postpone(ctx context.Context, linkID int64, next time.Time) error
	// DigestsDue answers up to n workspaces with links broken since their last digest, whose
	// last digest is at least every old.
	DigestsDue(ctx context.Context, every time.Duration, n int) ([]int64, error)
	// ClaimDigest records a digest of workspace as sent now if its last is at least every
	// old; ok is false when another node just did. since is when the one before was sent
	// (nil for the first), at when this one is recorded.
	ClaimDigest(ctx context.Context, workspaceID int64, every time.Duration) (since *time.Time, at time.Time, ok bool, err error)
	// UndoDigest gives back a claimed digest that could not be sent: the one before is the
	// last again.
	UndoDigest(ctx context.Context, workspaceID int64, at time.Time, since *time.Time) error
	// BrokenSince answers up to n links of the workspace broken after since (all when nil),
	// still broken, and how many there are; and the workspace's owners, each with their language.
	BrokenSince(ctx context.Context, workspaceID int64, since *time.Time, n int) (links []BrokenLink, total int, owners []locale.Recipient, err error)
}

// BrokenLink is a line of a digest.
type BrokenLink struct {
	LinkID   int64
	DomainID int64
	Key      string
	URL      string
	Record   Record
}

// Budget takes one from the budget named key, of n per period, shared by every node; it
// answers an error (a rate limit) when the budget is spent. *auth.Limiter is one.
type Budget interface {
	Take(ctx context.Context, key, what string, n int, period time.Duration) error
}

// Mailer sends one mail; mail.SMTP is one.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Options configure a Runner.
type Options struct {
	Store   Store
	Checker *Checker
	// Budget keeps the per-host budgets; nil counts none.
	Budget   Budget
	Schedule Schedule
	// PerHost is how many checks one host gets a minute (HEALTH_HOST_CHECKS_PER_MINUTE).
	PerHost int
	// Batch is how many checks a node makes at once (HEALTH_CONCURRENCY).
	Batch int
	// Poll is how often a node looks for due links and sweeps on.
	Poll time.Duration
	// DigestEvery is the time between two digests of a workspace (HEALTH_DIGEST_INTERVAL).
	DigestEvery time.Duration
	// Mail sends the digests; nil: the log tells.
	Mail Mailer
	// ShortURL is the short URL of a link's domain and key, for the digest.
	ShortURL func(domainID int64, key string) string
	// AppURL is the web app's address, for the digest.
	AppURL string
	Log    *slog.Logger
	// ChecksNowPerHour is how many checks a workspace asks for in an hour (CheckNow;
	// HEALTH_CHECKS_NOW_PER_HOUR).
	ChecksNowPerHour int
}

// sweepBatch is how many links a sweep step looks at.
const sweepBatch = 5000

// hostPeriod is the period of the per-host budgets.
const hostPeriod = time.Minute

// Runner checks due links: every node runs one, each check leased to one node (the store's
// claim), so two nodes never check a link in the same round. It also gives new links their
// health rows (Sweep) and sends the digests.
type Runner struct {
	o     Options
	lease time.Duration
	// rounds, digestPolls and putOff count what Run has done, for tests that prove that
	// something did not happen after the runner had its chance (Progress).
	rounds, digestPolls, putOff atomic.Int64
}

// Progress is what a Runner has done since it started.
type Progress struct {
	// Rounds are the rounds of Run finished: a sweep when due, a claim and its checks, and
	// a digest poll when due.
	Rounds int64
	// DigestPolls are the looks for digests due finished (the digests sent included).
	DigestPolls int64
	// PutOff are the claimed links put off without a check (a host's budget spent, or a
	// link that does not redirect).
	PutOff int64
}

// Progress answers what the runner has done so far: a test waits for a round that began
// after an event to know the runner had its chance to act on it.
func (r *Runner) Progress() Progress {
	return Progress{Rounds: r.rounds.Load(), DigestPolls: r.digestPolls.Load(), PutOff: r.putOff.Load()}
}

// NewRunner returns a Runner; Run starts it.
func NewRunner(o Options) *Runner {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Batch <= 0 {
		o.Batch = 8
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	if o.PerHost <= 0 {
		o.PerHost = 10
	}
	if o.ChecksNowPerHour <= 0 {
		o.ChecksNowPerHour = 60
	}
	return &Runner{o: o, lease: 4*o.Checker.timeout + time.Minute}
}

// UseMail sets the mail of the digests; call it before Run.
func (r *Runner) UseMail(m Mailer) { r.o.Mail = m }

// Run sweeps, checks and sends digests until ctx ends; the checks under way finish first.
// It sweeps once a Poll, and checks again at once only after a round that checked a full
// batch (a round whose links' hosts had spent their budgets waits a Poll).
func (r *Runner) Run(ctx context.Context) {
	t := time.NewTicker(r.o.Poll)
	defer t.Stop()
	var lastSweep, lastDigest time.Time
	for {
		if time.Since(lastSweep) >= r.o.Poll {
			lastSweep = time.Now()
			if _, err := r.o.Store.Sweep(ctx, sweepBatch, r.o.Poll*9/10); err != nil && ctx.Err() == nil {
				r.o.Log.Warn("link health: sweep links", "err", err)
			}
		}
		n, err := r.Step(ctx)
		if err != nil && ctx.Err() == nil {
			r.o.Log.Warn("link health: claim due links", "err", err)
		}
		if time.Since(lastDigest) >= r.digestPoll() {
			lastDigest = time.Now()
			if _, err := r.Digests(ctx); err != nil && ctx.Err() == nil {
				r.o.Log.Warn("link health: digests", "err", err)
			}
			r.digestPolls.Add(1)
		}
		r.rounds.Add(1)
		if n == r.o.Batch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// digestPoll is how often a node looks for digests due: ten polls, between a second and a
// minute.
func (r *Runner) digestPoll() time.Duration {
	return min(time.Minute, max(10*r.o.Poll, time.Second))
}

// Step claims due links and checks them at once, within each host's budget; it answers how
// many it checked (those put off do not count).
func (r *Runner) Step(ctx context.Context) (int, error) {
	if ctx.Err() != nil {
		return 0, nil
	}
	claimed, err := r.o.Store.Claim(ctx, r.o.Batch, r.o.PerHost, time.Now().Add(r.lease))
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	var checked atomic.Int32
	for _, d := range claimed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r.check(ctx, d) {
				checked.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(checked.Load()), nil
}

// check checks one claimed link, or puts it off (false): a link that does not redirect waits
// a round of Every, one whose host spent its budget a little while. A check cut short by the
// end of ctx (the node stopping) records nothing: the lease ends and the link is checked again.
func (r *Runner) check(runCtx context.Context, d Due) bool {
	ctx := context.WithoutCancel(runCtx)
	now := time.Now()
	if !d.Active {
		r.postpone(ctx, d, now.Add(r.o.Schedule.Every))
		return false
	}
	if r.o.Budget != nil && d.Host != "" {
		if err := r.o.Budget.Take(ctx, "health-host:"+d.Host, "checks of a host", r.o.PerHost, hostPeriod); err != nil {
			r.postpone(ctx, d, now.Add(hostPeriod/time.Duration(r.o.PerHost)+spread(d.LinkID, hostPeriod)))
			return false
		}
	}
	res := r.o.Checker.Check(runCtx, d.URL)
	if runCtx.Err() != nil {
		return true
	}
	counted(res)
	rec := Apply(d.Record, res, time.Now())
	if err := r.o.Store.Record(ctx, d, rec, Next(rec, d.LinkID, rec.CheckedAt, r.o.Schedule)); err != nil {
		// The lease ends and the link is checked again.
		r.o.Log.Error("link health: record a check", "link", d.LinkID, "err", err)
		return true
	}
	if rec.State == Broken && d.Record.State != Broken {
		r.o.Log.Info("link health: link broken", "link", d.LinkID, "workspace", d.WorkspaceID, "error", rec.Error, "status", rec.Status)
	}
	return true
}

func (r *Runner) postpone(ctx context.Context, d Due, next time.Time) {
	defer r.putOff.Add(1)
	if err := r.o.Store.Postpone(ctx, d.LinkID, next); err != nil {
		r.o.Log.Warn("link health: put a check off", "link", d.LinkID, "err", err)
	}
}

// CheckNow checks a link of the workspace now, whatever its schedule, and records what it
// found; a workspace has ChecksNowPerHour of them (a rate-limit error past that).
func (r *Runner) CheckNow(ctx context.Context, workspaceID, linkID int64) error {
	d, err := r.o.Store.Get(ctx, workspaceID, linkID)
	if err != nil {
		return err
	}
	if r.o.Budget != nil {
		if err := r.o.Budget.Take(ctx, "health-now:"+itoa(workspaceID), "link checks", r.o.ChecksNowPerHour, time.Hour); err != nil {
			return err
		}
	}
	res := r.o.Checker.Check(ctx, d.URL)
	if err := ctx.Err(); err != nil {
		// The client went away: a check cut short says nothing of the destination.
		return err
	}
	counted(res)
	rec := Apply(d.Record, res, time.Now())
	return r.o.Store.Record(ctx, *d, rec, Next(rec, d.LinkID, rec.CheckedAt, r.o.Schedule))
}
