package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/imports"
)

// Failures implements imports.Store: the failed rows along the primary key (import_id, row_no),
// the workspace in the condition as in every query of tenant data.
func (s *ImportStore) Failures(ctx context.Context, workspaceID, id, after int64, limit int) ([]imports.Result, bool, error) {
	rows, err := s.db.Pool.Query(ctx, `
		SELECT row_no, line, url, coalesce(link_id, 0), coalesce(short_url, ''), coalesce(error_code, ''), coalesce(error, '')
		FROM import_rows WHERE workspace_id = $1 AND import_id = $2 AND row_no > $3 AND error_code IS NOT NULL
		ORDER BY row_no LIMIT $4`, workspaceID, id, after, limit+1)
	if err != nil {
		return nil, false, fmt.Errorf("list an import's failed rows: %w", err)
	}
	list, err := pgx.CollectRows(rows, scanResult)
	if err != nil {
		return nil, false, fmt.Errorf("list an import's failed rows: %w", err)
	}
	list, more := trimPage(list, limit)
	return list, more, nil
}
