// Package httpapi is the JSON API under /api/v1: the gin router, its middleware, one file of
// handlers per resource, and the table that maps application errors to HTTP statuses.
package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/billing"
	"github.com/shortlink/shortlink/backend/bulkjob"
	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/health"
	"github.com/shortlink/shortlink/backend/httpsec"
	"github.com/shortlink/shortlink/backend/imports"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/qr"
	"github.com/shortlink/shortlink/backend/scim"
	"github.com/shortlink/shortlink/backend/share"
	"github.com/shortlink/shortlink/backend/sso"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/tag"
	"github.com/shortlink/shortlink/backend/visitor"
	"github.com/shortlink/shortlink/backend/webhook"
)

// Deps are what the API needs from the rest of the application.
type Deps struct {
	Links    *link.Service
	Accounts *account.Service
	Auth     *auth.Service
	Plans    *plan.Service
	Log      *slog.Logger
	// Responses holds the answers given to links' forms.
	Responses *link.Responses
	// Stats answers the statistics, dashboards and exports.
	Stats *stats.Service
	// Moderation is the moderators' queue and decisions, owners' appeals and the audit log.
	Moderation *moderation.Desk
	// Domains are the workspaces' custom domains.
	Domains *domain.Service
	// Audit is the workspaces' audit log; nil records nothing.
	Audit *audit.Log
	// MaxBodyBytes bounds every request body.
	MaxBodyBytes int64
	// WriteTimeout bounds every request that writes (any method but GET, HEAD and OPTIONS,
	// except an import's upload): past it the request answers 503 with Retry-After.
	WriteTimeout time.Duration
	// SecureCookies says the deployment is served over https (PUBLIC_URL): session cookies
	// get the Secure flag and every answer Strict-Transport-Security.
	SecureCookies bool
	// TrustedProxyNets are the proxies whose X-Forwarded-For is believed when finding a
	// client's address (rate limits), the same as on the redirect path; empty trusts none.
	TrustedProxyNets []netip.Prefix
	// RateLimits are the API's request budgets.
	RateLimits RateLimits
	// Imports takes CSV imports and answers their progress and results; MaxImportBytes bounds
	// an uploaded file.
	Imports        *imports.Service
	MaxImportBytes int64
	// BulkJobs runs changes and deletions of the links a filter matches, as jobs.
	BulkJobs *bulkjob.Service
	// Visitors reads the browser and system of a session's device from its user agent; nil
	// leaves them unknown.
	Visitors *visitor.Classifier
	// Billing runs subscriptions on Stripe; nil when billing is off (no STRIPE_SECRET_KEY).
	Billing *billing.Service
	// ListedPrices are the plans' prices the listing shows while billing is off (PLAN_PRICES).
	ListedPrices map[string]plan.Prices
	// SSO is single sign-on over OpenID Connect.
	SSO *sso.Service
	// Webhooks manages the workspaces' webhooks.
	Webhooks *webhook.Service
	// Tags are the workspaces' tags.
	Tags *tag.Service
	// UTMTemplates are the workspaces' named sets of UTM parameters.
	UTMTemplates *link.UTMTemplates
	// Logos are the workspaces' QR-code logos.
	Logos *qr.Logos
	// QR draws and keeps links' QR codes.
	QR *qr.Codes
	// Health checks links' destinations (POST …/links/{id}/check).
	Health *health.Runner
	// SCIM provisions workspaces' people from their identity providers; SCIMURL is
	// PUBLIC_URL/scim/v2, which the workspace's ID follows.
	SCIM    *scim.Service
	SCIMURL string
	// Shares keeps links' shared statistics, whose pages are at ShareURL + their ID.
	Shares   *share.Service
	ShareURL string
}

