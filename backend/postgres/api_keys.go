package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/account"
)

const apiKeyColumns = `id, workspace_id, name, prefix, scopes, created_by, created_at, last_used_at, revoked_at,
	revoked_reason`

func scanAPIKey(r pgx.Row, extra ...any) (*account.APIKey, error) {
	var k account.APIKey
	return &k, r.Scan(append([]any{&k.ID, &k.WorkspaceID, &k.Name, &k.Prefix, &k.Scopes, &k.CreatedBy, &k.CreatedAt,
		&k.LastUsedAt, &k.RevokedAt, &k.RevokedReason}, extra...)...)
}

// CreateAPIKey implements account.Store.
func (s *AccountStore) CreateAPIKey(ctx context.Context, k *account.APIKey, hash []byte) (*account.APIKey, error) {
	out, err := scanAPIKey(s.db.Pool.QueryRow(ctx, `INSERT INTO api_keys
		(workspace_id, name, prefix, key_hash, scopes, created_by) VALUES ($1, $2, $3, $4, $5, $6)
		RETURNING `+apiKeyColumns, k.WorkspaceID, k.Name, k.Prefix, hash, k.Scopes, k.CreatedBy))
	if err != nil {
		return nil, fmt.Errorf("create api key: %w", err)
	}
	return out, nil
}

// APIKeys implements account.Store.
func (s *AccountStore) APIKeys(ctx context.Context, workspaceID int64, withRevoked bool) ([]*account.APIKey, error) {
	keys, err := queryAll(ctx, s.db.Pool, func(r pgx.CollectableRow) (*account.APIKey, error) { return scanAPIKey(r) },
		`SELECT `+apiKeyColumns+` FROM api_keys
		WHERE workspace_id = $1 AND ($2 OR revoked_at IS NULL) ORDER BY id`, workspaceID, withRevoked)
	if err != nil {
		return nil, fmt.Errorf("api keys: %w", err)
	}
	return keys, nil
}

// RevokeAPIKey implements account.Store.
func (s *AccountStore) RevokeAPIKey(ctx context.Context, workspaceID, id int64) error {
	return exactlyOne(ctx, s.db, "revoke api key", "API key", `UPDATE api_keys SET revoked_at = now(),
		revoked_reason = $3 WHERE workspace_id = $1 AND id = $2 AND revoked_at IS NULL`,
		workspaceID, id, account.RevokedByManager)
}

// RevokeKeysCreatedBy implements account.Store.
func (s *AccountStore) RevokeKeysCreatedBy(ctx context.Context, userID, workspaceID int64, reason string) ([]int64, error) {
	return revokeKeysCreatedBy(ctx, s.db.Pool, userID, workspaceID, reason)
}

// revokeKeysCreatedBy revokes, for reason, the live keys the user made in the workspace (in
// every workspace when workspaceID is 0), inside a transaction or not, and returns their IDs.
func revokeKeysCreatedBy(ctx context.Context, q querier, userID, workspaceID int64, reason string) ([]int64, error) {
	rows, err := q.Query(ctx, `UPDATE api_keys SET revoked_at = now(), revoked_reason = $3
		WHERE created_by = $1 AND ($2::bigint = 0 OR workspace_id = $2) AND revoked_at IS NULL
		RETURNING id`, userID, workspaceID, reason)
	if err != nil {
		return nil, fmt.Errorf("revoke keys created by user: %w", err)
	}
	ids, err := collect(rows, func(r pgx.Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, fmt.Errorf("revoke keys created by user: %w", err)
	}
	return ids, nil
}

// querier is what a statement needs: the pool, or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// APIKeyByHash implements account.Store. It is the one lookup not scoped by workspace: the
// key is what tells which workspace the caller is in.
func (s *AccountStore) APIKeyByHash(ctx context.Context, hash []byte) (*account.APIKey, error) {
	var role *string
	k, err := scanAPIKey(s.db.Pool.QueryRow(ctx, `SELECT `+apiKeyColumns+`, (SELECT m.role FROM members m
		WHERE m.workspace_id = api_keys.workspace_id AND m.user_id = api_keys.created_by)
		FROM api_keys WHERE key_hash = $1`, hash), &role)
	if err != nil {
		return nil, fmt.Errorf("api key by hash: %w", notFound(err, "API key"))
	}
	if role != nil {
		k.CreatorRole = *role
	}
	return k, nil
}

// TouchAPIKey implements account.Store. Clocks of nodes differ a little: the column only
// moves forward.
func (s *AccountStore) TouchAPIKey(ctx context.Context, workspaceID, id int64, at time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE api_keys SET last_used_at = $3 WHERE workspace_id = $1 AND id = $2
		AND (last_used_at IS NULL OR last_used_at < $3)`, workspaceID, id, at)
	if err != nil {
		return fmt.Errorf("touch api key: %w", err)
	}
	return nil
}
