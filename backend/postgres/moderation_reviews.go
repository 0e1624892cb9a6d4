// The reviews (link_reviews): recording one and what it decides, reviews shared between
// links of one destination, a link's file with its captures.

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
	f.WorkspaceName, f.OwnerEmail, f.OwnerLanguage, f.Visits = whose[0].WorkspaceName, whose[0].OwnerEmail, whose[0].OwnerLanguage, whose[0].Visits
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