// Server is the API's http.Handler.
type Server struct {
	links         *link.Service
	responses     *link.Responses
	stats         *stats.Service
	moderation    *moderation.Desk
	domains       *domain.Service
	audit         *audit.Log
	accounts      *account.Service
	auth          *auth.Service
	plans         *plan.Service
	log           *slog.Logger
	maxBody       int64
	writeTimeout  time.Duration
	secureCookies bool
	headers       *httpsec.Headers
	engine        *gin.Engine
	// trustedProxies find the client's address (clientIP); gin's own parser trusts nobody.
	trustedProxies []netip.Prefix
	rates          *rates
	imports        *imports.Service
	bulkJobs       *bulkjob.Service
	maxImport      int64
	visitors       *visitor.Classifier
	billing        *billing.Service
	listedPrices   map[string]plan.Prices
	sso            *sso.Service
	webhooks       *webhook.Service
	tags           *tag.Service
	utmTemplates   *link.UTMTemplates
	logos          *qr.Logos
	codes          *qr.Codes
	health         *health.Runner
	bodies         bodySchemas
	scim           *scim.Service
	scimURL        string
	shares         *share.Service
	shareURL       string
}

const requestIDKey = "request_id"

// New builds the router.
func New(d Deps) (*Server, error) {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{
		links: d.Links, responses: d.Responses, stats: d.Stats, moderation: d.Moderation, domains: d.Domains, audit: d.Audit, accounts: d.Accounts, auth: d.Auth, plans: d.Plans, log: d.Log,
		maxBody: d.MaxBodyBytes, writeTimeout: d.WriteTimeout, secureCookies: d.SecureCookies, headers: apiHeaders(d.SecureCookies), engine: gin.New(),
		trustedProxies: d.TrustedProxyNets, rates: newRates(d.RateLimits, d.Plans),
		imports: d.Imports, bulkJobs: d.BulkJobs, maxImport: d.MaxImportBytes, visitors: d.Visitors, billing: d.Billing, listedPrices: d.ListedPrices, sso: d.SSO,
		webhooks: d.Webhooks, tags: d.Tags,
		utmTemplates: d.UTMTemplates, logos: d.Logos, codes: d.QR,
		health: d.Health, scim: d.SCIM, scimURL: d.SCIMURL, shares: d.Shares, shareURL: d.ShareURL,
	}
	bodies, err := documentBodies()
	if err != nil {
		return nil, err
	}
	s.bodies = bodies
	if err := s.engine.SetTrustedProxies(nil); err != nil {
		return nil, fmt.Errorf("gin trusted proxies: %w", err)
	}
	s.engine.HandleMethodNotAllowed = true
	s.engine.Use(s.secure, s.requestID, s.recover, s.observe, s.writeDeadline)
	s.engine.NoRoute(func(c *gin.Context) {
		s.fail(c, apperr.Errorf(apperr.NotFound, "no such endpoint").For("endpoint_not_found", ""))
	})
	s.engine.NoMethod(s.methodNotAllowed)
	s.routes()
	if s.billing != nil {
		showWebhookFailures()
	}
	return s, nil
}

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.engine.ServeHTTP(w, r) }

// Routes lists every method and path the API serves (the OpenAPI test compares them).
func (s *Server) Routes() gin.RoutesInfo { return s.engine.Routes() }

