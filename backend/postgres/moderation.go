package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/moderation"
)

// Moderation implements moderation.Store: the due list, the reviews and their decisions.
type Moderation struct{ db *DB }

// NewModeration returns the PostgreSQL moderation store.
func NewModeration(db *DB) *Moderation { return &Moderation{db: db} }

var _ moderation.Store = (*Moderation)(nil)

// Due implements moderation.Store.
func (s *Moderation) Due(ctx context.Context) ([]moderation.Due, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT link_id, due_at FROM moderation_due ORDER BY due_at`)
	if err != nil {
		return nil, fmt.Errorf("list due reviews: %w", err)
	}
	due, err := collect(rows, func(r pgx.Rows) (moderation.Due, error) {
		var d moderation.Due
		return d, r.Scan(&d.LinkID, &d.At)
	})
	if err != nil {
		return nil, fmt.Errorf("list due reviews: %w", err)
	}
	return due, nil
}

// DueCreated implements moderation.Store. The BRIN index on created_at finds the new links;
// a link reviewed already, or due already, is not added again.
func (s *Moderation) DueCreated(ctx context.Context, since time.Time) ([]moderation.Due, error) {
	rows, err := s.db.Pool.Query(ctx, `
		INSERT INTO moderation_due AS m (link_id, due_at, reason)
		SELECT l.id, l.created_at, 'created' FROM links l
		WHERE l.created_at >= $1 AND l.status <> 'banned'
		  AND NOT EXISTS (SELECT 1 FROM link_moderation lm WHERE lm.link_id = l.id)
		ORDER BY l.id
		ON CONFLICT (link_id) DO NOTHING
		RETURNING link_id, due_at`, since)
	if err != nil {
		return nil, fmt.Errorf("record new links as due: %w", err)
	}
	due, err := collect(rows, func(r pgx.Rows) (moderation.Due, error) {
		var d moderation.Due
		return d, r.Scan(&d.LinkID, &d.At)
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

// Record implements moderation.Store. A moderator's approval of the same destination stands:
// a later automatic review that would ban the link flags it instead.
func (s *Moderation) Record(ctx context.Context, j moderation.Job, r moderation.Review, t moderation.Thresholds) (moderation.Outcome, error) {
	var out moderation.Outcome
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		// The link as it is now, locked: a ban must not race an edit of its destination.
		var url, status string
		err := tx.QueryRow(ctx, `SELECT url, status FROM links WHERE id = $1 FOR UPDATE`, j.LinkID).Scan(&url, &status)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, `DELETE FROM moderation_due WHERE link_id = $1`, j.LinkID)
			return err
		}
		if err != nil {
			return err
		}
		v := r.Verdict
		out.State = t.StateOf(v)
		if out.State == moderation.Banned {
			var approved bool
			err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM link_moderation lm
				JOIN LATERAL (SELECT action FROM moderation_decisions d WHERE d.link_id = lm.link_id
					AND d.actor_id IS NOT NULL ORDER BY d.id DESC LIMIT 1) last ON true
				WHERE lm.link_id = $1 AND lm.reviewed_url = $2 AND last.action IN ('approve', 'unban'))`,
				j.LinkID, j.URL).Scan(&approved)
			if err != nil {
				return err
			}
			if approved {
				out.State, out.Note = moderation.Flagged, "a moderator approved this destination; flagged instead of banned"
			}
		}
		if err := tx.QueryRow(ctx, `
			INSERT INTO link_reviews (link_id, workspace_id, url, trigger, score, category, reason, scorer,
				model, notes, duration_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
			j.LinkID, j.WorkspaceID, j.URL, j.Reason, v.Score, v.Category, v.Reason, v.Scorer,
			v.Model, nonNil(v.Notes), r.Duration.Milliseconds()).Scan(&out.ReviewID); err != nil {
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
				reviewed_url, reviewed_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now())
			ON CONFLICT (link_id) DO UPDATE SET state = EXCLUDED.state, score = EXCLUDED.score,
				category = EXCLUDED.category, reason = EXCLUDED.reason, reviewed_url = EXCLUDED.reviewed_url,
				reviewed_at = now(), updated_at = now()`,
			j.LinkID, j.WorkspaceID, string(out.State), v.Score, v.Category, reason, j.URL); err != nil {
			return err
		}
		if out.State == moderation.Banned && status != "banned" {
			// The change feed's trigger takes the ban to every node's cache within a second.
			if _, err := tx.Exec(ctx, `UPDATE links SET status = 'banned',
				updated_at = greatest(now(), updated_at + interval '1 microsecond') WHERE id = $1`, j.LinkID); err != nil {
				return err
			}
		}
		action := map[moderation.State]string{moderation.Passed: "pass", moderation.Flagged: "flag", moderation.Banned: "ban"}[out.State]
		if _, err := tx.Exec(ctx, `
			INSERT INTO moderation_decisions (link_id, workspace_id, action, state, note, review_id)
			VALUES ($1, $2, $3, $4, $5, $6)`,
			j.LinkID, j.WorkspaceID, action, string(out.State), out.Note, out.ReviewID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM moderation_due WHERE link_id = $1 AND seq = $2`, j.LinkID, j.Seq)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			// Asked for again while the review ran (a milestone, a new destination).
			out.StillDue = true
		}
		if url != j.URL {
			// The destination changed while it was reviewed: review the new one.
			out.StillDue = true
			_, err = tx.Exec(ctx, `INSERT INTO moderation_due AS m (link_id, due_at, reason) VALUES ($1, now(), 'target_changed')
				ON CONFLICT (link_id) DO UPDATE SET seq = m.seq + 1`, j.LinkID)
		}
		return err
	})
	if err != nil {
		return moderation.Outcome{}, fmt.Errorf("record review of link %d: %w", j.LinkID, err)
	}
	return out, nil
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
