package domain

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
)

// Checker looks at the TXT record that proves a host name (DNS).
type Checker interface {
	Holds(ctx context.Context, hostname, token string) (bool, error)
}

// Plans is what the domain service asks of the workspace's plan.
type Plans interface {
	// CheckDomains answers plan_required when the plan has no custom domains and
	// quota_exceeded when a workspace with current domains may not add one more.
	CheckDomains(ctx context.Context, workspaceID, current int64) error
	// Require answers plan_required unless the workspace's plan unlocks f.
	Require(ctx context.Context, workspaceID int64, f plan.Feature) error
}

// Options configure a Service.
type Options struct {
	// OwnHosts are the service's own host names: no customer may add them or names under them.
	OwnHosts []string
	// Target is where a domain's owner points it (DOMAIN_TARGET): Records shows the records.
	Target Target
	// CheckEvery is how often a pending domain's record is looked at again (CheckPending).
	CheckEvery time.Duration
	// Changed is called after this node changed a domain the table holds (verified, edited,
	// removed), once this node's table has it: it tells the other nodes.
	Changed func(ctx context.Context, id int64)
	// VerifiedInBackground is called after CheckPending found a domain's record in place (the
	// audit log records it as the service's doing); a person's own Verify does not call it.
	VerifiedInBackground func(ctx context.Context, d *Domain)
	// Verified is called after any check verified a domain, a person's or the background's
	// (webhooks' domain.verified).
	Verified func(ctx context.Context, d *Domain)
}

// Service adds, verifies, edits and removes custom domains.
type Service struct {
	store   Store
	table   *Table
	checker Checker
	plans   Plans
	o       Options
	log     *slog.Logger
}

// NewService returns the service; table is this node's host table, reloaded after changes.
func NewService(store Store, table *Table, checker Checker, plans Plans, o Options, log *slog.Logger) *Service {
	if o.CheckEvery <= 0 {
		o.CheckEvery = time.Minute
	}
	return &Service{store: store, table: table, checker: checker, plans: plans, o: o, log: log}
}

// Records are the DNS records that send hostname's visitors to the service.
func (s *Service) Records(hostname string) []Record { return s.o.Target.Records(hostname) }

// Table is this node's host → domain table.
func (s *Service) Table() *Table { return s.table }

// Add adds hostname to the workspace, pending until its TXT record holds the token it is
// given. Returns invalid for a name that cannot be a custom domain, plan_required or
// quota_exceeded per the plan, and conflict when the workspace has the name already or
// another workspace holds it verified.
func (s *Service) Add(ctx context.Context, workspaceID int64, hostname string) (*Domain, error) {
	host, err := Normalize(hostname, s.o.OwnHosts)
	if err != nil {
		return nil, err
	}
	if r := s.table.Host(host); r != nil && r.Active && r.WorkspaceID != workspaceID {
		return nil, apperr.Errorf(apperr.Conflict, "%q is verified by another workspace", host).For("domain_taken", "hostname")
	}
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	d, err := s.store.Create(ctx, &Domain{WorkspaceID: workspaceID, Hostname: host, Token: token}, func(current int64) error {
		if s.plans == nil {
			return nil
		}
		return s.plans.CheckDomains(ctx, workspaceID, current)
	})
	if err != nil {
		return nil, fmt.Errorf("add domain: %w", err)
	}
	return d, nil
}

func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("domain token: %w", err)
	}
	return "sl-verify-" + hex.EncodeToString(b), nil
}

// Get returns one of the workspace's domains.
func (s *Service) Get(ctx context.Context, workspaceID, id int64) (*Domain, error) {
	return s.store.Get(ctx, workspaceID, id)
}

// List returns the workspace's domains, oldest first.
func (s *Service) List(ctx context.Context, workspaceID int64) ([]*Domain, error) {
	return s.store.List(ctx, workspaceID)
}

// Verify looks at the domain's TXT record now and returns the domain, verified when the
// record holds its token. A record that does not (yet) is no error: the domain stays pending,
// with what the lookup saw in CheckError. Conflict when another workspace verified the name
// first; plan_required for a pending domain of a workspace whose plan lost custom domains (it
// stays pending, and is checked again once the plan has them).
func (s *Service) Verify(ctx context.Context, workspaceID, id int64) (*Domain, error) {
	d, err := s.store.Get(ctx, workspaceID, id)
	if err != nil || d.Verified() {
		return d, err
	}
	if err := s.plans.Require(ctx, workspaceID, plan.CustomDomains); err != nil {
		return nil, err
	}
	return s.check(ctx, d)
}

// problemLookup is the problem of a check whose DNS lookup failed; the other problem a check
// finds is a missing record.
const problemLookup = "the DNS lookup failed; try again later"

// ProblemReason names a check's problem (Domain.CheckError) for clients that explain it in
// their own words: "dns_lookup_failed", "txt_record_missing", or "" for none.
func ProblemReason(problem string) string {
	switch problem {
	case "":
		return ""
	case problemLookup:
		return "dns_lookup_failed"
	default:
		return "txt_record_missing"
	}
}

