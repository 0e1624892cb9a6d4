package config

import (
	"errors"
	"fmt"
	"time"

	"github.com/caarlos0/env/v11"
)

// Worker is the configuration of the moderation worker (bin/shortlink-worker), from the
// environment like the server's: the settings of docs/moderation.md.
type Worker struct {
	DatabaseURL string `env:"DATABASE_URL,required"`
	RedisURL    string `env:"REDIS_URL"`
	// RedisSentinels and RedisMasterName: as the server's.
	RedisSentinels  []string `env:"REDIS_SENTINELS" envSeparator:","`
	RedisMasterName string   `env:"REDIS_MASTER_NAME"`
	RedisPrefix     string   `env:"REDIS_PREFIX" envDefault:"sl:"`
	// PublicURL is the base of short URLs, for what the model is told.
	PublicURL string `env:"PUBLIC_URL" envDefault:"http://localhost:8080"`

	OpenAIBaseURL   string        `env:"OPENAI_BASE_URL"`
	OpenAIAPIKey    string        `env:"OPENAI_API_KEY"`
	ModerationModel string        `env:"MODERATION_MODEL"`
	ModelTimeout    time.Duration `env:"MODERATION_MODEL_TIMEOUT" envDefault:"60s"`
	BanScore        float64       `env:"MODERATION_BAN_SCORE" envDefault:"0.8"`
	ReviewScore     float64       `env:"MODERATION_REVIEW_SCORE" envDefault:"0.5"`
	// Blocklist is a file of hosts (one per line) the heuristic scorer bans; "" uses the
	// small list built in.
	Blocklist string `env:"MODERATION_BLOCKLIST"`
	// Concurrency is how many reviews one worker runs at once.
	Concurrency int `env:"MODERATION_CONCURRENCY" envDefault:"2"`
	// PageTimeout bounds each visitor's visit of a destination.
	PageTimeout time.Duration `env:"MODERATION_PAGE_TIMEOUT" envDefault:"15s"`
	// VerdictTTL is how long a review's verdict is shared with new links to the same
	// destination (tracking parameters aside), and how far back a domain's record goes; 0
	// shares nothing: every new link opens the browser.
	VerdictTTL time.Duration `env:"MODERATION_VERDICT_TTL" envDefault:"24h"`
	// TrackingParams are query parameters dropped, besides utm_*, fbclid, gclid, mc_* and ref,
	// when destinations are compared; a name ending in * is a prefix.
	TrackingParams []string `env:"MODERATION_TRACKING_PARAMS" envSeparator:","`
	// DomainRun is how many passes in a row, nothing flagged or banned, trust a domain;
	// DomainSample is one in how many new links of a trusted domain are still reviewed at
	// creation (the rest at their first visits).
	DomainRun    int `env:"MODERATION_DOMAIN_RUN" envDefault:"5"`
	DomainSample int `env:"MODERATION_DOMAIN_SAMPLE" envDefault:"10"`
	// BlindRetries is how many times a review whose browser could not see the destination
	// (a capture failed, timed out or came back nearly empty) is tried again before the link
	// goes to a moderator; BlindBackoff the wait before the first, four times longer each next
	// (docs/moderation.md, "Captures that failed").
	BlindRetries int           `env:"MODERATION_BLIND_RETRIES" envDefault:"3"`
	BlindBackoff time.Duration `env:"MODERATION_BLIND_BACKOFF" envDefault:"30s"`

	ChromiumPath string `env:"CHROMIUM_PATH" envDefault:"/usr/bin/chromium"`
	// PlaywrightDriver is the folder of the Playwright driver (deploy/local/browser.sh).
	PlaywrightDriver string `env:"PLAYWRIGHT_DRIVER_PATH"`
	// BrowserHostRules is passed to Chromium as --host-resolver-rules (staging and tests).
	BrowserHostRules string `env:"BROWSER_HOST_RULES"`
	// AllowLoopback lets destinations on loopback pass the SSRF guard: tests only.
	AllowLoopback bool `env:"MODERATION_ALLOW_LOOPBACK" envDefault:"false"`

	// Addr serves /healthz and /metrics.
	Addr      string `env:"WORKER_ADDR" envDefault:"127.0.0.1:9091"`
	LogLevel  string `env:"LOG_LEVEL" envDefault:"info"`
	LogFormat string `env:"LOG_FORMAT" envDefault:"text"`
}

// LoadWorker reads the worker's environment and validates it.
func LoadWorker() (Worker, error) {
	var w Worker
	if err := env.Parse(&w); err != nil {
		return w, fmt.Errorf("config: %w", err)
	}
	err := w.check()
	return w, err
}

// WorkerFromMap is LoadWorker over a map (tests).
func WorkerFromMap(m map[string]string) (Worker, error) {
	var w Worker
	if err := env.ParseWithOptions(&w, env.Options{Environment: m}); err != nil {
		return w, fmt.Errorf("config: %w", err)
	}
	err := w.check()
	return w, err
}

func (w *Worker) check() error {
	errs := checkRedis(w.RedisURL, &w.RedisSentinels, w.RedisMasterName)
	errs = append(errs, checkLogs(w.LogLevel, w.LogFormat)...)
	if w.BanScore <= 0 || w.BanScore > 1 {
		errs = append(errs, errors.New("MODERATION_BAN_SCORE must be in (0, 1]"))
	}
	if w.ReviewScore <= 0 || w.ReviewScore > w.BanScore {
		errs = append(errs, errors.New("MODERATION_REVIEW_SCORE must be in (0, MODERATION_BAN_SCORE]"))
	}
	errs = append(errs, failed(
		between("MODERATION_CONCURRENCY", w.Concurrency, 1, 64),
		between("MODERATION_VERDICT_TTL", w.VerdictTTL, 0, 30*24*time.Hour),
		between("MODERATION_DOMAIN_RUN", w.DomainRun, 1, 1000),
		between("MODERATION_DOMAIN_SAMPLE", w.DomainSample, 1, 1000),
		between("MODERATION_BLIND_RETRIES", w.BlindRetries, 0, 10),
		between("MODERATION_BLIND_BACKOFF", w.BlindBackoff, time.Second, time.Hour),
		between("MODERATION_PAGE_TIMEOUT", w.PageTimeout, time.Second, 5*time.Minute),
		between("MODERATION_MODEL_TIMEOUT", w.ModelTimeout, time.Second, 10*time.Minute))...)
	if len(errs) > 0 {
		return fmt.Errorf("config: %w", errors.Join(errs...))
	}
	return nil
}
