package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
)

// Moderation implements moderation.Store: the due list, the reviews and their decisions.
type Moderation struct{ db *DB }

// NewModeration returns the PostgreSQL moderation store.
func NewModeration(db *DB) *Moderation { return &Moderation{db: db} }

var _ moderation.Store = (*Moderation)(nil)

// Due implements moderation.Store.
func (s *Moderation) Due(ctx context.Context) ([]moderation.Due, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT m.link_id, m.due_at, m.reason, coalesce(l.workspace_id, 0)
		FROM moderation_due m LEFT JOIN links l ON l.id = m.link_id ORDER BY m.due_at, m.link_id`)
	if err != nil {
		return nil, fmt.Errorf("list due reviews: %w", err)
	}
	due, err := collect(rows, func(r pgx.Rows) (moderation.Due, error) {
		var d moderation.Due
		return d, r.Scan(&d.LinkID, &d.At, &d.Reason, &d.WorkspaceID)
	})
	if err != nil {
		return nil, fmt.Errorf("list due reviews: %w", err)
	}
	return due, nil
}

// DueCreated implements moderation.Store. The BRIN index on created_at finds the new links;
// a link reviewed already, or due already, is not added again. A held link is due for reason
// 'held' (served first), whenever it was made: the partial index links_held finds those older
// than since, so that no held link waits for ever. A review that commits while the
// insert runs is invisible to its snapshot, and the due row that review deleted no longer stops
// it: a second statement, which sees that review, takes such links back out.
func (s *Moderation) DueCreated(ctx context.Context, since time.Time) ([]moderation.Due, error) {
	var due []moderation.Due
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `
			INSERT INTO moderation_due AS m (link_id, due_at, reason)
			SELECT l.id, l.created_at, CASE WHEN l.status = 'held' THEN 'held' ELSE 'created' END
			FROM (SELECT id FROM links WHERE created_at >= $1 AND status <> 'banned'
				UNION SELECT id FROM links WHERE status = 'held') n JOIN links l ON l.id = n.id
			WHERE NOT EXISTS (SELECT 1 FROM link_moderation lm WHERE lm.link_id = l.id)
			  AND NOT EXISTS (SELECT 1 FROM moderation_due d WHERE d.link_id = l.id)
			ORDER BY l.id
			ON CONFLICT (link_id) DO NOTHING
			RETURNING link_id, due_at, reason, (SELECT workspace_id FROM links WHERE id = m.link_id)`, since)
		if err != nil {
			return err
		}
		added, err := collect(rows, func(r pgx.Rows) (moderation.Due, error) {
			var d moderation.Due
			return d, r.Scan(&d.LinkID, &d.At, &d.Reason, &d.WorkspaceID)
		})
		if err != nil || len(added) == 0 {
			return err
		}
		ids := make([]int64, len(added))
		for i, d := range added {
			ids[i] = d.LinkID
		}
		rows, err = tx.Query(ctx, `DELETE FROM moderation_due m WHERE m.link_id = ANY($1)
			AND EXISTS (SELECT 1 FROM link_moderation lm WHERE lm.link_id = m.link_id) RETURNING link_id`, ids)
		if err != nil {
			return err
		}
		reviewed, err := collect(rows, func(r pgx.Rows) (int64, error) {
			var id int64
			return id, r.Scan(&id)
		})
		if err != nil {
			return err
		}
		for _, d := range added {
			if !slices.Contains(reviewed, d.LinkID) {
				due = append(due, d)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("record new links as due: %w", err)
	}
	return due, nil
}

// Jobs implements moderation.Store.
func (s *Moderation) Jobs(ctx context.Context, linkIDs []int64) ([]moderation.Job, error) {
	// Due rows of deleted links go first.
	if _, err := s.db.Pool.Exec(ctx, `DELETE FROM moderation_due m WHERE m.link_id = ANY($1)
		AND NOT EXISTS (SELECT 1 FROM links l WHERE l.id = m.link_id)`, linkIDs); err != nil {
		return nil, fmt.Errorf("read due reviews: %w", err)
	}
	rows, err := s.db.Pool.Query(ctx, `
		SELECT l.id, l.workspace_id, l.key, l.url, m.reason, m.seq, m.attempts, m.due_at
		FROM moderation_due m JOIN links l ON l.id = m.link_id
		WHERE m.link_id = ANY($1) ORDER BY m.due_at`, linkIDs)
	if err != nil {
		return nil, fmt.Errorf("read due reviews: %w", err)
	}
	jobs, err := collect(rows, func(r pgx.Rows) (moderation.Job, error) {
		var j moderation.Job
		return j, r.Scan(&j.LinkID, &j.WorkspaceID, &j.Key, &j.URL, &j.Reason, &j.Seq, &j.Attempts, &j.DueAt)
	})
	if err != nil {
		return nil, fmt.Errorf("read due reviews: %w", err)
	}
	return jobs, nil
}

// loadFacts locks the link and reads what a decision on it depends on (moderation.Facts) and
// its workspace: a decision must not race an edit of its destination, nor another decision.
// Returns pgx.ErrNoRows when there is no such link.
func loadFacts(ctx context.Context, tx pgx.Tx, linkID int64) (int64, moderation.Facts, error) {
	var ws int64
	var f moderation.Facts
	err := tx.QueryRow(ctx, `
		SELECT l.workspace_id, l.status, l.url, coalesce(lm.reviewed_url, ''),
			coalesce(last.action IN ('approve', 'unban'), false)
		FROM links l LEFT JOIN link_moderation lm ON lm.link_id = l.id
		LEFT JOIN LATERAL (SELECT action FROM moderation_decisions d WHERE d.link_id = l.id
			AND d.actor_id IS NOT NULL ORDER BY d.id DESC LIMIT 1) last ON true
		WHERE l.id = $1 FOR UPDATE OF l`, linkID).Scan(&ws, &f.Status, &f.URL, &f.ReviewedURL, &f.Approved)
	return ws, f, err
}

// setStatus writes a decision's new status of a link: a ban, or a ban lifted. Moving
// updated_at makes the change feed's trigger record it, which takes it to every node's cache
// within a second; the link afterwards, which it returns, is what the caches are told of at
// once.
func setStatus(ctx context.Context, tx pgx.Tx, linkID int64, status string) (*link.Link, error) {
	if _, err := tx.Exec(ctx, `UPDATE links SET status = $2,
		updated_at = greatest(now(), updated_at + interval '1 microsecond') WHERE id = $1`, linkID, status); err != nil {
		return nil, err
	}
	return scanModerated(tx.QueryRow(ctx, `SELECT `+moderatedColumns+` FROM`+moderatedFrom+`WHERE l.id = $1`, linkID))
}

// Record implements moderation.Store: it reads the facts, records the review, and writes what
// moderation.Decide rules.
func (s *Moderation) Record(ctx context.Context, j moderation.Job, r moderation.Review, t moderation.Thresholds) (moderation.Outcome, error) {
	var out moderation.Outcome
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		_, f, err := loadFacts(ctx, tx, j.LinkID)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, `DELETE FROM moderation_due WHERE link_id = $1`, j.LinkID)
			return err
		}
		if err != nil {
			return err
		}
		v := r.Verdict
		ruling := moderation.Decide(f, moderation.Judgement{Verdict: v, URL: j.URL}, t)
		out.State, out.Note = ruling.State, ruling.Note
		var sharedFrom *int64
		var sharedReview, sharedLink *int64
		var sharedAt *time.Time
		if r.Shared != nil {
			sharedFrom = &r.Shared.ReviewID
			reuse := moderation.ReuseFor(*r.Shared, j.WorkspaceID)
			sharedReview, sharedLink, sharedAt = reuse.ReviewID, reuse.LinkID, &reuse.ReviewedAt
		}
		if err := tx.QueryRow(ctx, `
			INSERT INTO link_reviews (link_id, workspace_id, url, trigger, score, category, reason, scorer,
				model, notes, duration_ms, destination, domain, shared_from, shared_how)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
			j.LinkID, j.WorkspaceID, j.URL, j.Reason, v.Score, v.Category, v.Reason, v.Scorer,
			v.Model, nonNil(v.Notes), r.Duration.Milliseconds(), r.Destination, r.Domain, sharedFrom,
			r.SharedHow).Scan(&out.ReviewID); err != nil {
			return err
		}
		for _, c := range r.Captures {
			forms, err := json.Marshal(nonNilForms(c.Forms))
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `
				INSERT INTO review_captures (review_id, profile, url, final_url, redirects, status, title,
					description, text, forms, error, duration_ms, screenshot)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
				out.ReviewID, string(c.Profile), c.URL, c.FinalURL, nonNil(c.Redirects), c.Status, c.Title,
				c.Description, c.Text, string(forms), c.Error, c.Duration.Milliseconds(), c.Screenshot); err != nil {
				return err
			}
		}
		reason := v.Reason
		if out.Note != "" {
			reason += " (" + out.Note + ")"
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO link_moderation AS lm (link_id, workspace_id, state, score, category, reason,
				reviewed_url, reviewed_at, updated_at, shared_review_id, shared_link_id, shared_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now(), $8, $9, $10)
			ON CONFLICT (link_id) DO UPDATE SET state = EXCLUDED.state, score = EXCLUDED.score,
				category = EXCLUDED.category, reason = EXCLUDED.reason, reviewed_url = EXCLUDED.reviewed_url,
				reviewed_at = now(), updated_at = now(), shared_review_id = EXCLUDED.shared_review_id,
				shared_link_id = EXCLUDED.shared_link_id, shared_at = EXCLUDED.shared_at`,
			j.LinkID, j.WorkspaceID, string(out.State), v.Score, v.Category, reason, ruling.ReviewedURL,
			sharedReview, sharedLink, sharedAt); err != nil {
			return err
		}
		if err := setReviewOutcome(ctx, tx, j.LinkID, r, out); err != nil {
			return err
		}
		if ruling.StatusChanged {
			if out.Link, err = setStatus(ctx, tx, j.LinkID, ruling.Status); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO moderation_decisions (link_id, workspace_id, action, state, note, review_id)
			VALUES ($1, $2, $3, $4, $5, $6)`,
			j.LinkID, j.WorkspaceID, ruling.Action, string(out.State), out.Note, out.ReviewID); err != nil {
			return err
		}
		if r.Record != nil && r.Shared == nil && r.SharedHow == "" && r.Domain != "" {
			if err := keepHold(ctx, tx, r.Domain, *r.Record, t); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `DELETE FROM moderation_due WHERE link_id = $1 AND seq = $2`, j.LinkID, j.Seq)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			// Asked for again while the review ran (a milestone, a new destination).
			out.StillDue = true
		}
		if ruling.Recheck {
			// The destination changed while it was reviewed: review the new one.
			out.StillDue = true
			// A link still held keeps its reason, and its place before the others.
			_, err = tx.Exec(ctx, `INSERT INTO moderation_due AS m (link_id, due_at, reason)
				VALUES ($1, now(), CASE WHEN $2 = 'held' THEN 'held' ELSE 'target_changed' END)
				ON CONFLICT (link_id) DO UPDATE SET seq = m.seq + 1`, j.LinkID, ruling.Status)
		}
		return err
	})
	if err != nil {
		return moderation.Outcome{}, fmt.Errorf("record review of link %d: %w", j.LinkID, err)
	}
	return out, nil
}

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

// Shared implements moderation.Store, along the index link_reviews_destination.
func (s *Moderation) Shared(ctx context.Context, destination string, since time.Time) (*moderation.Shared, error) {
	if destination == "" {
		return nil, nil
	}
	var sh moderation.Shared
	v := &sh.Verdict
	var score float32
	err := s.db.Pool.QueryRow(ctx, `SELECT id, link_id, workspace_id, created_at, score, category, reason, scorer, model
		FROM link_reviews WHERE destination = $1 AND destination <> '' AND shared_from IS NULL AND shared_how = '' AND created_at >= $2
		ORDER BY created_at DESC LIMIT 1`, destination, since).Scan(&sh.ReviewID, &sh.LinkID, &sh.WorkspaceID,
		&sh.ReviewedAt, &score, &v.Category, &v.Reason, &v.Scorer, &v.Model)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read a shared review: %w", err)
	}
	v.Score = float64(score)
	return &sh, nil
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

// DomainState implements moderation.Store.
func (s *Moderation) DomainState(ctx context.Context, domain string) (string, error) {
	var state string
	err := s.db.Pool.QueryRow(ctx, `SELECT state FROM moderation_domains WHERE domain = $1`, domain).Scan(&state)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read a domain's decision: %w", err)
	}
	return state, nil
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

var _ moderation.DomainStore = (*Moderation)(nil)

// SetDomain implements moderation.DomainStore.
func (s *Moderation) SetDomain(ctx context.Context, domain, state string, actorID int64, note string) (*moderation.DomainDecision, error) {
	action := moderation.ActionBanDomain
	if state == moderation.DomainCleared {
		action = moderation.ActionClearDomain
	}
	var out *moderation.DomainDecision
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO moderation_domains AS m (domain, state, note, actor_id, updated_at)
			VALUES ($1, $2, $3, $4, now()) ON CONFLICT (domain) DO UPDATE SET state = EXCLUDED.state,
			note = EXCLUDED.note, actor_id = EXCLUDED.actor_id, updated_at = now()`, domain, state, note, actorID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO moderation_decisions (link_id, workspace_id, actor_id, action, state, note, domain)
			VALUES (0, 0, $1, $2, $3, $4, $5)`, actorID, action, state, note, domain); err != nil {
			return err
		}
		if state == moderation.DomainCleared {
			// A cleared domain's record no longer holds its new links.
			if _, err := tx.Exec(ctx, `DELETE FROM moderation_holds WHERE domain = $1`, domain); err != nil {
				return err
			}
			if _, err := releaseDomainLinks(ctx, tx, domain); err != nil {
				return err
			}
		}
		ds, err := domainDecisions(ctx, tx, `WHERE m.domain = $1`, domain)
		if err == nil && len(ds) == 1 {
			out = &ds[0]
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("decide on a domain: %w", err)
	}
	return out, nil
}

// DomainDecisions implements moderation.DomainStore.
func (s *Moderation) DomainDecisions(ctx context.Context, limit int) ([]moderation.DomainDecision, error) {
	ds, err := domainDecisions(ctx, s.db.Pool, `ORDER BY m.updated_at DESC, m.domain LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("list domain decisions: %w", err)
	}
	return ds, nil
}

