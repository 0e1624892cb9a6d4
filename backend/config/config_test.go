package config_test

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/config"
)

var minimal = map[string]string{
	"DATABASE_URL": "postgres://localhost/shortlink",
	"REDIS_URL":    "redis://localhost:6379/0",
	"JWT_SECRET":   "0123456789abcdef0123456789abcdef",
	"CODE_KEY":     "000102030405060708090a0b0c0d0e0f",
}

func TestDefaults(t *testing.T) {
	c, err := config.FromMap(minimal)
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPAddr != ":8080" || c.CodeLength != 6 || c.CreateWriters != 1 || c.Public.String() != "http://localhost:8080" ||
		c.InvitesPerHour != 20 || c.RefreshGrace != 20*time.Second || c.VisitClaimAfter != 30*time.Second {
		t.Errorf("defaults: %+v", c)
	}
	if len(c.CodeTweakBytes) != 7 || len(c.CodeKeyBytes) != 16 {
		t.Errorf("key %x tweak %x", c.CodeKeyBytes, c.CodeTweakBytes)
	}
	other := maps.Clone(minimal)
	other["CODE_KEY"] = "ffffffffffffffffffffffffffffffff"
	c2, _ := config.FromMap(other)
	if string(c2.CodeTweakBytes) == string(c.CodeTweakBytes) {
		t.Error("the derived tweak does not depend on the key")
	}
	if c.PasswordHashConcurrency != runtime.NumCPU() || c.PasswordHashWait != 2*time.Second {
		t.Errorf("password hashing: %d at once, %v wait; want %d, 2s", c.PasswordHashConcurrency, c.PasswordHashWait, runtime.NumCPU())
	}
	if c.WriteTimeout != 5*time.Second {
		t.Errorf("WRITE_TIMEOUT default %v, want 5s", c.WriteTimeout)
	}
	if c := mustLoad(t, "WRITE_TIMEOUT", "1500ms"); c.WriteTimeout != 1500*time.Millisecond {
		t.Errorf("WRITE_TIMEOUT: %v", c.WriteTimeout)
	}
	if c := mustLoad(t, "PASSWORD_HASH_CONCURRENCY", "3", "PASSWORD_HASH_WAIT", "0s"); c.PasswordHashConcurrency != 3 || c.PasswordHashWait != 0 {
		t.Errorf("PASSWORD_HASH_*: %d, %v", c.PasswordHashConcurrency, c.PasswordHashWait)
	}
	if c.ImportMaxBytes != 64<<20 || c.ImportMaxRows != 100000 || c.ImportWorkers != 1 || c.ImportLease != 30*time.Second {
		t.Errorf("import defaults: %d bytes, %d rows, %d workers, lease %v", c.ImportMaxBytes, c.ImportMaxRows, c.ImportWorkers, c.ImportLease)
	}
	if c := mustLoad(t, "IMPORT_WORKERS", "0", "IMPORT_LEASE", "2s"); c.ImportWorkers != 0 || c.ImportLease != 2*time.Second {
		t.Errorf("IMPORT_*: %d workers, lease %v", c.ImportWorkers, c.ImportLease)
	}
	if c := mustLoad(t, "VISIT_CLAIM_AFTER", "1s"); c.VisitClaimAfter != time.Second {
		t.Errorf("VISIT_CLAIM_AFTER: %v", c.VisitClaimAfter)
	}
	if c.OperatorTakeover || c.SMTPURL != "" || c.MailFrom != "Shortlink <no-reply@localhost>" {
		t.Errorf("mail and operator defaults: takeover %v, SMTP_URL %q, MAIL_FROM %q", c.OperatorTakeover, c.SMTPURL, c.MailFrom)
	}
	if m := mustLoad(t, "SMTP_URL", "smtps://u:p@mail.example", "MAIL_FROM", "ops@example.com", "OPERATOR_TAKEOVER", "true"); !m.OperatorTakeover || m.MailFrom != "ops@example.com" {
		t.Errorf("mail settings: %+v", m)
	}
	if hosts := mustLoad(t, "PUBLIC_URL", "https://Sho.RT", "SHORT_HOSTS", " a.example , B.example").ShortHostnames(); strings.Join(hosts, ",") != "sho.rt,a.example,b.example" {
		t.Errorf("short hosts: %v", hosts)
	}
}

