// Package config reads the environment once into a validated Config.
package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/shortlink/shortlink/backend/billing"
	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/plan"
)

// Config is every setting of a Shortlink process; docs/configuration.md lists each variable.
type Config struct {
	DatabaseURL string `env:"DATABASE_URL,required"`
	// RedisURL is the Redis server; with RedisSentinels, only its user, password and database.
	RedisURL string `env:"REDIS_URL"`
	// RedisSentinels are the Sentinels (host:port) that name the Redis master RedisMasterName:
	// the client follows a failover without a proxy in front of Redis.
	RedisSentinels  []string `env:"REDIS_SENTINELS" envSeparator:","`
	RedisMasterName string   `env:"REDIS_MASTER_NAME"`
	// RedisPrefix namespaces every key and channel so deployments (and tests) can share a Redis.
	RedisPrefix string `env:"REDIS_PREFIX" envDefault:"sl:"`

	HTTPAddr  string `env:"HTTP_ADDR" envDefault:":8080"`
	PublicURL string `env:"PUBLIC_URL" envDefault:"http://localhost:8080"`
	// ShortHosts are extra host names answered as the service's own short domain.
	ShortHosts     []string `env:"SHORT_HOSTS" envSeparator:","`
	TrustedProxies []string `env:"TRUSTED_PROXIES" envSeparator:","`
	// TrustedProxyNets is TrustedProxies parsed (an address is a one-address network).
	TrustedProxyNets []netip.Prefix `env:"-"`

	JWTSecret       string        `env:"JWT_SECRET,required"`
	AccessTokenTTL  time.Duration `env:"ACCESS_TOKEN_TTL" envDefault:"15m"`
	RefreshTokenTTL time.Duration `env:"REFRESH_TOKEN_TTL" envDefault:"720h"`
	// RefreshGrace is how long a just-used refresh token still gets the same successor
	// (two tabs refreshing at once) before a reuse counts as a replay.
	RefreshGrace time.Duration `env:"REFRESH_GRACE" envDefault:"20s"`

	CodeKey    string `env:"CODE_KEY,required"`
	CodeTweak  string `env:"CODE_TWEAK"`
	CodeLength int    `env:"CODE_LENGTH" envDefault:"6"`

	IDBlockSize    int `env:"ID_BLOCK_SIZE" envDefault:"1000"`
	CreateWriters  int `env:"CREATE_WRITERS" envDefault:"1"`
	CreateBatchMax int `env:"CREATE_BATCH_MAX" envDefault:"1000"`
	LinkCacheSize  int `env:"LINK_CACHE_SIZE" envDefault:"1000000"`
	// CodeAliasesPerWorkspace bounds a workspace's custom aliases shaped like generated codes:
	// every node keeps their IDs in memory until the issued range reaches them.
	CodeAliasesPerWorkspace int   `env:"CODE_ALIASES_PER_WORKSPACE" envDefault:"1000"`
	MaxBodyBytes            int64 `env:"MAX_BODY_BYTES" envDefault:"4194304"`

	// ImportMaxBytes bounds an uploaded CSV file; ImportMaxRows its data rows.
	ImportMaxBytes int64 `env:"IMPORT_MAX_BYTES" envDefault:"67108864"`
	ImportMaxRows  int   `env:"IMPORT_MAX_ROWS" envDefault:"100000"`
	// ImportWorkers is how many import jobs this node runs at once; 0 leaves them to others.
	ImportWorkers int `env:"IMPORT_WORKERS" envDefault:"1"`
	// ImportLease is how long a node holds an import job without renewing its lease: the job
	// of a node that died is resumed by another within about this long.
	ImportLease time.Duration `env:"IMPORT_LEASE" envDefault:"30s"`
	// BulkJobWorkers is how many bulk jobs over links this node runs at once; 0 leaves them to
	// others. BulkJobLease is how long a node holds one without renewing its lease.
	BulkJobWorkers int           `env:"BULK_JOB_WORKERS" envDefault:"1"`
	BulkJobLease   time.Duration `env:"BULK_JOB_LEASE" envDefault:"30s"`

	// PlanLimits overrides limits of the plans table: "free.links_per_month=500,…".
	PlanLimits string `env:"PLAN_LIMITS"`
	// PlanPrices sets the prices the plans listing shows while billing is off:
	// "personal.monthly=2900 CNY,…" (docs/configuration.md).
	PlanPrices string `env:"PLAN_PRICES"`

	// PasswordHashConcurrency bounds the argon2id hashes running at once (19 MiB each); 0
	// means the number of CPUs. PasswordHashWait bounds how long a sign-in queues for one.
	PasswordHashConcurrency int           `env:"PASSWORD_HASH_CONCURRENCY"`
	PasswordHashWait        time.Duration `env:"PASSWORD_HASH_WAIT" envDefault:"2s"`
	// PasswordHashLight makes new password hashes at argon2id's least cost instead of OWASP's.
	// It is set in code by the tests' servers alone: no variable of the environment sets it.
	PasswordHashLight bool

	// QRRenders bounds the image work (drawing a PNG code, decoding an uploaded logo) running
	// at once on this node; 0 means GOMAXPROCS. QRRenderWait bounds how long a request queues
	// for a slot before 503. QRCacheBytes bounds the drawn codes this node keeps; 0 keeps none.
	QRRenders    int           `env:"QR_RENDERS"`
	QRRenderWait time.Duration `env:"QR_RENDER_WAIT" envDefault:"1s"`
	QRCacheBytes int64         `env:"QR_CACHE_BYTES" envDefault:"33554432"`

	// WriteTimeout bounds an API request that writes (creates, edits, deletes), from its
	// arrival to its answer: past it the request answers 503 with Retry-After, and nothing it
	// did not finish is acknowledged.
	WriteTimeout time.Duration `env:"WRITE_TIMEOUT" envDefault:"5s"`

	// InvitesPerHour bounds the invitations one workspace may send in an hour.
	InvitesPerHour int `env:"INVITES_PER_HOUR" envDefault:"20"`
	// AuditRetentionDays is how long the workspace audit log keeps an event.
	AuditRetentionDays int `env:"AUDIT_RETENTION_DAYS" envDefault:"400"`
	// RateLimitAnonymous is the API requests a minute of one client address without
	// credentials (sign-up, login, refresh, password reset, openapi.json).
	RateLimitAnonymous int `env:"RATE_LIMIT_ANONYMOUS" envDefault:"60"`

	OperatorEmail    string `env:"OPERATOR_EMAIL"`
	OperatorPassword string `env:"OPERATOR_PASSWORD"`
	// OperatorTakeover lets start-up promote an existing account of OPERATOR_EMAIL whose
	// address was never verified (its sessions and API keys are revoked).
	OperatorTakeover bool `env:"OPERATOR_TAKEOVER" envDefault:"false"`

	// SMTPURL is the mail server of verification and password-reset links; unset, the
	// links go into the log.
	SMTPURL  string `env:"SMTP_URL"`
	MailFrom string `env:"MAIL_FROM"`

	// VisitCapture turns the recording of visits on the redirect path off (false) or on.
	VisitCapture bool `env:"VISIT_CAPTURE" envDefault:"true"`
	// VisitIngest runs this node's consumer of the visit stream (false: other nodes or workers
	// store the visits).
	VisitIngest bool `env:"VISIT_INGEST" envDefault:"true"`
	// VisitBufferSize is how many visits a node holds before it drops them (Redis and
	// PostgreSQL both too slow or down).
	VisitBufferSize int `env:"VISIT_BUFFER_SIZE" envDefault:"65536"`
	// VisitRetentionDays is how many days of raw visits are kept; the hourly and daily rollups
	// the statistics read are kept for good.
	VisitRetentionDays int `env:"VISIT_RETENTION_DAYS" envDefault:"400"`
	// VisitConsumer names this node in the visit stream's consumer group; by default the
	// host name and process ID.
	VisitConsumer string `env:"VISIT_CONSUMER"`
	// VisitConsumers is how many consumers this node runs (the second and later are named
	// VisitConsumer-2, -3, …): one stores one batch at a time, bound by one PostgreSQL
	// backend, so two keep up with about twice the visits.
	VisitConsumers int `env:"VISIT_CONSUMERS" envDefault:"2"`
	// VisitIngestEntries is how many entries of the visit stream (up to 1,000 visits each)
	// a consumer reads at once and stores in one transaction: more write fewer rollup rows per
	// visit, and hold about 0.9 kB of memory per visit while they are stored.
	VisitIngestEntries int `env:"VISIT_INGEST_ENTRIES" envDefault:"200"`
	// VisitClaimAfter is how long entries of the visit stream read by a consumer and not
	// acknowledged wait before another consumer claims them (that consumer died).
	VisitClaimAfter time.Duration `env:"VISIT_CLAIM_AFTER" envDefault:"30s"`
	// VisitExactUniques is how many people a link has on a UTC day before that day's
	// unique visitors are counted in a HyperLogLog sketch instead of the day's set of hashes
	// (8 bytes a person, rewritten by each transaction that adds to it).
	VisitExactUniques int `env:"VISIT_EXACT_UNIQUES" envDefault:"2000"`

	// DNSResolver is the resolver (host:port) asked for custom domains' TXT records and for
	// the addresses of workspaces' identity providers; unset, the system's.
	DNSResolver string `env:"DNS_RESOLVER"`
	// DomainCheckInterval is how often the TXT record of a pending custom domain is looked
	// at again in the background.
	DomainCheckInterval time.Duration `env:"DOMAIN_CHECK_INTERVAL" envDefault:"1m"`
	// DomainTarget is where customers point their custom domains: one host name (a CNAME) or
	// the service's IP addresses (A and AAAA records), comma-separated; unset, a CNAME to
	// PUBLIC_URL's host. The domain's answer shows the records (DomainRecords).
	DomainTarget []string `env:"DOMAIN_TARGET" envSeparator:","`
	// DomainRecords is DomainTarget read.
	DomainRecords domain.Target `env:"-"`

	// SSOAllowLoopback lets single sign-on issuers be plain http on a loopback address, and
	// providers be reached on loopback: tests only.
	SSOAllowLoopback bool `env:"SSO_ALLOW_LOOPBACK" envDefault:"false"`
	// WebhookAllowLoopback lets webhook URLs on loopback addresses pass the address guard, and
	// http URLs be created: tests only.
	WebhookAllowLoopback bool `env:"WEBHOOK_ALLOW_LOOPBACK" envDefault:"false"`
	// WebhookRetryDelays are the waits before each retry of a webhook delivery (tests shorten
	// them); after the last, the delivery has failed.
	WebhookRetryDelays []time.Duration `env:"WEBHOOK_RETRY_DELAYS" envDefault:"5s,5m,30m,2h,5h,10h"`
	// WebhookDisableAfter is how many failed deliveries in a row disable a webhook (tests
	// lower it).
	WebhookDisableAfter int `env:"WEBHOOK_DISABLE_AFTER" envDefault:"50"`

	// HealthCheck runs this node's checker of links' destinations (false: other nodes do).
	HealthCheck bool `env:"HEALTH_CHECK" envDefault:"true"`
	// HealthCheckInterval is the time between two checks of a link: at most daily by default.
	HealthCheckInterval time.Duration `env:"HEALTH_CHECK_INTERVAL" envDefault:"24h"`
	// HealthRetryAfter is how soon a link whose check failed once is checked again, to
	// confirm it broken (two failures in a row).
	HealthRetryAfter time.Duration `env:"HEALTH_RETRY_AFTER" envDefault:"1h"`
	// HealthHostChecksPerMinute is how many checks one host gets a minute, across every node.
	HealthHostChecksPerMinute int `env:"HEALTH_HOST_CHECKS_PER_MINUTE" envDefault:"10"`
	// HealthTimeout bounds one request of a check (HEAD or GET, redirects included).
	HealthTimeout time.Duration `env:"HEALTH_TIMEOUT" envDefault:"10s"`
	// HealthConcurrency is how many checks a node makes at once.
	HealthConcurrency int `env:"HEALTH_CONCURRENCY" envDefault:"8"`
	// HealthPollInterval is how often a node looks for due links when none were.
	HealthPollInterval time.Duration `env:"HEALTH_POLL_INTERVAL" envDefault:"5s"`
	// HealthDigestInterval is the time between two digests of broken links to a workspace's
	// owners (tests shorten it).
	HealthDigestInterval time.Duration `env:"HEALTH_DIGEST_INTERVAL" envDefault:"24h"`
	// HealthChecksNowPerHour is how many checks a workspace asks for (POST …/links/{id}/check)
	// an hour.
	HealthChecksNowPerHour int `env:"HEALTH_CHECKS_NOW_PER_HOUR" envDefault:"60"`
	// HealthAllowLoopback lets the checker reach loopback addresses: tests only.
	HealthAllowLoopback bool `env:"HEALTH_ALLOW_LOOPBACK" envDefault:"false"`

	GeoIPDB         string `env:"GEOIP_DB"`
	OpenAIBaseURL   string `env:"OPENAI_BASE_URL"`
	OpenAIAPIKey    string `env:"OPENAI_API_KEY"`
	ModerationModel string `env:"MODERATION_MODEL"`

	LogLevel        string        `env:"LOG_LEVEL" envDefault:"info"`
	LogFormat       string        `env:"LOG_FORMAT" envDefault:"text"`
	ShutdownTimeout time.Duration `env:"SHUTDOWN_TIMEOUT" envDefault:"20s"`
	// DebugAddr, when set, serves Go's /debug/pprof profiles there; keep it off public networks.
	DebugAddr string `env:"DEBUG_ADDR"`
	// MetricsAddr, when set, serves Prometheus metrics at /metrics there, and only there:
	// never on HTTP_ADDR, whose hosts include the public short domain.
	MetricsAddr string `env:"METRICS_ADDR"`

	// StripeSecretKey turns billing on (unset: off, plans are set by operators); the webhook
	// route checks events against StripeWebhookSecret.
	StripeSecretKey     string `env:"STRIPE_SECRET_KEY"`
	StripeWebhookSecret string `env:"STRIPE_WEBHOOK_SECRET"`
	// StripeAPIBase replaces Stripe's API address (tests use a local stripe-mock).
	StripeAPIBase string `env:"STRIPE_API_BASE"`
	// StripePrices names the price of each plan and interval and of the trial:
	// "personal.month=price_…,…,trial=price_…".
	StripePrices string `env:"STRIPE_PRICES"`
	// StripePaymentMethods are the payment method types offered by Checkout.
	StripePaymentMethods []string `env:"STRIPE_PAYMENT_METHODS" envSeparator:"," envDefault:"card,alipay,wechat_pay"`
	// BillingGrace is how long a subscription whose payment failed keeps its plan.
	BillingGrace time.Duration `env:"BILLING_GRACE" envDefault:"168h"`

	// Derived by Load.
	Public         *url.URL `env:"-"`
	CodeKeyBytes   []byte   `env:"-"`
	CodeTweakBytes []byte   `env:"-"`

	// Plans is the plans table with PLAN_LIMITS applied.
	Plans plan.Table `env:"-"`
	// ListedPrices is PLAN_PRICES parsed over the built-in prices.
	ListedPrices map[string]plan.Prices `env:"-"`
	// Prices is STRIPE_PRICES parsed.
	Prices billing.Prices `env:"-"`
}

