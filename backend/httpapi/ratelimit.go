package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/visitor"
)

// API rate limits (docs/security.md#rate-limits). Every request is counted once, against one budget of
// requests a minute kept in Redis (shared by every node; in-process while Redis is down):
//
//   - a workspace-scoped route, once membership is checked, and any request with an API key:
//     the workspace's, of its effective plan's requests_per_minute;
//   - any other signed-in request: the user's, of the free plan's requests_per_minute;
//   - a request without valid credentials: its client address's (an IPv6 /64), of
//     RATE_LIMIT_ANONYMOUS.
//
// Counting happens where the budget becomes known: the public routes' group middleware,
// countCaller after authenticate, inWorkspace after the membership check, and fail for an
// answer refused before any of those (a bad token counts against its address, a stranger to
// the workspace against the user). Each answer so counted carries RateLimit-Limit,
// RateLimit-Remaining and RateLimit-Reset; a spent budget answers 429 rate_limited with
// Retry-After. A plan whose requests_per_minute is unlimited is not counted: no Redis round
// trip, and no RateLimit headers (there is no limit to announce).

// ratePeriod is the period of every API budget.
const ratePeriod = time.Minute

// planTTL is how long a node keeps a workspace's plan for the limiter: a plan change reaches
// the limits of the other nodes within that time (at once on the node that made it).
const planTTL = 5 * time.Second

// planCacheMax bounds the plans kept; past it the cache starts afresh.
const planCacheMax = 100_000

// countedKey marks a request already counted against a budget; budgetKey holds that budget.
const (
	countedKey = "rate_counted"
	budgetKey  = "rate_budget"
)

// Costs of the requests that make the server do the work of several (charge): a batch create
// and a bulk edit cost one request per link, and a test delivery costs webhookTestCost, one
// per second it may keep a connection out to the receiver waiting (webhook.Timeout).
const webhookTestCost = 10

// RateLimits configure the API's request budgets.
type RateLimits struct {
	// Limiter keeps the budgets; nil counts nothing.
	Limiter *auth.Limiter
	// Anonymous is the requests a minute of one client address without credentials.
	Anonymous int
}

// budget is what one request is counted against: requests a minute under a Redis key name.
type budget struct {
	key   string
	limit plan.Limit
}

// rates holds the API's budgets and the plans of recently seen workspaces.
type rates struct {
	limiter   *auth.Limiter
	plans     *plan.Service
	anonymous plan.Limit

	mu     sync.Mutex
	cached map[int64]cachedLimit
}

type cachedLimit struct {
	limit plan.Limit
	until time.Time
}

func newRates(r RateLimits, plans *plan.Service) *rates {
	return &rates{limiter: r.Limiter, plans: plans, anonymous: plan.Limit(r.Anonymous), cached: map[int64]cachedLimit{}}
}

// userLimit is the budget of a signed-in user outside a workspace: the free plan's.
func (r *rates) userLimit() plan.Limit {
	if r.plans == nil {
		return plan.DefaultTable()[plan.Free].Limits.RequestsPerMinute
	}
	return r.plans.Gate().Plan(plan.Free).Limits.RequestsPerMinute
}

// workspaceLimit is the requests a minute of the workspace's effective plan, read from the
// database at most once per planTTL. Should that read fail, the free plan's limit applies to
// this request and the next one reads again.
func (r *rates) workspaceLimit(ctx context.Context, id int64) plan.Limit {
	now := time.Now()
	r.mu.Lock()
	c, ok := r.cached[id]
	r.mu.Unlock()
	if ok && now.Before(c.until) {
		return c.limit
	}
	if r.plans == nil {
		return r.userLimit()
	}
	name, err := r.plans.Effective(ctx, id)
	if err != nil {
		return r.userLimit()
	}
	limit := r.plans.Gate().Plan(name).Limits.RequestsPerMinute
	r.mu.Lock()
	if len(r.cached) >= planCacheMax {
		clear(r.cached)
	}
	r.cached[id] = cachedLimit{limit: limit, until: now.Add(planTTL)}
	r.mu.Unlock()
	return limit
}

// forget drops the workspace's plan, after this node changed it: the request budget's and
// the plan service's (the paid features' work reads it there), so both change at once here.
func (r *rates) forget(id int64) {
	if r.plans != nil {
		r.plans.Forget(id)
	}
	r.mu.Lock()
	delete(r.cached, id)
	r.mu.Unlock()
}

// clientIP is the client's address, the way the redirect path finds it (TRUSTED_PROXIES).
func (s *Server) clientIP(c *gin.Context) string {
	return visitor.ClientIP(c.Request, s.trustedProxies).String()
}

func (s *Server) addressBudget(c *gin.Context) budget {
	return budget{key: "api:ip:" + auth.AddressName(s.clientIP(c)), limit: s.rates.anonymous}
}