func domainDecisions(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, tail string, args ...any) ([]moderation.DomainDecision, error) {
	rows, err := q.Query(ctx, `SELECT m.domain, m.state, m.note, m.actor_id, u.email, m.updated_at
		FROM moderation_domains m LEFT JOIN users u ON u.id = m.actor_id `+tail, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r pgx.Rows) (moderation.DomainDecision, error) {
		var d moderation.DomainDecision
		var actor *int64
		var email *string
		err := r.Scan(&d.Domain, &d.State, &d.Note, &actor, &email, &d.UpdatedAt)
		if actor != nil && email != nil {
			d.Actor = &moderation.Actor{ID: *actor, Email: *email}
		}
		return d, err
	})
}

// Failed implements moderation.Store.
func (s *Moderation) Failed(ctx context.Context, j moderation.Job, reason string) (int, error) {
	var n int
	err := s.db.Pool.QueryRow(ctx, `UPDATE moderation_due SET attempts = attempts + 1, last_error = $2
		WHERE link_id = $1 RETURNING attempts`, j.LinkID, reason).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return j.Attempts + 1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("count a failed review: %w", err)
	}
	return n, nil
}

var _ moderation.DeskStore = (*Moderation)(nil)

// Queue implements moderation.DeskStore. Reviewed states are read along the index
// link_moderation_state (state, updated_at DESC, link_id), pending links from moderation_due;
// links deleted since are left out.
func (s *Moderation) Queue(ctx context.Context, st moderation.State, after moderation.QueueCursor, limit int) ([]moderation.QueueItem, error) {
	if st == moderation.Pending {
		return s.pendingQueue(ctx, after, limit)
	}
	where, args := "", []any{string(st), limit + 1}
	if after.LinkID > 0 {
		where = `AND lm.updated_at <= $3 AND (lm.updated_at < $3 OR lm.link_id > $4)`
		args = append(args, after.At, after.LinkID)
	}
	rows, err := s.db.Pool.Query(ctx, `
		SELECT `+moderatedColumns+`, lm.updated_at,
			r.id, r.score, r.category, r.reason, r.scorer, r.model, r.created_at
		FROM link_moderation lm JOIN links l ON l.id = lm.link_id
		LEFT JOIN LATERAL (SELECT id, score, category, reason, scorer, model, created_at FROM link_reviews
			WHERE link_id = lm.link_id ORDER BY id DESC LIMIT 1) r ON true
		WHERE lm.state = $1 `+where+`
		ORDER BY lm.updated_at DESC, lm.link_id LIMIT $2`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the moderation queue: %w", err)
	}
	items, err := collect(rows, func(r pgx.Rows) (moderation.QueueItem, error) {
		var it moderation.QueueItem
		var id *int64
		var score *float32
		var category, reason, scorer, model *string
		var at *time.Time
		l, err := scanModerated(r, &it.Place.At, &id, &score, &category, &reason, &scorer, &model, &at)
		it.Link, it.Place.LinkID = l, l.ID
		if err == nil && id != nil {
			it.Review = &moderation.ReviewSummary{ID: *id, Score: *score64(score), Category: *category,
				Reason: *reason, Scorer: *scorer, Model: *model, CreatedAt: *at}
		}
		return it, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the moderation queue: %w", err)
	}
	return items, s.whose(ctx, items)
}

// pendingQueue lists the links due for a review that have never had one, the latest due first,
// down the index on moderation_due (due_at, link_id). The links with a state other than
// pending are left out with NOT EXISTS: PostgreSQL estimates that anti-join well, where the
// equivalent filter on the LEFT JOIN below (lm.link_id IS NULL OR lm.state = 'pending') was
// estimated to keep a row or so, and planned as a sort of every due link (a quarter of a
// second at 300,000, seconds under load).
func (s *Moderation) pendingQueue(ctx context.Context, after moderation.QueueCursor, limit int) ([]moderation.QueueItem, error) {
	query, args := pendingQueueQuery(after, limit)
	rows, err := s.db.Pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read the pending links: %w", err)
	}
	items, err := collect(rows, func(r pgx.Rows) (moderation.QueueItem, error) {
		var it moderation.QueueItem
		l, err := scanModerated(r, &it.Place.At)
		it.Link, it.Place.LinkID = l, l.ID
		return it, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the pending links: %w", err)
	}
	return items, s.whose(ctx, items)
}

// Appealed implements moderation.DeskStore, down the index moderation_appeals_open.
func (s *Moderation) Appealed(ctx context.Context, after moderation.QueueCursor, limit int) ([]moderation.QueueItem, error) {
	where, args := "", []any{limit + 1}
	if after.LinkID > 0 {
		where = `AND (a.created_at, a.link_id) < ($2, $3)`
		args = append(args, after.At, after.LinkID)
	}
	rows, err := s.db.Pool.Query(ctx, `
		SELECT `+moderatedColumns+`, `+appealColumnsOf("a")+`,
			r.id, r.score, r.category, r.reason, r.scorer, r.model, r.created_at
		FROM moderation_appeals a JOIN links l ON l.id = a.link_id
		LEFT JOIN link_moderation lm ON lm.link_id = l.id
		LEFT JOIN LATERAL (SELECT id, score, category, reason, scorer, model, created_at FROM link_reviews
			WHERE link_id = a.link_id ORDER BY id DESC LIMIT 1) r ON true
		WHERE a.resolved_at IS NULL `+where+`
		ORDER BY a.created_at DESC, a.link_id DESC LIMIT $1`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the appealed links: %w", err)
	}
	items, err := collect(rows, func(r pgx.Rows) (moderation.QueueItem, error) {
		var it moderation.QueueItem
		var ap moderation.Appeal
		var id *int64
		var score *float32
		var category, reason, scorer, model *string
		var at *time.Time
		l, err := scanModerated(r, &ap.LinkID, &ap.WorkspaceID, &ap.UserID, &ap.Message, &ap.CreatedAt, &ap.ResolvedAt,
			&ap.Resolution, &ap.Outcome, &ap.Answer, &id, &score, &category, &reason, &scorer, &model, &at)
		it.Link, it.Appeal, it.Place = l, &ap, moderation.QueueCursor{At: ap.CreatedAt, LinkID: l.ID}
		if err == nil && id != nil {
			it.Review = &moderation.ReviewSummary{ID: *id, Score: *score64(score), Category: *category,
				Reason: *reason, Scorer: *scorer, Model: *model, CreatedAt: *at}
		}
		return it, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the appealed links: %w", err)
	}
	return items, s.whose(ctx, items)
}

// whose fills in the workspace, owner and visits of a page of queue items, in one statement
// after the page is read (the queues' own statements stay the index walks they are planned as).
func (s *Moderation) whose(ctx context.Context, items []moderation.QueueItem) error {
	if len(items) == 0 {
		return nil
	}
	ids, at := make([]int64, len(items)), make(map[int64]int, len(items))
	for i, it := range items {
		ids[i], at[it.Link.ID] = it.Link.ID, i
	}
	rows, err := s.db.Pool.Query(ctx, `
		SELECT l.id, w.name, coalesce(o.email, ''), coalesce(t.visits, 0)
		FROM links l JOIN workspaces w ON w.id = l.workspace_id
		LEFT JOIN LATERAL (SELECT u.email FROM members m JOIN users u ON u.id = m.user_id
			WHERE m.workspace_id = l.workspace_id AND m.role = 'owner' ORDER BY m.created_at, m.user_id LIMIT 1) o ON true
		LEFT JOIN visit_totals t ON t.link_id = l.id
		WHERE l.id = ANY($1)`, ids)
	if err != nil {
		return fmt.Errorf("read whose the queued links are: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name, email string
		var visits int64
		if err := rows.Scan(&id, &name, &email, &visits); err != nil {
			return fmt.Errorf("read whose the queued links are: %w", err)
		}
		it := &items[at[id]]
		it.WorkspaceName, it.OwnerEmail, it.Visits = name, email, visits
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read whose the queued links are: %w", err)
	}
	return nil
}

// Counts implements moderation.DeskStore: one statement, each count a walk of at most
// CountCap entries of an index (link_moderation_state, moderation_due_queue,
// moderation_appeals_open), whatever the tables hold.
func (s *Moderation) Counts(ctx context.Context) (moderation.Counts, error) {
	var c moderation.Counts
	err := s.db.Pool.QueryRow(ctx, `
		SELECT
			(SELECT count(*) FROM (SELECT 1 FROM moderation_due m JOIN links l ON l.id = m.link_id
				WHERE NOT EXISTS (SELECT 1 FROM link_moderation x WHERE x.link_id = m.link_id AND x.state <> 'pending')
				LIMIT $1) p),
			(SELECT count(*) FROM (SELECT 1 FROM link_moderation lm JOIN links l ON l.id = lm.link_id
				WHERE lm.state = 'flagged' LIMIT $1) f),
			(SELECT count(*) FROM (SELECT 1 FROM link_moderation lm JOIN links l ON l.id = lm.link_id
				WHERE lm.state = 'banned' LIMIT $1) b),
			(SELECT count(*) FROM (SELECT 1 FROM link_moderation lm JOIN links l ON l.id = lm.link_id
				WHERE lm.state = 'passed' LIMIT $1) ps),
			(SELECT count(*) FROM (SELECT 1 FROM moderation_appeals a JOIN links l ON l.id = a.link_id
				WHERE a.resolved_at IS NULL LIMIT $1) a)`, moderation.CountCap).
		Scan(&c.Pending, &c.Flagged, &c.Banned, &c.Passed, &c.Appealed)
	if err != nil {
		return moderation.Counts{}, fmt.Errorf("count the moderation queues: %w", err)
	}
	return c, nil
}

func pendingQueueQuery(after moderation.QueueCursor, limit int) (string, []any) {
	where, args := "", []any{limit + 1}
	if after.LinkID > 0 {
		where = `AND (m.due_at, m.link_id) < ($2, $3)`
		args = append(args, after.At, after.LinkID)
	}
	return `
		SELECT ` + moderatedColumns + `, m.due_at
		FROM moderation_due m JOIN links l ON l.id = m.link_id
		LEFT JOIN link_moderation lm ON lm.link_id = m.link_id
		WHERE NOT EXISTS (SELECT 1 FROM link_moderation x WHERE x.link_id = m.link_id AND x.state <> 'pending') ` + where + `
		ORDER BY m.due_at DESC, m.link_id DESC LIMIT $1`, args
}

// File implements moderation.DeskStore.
func (s *Moderation) File(ctx context.Context, linkID int64) (*moderation.LinkFile, error) {
	l, err := scanModerated(s.db.Pool.QueryRow(ctx, `SELECT `+moderatedColumns+` FROM`+moderatedFrom+`WHERE l.id = $1`, linkID))
	if err != nil {
		return nil, fmt.Errorf("read a link's moderation: %w", notFound(err, "link"))
	}
	f := &moderation.LinkFile{Link: l}
	whose := []moderation.QueueItem{{Link: l}}
	if err := s.whose(ctx, whose); err != nil {
		return nil, err
	}
	f.WorkspaceName, f.OwnerEmail, f.Visits = whose[0].WorkspaceName, whose[0].OwnerEmail, whose[0].Visits
	rows, err := s.db.Pool.Query(ctx, `
		SELECT id, url, trigger, score, category, reason, scorer, model, notes, duration_ms, created_at
		FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT $2`, linkID, moderation.MaxFileReviews)
	if err != nil {
		return nil, fmt.Errorf("read a link's reviews: %w", err)
	}
	f.Reviews, err = collect(rows, func(r pgx.Rows) (moderation.ReviewRecord, error) {
		var v moderation.ReviewRecord
		var score float32
		var ms int64
		err := r.Scan(&v.ID, &v.URL, &v.Trigger, &score, &v.Category, &v.Reason, &v.Scorer, &v.Model, &v.Notes, &ms, &v.CreatedAt)
		v.Score, v.Duration = *score64(&score), time.Duration(ms)*time.Millisecond
		return v, err
	})
	if err != nil {
		return nil, fmt.Errorf("read a link's reviews: %w", err)
	}
	if err := s.readCaptures(ctx, f.Reviews); err != nil {
		return nil, err
	}
	rows, err = s.db.Pool.Query(ctx, `SELECT `+decisionColumns+` FROM`+decisionsFrom+`
		WHERE d.link_id = $1 ORDER BY d.id DESC LIMIT 100`, linkID)
	if err != nil {
		return nil, fmt.Errorf("read a link's decisions: %w", err)
	}
	if f.Decisions, err = collect(rows, func(r pgx.Rows) (moderation.Decision, error) { return scanDecision(r) }); err != nil {
		return nil, fmt.Errorf("read a link's decisions: %w", err)
	}
	a, err := scanAppeal(s.db.Pool.QueryRow(ctx, `SELECT `+appealColumns+` FROM moderation_appeals WHERE link_id = $1`, linkID))
	switch {
	case err == nil:
		f.Appeal = a
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("read a link's appeal: %w", err)
	}
	return f, nil
}

// readCaptures fills in the captures of reviews, in the order of moderation.Profiles.
func (s *Moderation) readCaptures(ctx context.Context, reviews []moderation.ReviewRecord) error {
	if len(reviews) == 0 {
		return nil
	}
	ids, at := make([]int64, len(reviews)), make(map[int64]int, len(reviews))
	for i, r := range reviews {
		ids[i], at[r.ID] = r.ID, i
	}
	profiles := make([]string, len(moderation.Profiles))
	for i, p := range moderation.Profiles {
		profiles[i] = string(p)
	}
	rows, err := s.db.Pool.Query(ctx, `
		SELECT review_id, profile, url, final_url, redirects, status, title, description, forms, error,
			duration_ms, screenshot IS NOT NULL
		FROM review_captures WHERE review_id = ANY($1)
		ORDER BY review_id, array_position($2::text[], profile)`, ids, profiles)
	if err != nil {
		return fmt.Errorf("read a link's captures: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, ms int64
		var c moderation.CaptureRecord
		if err := rows.Scan(&id, &c.Profile, &c.URL, &c.FinalURL, &c.Redirects, &c.Status, &c.Title, &c.Description,
			&c.Forms, &c.Error, &ms, &c.HasScreenshot); err != nil {
			return fmt.Errorf("read a link's captures: %w", err)
		}
		c.Duration = time.Duration(ms) * time.Millisecond
		r := &reviews[at[id]]
		r.Captures = append(r.Captures, c)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read a link's captures: %w", err)
	}
	return nil
}

// Screenshot implements moderation.DeskStore.
func (s *Moderation) Screenshot(ctx context.Context, reviewID int64, p moderation.Profile) ([]byte, error) {
	var png []byte
	err := s.db.Pool.QueryRow(ctx, `SELECT screenshot FROM review_captures WHERE review_id = $1 AND profile = $2`,
		reviewID, string(p)).Scan(&png)
	if err == nil && png == nil {
		err = pgx.ErrNoRows
	}
	if err != nil {
		return nil, fmt.Errorf("read a screenshot: %w", notFound(err, "screenshot"))
	}
	return png, nil
}

// Decide implements moderation.DeskStore: it reads the facts and writes what moderation.Decide
// rules. The owner is shown the explanation's reason (as the link's category) and words: a ban
// replaces both, an approval or unban those it gives. The note stays in the audit log; the
// score stays that of the last review.
func (s *Moderation) Decide(ctx context.Context, linkID, actorID int64, a moderation.Action, e moderation.Explanation) (*moderation.Decided, error) {
	if _, ok := a.State(); !ok {
		return nil, apperr.Errorf(apperr.Invalid, "action must be approve, ban, unban or keep_ban").For("value_invalid", "action")
	}
	out := &moderation.Decided{}
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		ws, f, err := loadFacts(ctx, tx, linkID)
		if err != nil {
			return notFound(err, "link")
		}
		if err := moderation.CheckAction(f, a); err != nil {
			return err
		}
		ruling := moderation.Decide(f, moderation.Judgement{Action: a}, moderation.Thresholds{})
		var reviewID *int64
		if err := tx.QueryRow(ctx, `SELECT max(id) FROM link_reviews WHERE link_id = $1`, linkID).Scan(&reviewID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO link_moderation AS lm (link_id, workspace_id, state, category, reason, reviewed_url, reviewed_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, now(), now())
			ON CONFLICT (link_id) DO UPDATE SET state = EXCLUDED.state,
				category = CASE WHEN $7 OR EXCLUDED.category <> '' THEN EXCLUDED.category ELSE lm.category END,
				reason = CASE WHEN $7 OR EXCLUDED.reason <> '' THEN EXCLUDED.reason ELSE lm.reason END,
				reviewed_url = EXCLUDED.reviewed_url, reviewed_at = now(), updated_at = now()`,
			linkID, ws, string(ruling.State), e.Reason, e.ReasonText, ruling.ReviewedURL, a == moderation.Ban); err != nil {
			return err
		}
		if err := setModeratorOutcome(ctx, tx, linkID, a, e); err != nil {
			return err
		}
		if ruling.StatusChanged {
			if _, err := setStatus(ctx, tx, linkID, ruling.Status); err != nil {
				return err
			}
			out.StatusChanged = true
		}
		if ruling.DropDue {
			if _, err := tx.Exec(ctx, `DELETE FROM moderation_due WHERE link_id = $1`, linkID); err != nil {
				return err
			}
		}
		out.Decision, err = scanDecision(tx.QueryRow(ctx, `
			WITH d AS (INSERT INTO moderation_decisions (link_id, workspace_id, actor_id, action, state, note, review_id,
				reason, reason_text)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *)
			SELECT `+decisionColumns+` FROM d LEFT JOIN users u ON u.id = d.actor_id`,
			linkID, ws, actorID, ruling.Action, string(ruling.State), e.Note, reviewID, e.Reason, e.ReasonText))
		if err != nil {
			return err
		}
		if out.AppealAnswered, err = answerAppeal(ctx, tx, linkID, a, e); err != nil {
			return err
		}
		out.Link, err = scanModerated(tx.QueryRow(ctx, `SELECT `+moderatedColumns+` FROM`+moderatedFrom+`WHERE l.id = $1`, linkID))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("decide on link %d: %w", linkID, err)
	}
	return out, nil
}

// RequestReview implements moderation.DeskStore. A review due later (after failed attempts) is
// due now, with its attempts counted afresh.
func (s *Moderation) RequestReview(ctx context.Context, linkID int64) (time.Time, error) {
	var at time.Time
	err := s.db.Pool.QueryRow(ctx, `
		INSERT INTO moderation_due AS m (link_id, due_at, reason)
		SELECT id, now(), 'requested' FROM links WHERE id = $1
		ON CONFLICT (link_id) DO UPDATE SET reason = 'requested', seq = m.seq + 1,
			due_at = least(m.due_at, EXCLUDED.due_at), attempts = 0, last_error = ''
		RETURNING due_at`, linkID).Scan(&at)
	if err != nil {
		return time.Time{}, fmt.Errorf("request a review: %w", notFound(err, "link"))
	}
	return at, nil
}

// Appeal implements moderation.DeskStore.
func (s *Moderation) Appeal(ctx context.Context, workspaceID, linkID, userID int64, message string) (*moderation.Appeal, error) {
	var a *moderation.Appeal
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		// Shared lock: a decision being made on the link finishes first.
		var state *string
		err := tx.QueryRow(ctx, `SELECT lm.state FROM`+moderatedFrom+`WHERE l.workspace_id = $1 AND l.id = $2
			FOR SHARE OF l`, workspaceID, linkID).Scan(&state)
		if err != nil {
			return notFound(err, "link")
		}
		if state == nil || (*state != string(moderation.Flagged) && *state != string(moderation.Banned)) {
			now := string(moderation.Pending)
			if state != nil {
				now = *state
			}
			return apperr.Errorf(apperr.Conflict, "only a flagged or banned link can be appealed; this link is %s", now).For("appeal_not_allowed", "")
		}
		var user *int64
		if userID > 0 {
			user = &userID
		}
		a, err = scanAppeal(tx.QueryRow(ctx, `
			INSERT INTO moderation_appeals (link_id, workspace_id, user_id, message) VALUES ($1, $2, $3, $4)
			ON CONFLICT (link_id) DO NOTHING RETURNING `+appealColumns, linkID, workspaceID, user, message))
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.Errorf(apperr.Conflict, "this link was appealed already: a link may be appealed once").For("already_appealed", "")
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("appeal: %w", err)
	}
	return a, nil
}

// AppealOf implements moderation.DeskStore.
func (s *Moderation) AppealOf(ctx context.Context, workspaceID, linkID int64) (*moderation.Appeal, error) {
	a, err := scanAppeal(s.db.Pool.QueryRow(ctx, `SELECT `+appealColumns+` FROM moderation_appeals
		WHERE workspace_id = $1 AND link_id = $2`, workspaceID, linkID))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read an appeal: %w", err)
	}
	return a, nil
}

// Audit implements moderation.DeskStore.
func (s *Moderation) Audit(ctx context.Context, before int64, limit int) ([]moderation.Decision, error) {
	where, args := "", []any{limit}
	if before > 0 {
		where, args = "WHERE d.id < $2", append(args, before)
	}
	rows, err := s.db.Pool.Query(ctx, `SELECT `+decisionColumns+` FROM`+decisionsFrom+where+`
		ORDER BY d.id DESC LIMIT $1`, args...)
	if err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	ds, err := collect(rows, func(r pgx.Rows) (moderation.Decision, error) { return scanDecision(r) })
	if err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	return ds, nil
}

const decisionColumns = `d.id, d.link_id, d.workspace_id, d.action, d.state, d.note, d.reason, d.reason_text,
	d.actor_id, u.email, d.review_id, d.created_at, d.domain`

// decisionsFrom joins decisions to their actors.
const decisionsFrom = ` moderation_decisions d LEFT JOIN users u ON u.id = d.actor_id `

func scanDecision(r pgx.Row) (moderation.Decision, error) {
	var d moderation.Decision
	var actor *int64
	var email *string
	err := r.Scan(&d.ID, &d.LinkID, &d.WorkspaceID, &d.Action, &d.State, &d.Note, &d.Reason, &d.ReasonText,
		&actor, &email, &d.ReviewID, &d.CreatedAt, &d.Domain)
	if actor != nil && email != nil {
		d.Actor = &moderation.Actor{ID: *actor, Email: *email}
	}
	return d, err
}

const appealColumns = `link_id, workspace_id, user_id, message, created_at, resolved_at, resolution, outcome, answer`

// appealColumnsOf is appealColumns of the table named t.
func appealColumnsOf(t string) string {
	return t + ".link_id, " + t + ".workspace_id, " + t + ".user_id, " + t + ".message, " + t + ".created_at, " +
		t + ".resolved_at, " + t + ".resolution, " + t + ".outcome, " + t + ".answer"
}

func scanAppeal(r pgx.Row) (*moderation.Appeal, error) {
	var a moderation.Appeal
	if err := r.Scan(&a.LinkID, &a.WorkspaceID, &a.UserID, &a.Message, &a.CreatedAt, &a.ResolvedAt, &a.Resolution,
		&a.Outcome, &a.Answer); err != nil {
		return nil, err
	}
	return &a, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilForms(f []moderation.Form) []moderation.Form {
	if f == nil {
		return []moderation.Form{}
	}
	return f
}