// Load reads the environment and validates it; errors name the variable at fault.
func Load() (Config, error) {
	var c Config
	if err := env.Parse(&c); err != nil {
		return c, explain(err)
	}
	return c, c.finish()
}

// FromMap is Load over a map instead of the process environment (tests start many servers).
func FromMap(m map[string]string) (Config, error) {
	var c Config
	if err := env.ParseWithOptions(&c, env.Options{Environment: m}); err != nil {
		return c, explain(err)
	}
	return c, c.finish()
}

// explain names the environment variable of each value that did not parse (the library names
// the Go field).
func explain(err error) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return fmt.Errorf("config: %w", err)
	}
	errs := make([]error, len(agg.Errors))
	for i, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			if f, ok := reflect.TypeFor[Config]().FieldByName(pe.Name); ok {
				name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
				e = fmt.Errorf("%s: cannot read it as %s: %w", name, pe.Type, pe.Err)
			}
		}
		errs[i] = e
	}
	return fmt.Errorf("config: %w", errors.Join(errs...))
}

// finish validates the settings group by group, fills the values derived from them, and
// returns every problem at once, each naming its variable.
func (c *Config) finish() error {
	errs := c.checkAddresses()
	errs = append(errs, c.checkCodes()...)
	errs = append(errs, c.checkCreates()...)
	errs = append(errs, c.checkImports()...)
	errs = append(errs, c.checkAccounts()...)
	errs = append(errs, c.checkVisits()...)
	errs = append(errs, c.checkDomains()...)
	errs = append(errs, c.checkWebhooks()...)
	errs = append(errs, c.checkHealth()...)
	errs = append(errs, checkRedis(c.RedisURL, &c.RedisSentinels, c.RedisMasterName)...)
	errs = append(errs, c.checkMail()...)
	errs = append(errs, c.checkBilling()...)
	errs = append(errs, checkLogs(c.LogLevel, c.LogFormat)...)
	return errors.Join(errs...)
}

