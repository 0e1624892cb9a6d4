package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/moderation"
)

// DomainList implements moderation.DomainLister: the moderators' decisions (moderation_domains)
// and the holds of phishing records still running (moderation_holds; a domain a moderator banned
// is listed once, as banned), the latest first. Links counts a domain's links along the index
// link_reviews_domain.
func (s *Moderation) DomainList(ctx context.Context, states []string, after moderation.DomainCursor, limit int) ([]moderation.DomainEntry, error) {
	var at *time.Time
	if !after.At.IsZero() {
		at = &after.At
	}
	rows, err := s.db.Pool.Query(ctx, `
		WITH d AS (
			SELECT m.domain, m.state, m.category, m.note, m.actor_id, u.email, m.updated_at, NULL::timestamptz AS until, NULL::bigint AS review_id
			FROM moderation_domains m LEFT JOIN users u ON u.id = m.actor_id
			WHERE m.state = ANY($1)
			UNION ALL
			SELECT h.domain, 'held', '', '', NULL, NULL, h.updated_at, h.until, h.review_id
			FROM moderation_holds h
			WHERE 'held' = ANY($1) AND h.until > now()
			  AND NOT EXISTS (SELECT 1 FROM moderation_domains m WHERE m.domain = h.domain AND m.state = 'banned'))
		SELECT d.domain, d.state, d.category, d.note, d.actor_id, d.email, d.updated_at, d.until,
			r.id, r.score, r.category, r.reason, r.scorer, r.model, r.created_at,
			(SELECT count(DISTINCT lr.link_id) FROM link_reviews lr JOIN links l ON l.id = lr.link_id
			 WHERE lr.domain = d.domain AND lr.domain <> '')
		FROM d LEFT JOIN link_reviews r ON r.id = d.review_id
		WHERE $2::timestamptz IS NULL OR (d.updated_at, d.domain) < ($2, $3)
		ORDER BY d.updated_at DESC, d.domain DESC
		LIMIT $4`, states, at, after.Domain, limit)
	if err != nil {
		return nil, fmt.Errorf("list the domains: %w", err)
	}
	list, err := collect(rows, func(r pgx.Rows) (moderation.DomainEntry, error) {
		var e moderation.DomainEntry
		var actor, reviewID *int64
		var email, category, reason, scorer, model *string
		var score *float32
		var reviewed *time.Time
		err := r.Scan(&e.Domain, &e.State, &e.Category, &e.Note, &actor, &email, &e.UpdatedAt, &e.HeldUntil,
			&reviewID, &score, &category, &reason, &scorer, &model, &reviewed, &e.Links)
		if actor != nil && email != nil {
			e.Actor = &moderation.Actor{ID: *actor, Email: *email}
		}
		if reviewID != nil {
			e.Review = &moderation.ReviewSummary{ID: *reviewID, Score: float64(*score), Category: *category, Reason: *reason,
				Scorer: *scorer, Model: *model, CreatedAt: *reviewed}
		}
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("list the domains: %w", err)
	}
	return list, nil
}
