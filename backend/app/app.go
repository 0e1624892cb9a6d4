// Package app wires the parts of a Shortlink server together: it is the program a test or
// main starts with New, Run and Close.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/billing"
	"github.com/shortlink/shortlink/backend/bulkjob"
	"github.com/shortlink/shortlink/backend/cachepolicy"
	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/config"
	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/health"
	"github.com/shortlink/shortlink/backend/housekeeping"
	"github.com/shortlink/shortlink/backend/httpapi"
	"github.com/shortlink/shortlink/backend/idblock"
	"github.com/shortlink/shortlink/backend/imports"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/linksearch"
	"github.com/shortlink/shortlink/backend/mail"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/planfacts"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/qr"
	"github.com/shortlink/shortlink/backend/redirect"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/scim"
	"github.com/shortlink/shortlink/backend/share"
	"github.com/shortlink/shortlink/backend/sso"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/stripe"
	"github.com/shortlink/shortlink/backend/tag"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitcap"
	"github.com/shortlink/shortlink/backend/visitor"
	"github.com/shortlink/shortlink/backend/visitor/geoip"
	"github.com/shortlink/shortlink/backend/webhook"
	"github.com/shortlink/shortlink/frontend"
)

// App is one Shortlink server process.
type App struct {
	cfg      config.Config
	log      *slog.Logger
	db       *postgres.DB
	redis    *redis.Client
	bus      *redis.Bus
	links    *link.Service
	accounts *account.Service
	plans    *plan.Service
	// mailer sends the service's mail (SMTP_URL); nil without one.
	mailer account.Mailer
	// appealMail mails appeals' answers to the links' owners; nil without a mailer.
	appealMail *moderation.AppealMail
	// audit is the workspaces' audit log, purged past AUDIT_RETENTION_DAYS by the chores.
	audit *audit.Log
	// caps counts the visits of links with a visit cap, across every node.
	caps *visitcap.Counter
	// visits captures the visits this node answers; ingest stores the visit stream's (nil
	// when VISIT_INGEST is off).
	visits *visit.Buffer
	ingest []*visit.Consumer
	// responses records and reads the answers given to links' forms.
	responses *link.Responses
	// imports runs CSV import jobs (IMPORT_WORKERS of them at once); importsStop ends its
	// workers and importsDone closes once they have given their jobs back.
	imports  *imports.Service
	bulkJobs *bulkjob.Service
	// searchIndexer keeps the links list's search table behind the links.
	searchIndexer *linksearch.Indexer
	importsStop   context.CancelFunc
	importsDone   chan struct{}
	// bulkJobsDone closes once the bulk jobs' workers (stopped by importsStop too) have given
	// their jobs back.
	bulkJobsDone chan struct{}
	// hooks manages webhooks; hooksOut sends their outbox.
	hooks    *webhook.Service
	hooksOut *webhook.Dispatcher
	// health checks links' destinations (HEALTH_CHECK: in the background too) and mails the
	// digests of broken links.
	health *health.Runner
	// geo is the GeoIP country database; nil when there is none.
	geo geoip.Database
	// auth signs people in: tokens, sessions, two-factor codes.
	auth *auth.Service
	// cache is what a committed link change does to the caches; announce tells the other
	// nodes of the changes they follow; sync keeps this node's caches in step with the feeds
	// and the bus.
	cache    *cachepolicy.Links
	announce *cachepolicy.Announcer
	syncer   *cachesync.Syncer
	sync     *cachesync.Node
	// chores are the periodic purges and domain checks.
	chores   *housekeeping.Chores
	resolver *redirect.Resolver
	// domains are the workspaces' custom domains; domainTable routes hosts to them.
	domains     *domain.Service
	sso         *sso.Service
	domainTable *domain.Table
	tlsAsk      http.Handler
	api         *httpapi.Server
	visitors    *redirect.Handler
	static      http.Handler
	server      *http.Server
	// metricsServer serves /metrics on METRICS_ADDR; nil when that is unset.
	metricsServer *http.Server

	// imageSlots bound the QR codes drawn and the logos decoded at once (QR_RENDERS).
	imageSlots *qr.Slots

	listener        net.Listener
	metricsListener net.Listener
	stop            context.CancelFunc
	wg              sync.WaitGroup
}

