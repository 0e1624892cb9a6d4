// Package planfacts tells the redirect path what a workspace's plan changes for its visitors,
// from the plan service's cache (plan.CacheTTL): a link with rules costs no database read per
// visit, and a change of plan reaches visitors within that time
// (docs/rules-and-plans.md#after-a-downgrade).
package planfacts

import (
	"context"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/redirect"
)

// Cached answers redirect.PlanFacts from the plan service's cache.
type Cached struct {
	plans *plan.Service
}

// New returns the plan facts of plans.
func New(plans *plan.Service) Cached { return Cached{plans: plans} }

var _ redirect.PlanFacts = Cached{}

// Facts implements redirect.PlanFacts: the link's rules its workspace's plan no longer applies,
// and whether WeChat visits are closed.
func (p Cached) Facts(ctx context.Context, l *link.Link, now time.Time) ([]string, bool, error) {
	name, err := p.plans.Cached(ctx, l.WorkspaceID)
	if err != nil {
		return nil, false, err
	}
	gate := p.plans.Gate()
	return gate.InactiveLinkFields(name, l.Rules.Names()), !gate.WeChatAccess(name, l.CreatedAt, now), nil
}

// AppLinks implements redirect.PlanFacts: a custom domain serves its app-link files while
// its workspace's plan has custom domains.
func (p Cached) AppLinks(ctx context.Context, workspaceID int64) (bool, error) {
	return p.plans.Allows(ctx, workspaceID, plan.CustomDomains)
}
