// Holds on a destination domain (moderation_holds) kept by its reviews' verdicts, and the
// worker's lock on a domain while it reviews one of its links.

package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/moderation"
)

// keepHold sets or lifts the domain's hold (moderation_holds) after a review of it that opened
// the browser, by moderation.Reputation.Holds on its record as it stands with that review. The
// domain's lock makes two reviews of one domain recorded at once take turns, the second reading
// the first's review: the hold follows the newest.
func keepHold(ctx context.Context, tx pgx.Tx, domain string, rep moderation.Reputation, t moderation.Thresholds) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('moderation-hold:' || $1, 0))`, domain); err != nil {
		return fmt.Errorf("lock the domain's hold: %w", err)
	}
	recent, err := domainVerdicts(ctx, tx, domain, time.Now().Add(-rep.TTL), rep.RecordSize(), t)
	if err != nil {
		return err
	}
	var decided string
	if err := tx.QueryRow(ctx, `SELECT coalesce((SELECT state FROM moderation_domains WHERE domain = $1), '')`, domain).Scan(&decided); err != nil {
		return fmt.Errorf("read a domain's decision: %w", err)
	}
	if !rep.Holds(decided, recent) {
		_, err = tx.Exec(ctx, `DELETE FROM moderation_holds WHERE domain = $1`, domain)
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO moderation_holds (domain, review_id, until, updated_at) VALUES ($1, $2, $3, now())
		ON CONFLICT (domain) DO UPDATE SET review_id = EXCLUDED.review_id, until = EXCLUDED.until, updated_at = now()`,
		domain, recent[0].ReviewID, recent[0].ReviewedAt.Add(rep.TTL))
	return err
}

// DomainVerdicts implements moderation.Store, along the index link_reviews_domain.
func (s *Moderation) DomainVerdicts(ctx context.Context, domain string, since time.Time, n int, t moderation.Thresholds) ([]moderation.DomainVerdict, error) {
	return domainVerdicts(ctx, s.db.Pool, domain, since, n, t)
}

// domainVerdicts is DomainVerdicts on q (the pool, or a transaction).
func domainVerdicts(ctx context.Context, q querier, domain string, since time.Time, n int, t moderation.Thresholds) ([]moderation.DomainVerdict, error) {
	if domain == "" {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT id, link_id, workspace_id, created_at, score, category, reason, scorer, model
		FROM link_reviews WHERE domain = $1 AND domain <> '' AND shared_from IS NULL AND shared_how = '' AND created_at >= $2
		ORDER BY id DESC LIMIT $3`, domain, since, n)
	if err != nil {
		return nil, fmt.Errorf("read a domain's verdicts: %w", err)
	}
	out, err := collect(rows, func(r pgx.Rows) (moderation.DomainVerdict, error) {
		var d moderation.DomainVerdict
		var score float32
		v := &d.Verdict
		err := r.Scan(&d.ReviewID, &d.LinkID, &d.WorkspaceID, &d.ReviewedAt, &score, &v.Category, &v.Reason, &v.Scorer, &v.Model)
		v.Score = float64(score)
		d.State = t.StateOf(*v)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("read a domain's verdicts: %w", err)
	}
	return out, nil
}

// HoldDomain implements moderation.Store with a session advisory lock, tried and never waited
// for, on a connection of its own kept for as long as it is held: a worker that dies closes
// that connection and PostgreSQL frees the lock with it, so none is ever left behind. (A
// pooler in transaction mode in front of PostgreSQL would break this; the worker connects
// directly.) Each hold takes one of the pool's connections: at most MODERATION_CONCURRENCY.
func (s *Moderation) HoldDomain(ctx context.Context, domain string) (func(), bool, error) {
	c, err := s.db.Pool.Acquire(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("hold a domain: %w", err)
	}
	var ok bool
	if err := c.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended('moderation-domain:' || $1, 0))`, domain).Scan(&ok); err != nil || !ok {
		c.Release()
		if err != nil {
			return nil, false, fmt.Errorf("hold a domain: %w", err)
		}
		return nil, false, nil
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var unlocked bool
		if err := c.QueryRow(uctx, `SELECT pg_advisory_unlock(hashtextextended('moderation-domain:' || $1, 0))`, domain).Scan(&unlocked); err != nil || !unlocked {
			// The session ends, and the lock with it.
			_ = c.Conn().Close(uctx)
		}
		c.Release()
	}, true, nil
}