func mustLoad(t *testing.T, kv ...string) config.Config {
	t.Helper()
	m := maps.Clone(minimal)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	c, err := config.FromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBadValues: every refused value is named in the error, so a deployment knows what to fix.
func TestBadValues(t *testing.T) {
	cases := []struct{ key, value string }{
		{"DATABASE_URL", ""},
		{"REDIS_URL", ""},
		{"JWT_SECRET", "short"},
		{"CODE_KEY", "not hex"},
		{"CODE_KEY", "0011"},
		{"CODE_TWEAK", "00"},
		{"CODE_LENGTH", "4"},
		{"CODE_LENGTH", "9"},
		{"CODE_LENGTH", "six"},
		{"PUBLIC_URL", "ftp://sho.rt"},
		{"PUBLIC_URL", "https://sho.rt/path"},
		{"ID_BLOCK_SIZE", "0"},
		{"CREATE_WRITERS", "0"},
		{"CREATE_BATCH_MAX", "100000"},
		{"LINK_CACHE_SIZE", "10"},
		{"CODE_ALIASES_PER_WORKSPACE", "-1"},
		{"MAX_BODY_BYTES", "0"},
		{"MAX_BODY_BYTES", "1000000000"},
		{"OPERATOR_EMAIL", "op@example.com"}, // without a password
		{"ACCESS_TOKEN_TTL", "soon"},
		{"PASSWORD_HASH_CONCURRENCY", "-1"},
		{"PASSWORD_HASH_CONCURRENCY", "5000"},
		{"PASSWORD_HASH_CONCURRENCY", "many"},
		{"PASSWORD_HASH_WAIT", "-1s"},
		{"PASSWORD_HASH_WAIT", "2h"},
		{"WRITE_TIMEOUT", "100ms"},
		{"WRITE_TIMEOUT", "2m"},
		{"WRITE_TIMEOUT", "soon"},
		{"OPERATOR_TAKEOVER", "maybe"},
		{"SMTP_URL", "http://mail.example"},
		{"SMTP_URL", "smtp://"},
		{"SMTP_URL", "smtps://mail.example?tls=none"},
		{"SMTP_URL", "smtp://mail.example:99999"},
		{"MAIL_FROM", "not an address"},
		{"INVITES_PER_HOUR", "0"},
		{"INVITES_PER_HOUR", "many"},
		{"AUDIT_RETENTION_DAYS", "0"},
		{"AUDIT_RETENTION_DAYS", "forever"},
		{"METRICS_ADDR", "9090"},
		{"METRICS_ADDR", ":8080"}, // HTTP_ADDR's default
		{"REFRESH_GRACE", "5m"},
		{"REFRESH_GRACE", "-1s"},
		{"REFRESH_GRACE", "soon"},
		{"VISIT_CLAIM_AFTER", "500ms"},
		{"VISIT_CLAIM_AFTER", "2h"},
		{"VISIT_CLAIM_AFTER", "later"},
		{"IMPORT_MAX_BYTES", "10"},
		{"IMPORT_MAX_BYTES", "big"},
		{"IMPORT_MAX_ROWS", "0"},
		{"IMPORT_WORKERS", "-1"},
		{"IMPORT_WORKERS", "100"},
		{"IMPORT_LEASE", "100ms"},
		{"IMPORT_LEASE", "1h"},
		{"BULK_JOB_WORKERS", "-1"},
		{"BULK_JOB_LEASE", "1h"},
		{"DNS_RESOLVER", "127.0.0.1"},
		{"DNS_RESOLVER", ":53"},
		{"DNS_RESOLVER", "dns.example:"},
		{"DOMAIN_CHECK_INTERVAL", "100ms"},
		{"DOMAIN_CHECK_INTERVAL", "48h"},
		{"DOMAIN_CHECK_INTERVAL", "often"},
		{"DOMAIN_TARGET", "edge.sho.rt,203.0.113.7"},
		{"DOMAIN_TARGET", "127.0.0.1"},
		{"DOMAIN_TARGET", "not a host"},
		{"REDIS_URL", "http://localhost:6379"},
		{"REDIS_SENTINELS", "sentinel.local"},         // no port, and no REDIS_MASTER_NAME
		{"REDIS_SENTINELS", "127.0.0.1:26379"},        // no REDIS_MASTER_NAME
		{"REDIS_SENTINELS", "127.0.0.1:26379,a:port"}, // a port that is not a number
		{"REDIS_MASTER_NAME", "shortlink"},            // no REDIS_SENTINELS
		{"LOG_LEVEL", "loud"},
		{"LOG_FORMAT", "xml"},
	}
	for _, c := range cases {
		m := maps.Clone(minimal)
		if c.value == "" {
			delete(m, c.key)
		} else {
			m[c.key] = c.value
		}
		_, err := config.FromMap(m)
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s=%q: error %v, want one naming %s", c.key, c.value, err, c.key)
		}
	}
}