// New connects to PostgreSQL and Redis and builds the server; it does not listen yet.
// PostgreSQL must answer; Redis may be down (the service works without it, degraded).
func New(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	db, err := postgres.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	rc, err := redis.OpenTarget(ctx, redis.Target{URL: cfg.RedisURL, Sentinels: cfg.RedisSentinels, MasterName: cfg.RedisMasterName}, cfg.RedisPrefix)
	if rc == nil {
		db.Close()
		return nil, err
	}
	if err != nil {
		log.Warn("redis is not answering; continuing without it until it does", "err", err)
	}
	codec, err := code.New(cfg.CodeKeyBytes, cfg.CodeTweakBytes, cfg.CodeLength)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("codes: %w", err)
	}

	geo, err := geoip.Load(cfg.GeoIPDB)
	switch {
	case errors.Is(err, geoip.ErrUnavailable):
		log.Warn("no GeoIP database: links with geo rules or country targets are refused", "err", err)
	case err != nil:
		db.Close()
		return nil, fmt.Errorf("GEOIP_DB: %w", err)
	default:
		log.Info("geoip", "database", geo.String())
	}

	a := &App{cfg: cfg, log: log, db: db, redis: rc, geo: geo, static: frontend.Handler(cfg.SecureCookies())}
	cost := auth.DefaultCost
	if cfg.PasswordHashLight {
		cost = auth.LightCost
	}
	hasher := auth.NewHasherAt(cost, cfg.PasswordHashConcurrency, cfg.PasswordHashWait)
	buckets := redis.NewBuckets(rc)
	a.plans = plan.NewService(postgres.NewPlanStore(db), plan.NewGate(cfg.Plans), nil, log)
	a.audit = audit.NewLog(postgres.NewAuditStore(db), []byte(cfg.JWTSecret),
		time.Duration(cfg.AuditRetentionDays)*24*time.Hour, log)
	a.bus = redis.NewBus(rc, log)
	linkStore := postgres.NewLinkStore(db)
	a.openCaches(linkStore, codec)
	a.openDomains(ctx)
	tags := tag.NewService(postgres.NewTagStore(db))
	a.openLinks(linkStore, codec, hasher, tags)
	a.audit.NameLinksWith(a.links.ShortURL)
	a.openBackground()
	a.openAuth(buckets)
	if err := a.openAccounts(ctx, hasher, buckets); err != nil {
		a.closeEarly()
		return nil, err
	}
	// The queue of due reviews, fed by visits (below) and by moderators' requests; a decision
	// that bans or unbans reaches the caches at once, as an edit does.
	reviews := moderation.NewQueue(redis.NewReviewQueue(rc))
	modStore := postgres.NewModeration(db)
	desk := moderation.NewDesk(modStore, reviews, log)
	desk.OnStatusChanged(func(ctx context.Context, l *link.Link) {
		a.cache.Changed(ctx, l)
		a.webhookLinkBanned(ctx, l)
	})
	if a.mailer != nil {
		a.appealMail = moderation.NewAppealMail(moderation.AppealMailOptions{
			Readers: modStore, Mail: a.mailer, AppURL: cfg.Public, ShortURL: a.links.ShortURL, Log: log,
		})
		desk.OnAppealAnswered(a.appealMail.Answered)
	}
	classifier, err := visitor.New(visitor.Options{TrustedProxies: cfg.TrustedProxyNets, Countries: geoCountries(geo)})
	if err != nil {
		a.closeEarly()
		return nil, fmt.Errorf("visitor classification: %w", err)
	}
	a.openSSO()
	if err := a.openAPI(desk, classifier, tags, buckets); err != nil {
		a.closeEarly()
		return nil, err
	}
	a.openVisits(reviews, classifier, hasher, buckets)
	a.sync = cachesync.NewNode(cachesync.NodeOptions{
		Syncer: a.syncer, Reservations: cachesync.NewReservationSync(postgres.NewLinkChanges(db), a.resolver),
		Resolver: a.resolver, IDs: postgres.NewIDSource(db), Domains: a.domainTable, Accounts: a.accounts, Sessions: a.auth, Log: log,
	})
	a.searchIndexer = linksearch.NewIndexer(postgres.NewLinkSearch(db), log)
	a.chores = housekeeping.New(housekeeping.Options{
		Workspaces: a.accounts, Sessions: postgres.NewRefreshTokenStore(db), Changes: postgres.NewLinkChanges(db),
		Audit: a.audit, Deliveries: a.hooks, Domains: a.domains, SSO: a.sso, CheckEvery: cfg.DomainCheckInterval, Log: log,
	})
	a.openServers()
	return a, nil
}