// check looks at d's record and stores what it found.
func (s *Service) check(ctx context.Context, d *Domain) (*Domain, error) {
	ok, err := s.checker.Holds(ctx, d.Hostname, d.Token)
	problem := ""
	switch {
	case err != nil:
		s.log.Info("domain check: resolver failed", "domain", d.Hostname, "err", err)
		problem = problemLookup
	case !ok:
		problem = "no TXT record " + RecordName(d.Hostname) + " holds the token"
	}
	out, err := s.store.Checked(ctx, d.WorkspaceID, d.ID, ok, problem)
	if err != nil {
		return nil, fmt.Errorf("verify domain: %w", err)
	}
	if ok {
		s.log.Info("domain verified", "domain", out.Hostname, "workspace", out.WorkspaceID)
		s.changed(ctx, out.ID)
		if s.o.Verified != nil {
			s.o.Verified(ctx, out)
		}
	}
	return out, nil
}

// SetRootURL sets where the domain's root sends visitors ("" for a 404).
func (s *Service) SetRootURL(ctx context.Context, workspaceID, id int64, rootURL string) (*Domain, error) {
	if rootURL != "" {
		target, err := link.NormalizeURL(rootURL, s.o.OwnHosts)
		if err != nil {
			return nil, apperr.Errorf(apperr.Invalid, "root_url: %s", apperr.MessageOf(err)).For(apperr.ReasonOf(err), "root_url")
		}
		d, err := s.store.Get(ctx, workspaceID, id)
		if err != nil {
			return nil, err
		}
		if u, err := url.Parse(target); err == nil && strings.EqualFold(u.Hostname(), d.Hostname) {
			return nil, apperr.Errorf(apperr.Invalid, "root_url may not point at the domain itself").For("root_url_self", "root_url")
		}
		rootURL = target
	}
	d, err := s.store.SetRootURL(ctx, workspaceID, id, rootURL)
	if err != nil {
		return nil, err
	}
	s.changed(ctx, d.ID)
	return d, nil
}

// Remove removes one of the workspace's domains: its links stay in the workspace and stop
// answering on every node (at once on this one, through the bus on the others, and within a
// second without it).
func (s *Service) Remove(ctx context.Context, workspaceID, id int64) error {
	d, err := s.store.Remove(ctx, workspaceID, id)
	if err != nil {
		return err
	}
	s.log.Info("domain removed", "domain", d.Hostname, "workspace", d.WorkspaceID)
	s.changed(ctx, d.ID)
	return nil
}

// changed reloads this node's table and tells the others.
func (s *Service) changed(ctx context.Context, id int64) {
	ctx = context.WithoutCancel(ctx)
	if err := s.table.Reload(ctx); err != nil {
		s.log.Warn("reload domains after a change; the next sync round retries", "err", err)
	}
	if s.o.Changed != nil {
		s.o.Changed(ctx, id)
	}
}

// pendingBatch is how many pending domains one CheckPending round looks at.
const pendingBatch = 100

// CheckPending looks again at the records of pending domains not checked for CheckEvery. Any
// node may run it at any time: each round claims the domains it checks, so nodes running at
// once share the work, and a check done twice only verifies a domain once.
func (s *Service) CheckPending(ctx context.Context) (verified int, err error) {
	for {
		ds, err := s.store.ClaimPending(ctx, s.o.CheckEvery, pendingBatch)
		if err != nil {
			return verified, fmt.Errorf("check pending domains: %w", err)
		}
		for _, d := range ds {
			if err := s.plans.Require(ctx, d.WorkspaceID, plan.CustomDomains); err != nil {
				continue // plan_required: it waits for an upgrade; other errors: the next round
			}
			out, err := s.check(ctx, d)
			switch {
			case apperr.Is(err, apperr.Conflict) || apperr.Is(err, apperr.NotFound):
				// Another workspace verified the name first, or the domain went meanwhile.
			case err != nil:
				return verified, err
			case out.Verified():
				verified++
				if s.o.VerifiedInBackground != nil {
					s.o.VerifiedInBackground(ctx, out)
				}
			}
		}
		if len(ds) < pendingBatch || ctx.Err() != nil {
			return verified, ctx.Err()
		}
	}
}

// Resolve returns the ID of the workspace's verified domain named host (link.Domains), from
// the in-memory table. On a miss the table is brought up to date first when the domains
// changed (one small query: a domain verified on another node a moment ago, before the bus
// message arrived), so a batch naming an unknown host costs one such query a row, not more.
func (s *Service) Resolve(ctx context.Context, workspaceID int64, host string) (int64, error) {
	h, err := Normalize(host, nil)
	if err == nil {
		if r := s.table.Host(h); r != nil && r.Active && r.WorkspaceID == workspaceID {
			return r.ID, nil
		}
		if err := s.table.Refresh(ctx); err != nil {
			return 0, fmt.Errorf("find domain: %w", err)
		}
		if r := s.table.Host(h); r != nil && r.Active && r.WorkspaceID == workspaceID {
			return r.ID, nil
		}
	}
	return 0, apperr.Errorf(apperr.Invalid, "domain %q is not a verified domain of this workspace", host).For("domain_not_verified", "domain")
}

// Name returns the host name of domain id and whether links still answer on it
// (link.Domains); "" when it is unknown.
func (s *Service) Name(id int64) (string, bool) {
	r := s.table.ByID(id)
	if r == nil {
		return "", false
	}
	return r.Hostname, r.Active
}

// Serves reports whether host is a verified custom domain (link.Domains).
func (s *Service) Serves(host string) bool {
	r := s.table.Host(host)
	return r != nil && r.Active
}
