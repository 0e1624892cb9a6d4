package app

import (
	"context"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/visitor"
	"github.com/shortlink/shortlink/backend/visitor/geoip"
)

// planFacts tells the redirect path what a workspace's plan changes for visitors. Plans are
// cached for planCacheTTL, so a link with rules costs no database read per visit; a plan change
// reaches visitors within that time.
type planFacts struct {
	plans *plan.Service
	cache *otter.Cache[int64, string]
}

const planCacheTTL = 10 * time.Second

func newPlanFacts(plans *plan.Service) planFacts {
	return planFacts{plans: plans, cache: otter.Must(&otter.Options[int64, string]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[int64, string](planCacheTTL),
	})}
}

// Facts implements redirect.PlanFacts.
func (p planFacts) Facts(ctx context.Context, l *link.Link, now time.Time) ([]string, bool, error) {
	name, ok := p.cache.GetIfPresent(l.WorkspaceID)
	if !ok {
		var err error
		if name, err = p.plans.Effective(ctx, l.WorkspaceID); err != nil {
			return nil, false, err
		}
		p.cache.Set(l.WorkspaceID, name)
	}
	gate := p.plans.Gate()
	return gate.InactiveLinkFields(name, l.Rules.Names()), !gate.WeChatAccess(name, l.CreatedAt, now), nil
}

// geoCountries is the classifier's country lookup over the GeoIP database, nil without one.
func geoCountries(db geoip.Database) visitor.Countries {
	if db == nil {
		return nil
	}
	return db
}