// checkAddresses validates where the service is reached and listens: PUBLIC_URL, SHORT_HOSTS,
// TRUSTED_PROXIES and METRICS_ADDR.
func (c *Config) checkAddresses() []error {
	var errs []error
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		errs = append(errs, errors.New("PUBLIC_URL must be an http(s) URL with a host and no path, such as https://sho.rt"))
	} else {
		u.Path = ""
		c.Public = u
	}
	for i, h := range c.ShortHosts {
		c.ShortHosts[i] = strings.ToLower(strings.TrimSpace(h))
	}
	nets, err := parsePrefixes(c.TrustedProxies)
	if err != nil {
		errs = append(errs, fmt.Errorf("TRUSTED_PROXIES: %w", err))
	}
	c.TrustedProxyNets = nets
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			errs = append(errs, errors.New("METRICS_ADDR must be host:port, such as 127.0.0.1:9090"))
		} else if c.MetricsAddr == c.HTTPAddr && !strings.HasSuffix(c.MetricsAddr, ":0") {
			errs = append(errs, errors.New("METRICS_ADDR must differ from HTTP_ADDR: metrics are never served to visitors"))
		}
	}
	return errs
}

// checkCodes validates the secrets and shape of short codes and tokens: JWT_SECRET, CODE_KEY,
// CODE_TWEAK (derived from the key when unset) and CODE_LENGTH.
func (c *Config) checkCodes() []error {
	var errs []error
	if len(c.JWTSecret) < 32 {
		errs = append(errs, errors.New("JWT_SECRET must be at least 32 characters"))
	}
	key, err := hex.DecodeString(c.CodeKey)
	if err != nil || (len(key) != 16 && len(key) != 24 && len(key) != 32) {
		errs = append(errs, errors.New("CODE_KEY must be 32, 48 or 64 hex digits (an AES key)"))
	}
	c.CodeKeyBytes = key
	if c.CodeTweak == "" {
		// A tweak derived from the key keeps single-secret deployments simple.
		sum := sha256.Sum256(append([]byte("shortlink-tweak:"), key...))
		c.CodeTweakBytes = sum[:7]
	} else if t, err := hex.DecodeString(c.CodeTweak); err != nil || len(t) != 7 {
		errs = append(errs, errors.New("CODE_TWEAK must be 14 hex digits (the 56-bit FF3-1 tweak)"))
	} else {
		c.CodeTweakBytes = t
	}
	if c.CodeLength < 5 || c.CodeLength > 8 {
		errs = append(errs, errors.New("CODE_LENGTH must be between 5 and 8"))
	}
	return errs
}

