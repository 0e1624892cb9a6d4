package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/moderation"
)

// What a link's owner is told of its moderation (docs/moderation.md#what-the-owner-is-told):
// who decided, the reason code, a moderator's words, and the answer to an appeal.

// setReviewOutcome records who decided a review's state and its reason code; the words of a
// moderator no longer stand beside the review's state. A banned link that stays banned by a
// moderator's decision keeps what its owner was told.
func setReviewOutcome(ctx context.Context, tx pgx.Tx, linkID int64, r moderation.Review, out moderation.Outcome) error {
	if out.Note == moderation.NoteStaysBanned {
		return nil
	}
	by, code := moderation.ReviewOutcome(r, out.State)
	if _, err := tx.Exec(ctx, `UPDATE link_moderation SET decided_by = $2, reason_code = $3, owner_text = ''
		WHERE link_id = $1`, linkID, by, code); err != nil {
		return fmt.Errorf("record who decided: %w", err)
	}
	return nil
}

// setModeratorOutcome records a moderator's decision as what the owner is told: a ban
// replaces the reason code and words with its own (none when it gives none); other actions
// replace those they give.
func setModeratorOutcome(ctx context.Context, tx pgx.Tx, linkID int64, a moderation.Action, e moderation.Explanation) error {
	if _, err := tx.Exec(ctx, `UPDATE link_moderation SET decided_by = 'moderator',
		reason_code = CASE WHEN $2 OR $3 <> '' THEN $3 ELSE reason_code END,
		owner_text = CASE WHEN $2 OR $4 <> '' THEN $4 ELSE owner_text END
		WHERE link_id = $1`, linkID, a == moderation.Ban, e.Reason, e.ReasonText); err != nil {
		return fmt.Errorf("record who decided: %w", err)
	}
	return nil
}

// answerAppeal closes the link's open appeal with the decision: its outcome (upheld or
// rejected), the moderator's answer to the owner (the owner message, else the words given),
// and the resolution of old (the action and those words). Never the private note. Returns the
// appeal answered, nil when none was open.
func answerAppeal(ctx context.Context, tx pgx.Tx, linkID int64, a moderation.Action, e moderation.Explanation) (*moderation.Appeal, error) {
	answer := e.OwnerMessage
	if answer == "" {
		answer = e.ReasonText
	}
	resolution := string(a)
	if answer != "" {
		resolution += ": " + answer
	}
	ap, err := scanAppeal(tx.QueryRow(ctx, `UPDATE moderation_appeals SET resolved_at = now(), resolution = $2, outcome = $3, answer = $4
		WHERE link_id = $1 AND resolved_at IS NULL RETURNING `+appealColumns, linkID, resolution, moderation.AppealOutcome(a), answer))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("answer the appeal: %w", err)
	}
	return ap, nil
}

// releaseDomainLinks puts back under review the links a moderator's ban of the domain banned
// without a review of their own, now that a moderator cleared it: each is held again (the
// warning page meanwhile) and due for its own review in the browser, which bans or releases
// it. A link a moderator decided on since keeps that decision. Returns the links held again.
func releaseDomainLinks(ctx context.Context, tx pgx.Tx, domain string) ([]int64, error) {
	rows, err := tx.Query(ctx, `
		WITH banned AS (
			SELECT lm.link_id FROM link_moderation lm JOIN links l ON l.id = lm.link_id
			WHERE lm.decided_by = 'domain' AND lm.reason_code = $2 AND l.status = 'banned'
			  AND (SELECT r.domain FROM link_reviews r WHERE r.link_id = lm.link_id ORDER BY r.id DESC LIMIT 1) = $1
			FOR UPDATE OF l),
		held AS (
			UPDATE links l SET status = 'held', updated_at = greatest(now(), l.updated_at + interval '1 microsecond')
			FROM banned b WHERE l.id = b.link_id RETURNING l.id),
		state AS (
			UPDATE link_moderation lm SET state = 'pending', updated_at = now() FROM held h WHERE lm.link_id = h.id)
		INSERT INTO moderation_due AS m (link_id, due_at, reason)
		SELECT id, now(), 'held' FROM held
		ON CONFLICT (link_id) DO UPDATE SET reason = 'held', seq = m.seq + 1, due_at = least(m.due_at, now()),
			attempts = 0, last_error = ''
		RETURNING link_id`, domain, moderation.ReasonDomainBanned)
	if err != nil {
		return nil, fmt.Errorf("hold the cleared domain's links again: %w", err)
	}
	ids, err := collect(rows, func(r pgx.Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, fmt.Errorf("hold the cleared domain's links again: %w", err)
	}
	return ids, nil
}
