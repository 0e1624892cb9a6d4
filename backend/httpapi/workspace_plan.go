package httpapi

import (
	"context"

	"github.com/shortlink/shortlink/backend/account"
)

// effectivePlans sets each workspace's plan to the one it is on now, as the plan page and every
// gate read it (plan.State.At: a plan billed through Stripe, else the plan set, a lapsed trial
// free), so that the switcher, the settings and the plan page never disagree
// (docs/rules-and-plans.md).
func (s *Server) effectivePlans(ctx context.Context, ws []*account.Workspace) error {
	if s.plans == nil {
		return nil
	}
	for _, w := range ws {
		if w == nil {
			continue
		}
		p, err := s.plans.Effective(ctx, w.ID)
		if err != nil {
			return err
		}
		w.Plan = p
	}
	return nil
}