// openCaches makes the redirect path's resolver over PostgreSQL and Redis, the cache sync
// behind it, and what committed changes do to them.
func (a *App) openCaches(linkStore *postgres.LinkStore, codec *code.Codec) {
	linkCache := redis.NewLinkCache(a.redis, a.bus, a.log)
	a.resolver = redirect.NewResolver(linkStore, linkCache, codec, a.cfg.LinkCacheSize, a.log)
	changes := postgres.NewLinkChanges(a.db)
	a.syncer = cachesync.New(changes, changes, linkCache, a.resolver, changes, redis.LinkTTL, a.log)
	a.resolver.ReadPast(a.syncer.Pending)
	a.cache = cachepolicy.NewLinks(linkCache, a.resolver, a.syncer, a.log)
	a.announce = cachepolicy.NewAnnouncer(a.bus, a.resolver, a.log)
}

// openDomains reads the custom domains' host table and makes their service.
func (a *App) openDomains(ctx context.Context) {
	domainStore := postgres.NewDomainStore(a.db)
	a.domainTable = domain.NewTable(domainStore)
	if err := a.domainTable.Reload(ctx); err != nil {
		a.log.Warn("custom domains not read yet; retrying each second", "err", err)
	}
	a.domains = domain.NewService(domainStore, a.domainTable, domain.NewDNS(a.cfg.DNSResolver), a.plans, domain.Options{
		OwnHosts: a.cfg.ShortHostnames(), Target: a.cfg.DomainRecords, CheckEvery: a.cfg.DomainCheckInterval, Changed: a.announce.Domain,
		VerifiedInBackground: a.auditDomainVerified,
		Verified:             a.webhookDomainVerified,
	}, a.log)
}

// openLinks makes the link service, whose writers start at once.
func (a *App) openLinks(linkStore *postgres.LinkStore, codec *code.Codec, hasher *auth.Hasher, tags *tag.Service) {
	cfg := a.cfg
	alloc := idblock.New(postgres.NewIDSource(a.db), cfg.IDBlockSize, a.announce.IDBlock, a.log)
	a.links = link.NewService(linkStore, alloc, codec, a.cache, link.Options{
		Base:     cfg.Public,
		OwnHosts: cfg.ShortHostnames(),
		Writers:  cfg.CreateWriters,
		BatchMax: cfg.CreateBatchMax,

		Plans:        a.plans,
		Passwords:    hasher,
		GeoAvailable: a.geo != nil,

		MaxCodeAliases: cfg.CodeAliasesPerWorkspace,
		Domains:        a.domains,
		Tags:           tags,
		WriteTimeout:   cfg.WriteTimeout,
	}, a.log)
}

// openBackground makes the services that work off the request path: form answers, webhooks,
// link health and CSV imports.
func (a *App) openBackground() {
	cfg, db, log := a.cfg, a.db, a.log
	a.responses = link.NewResponses(postgres.NewFormResponseStore(db), log)
	hookStore := postgres.NewWebhookStore(db)
	a.hooksOut = webhook.NewDispatcher(webhook.DispatcherOptions{
		Store: hookStore, Sender: webhook.NewSender(cfg.WebhookAllowLoopback), Plans: a.plans,
		RetryDelays: cfg.WebhookRetryDelays, DisableAfter: cfg.WebhookDisableAfter, AppURL: cfg.Public.String(), Log: log,
	})
	a.hooks = webhook.NewService(hookStore, a.hooksOut, cfg.WebhookAllowLoopback, log)
	a.health = health.NewRunner(health.Options{
		Store:    postgres.NewHealthStore(db),
		Checker:  health.NewChecker(cfg.HealthTimeout, cfg.HealthAllowLoopback),
		Budget:   auth.NewLimiter(redis.NewBuckets(a.redis), log),
		Schedule: health.Schedule{Every: cfg.HealthCheckInterval, Retry: cfg.HealthRetryAfter},
		PerHost:  cfg.HealthHostChecksPerMinute, Batch: cfg.HealthConcurrency, Poll: cfg.HealthPollInterval,
		DigestEvery: cfg.HealthDigestInterval, ShortURL: a.links.ShortURL, AppURL: cfg.Public.String(), Log: log,
		ChecksNowPerHour: cfg.HealthChecksNowPerHour,
	})
	a.imports = imports.NewService(postgres.NewImportStore(db), a.links, imports.Options{
		MaxRows: cfg.ImportMaxRows, Workers: cfg.ImportWorkers, Lease: cfg.ImportLease, Owner: leaseOwner(),
		Finished: a.webhookImportFinished,
	}, log)
	a.bulkJobs = bulkjob.NewService(postgres.NewBulkJobStore(db), a.links, a.cache, a.audit, bulkjob.Options{
		Workers: cfg.BulkJobWorkers, Lease: cfg.BulkJobLease, Owner: leaseOwner(),
	}, log)
}

