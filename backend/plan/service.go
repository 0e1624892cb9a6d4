package plan

import (
	"context"
	"fmt"
	"github.com/maypok86/otter/v2"
	"log/slog"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// State is what is stored of a workspace's plan.
type State struct {
	WorkspaceID int64
	// Plan is the plan as stored; Effective tells what it answers as now.
	Plan        string
	TrialEndsAt *time.Time
	// TrialUsed is set once the workspace started its trial.
	TrialUsed bool
	// BilledPlan is the plan a subscription grants until BilledUntil (nil: no end); "" none.
	BilledPlan  string
	BilledUntil *time.Time
}

// At is the plan the workspace is on at now: the billed plan while it runs, else the stored
// plan (a lapsed trial is free).
func (st State) At(now time.Time) string {
	if st.BilledPlan != "" && (st.BilledUntil == nil || now.Before(*st.BilledUntil)) {
		return st.BilledPlan
	}
	return Effective(st.Plan, now, st.TrialEndsAt)
}

// UsageChange is one workspace's part of a round of quota reservations.
type UsageChange struct {
	WorkspaceID int64
	// Release gives back links reserved earlier that were not created after all.
	Release int64
	// Want is how many new links are asked for.
	Want int64

	// Set by the store: whether the workspace exists, its plan, the month's count before
	// this round's reservations (after the release) and how many of Want were granted.
	Found   bool
	State   State
	Used    int64
	Granted int64
}

// Store keeps plan state and link usage. Every method is scoped to the workspaces it names.
type Store interface {
	// State returns a workspace's plan state; not_found if there is no such workspace.
	State(ctx context.Context, workspaceID int64) (State, error)
	// StartTrial puts a free workspace that never had a trial on the trial until endsAt and
	// returns started=true. Otherwise it changes nothing and returns the state as it is
	// (started=false); not_found if there is no such workspace.
	StartTrial(ctx context.Context, workspaceID int64, endsAt time.Time) (st State, started bool, err error)
	// SetTrialEnd moves the end of a workspace's trial; not_found if there is no such workspace.
	SetTrialEnd(ctx context.Context, workspaceID int64, endsAt *time.Time) error
	// Members counts a workspace's members.
	Members(ctx context.Context, workspaceID int64) (int64, error)
	// LinksCreated is the number of new links counted for a workspace in month (the first
	// day of a month, UTC).
	LinksCreated(ctx context.Context, workspaceID int64, month time.Time) (int64, error)
	// ChangeUsage applies a round of releases and reservations to month's counts at once:
	// for each workspace found it calls grant with its state, its count after the release and
	// what it wants, and adds what grant returns. Rounds on every node are serialised per
	// workspace, so the counts stay exact under any concurrency.
	ChangeUsage(ctx context.Context, month time.Time, changes []*UsageChange, grant func(c *UsageChange) int64) error
}

// Usage is what a workspace has used of its limits.
type Usage struct {
	LinksThisMonth int64 `json:"links_this_month"`
	Members        int64 `json:"members"`
}

// Status is a workspace's plan as the API shows it: GET …/plan.
type Status struct {
	// Plan is the effective plan: a lapsed trial is free.
	Plan        string           `json:"plan"`
	TrialEndsAt *time.Time       `json:"trial_ends_at"`
	TrialUsed   bool             `json:"trial_used"`
	Features    map[Feature]bool `json:"features"`
	Limits      Limits           `json:"limits"`
	Usage       Usage            `json:"usage"`
}

// Service answers plan questions about workspaces: their plan, trial, limits and usage.
type Service struct {
	store Store
	gate  *Gate
	now   func() time.Time
	quota *reserver
	log   *slog.Logger
	// unlimitedWS remembers which workspaces have no monthly link limit (see Reserve).
	unlimitedWS *otter.Cache[int64, bool]
	// states remembers workspaces' plan states for CacheTTL (Cached, Allows).
	states *otter.Cache[int64, State]
}

// CacheTTL is how long a node remembers a workspace's plan for the work that runs away from
// configuration: the redirect path, webhook dispatch, app-link files. A change of plan reaches
// that work within CacheTTL on every node, and at once on the node that made it (Forget).
// See docs/rules-and-plans.md#after-a-downgrade.
const CacheTTL = 10 * time.Second

// NewService returns the plan service; now is its clock (nil: time.Now). Close stops it.
func NewService(store Store, gate *Gate, now func() time.Time, log *slog.Logger) *Service {
	if now == nil {
		now = time.Now
	}
	s := &Service{store: store, gate: gate, now: now, log: log,
		unlimitedWS: otter.Must(&otter.Options[int64, bool]{
			MaximumSize:      100_000,
			ExpiryCalculator: otter.ExpiryWriting[int64, bool](unlimitedTTL),
		}),
		states: otter.Must(&otter.Options[int64, State]{
			MaximumSize:      100_000,
			ExpiryCalculator: otter.ExpiryWriting[int64, State](CacheTTL),
		})}
	s.quota = newReserver(store, s.grant, now, log)
	return s
}

// Close writes the releases still queued and stops taking reservations.
func (s *Service) Close() { s.quota.close() }

// Gate is the service's gate, for pure checks where the plan is known.
func (s *Service) Gate() *Gate { return s.gate }

// MonthOf is the first instant of t's calendar month in UTC: the key of the monthly quota.
func MonthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// Effective returns the plan a workspace is on now (a lapsed trial is free).
func (s *Service) Effective(ctx context.Context, workspaceID int64) (string, error) {
	st, err := s.store.State(ctx, workspaceID)
	if err != nil {
		return "", fmt.Errorf("plan of workspace: %w", err)
	}
	return st.At(s.now()), nil
}

// Cached returns the plan a workspace is on now, its state read from the database at most
// once per CacheTTL: a trial or a paid period that ends is seen at once, any other change of
// plan within CacheTTL (at once after Forget on this node).
func (s *Service) Cached(ctx context.Context, workspaceID int64) (string, error) {
	st, ok := s.states.GetIfPresent(workspaceID)
	if !ok {
		var err error
		if st, err = s.store.State(ctx, workspaceID); err != nil {
			return "", fmt.Errorf("plan of workspace: %w", err)
		}
		s.states.Set(workspaceID, st)
	}
	return st.At(s.now()), nil
}

// Allows reports whether the workspace's plan unlocks f, through Cached: the question asked
// where a paid feature's work runs. An error means the plan could not be read; callers then
// hold the work back rather than run it.
func (s *Service) Allows(ctx context.Context, workspaceID int64, f Feature) (bool, error) {
	p, err := s.Cached(ctx, workspaceID)
	if err != nil {
		return false, err
	}
	return s.gate.Plan(p).Has(f), nil
}

// Forget drops what this node remembers of a workspace's plan, after it changed it.
func (s *Service) Forget(workspaceID int64) {
	s.states.Invalidate(workspaceID)
	s.unlimitedWS.Invalidate(workspaceID)
}

// Status returns the workspace's effective plan, its features, limits and usage.
func (s *Service) Status(ctx context.Context, workspaceID int64) (*Status, error) {
	st, err := s.store.State(ctx, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("plan status: %w", err)
	}
	u, err := s.Usage(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	p := s.gate.Plan(st.At(s.now()))
	out := &Status{
		Plan:        p.Name,
		TrialEndsAt: st.TrialEndsAt,
		TrialUsed:   st.TrialUsed,
		Features:    make(map[Feature]bool, len(Features)),
		Limits:      p.Limits,
		Usage:       u,
	}
	for _, f := range Features {
		out.Features[f] = p.Has(f)
	}
	return out, nil
}

// StartTrial puts a free workspace on the trial for TrialLength. Returns trial_used (409) if
// the workspace had its trial already, conflict if it is on a paid plan.
func (s *Service) StartTrial(ctx context.Context, workspaceID int64) (State, error) {
	st, started, err := s.store.StartTrial(ctx, workspaceID, s.now().Add(TrialLength).UTC().Truncate(time.Microsecond))
	if err != nil {
		return State{}, fmt.Errorf("start trial: %w", err)
	}
	switch {
	case started:
		return st, nil
	case st.TrialUsed:
		return State{}, apperr.Errorf(apperr.TrialUsed, "this workspace has had its trial; a workspace gets one").For("trial_used", "")
	}
	return State{}, apperr.Errorf(apperr.Conflict, "this workspace is on the %s plan; the trial is for free workspaces", st.Plan).For("trial_not_free", "")
}

// Usage returns the links created this month (UTC) and the members of a workspace.
func (s *Service) Usage(ctx context.Context, workspaceID int64) (Usage, error) {
	links, err := s.store.LinksCreated(ctx, workspaceID, MonthOf(s.now()))
	if err != nil {
		return Usage{}, fmt.Errorf("link usage: %w", err)
	}
	members, err := s.store.Members(ctx, workspaceID)
	if err != nil {
		return Usage{}, fmt.Errorf("member usage: %w", err)
	}
	return Usage{LinksThisMonth: links, Members: members}, nil
}

// Require returns plan_required unless the workspace's plan unlocks f.
func (s *Service) Require(ctx context.Context, workspaceID int64, f Feature) error {
	p, err := s.Effective(ctx, workspaceID)
	if err != nil {
		return err
	}
	return s.gate.Require(p, f)
}

// CheckLinkFields is Gate.CheckLinkFields for a workspace. It reads the plan only when one
// of fields is gated, so a create with none of them costs nothing here.
func (s *Service) CheckLinkFields(ctx context.Context, workspaceID int64, fields []string, isEdit bool) error {
	if !s.gate.anyGated(fields, isEdit) {
		return nil
	}
	p, err := s.Effective(ctx, workspaceID)
	if err != nil {
		return err
	}
	return s.gate.CheckLinkFields(p, fields, isEdit)
}

// CheckMembers returns quota_exceeded when the workspace may not take adding more members.
// Two additions at the same moment may both pass: the limit can be passed by one at a race.
func (s *Service) CheckMembers(ctx context.Context, workspaceID int64, adding int64) error {
	p, err := s.Effective(ctx, workspaceID)
	if err != nil {
		return err
	}
	n, err := s.store.Members(ctx, workspaceID)
	if err != nil {
		return fmt.Errorf("check members: %w", err)
	}
	return s.gate.CheckMembers(p, n, adding)
}

// Reserve takes n new links from the workspace's quota for this month and returns how many
// it granted: the first k of the n (in the caller's order). When k < n the error is
// quota_exceeded naming the limit, and it belongs to rows k…n-1; any other error grants
// none. Concurrent calls are written together, one short transaction per round for every
// workspace at once, so there is no per-create round trip and the count stays exact across
// nodes. Links reserved and then not created must be given back with Release.
//
// A workspace whose plan has no monthly limit is not waited on: its links are counted in the
// next round without holding the create back (the plan is remembered for unlimitedTTL, so a
// downgrade from such a plan is enforced within that time).
func (s *Service) Reserve(ctx context.Context, workspaceID int64, n int) (int, error) {
	if s.unlimited(ctx, workspaceID) {
		s.quota.count(workspaceID, int64(n))
		return n, nil
	}
	return s.quota.reserve(ctx, workspaceID, int64(n))
}

// unlimitedTTL is how long a workspace's plan is remembered as having no monthly link limit.
const unlimitedTTL = 5 * time.Second

// unlimited reports whether the workspace's plan sets no monthly link limit, from memory when
// it was read in the last unlimitedTTL; false when it cannot tell (the exact path then decides).
func (s *Service) unlimited(ctx context.Context, workspaceID int64) bool {
	if u, ok := s.unlimitedWS.GetIfPresent(workspaceID); ok {
		return u
	}
	p, err := s.Effective(ctx, workspaceID)
	if err != nil {
		return false
	}
	u := s.gate.Plan(p).Limits.LinksPerMonth == Unlimited
	s.unlimitedWS.Set(workspaceID, u)
	return u
}

// Release gives back n links reserved but not created (their insert failed). It does not
// wait: the release is written with the next round.
func (s *Service) Release(workspaceID int64, n int) { s.quota.release(workspaceID, int64(n)) }

// grant is the quota rule applied inside a round: how many of c.Want fit, and the
// quota_exceeded error of the rest.
func (s *Service) grant(c *UsageChange) (int64, error) {
	return s.gate.GrantLinks(c.State.At(s.now()), c.Used, c.Want)
}

// CheckDomains returns plan_required when the workspace's plan has no custom domains and
// quota_exceeded when a workspace with current domains may not add one more.
func (s *Service) CheckDomains(ctx context.Context, workspaceID, current int64) error {
	p, err := s.Effective(ctx, workspaceID)
	if err != nil {
		return err
	}
	return s.gate.CheckDomains(p, current)
}
