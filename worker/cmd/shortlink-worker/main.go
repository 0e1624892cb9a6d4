// Command shortlink-worker is the moderation worker (docs/moderation.md#moderation-the-worker): it takes due reviews from the
// queue, opens each destination in Chromium as three visitors, scores what they saw with the
// model (or the heuristics), and records the decision. Several workers share one queue.
// Settings: backend/config/worker.go; /healthz and /metrics on WORKER_ADDR.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/shortlink/shortlink/backend/config"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/worker/browse"
	"github.com/shortlink/shortlink/worker/ocr"
	"github.com/shortlink/shortlink/worker/review"
	"github.com/shortlink/shortlink/worker/score"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "shortlink-worker:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	cfg, err := config.LoadWorker()
	if err != nil {
		return err
	}
	log := config.NewLogger(os.Stderr, cfg.LogLevel, cfg.LogFormat)
	db, err := postgres.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	rc, err := redis.OpenTarget(ctx, redis.Target{URL: cfg.RedisURL, Sentinels: cfg.RedisSentinels, MasterName: cfg.RedisMasterName}, cfg.RedisPrefix)
	if rc == nil {
		return err
	}
	defer func() { _ = rc.Close() }()
	if err != nil {
		log.Warn("redis is not answering; the worker waits for it", "err", err)
	}
	scorer, err := score.New(score.Config{
		Model: score.ModelConfig{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey,
			Model: cfg.ModerationModel, Timeout: cfg.ModelTimeout},
		Heuristic:   score.HeuristicConfig{BlocklistPath: cfg.Blocklist, ReviewScore: cfg.ReviewScore},
		ReviewScore: cfg.ReviewScore,
		BanScore:    cfg.BanScore,
	})
	if err != nil {
		return err
	}
	if cfg.ModerationModel == "" {
		log.Warn("no MODERATION_MODEL: every review is scored by the heuristics")
	}
	// The screenshots' text: a missing Tesseract is said once, here, and reviews go on without it.
	reader := ocr.New(ocr.Options{Log: log})
	reader.Available(ctx)
	browser, err := browse.New(browse.Options{
		DriverDir: cfg.PlaywrightDriver, ChromiumPath: cfg.ChromiumPath, HostRules: cfg.BrowserHostRules,
		AllowLoopback: cfg.AllowLoopback, Concurrency: cfg.Concurrency, Timeout: cfg.PageTimeout, Log: log,
		OCR: reader,
	})
	if err != nil {
		return err
	}
	defer func() { _ = browser.Close() }()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on WORKER_ADDR %s: %w", cfg.Addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = fmt.Fprintln(w, "ok") })
	mux.Handle("GET /metrics", promhttp.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("worker http", "err", err)
		}
	}()
	defer func() { _ = srv.Close() }()

	// A ban the worker records reaches the nodes as a moderator's does: the status write that
	// the change feed records, and at once the shared cache written and the change announced.
	links := redis.NewLinkCache(rc, redis.NewBus(rc, log), log)
	w := review.New(review.Options{
		Store: postgres.NewModeration(db), Queue: moderation.NewQueue(redis.NewReviewQueue(rc)),
		Browser: browser, Scorer: scorer,
		Thresholds:  moderation.Thresholds{Ban: cfg.BanScore, Review: cfg.ReviewScore},
		Concurrency: cfg.Concurrency,
		// A review lasts at most three page visits and the model's answer with its retry.
		Visibility: 3*cfg.PageTimeout + 3*cfg.ModelTimeout,
		Base:       cfg.PublicURL,
		StatusChanged: func(ctx context.Context, l *link.Link) {
			if err := links.Changed(ctx, l); err != nil {
				log.Warn("link cache: redis did not take a ban; the change feed brings every node along", "link", l.ID, "err", err)
			}
		},
		Log:          log,
		Destinations: moderation.Destinations{Tracking: cfg.TrackingParams},
		VerdictTTL:   cfg.VerdictTTL,
		Reputation:   moderation.Reputation{Run: cfg.DomainRun, Sample: cfg.DomainSample},
		BlindRetries: blindRetries(cfg.BlindRetries),
		BlindBackoff: cfg.BlindBackoff,
	})
	log.Info("moderation worker", "addr", ln.Addr().String(), "concurrency", cfg.Concurrency,
		"model", cfg.ModerationModel)
	w.Run(ctx) // until SIGTERM: reviews under way are cancelled and their links given back
	return nil
}

// blindRetries is MODERATION_BLIND_RETRIES as review.Options takes it: 0 there means the
// default, and none is below 0.
func blindRetries(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