// openAuth makes the sign-in service: tokens, sessions and two-factor codes.
func (a *App) openAuth(buckets *redis.Buckets) {
	tokens := postgres.NewRefreshTokenStore(a.db)
	a.auth = auth.NewService(auth.Options{
		Secret:       []byte(a.cfg.JWTSecret),
		AccessTTL:    a.cfg.AccessTokenTTL,
		RefreshTTL:   a.cfg.RefreshTokenTTL,
		RefreshGrace: a.cfg.RefreshGrace,
	}, tokens, buckets, a.log)
	a.auth.UseSessions(tokens)
	a.auth.UseTwoFactor(postgres.NewTwoFactorStore(a.db))
}

// openAccounts makes the account service, tells it what to tell the caches, gives it (and
// the webhooks and link health) the mailer, and makes sure of the operator account.
func (a *App) openAccounts(ctx context.Context, hasher *auth.Hasher, buckets *redis.Buckets) error {
	cfg := a.cfg
	accounts := account.NewService(postgres.NewAccountStore(a.db), hasher, a.log)
	accounts.CheckMembersWith(a.plans.CheckMembers)
	accounts.LimitInvitations(auth.NewLimiter(buckets, a.log), cfg.InvitesPerHour)
	a.accounts = accounts
	accounts.OnKeyRevoked(a.announce.KeyRevoked)
	a.auth.OnSessionsEnded(a.announce.SessionsEnded)
	accounts.OnLinksRemoved(a.cache.RemovedRefs)
	accounts.OnWorkspaceGone(a.announce.WorkspaceGone)
	var mailer account.Mailer
	if cfg.SMTPURL != "" {
		m, err := mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
		if err != nil {
			return fmt.Errorf("SMTP_URL: %w", err)
		}
		mailer = m
	} else {
		a.log.Warn("SMTP_URL is unset: verification and password-reset links are written to the log instead of mailed")
	}
	accounts.UseMail(mailer, cfg.Public)
	a.mailer = mailer
	a.auth.OnSecondFactorLocked(func(_ context.Context, userID int64, until time.Time) {
		accounts.MailSecondFactorLocked(userID, until)
	})
	if mailer != nil {
		a.hooksOut.UseMail(mailer)
		a.health.UseMail(mailer)
	}
	// After the hooks: keys revoked by a promotion must stop on every node.
	if cfg.OperatorEmail != "" {
		if _, err := accounts.EnsureOperator(ctx, cfg.OperatorEmail, cfg.OperatorPassword, cfg.OperatorTakeover); err != nil {
			return fmt.Errorf("operator account: %w", err)
		}
	}
	return nil
}

// openSSO makes the single sign-on service, which guards the accounts' credentials.
func (a *App) openSSO() {
	cfg := a.cfg
	ssoDNS := domain.NewDNS(cfg.DNSResolver)
	a.sso = sso.NewService(postgres.NewSSOStore(a.db), ssoDNS, a.plans, sso.Options{
		Resolver:             ssoDNS.Resolver(),
		Secret:               []byte(cfg.JWTSecret),
		CallbackURL:          strings.TrimSuffix(cfg.Public.String(), "/") + "/api/v1/auth/sso/callback",
		PublicURL:            cfg.Public.String(),
		AllowLoopback:        cfg.SSOAllowLoopback,
		CheckEvery:           cfg.DomainCheckInterval,
		VerifiedInBackground: a.auditSSOVerified,
	}, a.log)
	scimStore := postgres.NewSCIMStore(a.db)
	a.sso.BindProvisioned(scimStore.ProvisionedIn, scimStore.DeprovisionedIn)
	a.accounts.GuardCredentials(a.sso)
}