// checkCreates validates the settings of the create path and of writes: ID_BLOCK_SIZE,
// CREATE_WRITERS, CREATE_BATCH_MAX, MAX_BODY_BYTES, LINK_CACHE_SIZE,
// CODE_ALIASES_PER_WORKSPACE and WRITE_TIMEOUT.
func (c *Config) checkCreates() []error {
	var cache error
	if c.LinkCacheSize < 1000 {
		cache = errors.New("LINK_CACHE_SIZE must be at least 1000")
	}
	return failed(
		between("ID_BLOCK_SIZE", c.IDBlockSize, 1, 100000),
		between("CREATE_WRITERS", c.CreateWriters, 1, 64),
		between("CREATE_BATCH_MAX", c.CreateBatchMax, 1, 10000),
		between("MAX_BODY_BYTES", c.MaxBodyBytes, 1<<10, 64<<20),
		cache,
		between("CODE_ALIASES_PER_WORKSPACE", c.CodeAliasesPerWorkspace, 0, 1000000),
		between("WRITE_TIMEOUT", c.WriteTimeout, 500*time.Millisecond, time.Minute))
}

// checkImports validates IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_WORKERS and IMPORT_LEASE,
// and the bulk jobs' BULK_JOB_WORKERS and BULK_JOB_LEASE.
func (c *Config) checkImports() []error {
	return failed(
		between("IMPORT_MAX_BYTES", c.ImportMaxBytes, 1<<10, 1<<30),
		between("IMPORT_MAX_ROWS", c.ImportMaxRows, 1, 10_000_000),
		between("IMPORT_WORKERS", c.ImportWorkers, 0, 64),
		between("IMPORT_LEASE", c.ImportLease, time.Second, 10*time.Minute),
		between("BULK_JOB_WORKERS", c.BulkJobWorkers, 0, 16),
		between("BULK_JOB_LEASE", c.BulkJobLease, time.Second, 10*time.Minute))
}

