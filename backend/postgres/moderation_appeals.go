// Owners' appeals of flagged or banned links (moderation_appeals) and the queue of open ones.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/locale"
	"github.com/shortlink/shortlink/backend/moderation"
)

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

// AppealReaders implements moderation.AppealReaders: the first owner as the desk shows it
// (Moderation.whose), and the one who appealed while still a member of the workspace.
func (s *Moderation) AppealReaders(ctx context.Context, workspaceID int64, appellant *int64) ([]locale.Recipient, error) {
	out, err := queryAll(ctx, s.db.Pool, pgx.RowToStructByPos[locale.Recipient], `
		SELECT u.email, u.language FROM members m JOIN users u ON u.id = m.user_id
		JOIN workspaces w ON w.id = m.workspace_id AND w.deleted_at IS NULL
		WHERE m.workspace_id = $1 AND (m.user_id = $2 OR m.user_id = (
			SELECT o.user_id FROM members o WHERE o.workspace_id = $1 AND o.role = 'owner'
			ORDER BY o.created_at, o.user_id LIMIT 1))
		ORDER BY m.role = 'owner' DESC, m.created_at, m.user_id`, workspaceID, appellant)
	if err != nil {
		return nil, fmt.Errorf("read who is told of an appeal's answer: %w", err)
	}
	return out, nil
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