// openAPI makes the JSON API with the services it serves, billing and QR codes among them.
func (a *App) openAPI(desk *moderation.Desk, classifier *visitor.Classifier, tags *tag.Service, buckets *redis.Buckets) error {
	cfg, db, log := a.cfg, a.db, a.log
	var billingSvc *billing.Service
	if cfg.BillingOn() {
		billingSvc = billing.NewService(billing.Options{
			Store:    postgres.NewBillingStore(db),
			Payments: stripe.New(cfg.StripeSecretKey, cfg.StripeWebhookSecret, cfg.StripeAPIBase, cfg.StripePaymentMethods),
			Plans:    postgres.NewPlanStore(db),
			AppURL:   cfg.Public.String(),
			Prices:   cfg.Prices, Grace: cfg.BillingGrace, Now: time.Now, Log: log,
		})
	}
	a.imageSlots = qr.NewSlots(cfg.QRRenders, cfg.QRRenderWait)
	logos := qr.NewLogos(postgres.NewLogoStore(db), a.imageSlots)
	statsSvc := stats.NewService(postgres.NewStatsStore(db), a.links, stats.RawDays(cfg.VisitRetentionDays))
	var err error
	a.api, err = httpapi.New(httpapi.Deps{
		Links: a.links, Accounts: a.accounts, Auth: a.auth, Plans: a.plans, Log: log,
		MaxBodyBytes: cfg.MaxBodyBytes, SecureCookies: cfg.SecureCookies(), WriteTimeout: cfg.WriteTimeout,
		TrustedProxyNets: cfg.TrustedProxyNets,
		Responses:        a.responses,
		Stats:            statsSvc,
		Moderation:       desk,
		Imports:          a.imports,
		BulkJobs:         a.bulkJobs,
		MaxImportBytes:   cfg.ImportMaxBytes,
		Domains:          a.domains,
		Audit:            a.audit,
		Visitors:         classifier,
		Billing:          billingSvc,
		ListedPrices:     cfg.ListedPrices,
		SSO:              a.sso,
		Webhooks:         a.hooks,
		Tags:             tags,
		UTMTemplates:     link.NewUTMTemplates(postgres.NewUTMTemplateStore(db)),
		Logos:            logos,
		QR:               qr.NewCodes(qr.CodesOptions{Logos: logos, Slots: a.imageSlots, CacheBytes: cfg.QRCacheBytes}),
		Health:           a.health,
		SCIM:             scim.NewService(postgres.NewSCIMStore(db), a.plans, postgres.NewSSOStore(db)),
		SCIMURL:          strings.TrimSuffix(cfg.Public.String(), "/") + "/scim/v2",
		Shares:           share.NewService(postgres.NewShareStore(db), a.links, statsSvc, a.plans),
		ShareURL:         strings.TrimSuffix(cfg.Public.String(), "/") + "/share/",
		RateLimits: httpapi.RateLimits{
			Limiter:   auth.NewLimiter(buckets, log),
			Anonymous: cfg.RateLimitAnonymous,
		},
	})
	return err
}

