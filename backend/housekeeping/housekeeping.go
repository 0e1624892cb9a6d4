// Package housekeeping runs the periodic jobs any node may do, each safe to run on every node
// at once without a leader: purging what has outlived its retention, finishing the removal of
// deleted workspaces, and checking the DNS of pending custom and sign-on domains.
package housekeeping

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/shortlink/shortlink/backend/redis"
)

// ChangeRetention is how long the change feed keeps an entry: nodes read it every second, and
// replay what is younger than the Redis TTL when Redis comes back as another server.
const ChangeRetention = 2 * redis.LinkTTL

// Workspaces finishes the removal of deleted workspaces whose deleting node stopped
// (account.Service).
type Workspaces interface {
	PurgeOrphans(ctx context.Context) error
}

// Sessions deletes the sessions that expired (postgres.RefreshTokenStore); it answers how many
// tokens went.
type Sessions interface {
	PurgeExpired(ctx context.Context) (int64, error)
}

// Changes deletes the change feed's entries older than a time (postgres.LinkChanges).
type Changes interface {
	PurgeBefore(ctx context.Context, t time.Time) (int64, error)
}

// Purger deletes what is past its own retention and answers how many went (audit.Log,
// webhook.Service).
type Purger interface {
	Purge(ctx context.Context) (int64, error)
}

// Checker looks again at the DNS of pending domains, claiming each it looks at, and answers
// how many it verified (domain.Service, sso.Service).
type Checker interface {
	CheckPending(ctx context.Context) (int, error)
}

// Options are the stores and services the chores clean up and check.
type Options struct {
	Workspaces Workspaces
	Sessions   Sessions
	Changes    Changes
	// Audit is purged past AUDIT_RETENTION_DAYS, Deliveries of webhooks past theirs.
	Audit, Deliveries Purger
	// Domains are the custom domains, SSO the email domains of single sign-on, both checked
	// every CheckEvery (DOMAIN_CHECK_INTERVAL).
	Domains, SSO Checker
	CheckEvery   time.Duration
	// Now is the clock of the change feed's retention (nil: time.Now).
	Now func() time.Time
	Log *slog.Logger
}

// Chores runs the periodic jobs of one node.
type Chores struct {
	o Options
	// domainRounds counts the rounds of domain checks finished.
	domainRounds atomic.Int64
}

// New returns the node's chores; Run and CheckDomains run them.
func New(o Options) *Chores {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Chores{o: o}
}

// Run does the minute's chores every minute and the hour's every hour, until ctx ends.
func (c *Chores) Run(ctx context.Context) {
	minute := time.NewTicker(time.Minute)
	defer minute.Stop()
	hour := time.NewTicker(time.Hour)
	defer hour.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-minute.C:
			c.Minute(ctx)
		case <-hour.C:
			c.Hour(ctx)
		}
	}
}

// Minute finishes removing workspaces whose deleting node stopped.
func (c *Chores) Minute(ctx context.Context) {
	if err := c.o.Workspaces.PurgeOrphans(ctx); err != nil && ctx.Err() == nil {
		c.o.Log.Warn("remove deleted workspaces", "err", err)
	}
}

// Hour deletes expired sessions, the change feed's entries past ChangeRetention (every node
// has applied them long since), audit events and webhook deliveries past their retention.
func (c *Chores) Hour(ctx context.Context) {
	n, err := c.o.Sessions.PurgeExpired(ctx)
	if err != nil {
		c.o.Log.Warn("purge expired sessions", "err", err)
	} else if n > 0 {
		c.o.Log.Info("purged expired sessions", "refresh_tokens", n)
	}
	if _, err := c.o.Changes.PurgeBefore(ctx, c.o.Now().Add(-ChangeRetention)); err != nil {
		c.o.Log.Warn("purge link changes", "err", err)
	}
	if n, err := c.o.Audit.Purge(ctx); err != nil {
		c.o.Log.Warn("purge audit events", "err", err)
	} else if n > 0 {
		c.o.Log.Info("purged audit events past their retention", "events", n)
	}
	if n, err := c.o.Deliveries.Purge(ctx); err != nil {
		c.o.Log.Warn("purge webhook deliveries", "err", err)
	} else if n > 0 {
		c.o.Log.Info("purged webhook deliveries past their retention", "deliveries", n)
	}
}

// CheckDomains looks again at the TXT records of pending custom and sign-on domains every
// CheckEvery, until ctx ends. Every node does, without a leader: each round claims the domains
// it looks at (domain.Service.CheckPending).
func (c *Chores) CheckDomains(ctx context.Context) {
	t := time.NewTicker(c.o.CheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.CheckDomainsRound(ctx)
		}
	}
}

// CheckDomainsRound is one round of CheckDomains.
func (c *Chores) CheckDomainsRound(ctx context.Context) {
	defer c.domainRounds.Add(1)
	if n, err := c.o.Domains.CheckPending(ctx); err != nil && ctx.Err() == nil {
		c.o.Log.Warn("check pending domains", "err", err)
	} else if n > 0 {
		c.o.Log.Info("pending domains verified", "domains", n)
	}
	if n, err := c.o.SSO.CheckPending(ctx); err != nil && ctx.Err() == nil {
		c.o.Log.Warn("check pending sso domains", "err", err)
	} else if n > 0 {
		c.o.Log.Info("pending sso domains proven", "domains", n)
	}
}

// DomainCheckRounds answers how many rounds of domain checks have finished: a test waits for
// one that began after an event.
func (c *Chores) DomainCheckRounds() int64 { return c.domainRounds.Load() }