// checkAccounts validates the settings of accounts, sign-in and plans: PASSWORD_HASH_*,
// QR_*, INVITES_PER_HOUR, AUDIT_RETENTION_DAYS, RATE_LIMIT_ANONYMOUS, OPERATOR_*, REFRESH_GRACE and PLAN_LIMITS.
func (c *Config) checkAccounts() []error {
	var errs []error
	if c.PasswordHashConcurrency == 0 {
		c.PasswordHashConcurrency = runtime.NumCPU()
	}
	if c.PasswordHashConcurrency < 1 || c.PasswordHashConcurrency > 1024 {
		errs = append(errs, errors.New("PASSWORD_HASH_CONCURRENCY must be between 1 and 1024 (0: the number of CPUs)"))
	}
	errs = append(errs, failed(
		between("PASSWORD_HASH_WAIT", c.PasswordHashWait, 0, time.Minute),
		between("INVITES_PER_HOUR", c.InvitesPerHour, 1, 10000),
		between("AUDIT_RETENTION_DAYS", c.AuditRetentionDays, 1, 36500))...)
	if c.QRRenders == 0 {
		c.QRRenders = runtime.GOMAXPROCS(0)
	}
	errs = append(errs, failed(
		between("QR_RENDERS", c.QRRenders, 1, 1024),
		between("QR_RENDER_WAIT", c.QRRenderWait, 0, time.Minute),
		between("QR_CACHE_BYTES", c.QRCacheBytes, 0, 1<<32))...)
	if c.RateLimitAnonymous < 1 || c.RateLimitAnonymous > 1_000_000_000 {
		errs = append(errs, errors.New("RATE_LIMIT_ANONYMOUS must be between 1 and 1000000000 requests a minute"))
	}
	if (c.OperatorEmail == "") != (c.OperatorPassword == "") {
		errs = append(errs, errors.New("OPERATOR_EMAIL and OPERATOR_PASSWORD go together"))
	}
	if c.OperatorPassword != "" && len(c.OperatorPassword) < 8 {
		errs = append(errs, errors.New("OPERATOR_PASSWORD must be at least 8 characters"))
	}
	if c.RefreshGrace < 0 || c.RefreshGrace > time.Minute {
		errs = append(errs, errors.New("REFRESH_GRACE must be between 0s (off) and 1m"))
	}
	var err error
	if c.Plans, err = plan.ParseTable(c.PlanLimits); err != nil {
		errs = append(errs, fmt.Errorf("PLAN_LIMITS: %w", err))
	}
	if c.ListedPrices, err = plan.ParsePrices(c.PlanPrices); err != nil {
		errs = append(errs, fmt.Errorf("PLAN_PRICES: %w", err))
	}
	return errs
}

