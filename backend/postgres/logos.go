package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/qr"
)

// LogoStore implements qr.LogoStore.
type LogoStore struct{ db *DB }

// NewLogoStore returns the PostgreSQL store of workspaces' logos.
func NewLogoStore(db *DB) *LogoStore { return &LogoStore{db: db} }

var _ qr.LogoStore = (*LogoStore)(nil)

// Get implements qr.LogoStore.
func (s *LogoStore) Get(ctx context.Context, workspaceID int64) ([]byte, error) {
	var data []byte
	err := s.db.Pool.QueryRow(ctx, `SELECT data FROM workspace_logos WHERE workspace_id = $1`, workspaceID).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.Errorf(apperr.NotFound, "this workspace has no logo").For("logo_missing", "logo")
	}
	if err != nil {
		return nil, fmt.Errorf("get logo: %w", err)
	}
	return data, nil
}

// Put implements qr.LogoStore.
func (s *LogoStore) Put(ctx context.Context, workspaceID int64, png []byte) error {
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO workspace_logos (workspace_id, content_type, data) VALUES ($1, 'image/png', $2)
		ON CONFLICT (workspace_id) DO UPDATE SET content_type = EXCLUDED.content_type, data = EXCLUDED.data, updated_at = now()`,
		workspaceID, png)
	if isForeignKeyViolation(err) {
		return apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	}
	if err != nil {
		return fmt.Errorf("put logo: %w", err)
	}
	return nil
}

// Delete implements qr.LogoStore.
func (s *LogoStore) Delete(ctx context.Context, workspaceID int64) error {
	if _, err := s.db.Pool.Exec(ctx, `DELETE FROM workspace_logos WHERE workspace_id = $1`, workspaceID); err != nil {
		return fmt.Errorf("delete logo: %w", err)
	}
	return nil
}