// Redis through Sentinels: REDIS_URL may go (or keep the password and database), and the
// worker reads the same settings.
func TestRedisSentinels(t *testing.T) {
	m := maps.Clone(minimal)
	delete(m, "REDIS_URL")
	m["REDIS_SENTINELS"] = "10.0.0.1:26379, 10.0.0.2:26379,10.0.0.3:26379,"
	m["REDIS_MASTER_NAME"] = "shortlink"
	c, err := config.FromMap(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"10.0.0.1:26379", "10.0.0.2:26379", "10.0.0.3:26379"}; !slices.Equal(c.RedisSentinels, want) || c.RedisMasterName != "shortlink" {
		t.Errorf("sentinels %q master %q, want %q shortlink", c.RedisSentinels, c.RedisMasterName, want)
	}
	m["REDIS_URL"] = "redis://:secret@/2"
	if _, err := config.FromMap(m); err != nil {
		t.Errorf("with REDIS_URL for the password and database: %v", err)
	}
	w, err := config.WorkerFromMap(m)
	if err != nil || len(w.RedisSentinels) != 3 || w.RedisMasterName != "shortlink" {
		t.Errorf("worker: %q %q %v", w.RedisSentinels, w.RedisMasterName, err)
	}
	delete(m, "REDIS_MASTER_NAME")
	if _, err := config.WorkerFromMap(m); err == nil || !strings.Contains(err.Error(), "REDIS_MASTER_NAME") {
		t.Errorf("worker without REDIS_MASTER_NAME: %v", err)
	}
	delete(m, "REDIS_SENTINELS")
	delete(m, "REDIS_URL")
	if _, err := config.WorkerFromMap(m); err == nil || !strings.Contains(err.Error(), "REDIS_URL") {
		t.Errorf("worker without Redis: %v", err)
	}
}

func TestPlanLimits(t *testing.T) {
	if c := mustLoad(t); c.Plans["free"].Limits.LinksPerMonth != 100 || c.Plans["personal"].Limits.LinksPerMonth != 10000 {
		t.Errorf("default plan limits: %+v", c.Plans)
	}
	c := mustLoad(t, "PLAN_LIMITS", "free.links_per_month=250,enterprise.requests_per_minute=unlimited")
	if c.Plans["free"].Limits.LinksPerMonth != 250 || c.Plans["enterprise"].Limits.RequestsPerMinute.String() != "unlimited" {
		t.Errorf("PLAN_LIMITS: %+v", c.Plans)
	}
	m := maps.Clone(minimal)
	m["PLAN_LIMITS"] = "gold.members=2"
	if _, err := config.FromMap(m); err == nil || !strings.Contains(err.Error(), "PLAN_LIMITS") {
		t.Errorf("bad PLAN_LIMITS: %v", err)
	}
}

func TestPlanPrices(t *testing.T) {
	if c := mustLoad(t); c.ListedPrices["trial"].Once == nil || c.ListedPrices["personal"].Monthly != nil {
		t.Errorf("default listed prices: %+v", c.ListedPrices)
	}
	c := mustLoad(t, "PLAN_PRICES", "personal.monthly=2900 CNY")
	if m := c.ListedPrices["personal"].Monthly; m == nil || m.Amount != 2900 || m.Currency != "CNY" {
		t.Errorf("PLAN_PRICES: %+v", c.ListedPrices)
	}
	m := maps.Clone(minimal)
	m["PLAN_PRICES"] = "personal.monthly=29 yuan"
	if _, err := config.FromMap(m); err == nil || !strings.Contains(err.Error(), "PLAN_PRICES") {
		t.Errorf("bad PLAN_PRICES: %v", err)
	}
}