func (s *Server) workspaceBudget(c *gin.Context, id int64) budget {
	return budget{key: "api:ws:" + strconv.FormatInt(id, 10), limit: s.rates.workspaceLimit(c.Request.Context(), id)}
}

// callerBudget is the budget of an authenticated caller outside a workspace route: an API
// key's workspace, or the user.
func (s *Server) callerBudget(c *gin.Context) budget {
	p := callerOf(c)
	if p.Key != nil {
		return s.workspaceBudget(c, p.Key.WorkspaceID)
	}
	return budget{key: "api:user:" + strconv.FormatInt(p.UserID, 10), limit: s.rates.userLimit()}
}

// count counts the request against b once, sets the RateLimit headers, and answers 429 when b
// is spent; it reports whether the request may go on. Later calls for the same request do
// nothing.
func (s *Server) count(c *gin.Context, b budget) bool {
	if s.rates.limiter == nil || c.GetBool(countedKey) {
		return true
	}
	c.Set(countedKey, true)
	if b.limit == plan.Unlimited {
		return true
	}
	c.Set(budgetKey, b)
	res := s.rates.limiter.Spend(c.Request.Context(), b.key, int(b.limit), ratePeriod)
	return s.announce(c, res)
}

// charge counts the rest of the cost of a request worth cost requests (a batch of links, a
// test delivery) against the budget it was counted against, all at once; past what the budget
// holds it answers 429 with Retry-After and false, and the work is not done. A request costs
// at most the whole budget: one worth more waits for a full budget. Requests not counted (no
// limiter, an unlimited plan) are not charged.
func (s *Server) charge(c *gin.Context, cost int) bool {
	if err := s.chargeErr(c, cost); err != nil {
		s.fail(c, err)
		return false
	}
	return true
}

// chargeErr is charge for a handler that answers a refusal itself (a QR code, whose cached
// copies cost nothing more): a *auth.RateLimitError when the budget cannot pay, the request
// staying counted as one.
func (s *Server) chargeErr(c *gin.Context, cost int) error {
	v, ok := c.Get(budgetKey)
	if !ok || cost <= 1 {
		return nil
	}
	b := v.(budget)
	if b.limit <= 1 {
		return nil // the request itself was the whole budget
	}
	res := s.rates.limiter.SpendMore(c.Request.Context(), b.key, int(b.limit), ratePeriod, cost-1)
	if !res.Allowed {
		// Nothing more was taken: the headers of the request's own count stand.
		return &auth.RateLimitError{RetryAfter: res.RetryAfter, What: "requests"}
	}
	s.rateHeaders(c, res)
	return nil
}

// announce sets the RateLimit headers of what is left of a budget, and answers 429 when the
// request was refused; it reports whether the request may go on.
func (s *Server) announce(c *gin.Context, res auth.Budget) bool {
	s.rateHeaders(c, res)
	if !res.Allowed {
		s.fail(c, &auth.RateLimitError{RetryAfter: res.RetryAfter, What: "requests"})
		return false
	}
	return true
}

// rateHeaders sets the RateLimit headers of what is left of a budget.
func (s *Server) rateHeaders(c *gin.Context, res auth.Budget) {
	h := c.Writer.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(res.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(res.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(ceilSeconds(res.Reset)))
}

// ceilSeconds is d in whole seconds, rounded up.
func ceilSeconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// countAddress counts the public routes (sign-up, login, …) and unknown ones by client address.
func (s *Server) countAddress(c *gin.Context) {
	if s.count(c, s.addressBudget(c)) {
		c.Next()
	}
}

// countCaller counts an authenticated request, except on workspace routes: inWorkspace counts
// those once it knows the caller belongs there, so that nobody spends another workspace's
// budget. API keys belong to one workspace and are counted here.
func (s *Server) countCaller(c *gin.Context) {
	if callerOf(c).Key == nil && strings.HasPrefix(c.FullPath(), "/api/v1/workspaces/:workspace") {
		c.Next()
		return
	}
	if s.count(c, s.callerBudget(c)) {
		c.Next()
	}
}

// countRefused counts a request refused before it was counted: against the caller when one is
// known, else against the client address. It reports false when that budget was spent and
// the 429 has been answered instead.
func (s *Server) countRefused(c *gin.Context) bool {
	if s.rates.limiter == nil || c.GetBool(countedKey) {
		return true
	}
	if _, ok := c.Get(principalKey); ok {
		return s.count(c, s.callerBudget(c))
	}
	return s.count(c, s.addressBudget(c))
}

// methodNotAllowed answers a known path with another method.
func (s *Server) methodNotAllowed(c *gin.Context) {
	if !s.countRefused(c) {
		return
	}
	c.AbortWithStatusJSON(http.StatusMethodNotAllowed, errorBody{Error: errorDetail{Code: "method_not_allowed", Reason: "method_not_allowed", Message: "method not allowed on this endpoint"}})
}