// checkVisits validates the settings of visit capture and ingest: VISIT_BUFFER_SIZE,
// VISIT_RETENTION_DAYS, VISIT_CONSUMERS, VISIT_INGEST_ENTRIES, VISIT_CLAIM_AFTER,
// VISIT_EXACT_UNIQUES, and names the consumer after the host and process when VISIT_CONSUMER
// is unset.
func (c *Config) checkVisits() []error {
	errs := failed(
		between("VISIT_BUFFER_SIZE", c.VisitBufferSize, 100, 10_000_000),
		between("VISIT_RETENTION_DAYS", c.VisitRetentionDays, 3, 3660),
		between("VISIT_CONSUMERS", c.VisitConsumers, 1, 16),
		between("VISIT_INGEST_ENTRIES", c.VisitIngestEntries, 1, 1000),
		between("VISIT_CLAIM_AFTER", c.VisitClaimAfter, time.Second, time.Hour),
		between("VISIT_EXACT_UNIQUES", c.VisitExactUniques, 0, 100_000))
	if c.VisitConsumer == "" {
		host, _ := os.Hostname()
		c.VisitConsumer = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	return errs
}

// checkWebhooks validates WEBHOOK_RETRY_DELAYS and WEBHOOK_DISABLE_AFTER.
func (c *Config) checkWebhooks() []error {
	errs := failed(between("WEBHOOK_DISABLE_AFTER", c.WebhookDisableAfter, 1, 10000))
	if len(c.WebhookRetryDelays) > 20 {
		errs = append(errs, errors.New("WEBHOOK_RETRY_DELAYS takes at most 20 delays"))
	}
	for _, d := range c.WebhookRetryDelays {
		if d < 10*time.Millisecond || d > 7*24*time.Hour {
			errs = append(errs, errors.New("WEBHOOK_RETRY_DELAYS: each delay must be between 10ms and 168h"))
			break
		}
	}
	return errs
}

// checkHealth validates the settings of link health (HEALTH_*).
func (c *Config) checkHealth() []error {
	return failed(
		between("HEALTH_CHECK_INTERVAL", c.HealthCheckInterval, time.Second, 90*24*time.Hour),
		between("HEALTH_RETRY_AFTER", c.HealthRetryAfter, time.Second, 90*24*time.Hour),
		between("HEALTH_HOST_CHECKS_PER_MINUTE", c.HealthHostChecksPerMinute, 1, 10000),
		between("HEALTH_TIMEOUT", c.HealthTimeout, 100*time.Millisecond, time.Minute),
		between("HEALTH_CONCURRENCY", c.HealthConcurrency, 1, 256),
		between("HEALTH_POLL_INTERVAL", c.HealthPollInterval, 10*time.Millisecond, 10*time.Minute),
		between("HEALTH_DIGEST_INTERVAL", c.HealthDigestInterval, time.Second, 90*24*time.Hour),
		between("HEALTH_CHECKS_NOW_PER_HOUR", c.HealthChecksNowPerHour, 1, 100000))
}

// checkDomains validates the settings of custom domains: DNS_RESOLVER and
// DOMAIN_CHECK_INTERVAL.
func (c *Config) checkDomains() []error {
	var errs []error
	if c.DNSResolver != "" {
		if host, port, err := net.SplitHostPort(c.DNSResolver); err != nil || host == "" || port == "" {
			errs = append(errs, errors.New("DNS_RESOLVER must be host:port, such as 1.1.1.1:53"))
		}
	}
	fallback := ""
	if c.Public != nil {
		fallback = c.Public.Hostname()
	}
	target, err := domain.ParseTarget(c.DomainTarget, fallback)
	if err != nil {
		errs = append(errs, fmt.Errorf("DOMAIN_TARGET: %w", err))
	}
	c.DomainRecords = target
	return append(errs, failed(between("DOMAIN_CHECK_INTERVAL", c.DomainCheckInterval, time.Second, 24*time.Hour))...)
}

// between is the error of a setting whose value v is not between lo and hi, or nil.
// Durations are written as in the environment: 1m, not 1m0s.
func between[T int | int64 | time.Duration](name string, v, lo, hi T) error {
	if v >= lo && v <= hi {
		return nil
	}
	show := func(v T) string {
		if d, ok := any(v).(time.Duration); ok {
			s := d.String()
			if strings.HasSuffix(s, "m0s") {
				s = strings.TrimSuffix(s, "0s")
			}
			if strings.HasSuffix(s, "h0m") {
				s = strings.TrimSuffix(s, "0m")
			}
			return s
		}
		return fmt.Sprint(v)
	}
	return fmt.Errorf("%s must be between %s and %s", name, show(lo), show(hi))
}

// failed is the errors that are not nil, in order.
func failed(errs ...error) []error {
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// checkLogs validates LOG_LEVEL (debug, info, warn or error, as log/slog reads them) and
// LOG_FORMAT (text or json).
func checkLogs(level, format string) []error {
	var errs []error
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		errs = append(errs, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error, not %q", level))
	}
	if !strings.EqualFold(format, "text") && !strings.EqualFold(format, "json") {
		errs = append(errs, fmt.Errorf("LOG_FORMAT must be text or json, not %q", format))
	}
	return errs
}

// checkRedis validates REDIS_URL, REDIS_SENTINELS and REDIS_MASTER_NAME: one Redis server, or
// Sentinels and the name of the master they watch (REDIS_URL then optional, for the user,
// password and database of the master).
// It trims the Sentinels' addresses and leaves empty ones out, in place.
func checkRedis(url string, sentinels *[]string, master string) []error {
	var errs []error
	kept := (*sentinels)[:0]
	for _, s := range *sentinels {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		kept = append(kept, s)
		if host, port, err := net.SplitHostPort(s); err != nil || host == "" || port == "" {
			errs = append(errs, fmt.Errorf("REDIS_SENTINELS: %q is not host:port", s))
		} else if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			errs = append(errs, fmt.Errorf("REDIS_SENTINELS: %q has a port that is not a number from 1 to 65535", s))
		}
	}
	*sentinels = kept
	named := len(kept)
	switch {
	case named == 0 && master != "":
		errs = append(errs, errors.New("REDIS_MASTER_NAME needs REDIS_SENTINELS (the Sentinels that know the master)"))
	case named == 0 && url == "":
		errs = append(errs, errors.New("REDIS_URL is required (or REDIS_SENTINELS with REDIS_MASTER_NAME)"))
	case named > 0 && master == "":
		errs = append(errs, errors.New("REDIS_SENTINELS needs REDIS_MASTER_NAME, the name the Sentinels watch the master under"))
	}
	if url != "" && !strings.HasPrefix(url, "redis://") && !strings.HasPrefix(url, "rediss://") {
		errs = append(errs, errors.New("REDIS_URL must be a redis:// or rediss:// URL"))
	}
	return errs
}

// checkMail validates SMTP_URL and MAIL_FROM; MAIL_FROM defaults to no-reply at PUBLIC_URL's
// host.
func (c *Config) checkMail() []error {
	var errs []error
	if c.SMTPURL != "" {
		u, err := url.Parse(c.SMTPURL)
		tlsMode := ""
		if err == nil {
			tlsMode = u.Query().Get("tls")
		}
		if err != nil || u.Hostname() == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") ||
			(tlsMode != "" && (tlsMode != "none" || u.Scheme != "smtp")) {
			errs = append(errs, errors.New("SMTP_URL must be smtps://user:pass@host[:port], smtp://user:pass@host[:port] (STARTTLS) or smtp://host[:port]?tls=none"))
		} else if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				errs = append(errs, errors.New("SMTP_URL has a port that is not a number from 1 to 65535"))
			}
		}
	}
	if c.MailFrom == "" && c.Public != nil {
		c.MailFrom = "Shortlink <no-reply@" + c.Public.Hostname() + ">"
	}
	if c.MailFrom != "" {
		if _, err := mail.ParseAddress(c.MailFrom); err != nil {
			errs = append(errs, errors.New("MAIL_FROM must be an address such as no-reply@example.com or \"Shortlink <no-reply@example.com>\""))
		}
	}
	return errs
}

