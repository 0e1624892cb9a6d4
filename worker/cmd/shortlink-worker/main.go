// Command shortlink-worker is the moderation worker. This version connects to the shared
// Redis and waits; the capture and scoring pipeline arrives with the moderation feature.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, log); err != nil {
		fmt.Fprintln(os.Stderr, "shortlink-worker:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, log *slog.Logger) error {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		return fmt.Errorf("REDIS_URL is required")
	}
	opt, err := goredis.ParseURL(url)
	if err != nil {
		return fmt.Errorf("parse REDIS_URL: %w", err)
	}
	rdb := goredis.NewClient(opt)
	defer rdb.Close()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		log.Warn("redis is not answering yet", "err", err)
	}
	log.Info("moderation worker started; no moderation pipeline is configured in this version")
	<-ctx.Done()
	log.Info("moderation worker stopped")
	return nil
}
