// Moderators' decisions on whole destination domains (moderation_domains).

package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/moderation"
)

// DomainState implements moderation.Store.
func (s *Moderation) DomainState(ctx context.Context, domain string) (state, category string, err error) {
	err = s.db.Pool.QueryRow(ctx, `SELECT state, category FROM moderation_domains WHERE domain = $1`, domain).Scan(&state, &category)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("read a domain's decision: %w", err)
	}
	return state, category, nil
}

// SetDomain implements moderation.DomainStore.
// The ban's category is also the reason of its entry in the audit log.
func (s *Moderation) SetDomain(ctx context.Context, domain, state, category string, actorID int64, note string) (*moderation.DomainDecision, error) {
	action := moderation.ActionBanDomain
	if state == moderation.DomainCleared {
		action = moderation.ActionClearDomain
	}
	var out *moderation.DomainDecision
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO moderation_domains AS m (domain, state, category, note, actor_id, updated_at)
			VALUES ($1, $2, $3, $4, $5, now()) ON CONFLICT (domain) DO UPDATE SET state = EXCLUDED.state,
			category = EXCLUDED.category, note = EXCLUDED.note, actor_id = EXCLUDED.actor_id, updated_at = now()`,
			domain, state, category, note, actorID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO moderation_decisions (link_id, workspace_id, actor_id, action, state, note, domain, reason)
			VALUES (0, 0, $1, $2, $3, $4, $5, $6)`, actorID, action, state, note, domain, category); err != nil {
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

func domainDecisions(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, tail string, args ...any) ([]moderation.DomainDecision, error) {
	rows, err := q.Query(ctx, `SELECT m.domain, m.state, m.category, m.note, m.actor_id, u.email, m.updated_at
		FROM moderation_domains m LEFT JOIN users u ON u.id = m.actor_id `+tail, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(r pgx.Rows) (moderation.DomainDecision, error) {
		var d moderation.DomainDecision
		var actor *int64
		var email *string
		err := r.Scan(&d.Domain, &d.State, &d.Category, &d.Note, &actor, &email, &d.UpdatedAt)
		if actor != nil && email != nil {
			d.Actor = &moderation.Actor{ID: *actor, Email: *email}
		}
		return d, err
	})
}
