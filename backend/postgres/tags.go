package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/tag"
)

// TagStore implements tag.Store.
type TagStore struct{ db *DB }

// NewTagStore returns the PostgreSQL tag store.
func NewTagStore(db *DB) *TagStore { return &TagStore{db: db} }

var _ tag.Store = (*TagStore)(nil)

const tagColumns = `id, workspace_id, name, color, created_at`

func scanTag(row pgx.Row) (tag.Tag, error) {
	var t tag.Tag
	err := row.Scan(&t.ID, &t.WorkspaceID, &t.Name, &t.Color, &t.CreatedAt)
	return t, err
}

func tagExists(name string) error {
	return apperr.Errorf(apperr.Conflict, "the workspace has a tag named %q already", name).For("tag_exists", "name")
}

func tagsExceeded(max int) error {
	return apperr.Errorf(apperr.QuotaExceeded, "a workspace has at most %d tags", max).For("tags_exceeded", "tags")
}

// Create implements tag.Store. The count is a bound, not a quota: two creates racing at the
// limit may both pass.
func (s *TagStore) Create(ctx context.Context, t *tag.Tag, max int) (*tag.Tag, error) {
	out, err := scanTag(s.db.Pool.QueryRow(ctx, `
		INSERT INTO tags (workspace_id, name, folded, color)
		SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM tags WHERE workspace_id = $1) < $5
		RETURNING `+tagColumns, t.WorkspaceID, t.Name, tag.Fold(t.Name), t.Color, max))
	switch {
	case err == pgx.ErrNoRows:
		return nil, tagsExceeded(max)
	case isUniqueViolation(err):
		return nil, tagExists(t.Name)
	case isForeignKeyViolation(err):
		return nil, apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	case err != nil:
		return nil, fmt.Errorf("create tag: %w", err)
	}
	return &out, nil
}

// List implements tag.Store.
func (s *TagStore) List(ctx context.Context, workspaceID int64) ([]tag.Tag, error) {
	// Each tag's links counted in link_tags' key (tag_id, link_id): an index-only count.
	rows, err := s.db.Pool.Query(ctx, `SELECT `+tagColumns+`, (SELECT count(*) FROM link_tags lt WHERE lt.tag_id = tags.id)
		FROM tags WHERE workspace_id = $1 ORDER BY folded COLLATE "C", id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	out, err := collect(rows, func(r pgx.Rows) (tag.Tag, error) {
		var t tag.Tag
		var n int64
		err := r.Scan(&t.ID, &t.WorkspaceID, &t.Name, &t.Color, &t.CreatedAt, &n)
		t.LinkCount = &n
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	return out, nil
}

// Update implements tag.Store.
func (s *TagStore) Update(ctx context.Context, workspaceID, id int64, name, color string) (*tag.Tag, error) {
	t, err := scanTag(s.db.Pool.QueryRow(ctx, `
		UPDATE tags SET name = coalesce(nullif($3, ''), name), folded = coalesce(nullif($4, ''), folded),
			color = coalesce(nullif($5, ''), color)
		WHERE workspace_id = $1 AND id = $2
		RETURNING `+tagColumns, workspaceID, id, name, tag.Fold(name), color))
	switch {
	case isUniqueViolation(err):
		return nil, tagExists(name)
	case err != nil:
		return nil, fmt.Errorf("update tag: %w", notFound(err, "tag"))
	}
	return &t, nil
}

// Delete implements tag.Store; the links' rows go with the tag (ON DELETE CASCADE).
func (s *TagStore) Delete(ctx context.Context, workspaceID, id int64) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM tags WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
	if err != nil {
		return fmt.Errorf("delete tag: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Missing("tag")
	}
	return nil
}

// Ensure implements tag.Store: one statement when every tag exists, three when some must be
// made (count, insert, read again: a tag made by another request meanwhile is read, not made
// twice).
func (s *TagStore) Ensure(ctx context.Context, workspaceID int64, names, colors []string, max int) ([]tag.Tag, error) {
	folded := make([]string, len(names))
	for i, n := range names {
		folded[i] = tag.Fold(n)
	}
	have, err := s.Find(ctx, workspaceID, folded)
	if err != nil || len(have) == len(names) {
		return have, err
	}
	found := make(map[string]bool, len(have))
	for _, t := range have {
		found[tag.Fold(t.Name)] = true
	}
	var newNames, newFolded, newColors []string
	for i, f := range folded {
		if !found[f] {
			newNames, newFolded, newColors = append(newNames, names[i]), append(newFolded, f), append(newColors, colors[i])
		}
	}
	var n int
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM tags WHERE workspace_id = $1`, workspaceID).Scan(&n); err != nil {
		return nil, fmt.Errorf("count tags: %w", err)
	}
	if n+len(newNames) > max {
		return nil, tagsExceeded(max)
	}
	_, err = s.db.Pool.Exec(ctx, `
		INSERT INTO tags (workspace_id, name, folded, color)
		SELECT $1, name, folded, color FROM unnest($2::text[], $3::text[], $4::text[]) AS t(name, folded, color)
		ON CONFLICT (workspace_id, folded) DO NOTHING`, workspaceID, newNames, newFolded, newColors)
	if isForeignKeyViolation(err) {
		return nil, apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	}
	if err != nil {
		return nil, fmt.Errorf("create tags: %w", err)
	}
	return s.Find(ctx, workspaceID, folded)
}

// Find implements tag.Store.
func (s *TagStore) Find(ctx context.Context, workspaceID int64, folded []string) ([]tag.Tag, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+tagColumns+` FROM tags WHERE workspace_id = $1 AND folded = ANY($2)`,
		workspaceID, folded)
	if err != nil {
		return nil, fmt.Errorf("find tags: %w", err)
	}
	out, err := collect(rows, func(r pgx.Rows) (tag.Tag, error) { return scanTag(r) })
	if err != nil {
		return nil, fmt.Errorf("find tags: %w", err)
	}
	return out, nil
}
