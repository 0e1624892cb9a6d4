package app

import (
	"context"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/visitor"
	"github.com/shortlink/shortlink/backend/visitor/geoip"
)

// planFacts tells the redirect path what a workspace's plan changes for visitors, from the
// plan service's cache (plan.CacheTTL), so a link with rules costs no database read per visit;
// a plan change reaches visitors within that time.
type planFacts struct {
	plans *plan.Service
}

func newPlanFacts(plans *plan.Service) planFacts { return planFacts{plans: plans} }

// Facts implements redirect.PlanFacts.
func (p planFacts) Facts(ctx context.Context, l *link.Link, now time.Time) ([]string, bool, error) {
	name, err := p.plans.Cached(ctx, l.WorkspaceID)
	if err != nil {
		return nil, false, err
	}
	gate := p.plans.Gate()
	return gate.InactiveLinkFields(name, l.Rules.Names()), !gate.WeChatAccess(name, l.CreatedAt, now), nil
}

// AppLinks implements redirect.PlanFacts: a custom domain serves its app-link files while
// its workspace's plan has custom domains.
func (p planFacts) AppLinks(ctx context.Context, workspaceID int64) (bool, error) {
	return p.plans.Allows(ctx, workspaceID, plan.CustomDomains)
}

// geoCountries is the classifier's country lookup over the GeoIP database, nil without one.
func geoCountries(db geoip.Database) visitor.Countries {
	if db == nil {
		return nil
	}
	return db
}
