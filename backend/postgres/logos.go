package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/qr"
)

// LogoStore implements qr.LogoStore.
type LogoStore struct{ db *DB }

// NewLogoStore returns the PostgreSQL store of workspaces' logos.
func NewLogoStore(db *DB) *LogoStore { return &LogoStore{db: db} }

var _ qr.LogoStore = (*LogoStore)(nil)

// Get implements qr.LogoStore. A logo's version is the microsecond it was stored.
func (s *LogoStore) Get(ctx context.Context, workspaceID int64) (qr.Logo, error) {
	var l qr.Logo
	var at time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT data, updated_at FROM workspace_logos WHERE workspace_id = $1`, workspaceID).Scan(&l.Data, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return qr.Logo{}, errLogoMissing()
	}
	if err != nil {
		return qr.Logo{}, fmt.Errorf("get logo: %w", err)
	}
	l.Version = at.UnixMicro()
	return l, nil
}

// Version implements qr.LogoStore.
func (s *LogoStore) Version(ctx context.Context, workspaceID int64) (int64, error) {
	var at time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT updated_at FROM workspace_logos WHERE workspace_id = $1`, workspaceID).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, errLogoMissing()
	}
	if err != nil {
		return 0, fmt.Errorf("get logo version: %w", err)
	}
	return at.UnixMicro(), nil
}

func errLogoMissing() error {
	return apperr.Errorf(apperr.NotFound, "this workspace has no logo").For("logo_missing", "logo")
}

// Replace implements qr.LogoStore: updated_at, the version, is the condition and stays.
func (s *LogoStore) Replace(ctx context.Context, workspaceID, version int64, png []byte) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE workspace_logos SET data = $3 WHERE workspace_id = $1 AND updated_at = $2`,
		workspaceID, time.UnixMicro(version), png)
	if err != nil {
		return fmt.Errorf("replace logo: %w", err)
	}
	return nil
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