// openVisits makes the visitors' side: visit caps, the capture of visits and their ingest, and
// the redirect handler with its rules.
func (a *App) openVisits(reviews *moderation.Queue, classifier *visitor.Classifier, hasher *auth.Hasher, buckets *redis.Buckets) {
	cfg, db, rc, log := a.cfg, a.db, a.redis, a.log
	a.caps = visitcap.New(redis.NewVisitCaps(rc), postgres.NewVisitCounts(db), log)
	visitStore := postgres.NewVisits(db).CountExactly(cfg.VisitExactUniques)
	a.visits = visit.NewBuffer(visit.Options{
		Stream: redis.NewVisitStream(rc), Store: visitStore, Due: reviews,
		Classifier: classifier, Hasher: visit.NewHasher(auth.DeriveKey([]byte(cfg.JWTSecret), "visitor hash")),
		Log: log, Size: cfg.VisitBufferSize,
	})
	for i := range cfg.VisitConsumers {
		if !cfg.VisitIngest {
			break
		}
		name := cfg.VisitConsumer
		if i > 0 {
			name = fmt.Sprintf("%s-%d", name, i+1)
		}
		a.ingest = append(a.ingest, visit.NewConsumer(visit.ConsumerOptions{
			Stream: redis.NewVisitStream(rc), Name: name,
			Store: visitStore, Due: reviews, RetentionDays: cfg.VisitRetentionDays,
			ClaimAfter: cfg.VisitClaimAfter, Entries: cfg.VisitIngestEntries, Clicks: webhookClicks{hooks: a.hooks, log: log}, Log: log,
		}))
	}
	deps := redirect.RuleDeps{
		Visitors: classifier, Caps: a.caps, Passwords: hasher, Forms: a.responses,
		Guesses: auth.NewLimiter(buckets, log),
		Plans:   planfacts.New(a.plans),
		Secret:  auth.DeriveKey([]byte(cfg.JWTSecret), "link password cookies"),
		Base:    cfg.Public.String(), HTTPS: cfg.SecureCookies(),
		ShortURL:     a.links.ShortURL,
		WriteTimeout: cfg.WriteTimeout,
	}
	if a.geo != nil {
		deps.Credit, deps.CreditURL = a.geo.Attribution()
	}
	if cfg.VisitCapture {
		deps.Visits = a.visits
	}
	a.visitors = redirect.NewHandler(a.resolver, cfg.ShortHostnames(), deps)
	a.visitors.ServeDomains(a.domainTable)
}

// openServers makes the HTTP server, with the TLS question of the certificate proxy, and the
// metrics server when METRICS_ADDR is set.
func (a *App) openServers() {
	a.tlsAsk = httpapi.TLSAsk(a.mayHaveCertificate)
	a.server = &http.Server{
		Handler:           a,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelWarn),
	}
	if a.cfg.MetricsAddr != "" {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.Handler())
		a.metricsServer = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
			ErrorLog: slog.NewLogLogger(a.log.Handler(), slog.LevelWarn)}
	}
}

// leaseOwner names this process in the leases of import jobs: host, process ID and a random
// part, so that a restarted process (in a container, often the same host name and PID) is never
// taken for the one before it.
func leaseOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// mayHaveCertificate says whether a TLS certificate may be obtained for host: one of the
// service's own hosts, or a verified custom domain of a workspace that is not being deleted.
func (a *App) mayHaveCertificate(host string) bool {
	for _, own := range a.cfg.ShortHostnames() {
		if strings.EqualFold(host, own) {
			return true
		}
	}
	if strings.ContainsRune(host, ':') {
		return false // a port is no host name
	}
	d := a.domainTable.Host(host)
	return d != nil && d.Active && !a.resolver.WorkspaceIsGone(d.WorkspaceID)
}

// ServeHTTP routes a request: a verified custom domain's host is a visitor's whatever the
// path; otherwise the API, health endpoints, the web app, or a short link. Metrics are not
// here: they have their own listener (METRICS_ADDR), out of visitors' reach.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Host first: one map lookup, which misses for the service's own hosts. A removed
	// domain's host is still a visitor's (a bare 404), not the web app's.
	if d := a.domainTable.Host(r.Host); d != nil {
		a.visitors.ServeDomain(w, r, d)
		return
	}
	p := r.URL.Path
	switch {
	case p == "/tls/ask":
		a.tlsAsk.ServeHTTP(w, r)
	case strings.HasPrefix(p, "/api/"), strings.HasPrefix(p, "/scim/"):
		a.api.ServeHTTP(w, r)
	case p == "/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	case p == "/readyz":
		a.ready(w, r)
	case p == "/" || p == "" || strings.HasPrefix(p, "/app/") || p == "/app" || strings.HasPrefix(p, "/share/"):
		a.static.ServeHTTP(w, r)
	default:
		a.visitors.ServeHTTP(w, r)
	}
}

// readyBudget bounds each store's check in /readyz.
const readyBudget = 2 * time.Second