// routes is the whole API surface, in one place.
func (s *Server) routes() {
	// The public routes, counted by client address (ratelimit.go).
	api := s.engine.Group("/api/v1", s.countAddress)
	api.GET("/openapi.json", serveOpenAPI)
	api.GET("/plans", s.listPlans)

	api.POST("/auth/signup", s.signup)
	api.POST("/auth/login", s.login)
	api.POST("/auth/login/2fa", s.loginTwoFactor)
	api.POST("/auth/refresh", s.refresh)
	api.POST("/auth/logout", s.logout)
	api.POST("/auth/verify-email", s.verifyEmail)
	api.POST("/auth/password-reset", s.requestPasswordReset)
	api.POST("/auth/password-reset/confirm", s.confirmPasswordReset)
	api.GET("/invitations/:id", s.previewInvitation)
	api.GET("/auth/sso/start", s.startSSO)
	api.GET("/auth/sso/callback", s.finishSSO)
	api.GET("/auth/saml/:workspace/metadata", s.samlMetadata)
	api.POST("/auth/saml/:workspace/acs", s.samlACS)
	// Stripe's webhook: no session, no budget per address (Stripe sends from few addresses and
	// retries what fails); the signature is its credential.
	s.engine.POST("/api/v1/billing/webhook", s.billingWebhook)

	authed := s.engine.Group("/api/v1", s.authenticate, s.countCaller)
	authed.GET("/me", s.me)
	authed.PATCH("/me", s.updateMe)
	authed.POST("/me/verification", s.resendVerification)
	authed.DELETE("/me", s.deleteMe)
	authed.POST("/me/password", s.changePassword)
	authed.POST("/me/email", s.changeEmail)
	authed.POST("/me/2fa", s.enrolTwoFactor)
	authed.POST("/me/2fa/confirm", s.confirmTwoFactor)
	authed.DELETE("/me/2fa", s.disableTwoFactor)
	authed.GET("/me/sessions", s.listSessions)
	authed.DELETE("/me/sessions", s.endOtherSessions)
	authed.DELETE("/me/sessions/:id", s.endSession)
	authed.GET("/me/invitations", s.myInvitations)
	authed.POST("/me/invitations/:id/accept", s.acceptInvitation)
	authed.DELETE("/me/invitations/:id", s.declineInvitation)

	authed.GET("/workspaces", s.listWorkspaces)
	authed.POST("/workspaces", s.createWorkspace)

	ws := authed.Group("/workspaces/:workspace")
	ws.GET("", s.inWorkspace(account.PermRead), s.getWorkspace)
	ws.PATCH("", s.inWorkspace(account.PermManage), s.updateWorkspace)
	ws.DELETE("", s.inWorkspace(account.PermOwn), s.deleteWorkspace)
	ws.POST("/transfer", s.inWorkspace(account.PermOwn), s.transferWorkspace)
	ws.GET("/plan", s.inWorkspace(account.PermRead), s.getPlan)
	ws.POST("/trial", s.inWorkspace(account.PermManage), s.startTrial)
	ws.GET("/audit", s.inWorkspace(account.PermManage), s.listAudit)
	ws.GET("/audit.csv", s.inWorkspace(account.PermManage), s.exportAudit)
	ws.GET("/billing", s.inWorkspace(account.PermManage), s.getBilling)
	ws.POST("/billing/checkout", s.inWorkspace(account.PermOwn), s.checkout)
	ws.POST("/billing/portal", s.inWorkspace(account.PermOwn), s.billingPortal)
	ws.GET("/sso", s.inWorkspace(account.PermOwn), s.getSSO)
	ws.PUT("/sso", s.inWorkspace(account.PermOwn), s.putSSO)
	ws.DELETE("/sso", s.inWorkspace(account.PermOwn), s.deleteSSO)
	ws.POST("/sso/verify", s.inWorkspace(account.PermOwn), s.verifySSO)
	s.scimTokenRoutes(ws)

	ws.GET("/members", s.inWorkspace(account.PermRead), s.listMembers)
	ws.PATCH("/members/:user", s.inWorkspace(account.PermManage), s.updateMember)
	ws.DELETE("/members/:user", s.inWorkspace(account.PermRead), s.removeMember)
	s.memberSessionRoutes(ws)
	ws.GET("/invitations", s.inWorkspace(account.PermManage), s.listInvitations)
	ws.POST("/invitations", s.inWorkspace(account.PermManage), s.invite)
	ws.DELETE("/invitations/:id", s.inWorkspace(account.PermManage), s.cancelInvitation)
	ws.POST("/invitations/:id/resend", s.inWorkspace(account.PermManage), s.resendInvitation)

	ws.GET("/api-keys", s.inWorkspace(account.PermManage), s.listAPIKeys)
	ws.POST("/api-keys", s.inWorkspace(account.PermManage), s.createAPIKey)
	ws.DELETE("/api-keys/:id", s.inWorkspace(account.PermManage), s.revokeAPIKey)

	ws.GET("/webhooks", s.inWorkspace(account.PermManage), s.listWebhooks)
	ws.POST("/webhooks", s.inWorkspace(account.PermManage), s.createWebhook)
	ws.GET("/webhooks/:id", s.inWorkspace(account.PermManage), s.getWebhook)
	ws.PATCH("/webhooks/:id", s.inWorkspace(account.PermManage), s.updateWebhook)
	ws.DELETE("/webhooks/:id", s.inWorkspace(account.PermManage), s.deleteWebhook)
	ws.GET("/webhooks/:id/deliveries", s.inWorkspace(account.PermManage), s.webhookDeliveries)
	ws.POST("/webhooks/:id/test", s.inWorkspace(account.PermManage), s.testWebhook)
	ws.GET("/webhooks/:id/deliveries/:delivery", s.inWorkspace(account.PermManage), s.webhookDelivery)
	ws.POST("/webhooks/:id/deliveries/:delivery/resend", s.inWorkspace(account.PermManage), s.resendWebhookDelivery)

	ws.GET("/links", s.inWorkspace(account.PermLinksRead), s.listLinks)
	ws.POST("/links", s.inWorkspace(account.PermLinksWrite), s.createLink)
	ws.POST("/links/batch", s.inWorkspace(account.PermLinksWrite), s.createLinks)
	ws.PATCH("/links", s.inWorkspace(account.PermLinksWrite), s.bulkEditLinks)
	ws.POST("/links/bulk-jobs", s.inWorkspace(account.PermLinksWrite), s.createBulkJob)
	ws.GET("/links/bulk-jobs", s.inWorkspace(account.PermLinksRead), s.listBulkJobs)
	ws.GET("/links/bulk-jobs/:id", s.inWorkspace(account.PermLinksRead), s.getBulkJob)
	ws.POST("/links/bulk-jobs/:id/cancel", s.inWorkspace(account.PermLinksWrite), s.cancelBulkJob)
	ws.GET("/links/lookup", s.inWorkspace(account.PermLinksRead), s.lookupLink)
	ws.GET("/links/export.csv", s.inWorkspace(account.PermStatsRead), s.exportLinks)
	ws.GET("/links/:id", s.inWorkspace(account.PermLinksRead), s.getLink)
	ws.GET("/links/:id/qr", s.inWorkspace(account.PermLinksRead), s.linkQR)
	ws.GET("/links/:id/responses", s.inWorkspace(account.PermLinksRead), s.listFormResponses)
	ws.GET("/links/:id/responses.csv", s.inWorkspace(account.PermLinksRead), s.exportFormResponses)
	ws.GET("/links/:id/stats", s.inWorkspace(account.PermStatsRead), s.linkStats)
	ws.PATCH("/links/:id", s.inWorkspace(account.PermLinksWrite), s.updateLink)
	ws.DELETE("/links/:id", s.inWorkspace(account.PermLinksWrite), s.deleteLink)
	ws.POST("/links/:id/appeal", s.inWorkspace(account.PermLinksWrite), s.appeal)
	ws.POST("/links/:id/check", s.inWorkspace(account.PermLinksWrite), s.checkLink)
	s.linkToolRoutes(api, ws)

	ws.GET("/imports", s.inWorkspace(account.PermLinksRead), s.listImports)
	ws.POST("/imports", s.inWorkspace(account.PermLinksWrite), s.createImport)
	ws.GET("/imports/:id", s.inWorkspace(account.PermLinksRead), s.getImport)
	ws.GET("/imports/:id/results.csv", s.inWorkspace(account.PermLinksRead), s.importResults)
	ws.GET("/imports/:id/failures", s.inWorkspace(account.PermLinksRead), s.importFailures)
	ws.GET("/domains", s.inWorkspace(account.PermLinksRead), s.listDomains)
	ws.POST("/domains", s.inWorkspace(account.PermManage), s.createDomain)
	ws.GET("/domains/:id", s.inWorkspace(account.PermLinksRead), s.getDomain)
	ws.PATCH("/domains/:id", s.inWorkspace(account.PermManage), s.updateDomain)
	ws.DELETE("/domains/:id", s.inWorkspace(account.PermManage), s.deleteDomain)
	ws.POST("/domains/:id/verify", s.inWorkspace(account.PermManage), s.verifyDomain)
	ws.GET("/domains/:id/app-links", s.inWorkspace(account.PermLinksRead), s.getAppLinks)
	ws.PUT("/domains/:id/app-links", s.inWorkspace(account.PermManage), s.putAppLinks)
	ws.DELETE("/domains/:id/app-links", s.inWorkspace(account.PermManage), s.deleteAppLinks)

	ws.GET("/utm-templates", s.inWorkspace(account.PermLinksRead), s.listUTMTemplates)
	ws.POST("/utm-templates", s.inWorkspace(account.PermLinksWrite), s.createUTMTemplate)
	ws.DELETE("/utm-templates/:id", s.inWorkspace(account.PermLinksWrite), s.deleteUTMTemplate)

	ws.GET("/logo", s.inWorkspace(account.PermLinksRead), s.getLogo)
	ws.PUT("/logo", s.inWorkspace(account.PermManage), s.putLogo)
	ws.DELETE("/logo", s.inWorkspace(account.PermManage), s.deleteLogo)

	ws.GET("/tags", s.inWorkspace(account.PermLinksRead), s.listTags)
	ws.POST("/tags", s.inWorkspace(account.PermLinksWrite), s.createTag)
	ws.PATCH("/tags/:id", s.inWorkspace(account.PermLinksWrite), s.updateTag)
	ws.DELETE("/tags/:id", s.inWorkspace(account.PermLinksWrite), s.deleteTag)

	ws.GET("/stats", s.inWorkspace(account.PermStatsRead), s.workspaceStats)
	ws.GET("/visits/export.csv", s.inWorkspace(account.PermStatsRead), s.exportVisits)

	admin := authed.Group("/admin", s.operatorOnly)
	admin.GET("/workspaces", s.adminListWorkspaces)
	admin.PATCH("/workspaces/:workspace", s.adminUpdateWorkspace)
	admin.GET("/users", s.adminListUsers)
	admin.PATCH("/users/:user", s.adminUpdateUser)
	admin.GET("/stats", s.adminStats)
	admin.GET("/audit", s.adminAudit)

	mod := authed.Group("/moderation", s.moderatorOnly)
	mod.GET("/queue", s.moderationQueue)
	mod.GET("/counts", s.moderationCounts)
	mod.GET("/links/:id", s.moderationLink)
	mod.POST("/links/:id/decision", s.decide)
	mod.POST("/links/:id/review", s.requestReview)
	mod.GET("/reviews/:id/screenshots/:profile", s.reviewScreenshot)
	mod.GET("/domains", s.moderationDomains)
	mod.POST("/domains/:domain/ban", s.banDomain)
	mod.POST("/domains/:domain/clear", s.clearDomain)

	s.scimRoutes()
}

func (s *Server) requestID(c *gin.Context) {
	id := c.GetHeader("X-Request-ID")
	if id == "" || len(id) > 64 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	c.Set(requestIDKey, id)
	c.Header("X-Request-ID", id)
	c.Next()
}

// writeDeadline gives a request that writes one deadline, WRITE_TIMEOUT, for all it does: a
// store that stalls turns into a 503 the client may retry (fail), not a request that waits
// on every step in turn. Reads are not bounded here, nor an import's upload, which takes as
// long as its file.
func (s *Server) writeDeadline(c *gin.Context) {
	if s.writeTimeout <= 0 || safeMethod(c.Request.Method) || streamed(c.Request.Method, c.FullPath()) || waitsOnOthers(c.FullPath()) {
		c.Next()
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.writeTimeout)
	defer cancel()
	c.Request = c.Request.WithContext(ctx)
	c.Next()
}

func (s *Server) recover(c *gin.Context) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic in handler", "path", c.FullPath(), "panic", v, "request_id", c.GetString(requestIDKey))
			s.fail(c, apperr.Errorf(apperr.Internal, "internal error").For("internal", ""))
		}
	}()
	c.Next()
}
