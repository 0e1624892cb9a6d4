// Moderators' decisions (moderation_decisions) and the link facts and status they read
// and write, also for the decisions a review makes.

package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
)

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
		if out.Appeal, err = answerAppeal(ctx, tx, linkID, a, e); err != nil {
			return err
		}
		out.AppealAnswered = out.Appeal != nil
		out.Link, err = scanModerated(tx.QueryRow(ctx, `SELECT `+moderatedColumns+` FROM`+moderatedFrom+`WHERE l.id = $1`, linkID))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("decide on link %d: %w", linkID, err)
	}
	return out, nil
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