// ready answers /readyz once the node serves: 200 with the state of PostgreSQL and Redis. Their
// failures keep the node in rotation: both are shared, so every node would leave at once, and
// meanwhile its cached links keep redirecting (creates answer 503 without PostgreSQL). The two
// are checked at once, each within its own budget, so that the answer names the store that is
// slow rather than the one checked after it.
func (a *App) ready(w http.ResponseWriter, r *http.Request) {
	pg, rd := "ok", "ok"
	var wg sync.WaitGroup
	wg.Go(func() {
		ctx, cancel := context.WithTimeout(r.Context(), readyBudget)
		defer cancel()
		if err := a.db.Ping(ctx); err != nil {
			pg = "down"
		}
	})
	ctx, cancel := context.WithTimeout(r.Context(), readyBudget)
	defer cancel()
	if err := a.redis.Ping(ctx); err != nil {
		rd = "degraded"
	}
	wg.Wait()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = fmt.Fprintf(w, `{"postgres":%q,"redis":%q}`+"\n", pg, rd)
}

// Listen binds the configured addresses, HTTP_ADDR and METRICS_ADDR if set (":0" picks a
// free port; see Addr and MetricsAddr).
func (a *App) Listen() error {
	ln, err := net.Listen("tcp", a.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on HTTP_ADDR %s: %w", a.cfg.HTTPAddr, err)
	}
	if a.metricsServer != nil {
		mln, err := net.Listen("tcp", a.cfg.MetricsAddr)
		if err != nil {
			_ = ln.Close()
			return fmt.Errorf("listen on METRICS_ADDR %s: %w", a.cfg.MetricsAddr, err)
		}
		a.metricsListener = mln
	}
	a.listener = ln
	return nil
}

// UseClock makes the server read the time of two-factor codes and their lockouts
// (docs/security.md#two-factor-sign-in) and of the session policies
// (docs/security.md#session-policy) and invitations' expiry (docs/api.md#workspaces-members-and-invitations)
// and of links' expiry on redirects (docs/api.md#the-redirect-hosts-errors) from now, so that tests move it instead of
// waiting. Call it before Listen.
func (a *App) UseClock(now func() time.Time) {
	a.auth.UseClock(now)
	a.accounts.UseClock(now)
	a.visitors.UseClock(now)
}

// FlushSessionActivity writes now what the minute's flush would write of the sessions this
// node let into workspaces (docs/security.md#session-policy), and answers how many sessions it
// wrote.
func (a *App) FlushSessionActivity(ctx context.Context) (int, error) {
	return a.auth.FlushActivity(ctx)
}

// Addr is the address the server listens on, once Listen has run.
func (a *App) Addr() string { return a.listener.Addr().String() }

// ImageSlots are the node's slots for drawing QR codes and decoding logos (QR_RENDERS): a test
// holds them to see what the API answers when every one is busy.
func (a *App) ImageSlots() *qr.Slots { return a.imageSlots }

// DomainCheckRounds answers how many rounds of checks of pending custom and sign-on domains
// this node has finished: a test waits for one that began after an event.
func (a *App) DomainCheckRounds() int64 { return a.chores.DomainCheckRounds() }

// CacheSyncRounds answers how many rounds of the cache sync (the change feed, reservations,
// domains, deleted workspaces) this node has finished: a test waits for one that began after
// an event.
func (a *App) CacheSyncRounds() int64 { return a.sync.Rounds() }

// AppealMailsDone answers how many appeals' answers this node mailed or gave up mailing (0
// without a mailer): a test waits for an answer's before it looks for mail that must not come.
func (a *App) AppealMailsDone() int64 {
	if a.appealMail == nil {
		return 0
	}
	return a.appealMail.Done()
}

// Resyncs answers how many times this node's event bus subscription started and the node
// dropped its copies (EventResync handled).
func (a *App) Resyncs() int64 { return a.sync.Resyncs() }

// HealthRunner is the node's link health runner: a test reads its Progress.
func (a *App) HealthRunner() *health.Runner { return a.health }

// WebhookDispatcher is the node's webhook dispatcher: a test reads its Rounds.
func (a *App) WebhookDispatcher() *webhook.Dispatcher { return a.hooksOut }

// MetricsAddr is the address /metrics is served on, once Listen has run; "" when
// METRICS_ADDR is unset.
func (a *App) MetricsAddr() string {
	if a.metricsListener == nil {
		return ""
	}
	return a.metricsListener.Addr().String()
}

