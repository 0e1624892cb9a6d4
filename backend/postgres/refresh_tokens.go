package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// RefreshTokenStore implements auth.RefreshStore.
type RefreshTokenStore struct{ db *DB }

// NewRefreshTokenStore returns the PostgreSQL refresh-token store.
func NewRefreshTokenStore(db *DB) *RefreshTokenStore { return &RefreshTokenStore{db: db} }

var _ auth.RefreshStore = (*RefreshTokenStore)(nil)

// CreateRefresh implements auth.RefreshStore.
func (s *RefreshTokenStore) CreateRefresh(ctx context.Context, userID int64, family uuid.UUID, hash []byte, expires time.Time, via auth.Via) error {
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO refresh_tokens (user_id, family, token_hash, expires_at, signed_in_with)
		VALUES ($1, $2, $3, $4, $5)`, userID, family, hash, expires, string(via))
	if err != nil {
		return fmt.Errorf("create refresh token: %w", err)
	}
	return nil
}

var errNoRefresh = apperr.Errorf(apperr.NotFound, "refresh token not found or expired").For("refresh_invalid", "")

// RotateRefresh implements auth.RefreshStore. One statement marks the token used and stores
// its successor, so whoever sees the token used also finds the successor stored. The UPDATE
// is the check: of two requests racing with one token, exactly one marks it used; the other
// sees it used, with its successor and how long ago. A family with any revoked token is dead
// as a whole.
func (s *RefreshTokenStore) RotateRefresh(ctx context.Context, hash, next []byte, expires time.Time) (auth.RefreshUse, error) {
	var u auth.RefreshUse
	err := s.db.Pool.QueryRow(ctx, `WITH used AS (
			UPDATE refresh_tokens t SET used_at = now(), replaced_by = $2
			WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
			  AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family = t.family AND r.revoked_at IS NOT NULL)
			RETURNING user_id, family, signed_in_with)
		INSERT INTO refresh_tokens (user_id, family, token_hash, expires_at, signed_in_with)
		SELECT user_id, family, $2, $3, signed_in_with FROM used
		RETURNING user_id, family`, hash, next, expires).Scan(&u.UserID, &u.Family)
	if err == nil {
		return u, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return u, fmt.Errorf("rotate refresh token: %w", err)
	}
	var usedAgo *float64
	err = s.db.Pool.QueryRow(ctx, `SELECT user_id, family, used_at IS NOT NULL OR revoked_at IS NOT NULL,
			EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family = t.family AND r.revoked_at IS NOT NULL),
			extract(epoch FROM now() - used_at)::float8, replaced_by
		FROM refresh_tokens t WHERE token_hash = $1`, hash).Scan(&u.UserID, &u.Family, &u.Reused, &u.Revoked, &usedAgo, &u.Successor)
	if errors.Is(err, pgx.ErrNoRows) {
		return auth.RefreshUse{}, errNoRefresh
	}
	if err != nil {
		return auth.RefreshUse{}, fmt.Errorf("rotate refresh token: %w", err)
	}
	if !u.Reused {
		return auth.RefreshUse{}, errNoRefresh // expired, or live in a revoked family
	}
	if usedAgo != nil {
		u.UsedAgo = time.Duration(*usedAgo * float64(time.Second))
	}
	return u, nil
}

// RevokeFamily implements auth.RefreshStore.
func (s *RefreshTokenStore) RevokeFamily(ctx context.Context, family uuid.UUID) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE refresh_tokens SET revoked_at = now()
		WHERE family = $1 AND revoked_at IS NULL`, family)
	if err != nil {
		return fmt.Errorf("revoke refresh tokens: %w", err)
	}
	return nil
}

// RevokeFamilyOf implements auth.RefreshStore.
func (s *RefreshTokenStore) RevokeFamilyOf(ctx context.Context, hash []byte) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE refresh_tokens SET revoked_at = now()
		WHERE revoked_at IS NULL AND family = (SELECT family FROM refresh_tokens WHERE token_hash = $1)`, hash)
	if err != nil {
		return fmt.Errorf("revoke refresh tokens: %w", err)
	}
	return nil
}

// PurgeExpired deletes the sessions (token families) whose newest token has expired, and
// answers how many tokens went. A family goes whole: its used and revoked tokens are what
// catch the replay of a token that is still live.
func (s *RefreshTokenStore) PurgeExpired(ctx context.Context) (int64, error) {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM refresh_tokens WHERE family IN (
		SELECT family FROM refresh_tokens GROUP BY family HAVING max(expires_at) < now())`)
	if err != nil {
		return 0, fmt.Errorf("purge expired refresh tokens: %w", err)
	}
	if _, err := s.db.Pool.Exec(ctx, `DELETE FROM session_activity a
		WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.family = a.family)`); err != nil {
		return 0, fmt.Errorf("purge the activity of purged sessions: %w", err)
	}
	return tag.RowsAffected(), nil
}

// revokeSessions revokes every refresh-token family of the user.
func revokeSessions(ctx context.Context, tx pgx.Tx, userID int64) error {
	if _, err := tx.Exec(ctx, `UPDATE refresh_tokens SET revoked_at = now()
		WHERE user_id = $1 AND revoked_at IS NULL`, userID); err != nil {
		return fmt.Errorf("revoke sessions: %w", err)
	}
	return nil
}
