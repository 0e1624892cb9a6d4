// The due list (moderation_due): what the worker claims and reviews, and the moderators'
// queue of links by state, with its counts.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/moderation"
)

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
		if err != nil {
			return err
		}
		if s.afterDueInsert != nil {
			s.afterDueInsert()
		}
		if len(added) == 0 {
			return nil
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
		SELECT l.id, w.name, coalesce(o.email, ''), coalesce(o.language, ''), coalesce(t.visits, 0)
		FROM links l JOIN workspaces w ON w.id = l.workspace_id
		LEFT JOIN LATERAL (SELECT u.email, u.language FROM members m JOIN users u ON u.id = m.user_id
			WHERE m.workspace_id = l.workspace_id AND m.role = 'owner' ORDER BY m.created_at, m.user_id LIMIT 1) o ON true
		LEFT JOIN visit_totals t ON t.link_id = l.id
		WHERE l.id = ANY($1)`, ids)
	if err != nil {
		return fmt.Errorf("read whose the queued links are: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name, email, language string
		var visits int64
		if err := rows.Scan(&id, &name, &email, &language, &visits); err != nil {
			return fmt.Errorf("read whose the queued links are: %w", err)
		}
		it := &items[at[id]]
		it.WorkspaceName, it.OwnerEmail, it.OwnerLanguage, it.Visits = name, email, language, visits
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