// BillingOn reports whether billing runs on Stripe (STRIPE_SECRET_KEY is set).
func (c Config) BillingOn() bool { return c.StripeSecretKey != "" }

// checkBilling validates the Stripe settings: with STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and
// STRIPE_PRICES are required; STRIPE_API_BASE, STRIPE_PAYMENT_METHODS and BILLING_GRACE are
// checked whether billing is on or not.
func (c *Config) checkBilling() []error {
	var errs []error
	if c.StripeAPIBase != "" {
		u, err := url.Parse(c.StripeAPIBase)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			errs = append(errs, errors.New("STRIPE_API_BASE must be an http(s) URL without a path, such as http://localhost:12111"))
		}
	}
	if c.BillingGrace < 0 || c.BillingGrace > 90*24*time.Hour {
		errs = append(errs, errors.New("BILLING_GRACE must be between 0s and 2160h (90 days)"))
	}
	var methods []string
	for _, m := range c.StripePaymentMethods {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		if strings.Trim(m, "abcdefghijklmnopqrstuvwxyz_") != "" {
			errs = append(errs, fmt.Errorf("STRIPE_PAYMENT_METHODS: %q is not a payment method type such as card or wechat_pay", m))
		}
		methods = append(methods, m)
	}
	c.StripePaymentMethods = methods
	var err error
	if c.Prices, err = billing.ParsePrices(c.StripePrices); err != nil {
		errs = append(errs, fmt.Errorf("STRIPE_PRICES: %w", err))
	}
	if c.StripeSecretKey == "" {
		return errs
	}
	if c.StripeWebhookSecret == "" {
		errs = append(errs, errors.New("STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (the webhook's signing secret, whsec_…)"))
	}
	if c.Prices.Empty() && err == nil {
		errs = append(errs, errors.New("STRIPE_PRICES is required with STRIPE_SECRET_KEY"))
	}
	if len(c.StripePaymentMethods) == 0 {
		errs = append(errs, errors.New("STRIPE_PAYMENT_METHODS must name at least one payment method type with STRIPE_SECRET_KEY"))
	}
	return errs
}

// ShortHostnames are the host names (without port) that serve the service's own short domain.
func (c Config) ShortHostnames() []string {
	hosts := []string{strings.ToLower(c.Public.Hostname())}
	for _, h := range c.ShortHosts {
		if h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// SecureCookies reports whether cookies must carry the Secure flag.
func (c Config) SecureCookies() bool { return c.Public.Scheme == "https" }

// parsePrefixes reads addresses and CIDRs ("10.0.0.0/8", "192.0.2.7", "fd00::/8"); empty items
// are skipped.
func parsePrefixes(items []string) ([]netip.Prefix, error) {
	var nets []netip.Prefix
	for _, item := range items {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			nets = append(nets, p.Masked())
		} else if a, err := netip.ParseAddr(item); err == nil && a.Zone() == "" {
			nets = append(nets, netip.PrefixFrom(a, a.BitLen()))
		} else {
			return nil, fmt.Errorf("%q is neither an IP address nor a CIDR", item)
		}
	}
	return nets, nil
}
