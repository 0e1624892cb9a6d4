package postgres

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

var _ auth.SessionStore = (*RefreshTokenStore)(nil)

// DescribeRefresh implements auth.SessionStore.
func (s *RefreshTokenStore) DescribeRefresh(ctx context.Context, hash []byte, d auth.Device) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE refresh_tokens SET browser = nullif($2, ''), os = nullif($3, ''),
		network = nullif($4, '') WHERE token_hash = $1`, hash, d.Browser, d.OS, d.Network)
	if err != nil {
		return fmt.Errorf("describe refresh token: %w", err)
	}
	return nil
}

// Sessions implements auth.SessionStore: a family is live while none of its tokens is
// revoked and its newest has not expired; what it says of its device is its newest token's.
func (s *RefreshTokenStore) Sessions(ctx context.Context, userID int64) ([]auth.Session, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT family, min(created_at), max(created_at),
			coalesce((array_agg(browser ORDER BY created_at DESC, id DESC))[1], ''),
			coalesce((array_agg(os ORDER BY created_at DESC, id DESC))[1], ''),
			coalesce((array_agg(network ORDER BY created_at DESC, id DESC))[1], '')
		FROM refresh_tokens WHERE user_id = $1
		GROUP BY family
		HAVING bool_and(revoked_at IS NULL) AND max(expires_at) > now()
		ORDER BY max(created_at) DESC, family`, userID)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var list []auth.Session
	for rows.Next() {
		var ss auth.Session
		if err := rows.Scan(&ss.ID, &ss.CreatedAt, &ss.LastUsedAt, &ss.Browser, &ss.OS, &ss.Network); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		list = append(list, ss)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return list, nil
}

// RevokeSession implements auth.SessionStore; the user's ID in the WHERE clause keeps one
// person from ending another's session.
func (s *RefreshTokenStore) RevokeSession(ctx context.Context, userID int64, id uuid.UUID) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE refresh_tokens SET revoked_at = now()
		WHERE user_id = $1 AND family = $2 AND revoked_at IS NULL
		  AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family = $2 AND r.revoked_at IS NOT NULL)
		  AND EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family = $2 AND r.expires_at > now())`, userID, id)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Errorf(apperr.NotFound, "session not found").For("session_not_found", "")
	}
	return nil
}

// RevokeSessionsExcept implements auth.SessionStore.
func (s *RefreshTokenStore) RevokeSessionsExcept(ctx context.Context, userID int64, keep uuid.UUID) (int, error) {
	var n int
	err := s.db.Pool.QueryRow(ctx, `WITH revoked AS (
			UPDATE refresh_tokens SET revoked_at = now()
			WHERE user_id = $1 AND family <> $2 AND revoked_at IS NULL
			RETURNING family)
		SELECT count(DISTINCT family) FROM revoked`, userID, keep).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("revoke other sessions: %w", err)
	}
	return n, nil
}

// SessionLive implements auth.SessionStore.
func (s *RefreshTokenStore) SessionLive(ctx context.Context, id uuid.UUID) (bool, error) {
	var live bool
	err := s.db.Pool.QueryRow(ctx, `SELECT
			NOT EXISTS (SELECT 1 FROM refresh_tokens WHERE family = $1 AND revoked_at IS NOT NULL)
			AND EXISTS (SELECT 1 FROM refresh_tokens WHERE family = $1 AND expires_at > now())`, id).Scan(&live)
	if err != nil {
		return false, fmt.Errorf("session live: %w", err)
	}
	return live, nil
}
