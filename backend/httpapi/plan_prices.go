package httpapi

import (
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/billing"
	"github.com/shortlink/shortlink/backend/plan"
)

// offers are the plans as the listing shows them. With billing on, what is sold through Stripe
// is priced by its Price objects (docs/rules-and-plans.md#billing-on-stripe): a plan Stripe
// has no price for, or whose price could not be read, shows none and cannot be bought. With
// billing off, the operator's PLAN_PRICES (docs/configuration.md) price them. The free plan's
// zero is written in the currency the others are sold in.
func (s *Server) offers(c *gin.Context) []plan.Offer {
	out := s.plans.Gate().Offers()
	if s.billing == nil {
		out = plan.WithPrices(out, s.listedPrices)
	} else {
		prices, err := s.billing.PlanPrices(c.Request.Context())
		if err != nil {
			s.log.Warn("plans: read the prices from stripe", "err", err)
		}
		for i := range out {
			if out[i].ID != plan.Trial && !slices.Contains(billing.Plans, out[i].ID) {
				continue
			}
			out[i].Prices = prices[out[i].ID]
		}
	}
	plan.FreeInSoldCurrency(out)
	return out
}