// Run serves until Close is called; it starts the background loops first.
func (a *App) Run(ctx context.Context) error {
	if a.listener == nil {
		if err := a.Listen(); err != nil {
			return err
		}
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	a.stop = stop
	a.sync.RefreshIssued(bg)
	a.sync.Start(bg)
	a.wg.Add(8)
	go func() { defer a.wg.Done(); a.searchIndexer.Run(bg) }()
	go func() { defer a.wg.Done(); a.hooksOut.Run(bg) }()
	go func() { defer a.wg.Done(); a.auth.RunActivity(bg) }()
	go func() { defer a.wg.Done(); a.bus.Listen(bg, a.sync.HandleEvent) }()
	go func() { defer a.wg.Done(); a.chores.CheckDomains(bg) }()
	go func() { defer a.wg.Done(); a.sync.PollIssued(bg) }()
	go func() { defer a.wg.Done(); a.sync.Run(bg) }()
	go func() { defer a.wg.Done(); a.chores.Run(bg) }()
	if a.cfg.HealthCheck {
		a.wg.Add(1)
		go func() { defer a.wg.Done(); a.health.Run(bg) }()
	}
	for _, c := range a.ingest {
		a.wg.Add(1)
		go func() { defer a.wg.Done(); c.Run(bg) }()
	}
	// Import jobs stop apart from the other loops: before the link writer closes (Close), so
	// that the chunk under way is written and recorded.
	importsCtx, importsStop := context.WithCancel(context.WithoutCancel(ctx))
	a.importsStop, a.importsDone, a.bulkJobsDone = importsStop, make(chan struct{}), make(chan struct{})
	go func() { defer close(a.importsDone); a.imports.Run(importsCtx) }()
	// Bulk jobs stop with them: the batch under way is committed and the job given back.
	go func() { defer close(a.bulkJobsDone); a.bulkJobs.Run(importsCtx) }()
	if a.cfg.DebugAddr != "" {
		a.serveDebug(bg)
	}
	if a.metricsListener != nil {
		go func() {
			if err := a.metricsServer.Serve(a.metricsListener); err != nil && !errors.Is(err, http.ErrServerClosed) {
				a.log.Error("metrics server", "addr", a.MetricsAddr(), "err", err)
			}
		}()
		a.log.Info("serving metrics", "addr", a.MetricsAddr())
	}
	a.log.Info("serving", "addr", a.Addr(), "public_url", a.cfg.Public.String())
	if err := a.server.Serve(a.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// serveDebug serves Go's profiles on DEBUG_ADDR until ctx ends.
func (a *App) serveDebug(ctx context.Context) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: a.cfg.DebugAddr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	context.AfterFunc(ctx, func() { _ = srv.Close() })
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Warn("debug server", "addr", a.cfg.DebugAddr, "err", err)
		}
	}()
	a.log.Info("serving profiles", "addr", a.cfg.DebugAddr)
}

// closeEarly undoes what New had opened when it fails half-way.
func (a *App) closeEarly() {
	if a.links != nil {
		a.links.Close()
	}
	if a.plans != nil {
		a.plans.Close()
	}
	if a.caps != nil {
		a.caps.Close()
	}
	if a.visits != nil {
		a.visits.Close()
	}
	a.db.Close()
	if a.geo != nil {
		_ = a.geo.Close()
	}
}

// Close drains in-flight requests, writes every accepted create, then closes connections.
func (a *App) Close(ctx context.Context) error {
	var errs []error
	if err := a.server.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("shutdown http: %w", err))
	}
	if a.metricsServer != nil {
		// Last scrapes are cut short: they are repeated by the next process anyway.
		if err := a.metricsServer.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close metrics server: %w", err))
		}
	}
	if a.importsStop != nil {
		a.importsStop()
		select {
		case <-a.importsDone:
		case <-ctx.Done():
			errs = append(errs, fmt.Errorf("import jobs: %w", ctx.Err()))
		}
		select {
		case <-a.bulkJobsDone:
		case <-ctx.Done():
			errs = append(errs, fmt.Errorf("bulk jobs: %w", ctx.Err()))
		}
	}
	a.links.Close()
	a.plans.Close() // after the links, whose failed creates give their quota back
	a.accounts.Close()
	if a.appealMail != nil {
		a.appealMail.Close()
	}
	a.caps.Close()   // writes the last counted visits
	a.visits.Close() // sends the visits buffered, after the last answer
	if a.stop != nil {
		a.stop()
	}
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("background loops: %w", ctx.Err()))
	}
	if a.redis != nil {
		_ = a.redis.Close()
	}
	a.db.Close()
	if a.geo != nil {
		_ = a.geo.Close()
	}
	return errors.Join(errs...)
}