func TestTrustedProxies(t *testing.T) {
	c := mustLoad(t, "TRUSTED_PROXIES", " 10.0.0.0/8, 192.0.2.7 ,fd00::/8,,2001:db8::1,172.16.5.4/12")
	got := fmt.Sprint(c.TrustedProxyNets)
	if want := "[10.0.0.0/8 192.0.2.7/32 fd00::/8 2001:db8::1/128 172.16.0.0/12]"; got != want {
		t.Errorf("TRUSTED_PROXIES parsed as %s, want %s", got, want)
	}
	if c := mustLoad(t); c.TrustedProxyNets != nil {
		t.Errorf("no TRUSTED_PROXIES: %v", c.TrustedProxyNets)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example", "10.0.0.1:80", "fe80::1%eth0"} {
		m := maps.Clone(minimal)
		m["TRUSTED_PROXIES"] = bad
		if _, err := config.FromMap(m); err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXIES") {
			t.Errorf("TRUSTED_PROXIES=%q: error %v, want one naming TRUSTED_PROXIES", bad, err)
		}
	}
}

// TestMigration: `shortlink migrate` reads DATABASE_URL through the config package too, and
// refuses to run without it.
func TestMigration(t *testing.T) {
	m, err := config.MigrationFromMap(map[string]string{"DATABASE_URL": "postgres://a,b/shortlink?pool_max_conns=16"})
	if err != nil || m.DatabaseURL != "postgres://a,b/shortlink?pool_max_conns=16" {
		t.Errorf("migration: %+v %v", m, err)
	}
	if _, err := config.MigrationFromMap(map[string]string{}); err == nil || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Errorf("without DATABASE_URL: %v", err)
	}
}

func TestBilling(t *testing.T) {
	c := mustLoad(t)
	if c.BillingOn() || c.BillingGrace != 168*time.Hour || !slices.Equal(c.StripePaymentMethods, []string{"card", "alipay", "wechat_pay"}) {
		t.Errorf("billing defaults: on %v grace %v methods %v", c.BillingOn(), c.BillingGrace, c.StripePaymentMethods)
	}
	prices := "personal.month=price_pm,personal.year=price_py,enterprise.month=price_em,enterprise.year=price_ey,trial=price_t"
	c = mustLoad(t, "STRIPE_SECRET_KEY", "sk_test_1", "STRIPE_WEBHOOK_SECRET", "whsec_1", "STRIPE_PRICES", prices,
		"STRIPE_API_BASE", "http://127.0.0.1:12111", "STRIPE_PAYMENT_METHODS", "card", "BILLING_GRACE", "72h")
	if id, _ := c.Prices.ID("enterprise", "year"); !c.BillingOn() || id != "price_ey" || c.BillingGrace != 72*time.Hour ||
		!slices.Equal(c.StripePaymentMethods, []string{"card"}) {
		t.Errorf("billing on: %+v", c)
	}
	on := map[string]string{"STRIPE_SECRET_KEY": "sk_test_1", "STRIPE_WEBHOOK_SECRET": "whsec_1", "STRIPE_PRICES": prices}
	for _, bad := range []struct{ key, value string }{
		{"STRIPE_WEBHOOK_SECRET", ""},
		{"STRIPE_PRICES", ""},
		{"STRIPE_PRICES", "personal.month=price_pm"},
		{"STRIPE_API_BASE", "ftp://stripe"},
		{"STRIPE_API_BASE", "http://127.0.0.1:12111/v1"},
		{"STRIPE_PAYMENT_METHODS", "card,Wechat Pay"},
		{"BILLING_GRACE", "-1h"},
		{"BILLING_GRACE", "soon"},
	} {
		m := maps.Clone(minimal)
		maps.Copy(m, on)
		if bad.value == "" {
			delete(m, bad.key)
		} else {
			m[bad.key] = bad.value
		}
		if _, err := config.FromMap(m); err == nil || !strings.Contains(err.Error(), bad.key) {
			t.Errorf("%s=%q: error %v, want one naming %s", bad.key, bad.value, err, bad.key)
		}
	}
}

func TestWebhookSettings(t *testing.T) {
	c := mustLoad(t)
	if !slices.Equal(c.WebhookRetryDelays, []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour}) ||
		c.WebhookDisableAfter != 50 || c.WebhookAllowLoopback {
		t.Errorf("defaults: %v %d %v", c.WebhookRetryDelays, c.WebhookDisableAfter, c.WebhookAllowLoopback)
	}
	if c := mustLoad(t, "WEBHOOK_RETRY_DELAYS", "100ms,200ms", "WEBHOOK_DISABLE_AFTER", "3"); len(c.WebhookRetryDelays) != 2 || c.WebhookDisableAfter != 3 {
		t.Errorf("set: %v %d", c.WebhookRetryDelays, c.WebhookDisableAfter)
	}
}
