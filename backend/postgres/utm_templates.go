package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

// UTMTemplateStore implements link.UTMTemplateStore.
type UTMTemplateStore struct{ db *DB }

// NewUTMTemplateStore returns the PostgreSQL store of UTM templates.
func NewUTMTemplateStore(db *DB) *UTMTemplateStore { return &UTMTemplateStore{db: db} }

var _ link.UTMTemplateStore = (*UTMTemplateStore)(nil)

// Create implements link.UTMTemplateStore. The count is a bound, not a quota: two creates
// racing at the limit may both pass.
func (s *UTMTemplateStore) Create(ctx context.Context, t *link.UTMTemplate, limit int) error {
	utm, err := json.Marshal(t.UTM)
	if err != nil {
		return fmt.Errorf("create utm template: %w", err)
	}
	err = s.db.Pool.QueryRow(ctx, `
		INSERT INTO utm_templates (workspace_id, name, utm)
		SELECT $1, $2, $3::jsonb WHERE (SELECT count(*) FROM utm_templates WHERE workspace_id = $1) < $4
		RETURNING id, created_at`, t.WorkspaceID, t.Name, string(utm), limit).Scan(&t.ID, &t.CreatedAt)
	switch {
	case err == pgx.ErrNoRows:
		return apperr.Errorf(apperr.QuotaExceeded, "this workspace has %d UTM templates, the most it may have", limit).For("utm_templates_exceeded", "")
	case isUniqueViolation(err):
		return apperr.Errorf(apperr.Conflict, "a UTM template named %q exists already", t.Name).For("utm_template_name_taken", "name")
	case isForeignKeyViolation(err):
		return apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	case err != nil:
		return fmt.Errorf("create utm template: %w", err)
	}
	return nil
}

// List implements link.UTMTemplateStore.
func (s *UTMTemplateStore) List(ctx context.Context, workspaceID int64) ([]*link.UTMTemplate, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id, workspace_id, name, utm, created_at FROM utm_templates
		WHERE workspace_id = $1 ORDER BY name, id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list utm templates: %w", err)
	}
	defer rows.Close()
	out := []*link.UTMTemplate{}
	for rows.Next() {
		var t link.UTMTemplate
		var utm []byte
		if err := rows.Scan(&t.ID, &t.WorkspaceID, &t.Name, &utm, &t.CreatedAt); err != nil {
			return nil, fmt.Errorf("list utm templates: %w", err)
		}
		if err := json.Unmarshal(utm, &t.UTM); err != nil {
			return nil, fmt.Errorf("list utm templates: template %d: %w", t.ID, err)
		}
		out = append(out, &t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list utm templates: %w", err)
	}
	return out, nil
}

// Delete implements link.UTMTemplateStore.
func (s *UTMTemplateStore) Delete(ctx context.Context, workspaceID, id int64) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM utm_templates WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
	if err != nil {
		return fmt.Errorf("delete utm template: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Errorf(apperr.NotFound, "UTM template not found").For("utm_template_not_found", "")
	}
	return nil
}
