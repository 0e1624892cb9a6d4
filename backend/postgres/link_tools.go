package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/share"
)

// archiveSet is the SET clause that archives links (archived true: a link archived already
// keeps the time it was archived) or brings them back (false); it appends its argument.
func archiveSet(args *[]any, archived bool) string {
	*args = append(*args, archived)
	return "archived_at = CASE WHEN $" + strconv.Itoa(len(*args)) + "::bool THEN coalesce(archived_at, now()) ELSE NULL END"
}

// ShareStore implements share.Store.
type ShareStore struct{ db *DB }

// NewShareStore returns the PostgreSQL store of links' shared statistics.
func NewShareStore(db *DB) *ShareStore { return &ShareStore{db: db} }

var _ share.Store = (*ShareStore)(nil)

const shareColumns = `id, workspace_id, link_id, created_by, created_at`

func scanShare(row pgx.Row) (share.Share, error) {
	var s share.Share
	err := row.Scan(&s.ID, &s.WorkspaceID, &s.LinkID, &s.CreatedBy, &s.CreatedAt)
	return s, err
}

// Create implements share.Store: the link must be the workspace's, and the count is checked in
// the same statement under the link's row lock, so two creates at the bound cannot both pass.
func (s *ShareStore) Create(ctx context.Context, sh *share.Share, max int) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		var n int
		err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM link_shares WHERE link_id = l.id)
			FROM links l WHERE l.workspace_id = $1 AND l.id = $2 FOR UPDATE OF l`, sh.WorkspaceID, sh.LinkID).Scan(&n)
		if err != nil {
			return fmt.Errorf("share link: %w", notFound(err, "link"))
		}
		if n >= max {
			return apperr.Errorf(apperr.Conflict, "a link has at most %d shares: revoke one first", max).For("shares_too_many", "")
		}
		_, err = tx.Exec(ctx, `INSERT INTO link_shares (id, workspace_id, link_id, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5)`, sh.ID, sh.WorkspaceID, sh.LinkID, sh.CreatedBy, sh.CreatedAt)
		if err != nil {
			return fmt.Errorf("share link: %w", err)
		}
		return nil
	})
}

// List implements share.Store.
func (s *ShareStore) List(ctx context.Context, workspaceID, linkID int64) ([]share.Share, error) {
	out, err := queryAll(ctx, s.db.Pool, asRow(scanShare), `SELECT `+shareColumns+` FROM link_shares
		WHERE workspace_id = $1 AND link_id = $2 ORDER BY created_at, id`, workspaceID, linkID)
	if err != nil {
		return nil, fmt.Errorf("list shares: %w", err)
	}
	return out, nil
}

// Delete implements share.Store.
func (s *ShareStore) Delete(ctx context.Context, workspaceID, linkID int64, id string) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM link_shares WHERE workspace_id = $1 AND link_id = $2 AND id = $3`,
		workspaceID, linkID, id)
	if err != nil {
		return fmt.Errorf("revoke share: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Missing("share")
	}
	return nil
}

// Find implements share.Store: the public read, across workspaces by design (the ID is the
// credential). A deleted workspace's shares are not found, while its links are being removed.
func (s *ShareStore) Find(ctx context.Context, id string) (*share.Share, error) {
	sh, err := scanShare(s.db.Pool.QueryRow(ctx, `SELECT s.id, s.workspace_id, s.link_id, s.created_by, s.created_at
		FROM link_shares s JOIN workspaces w ON w.id = s.workspace_id AND w.deleted_at IS NULL WHERE s.id = $1`, id))
	if err != nil {
		return nil, fmt.Errorf("find share: %w", notFound(err, "share"))
	}
	return &sh, nil
}
