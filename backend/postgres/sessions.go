package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

var _ auth.SessionStore = (*RefreshTokenStore)(nil)

// DescribeRefresh implements auth.SessionStore.
func (s *RefreshTokenStore) DescribeRefresh(ctx context.Context, hash []byte, d auth.Device) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE refresh_tokens SET browser = nullif($2, ''), os = nullif($3, ''),
		network = nullif($4, ''), ip_hash = nullif($5, '') WHERE token_hash = $1`, hash, d.Browser, d.OS, d.Network, d.IPHash)
	if err != nil {
		return fmt.Errorf("describe refresh token: %w", err)
	}
	return nil
}

// Sessions implements auth.SessionStore: a family is live while none of its tokens is
// revoked and its newest has not expired; what it says of its device is its newest token's.
func (s *RefreshTokenStore) Sessions(ctx context.Context, userID int64) ([]auth.Session, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT t.family, min(t.created_at), max(t.created_at),
			coalesce((array_agg(t.browser ORDER BY t.created_at DESC, t.id DESC))[1], ''),
			coalesce((array_agg(t.os ORDER BY t.created_at DESC, t.id DESC))[1], ''),
			coalesce((array_agg(t.network ORDER BY t.created_at DESC, t.id DESC))[1], ''),
			max(t.expires_at),
			coalesce((array_agg(t.ip_hash ORDER BY t.created_at DESC, t.id DESC))[1], ''),
			coalesce(min(a.last_active_at), '-infinity')
		FROM refresh_tokens t LEFT JOIN session_activity a ON a.family = t.family
		WHERE t.user_id = $1
		GROUP BY t.family
		HAVING bool_and(t.revoked_at IS NULL) AND max(t.expires_at) > now()
		ORDER BY max(t.created_at) DESC, t.family`, userID)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var list []auth.Session
	for rows.Next() {
		var ss auth.Session
		var last pgtype.Timestamptz
		if err := rows.Scan(&ss.ID, &ss.CreatedAt, &ss.LastUsedAt, &ss.Browser, &ss.OS, &ss.Network,
			&ss.ExpiresAt, &ss.IPHash, &last); err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		if last.Valid && last.InfinityModifier == pgtype.Finite {
			ss.LastActiveAt = last.Time
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

// SessionState implements auth.SessionStore.
func (s *RefreshTokenStore) SessionState(ctx context.Context, id uuid.UUID) (auth.SessionState, error) {
	var st auth.SessionState
	var started, last pgtype.Timestamptz
	err := s.db.Pool.QueryRow(ctx, `SELECT
			NOT EXISTS (SELECT 1 FROM refresh_tokens WHERE family = $1 AND revoked_at IS NOT NULL)
			AND EXISTS (SELECT 1 FROM refresh_tokens WHERE family = $1 AND expires_at > now()),
			coalesce((SELECT started_at FROM session_activity WHERE family = $1),
				(SELECT min(created_at) FROM refresh_tokens WHERE family = $1)),
			(SELECT last_active_at FROM session_activity WHERE family = $1)`, id).Scan(&st.Live, &started, &last)
	if err != nil {
		return auth.SessionState{}, fmt.Errorf("session state: %w", err)
	}
	st.StartedAt, st.LastActiveAt = started.Time, last.Time
	return st, nil
}

// SessionStarted implements auth.SessionStore.
func (s *RefreshTokenStore) SessionStarted(ctx context.Context, id uuid.UUID, at time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO session_activity (family, started_at) VALUES ($1, $2)
		ON CONFLICT (family) DO UPDATE SET started_at = excluded.started_at`, id, at)
	if err != nil {
		return fmt.Errorf("record the start of a session: %w", err)
	}
	return nil
}

// RecordActivity implements auth.SessionStore: one statement for every session given.
func (s *RefreshTokenStore) RecordActivity(ctx context.Context, seen map[uuid.UUID]time.Time) error {
	ids := make([]uuid.UUID, 0, len(seen))
	at := make([]time.Time, 0, len(seen))
	for id, t := range seen {
		ids = append(ids, id)
		at = append(at, t)
	}
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO session_activity (family, last_active_at)
		SELECT * FROM unnest($1::uuid[], $2::timestamptz[])
		ON CONFLICT (family) DO UPDATE SET last_active_at = greatest(session_activity.last_active_at, excluded.last_active_at)`, ids, at)
	if err != nil {
		return fmt.Errorf("record session activity: %w", err)
	}
	return nil
}

// RevokeMembersSessions implements auth.SessionStore; the workspace in the WHERE clause keeps
// it to the workspace's own members.
func (s *RefreshTokenStore) RevokeMembersSessions(ctx context.Context, workspaceID int64, keep uuid.UUID) (int, int, error) {
	var sessions, people int
	err := s.db.Pool.QueryRow(ctx, `WITH revoked AS (
			UPDATE refresh_tokens SET revoked_at = now()
			WHERE user_id IN (SELECT user_id FROM members WHERE workspace_id = $1)
			  AND family <> $2 AND revoked_at IS NULL
			RETURNING family, user_id)
		SELECT count(DISTINCT family), count(DISTINCT user_id) FROM revoked`, workspaceID, keep).Scan(&sessions, &people)
	if err != nil {
		return 0, 0, fmt.Errorf("revoke the members' sessions: %w", err)
	}
	return sessions, people, nil
}
