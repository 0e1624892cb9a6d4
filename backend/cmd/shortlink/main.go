// Command shortlink runs the Shortlink server: `shortlink serve` or `shortlink migrate`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/shortlink/shortlink/backend/app"
	"github.com/shortlink/shortlink/backend/config"
	"github.com/shortlink/shortlink/backend/gctune"
	"github.com/shortlink/shortlink/backend/postgres"
)

const usage = `usage: shortlink <command>

commands:
  serve     run the API and redirect server (HTTP_ADDR)
  migrate   apply database migrations (DATABASE_URL)

Configuration comes from the environment; see docs/configuration.md.
`

func main() {
	if len(os.Args) != 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(ctx)
	case "migrate":
		err = migrate(ctx)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "shortlink:", err)
		os.Exit(1)
	}
}

func migrate(ctx context.Context) error {
	cfg, err := config.LoadMigration()
	if err != nil {
		return err
	}
	return postgres.Migrate(ctx, cfg.DatabaseURL)
}

func serve(ctx context.Context) error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	log := config.NewLogger(os.Stderr, cfg.LogLevel, cfg.LogFormat)
	if os.Getenv("GOGC") == "" {
		// A GOGC given is kept; otherwise the collector's goal follows the live heap
		// (docs/configuration.md#memory).
		go gctune.New().Run(ctx)
	}
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() { errc <- a.Run(ctx) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests and writes")
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	return a.Close(sctx)
}
