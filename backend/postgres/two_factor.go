package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// TwoFactorStore implements auth.TwoFactorStore.
type TwoFactorStore struct{ db *DB }

// NewTwoFactorStore returns the PostgreSQL store of TOTP secrets, recovery codes and sign-in
// challenges.
func NewTwoFactorStore(db *DB) *TwoFactorStore { return &TwoFactorStore{db: db} }

var _ auth.TwoFactorStore = (*TwoFactorStore)(nil)

// PendingTOTP implements auth.TwoFactorStore: an enabled secret is never replaced.
func (s *TwoFactorStore) PendingTOTP(ctx context.Context, userID int64, sealed []byte) error {
	tag, err := s.db.Pool.Exec(ctx, `INSERT INTO user_totp (user_id, secret) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, last_step = 0, created_at = now()
		WHERE user_totp.enabled_at IS NULL`, userID, sealed)
	if err != nil {
		return fmt.Errorf("store pending totp: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Errorf(apperr.Conflict, "two-factor sign-in is on already: turn it off first").For("two_factor_enabled", "")
	}
	return nil
}

// TOTP implements auth.TwoFactorStore.
func (s *TwoFactorStore) TOTP(ctx context.Context, userID int64) (auth.TOTPState, error) {
	var st auth.TOTPState
	err := s.db.Pool.QueryRow(ctx, `SELECT secret, enabled_at IS NOT NULL, last_step FROM user_totp
		WHERE user_id = $1`, userID).Scan(&st.Sealed, &st.Enabled, &st.LastStep)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, apperr.Errorf(apperr.NotFound, "no totp secret").For("two_factor_off", "")
	}
	if err != nil {
		return st, fmt.Errorf("read totp: %w", err)
	}
	return st, nil
}

// EnableTOTP implements auth.TwoFactorStore, in one transaction.
func (s *TwoFactorStore) EnableTOTP(ctx context.Context, userID, step int64, recovery [][]byte) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE user_totp SET enabled_at = now(), last_step = $2
			WHERE user_id = $1 AND enabled_at IS NULL`, userID, step)
		if err != nil {
			return fmt.Errorf("enable totp: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return apperr.Errorf(apperr.Conflict, "start the enrolment first").For("two_factor_not_pending", "")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("replace recovery codes: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO user_recovery_codes (user_id, code_hash)
			SELECT $1, h FROM unnest($2::bytea[]) AS h`, userID, recovery); err != nil {
			return fmt.Errorf("store recovery codes: %w", err)
		}
		return nil
	})
}

// AcceptStep implements auth.TwoFactorStore: the UPDATE is the check, so of two requests
// with one code only one is accepted.
func (s *TwoFactorStore) AcceptStep(ctx context.Context, userID, step int64) (bool, error) {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE user_totp SET last_step = $2
		WHERE user_id = $1 AND enabled_at IS NOT NULL AND last_step < $2`, userID, step)
	if err != nil {
		return false, fmt.Errorf("accept totp step: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// DisableTOTP implements auth.TwoFactorStore.
func (s *TwoFactorStore) DisableTOTP(ctx context.Context, userID int64) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("delete recovery codes: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM user_totp WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("delete totp: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM mfa_challenges WHERE user_id = $1`, userID); err != nil {
			return fmt.Errorf("delete sign-in challenges: %w", err)
		}
		return nil
	})
}

// UseRecoveryCode implements auth.TwoFactorStore.
func (s *TwoFactorStore) UseRecoveryCode(ctx context.Context, userID int64, hash []byte) (bool, error) {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE user_recovery_codes SET used_at = now()
		WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`, userID, hash)
	if err != nil {
		return false, fmt.Errorf("use recovery code: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// CreateChallenge implements auth.TwoFactorStore; expired challenges are cleared on the way.
func (s *TwoFactorStore) CreateChallenge(ctx context.Context, hash []byte, step auth.SecondStep, expires time.Time) error {
	if _, err := s.db.Pool.Exec(ctx, `DELETE FROM mfa_challenges WHERE expires_at < now() - interval '1 hour'`); err != nil {
		return fmt.Errorf("clear sign-in challenges: %w", err)
	}
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO mfa_challenges (token_hash, user_id, expires_at, sso_workspace_id)
		VALUES ($1, $2, $3, nullif($4, 0))`, hash, step.UserID, expires, step.SSOWorkspace)
	if err != nil {
		return fmt.Errorf("create sign-in challenge: %w", err)
	}
	return nil
}

// Challenge implements auth.TwoFactorStore.
func (s *TwoFactorStore) Challenge(ctx context.Context, hash []byte) (auth.SecondStep, error) {
	var st auth.SecondStep
	err := s.db.Pool.QueryRow(ctx, `SELECT user_id, coalesce(sso_workspace_id, 0) FROM mfa_challenges
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`, hash).Scan(&st.UserID, &st.SSOWorkspace)
	if errors.Is(err, pgx.ErrNoRows) {
		return st, apperr.Errorf(apperr.NotFound, "no such sign-in").For("mfa_token_invalid", "mfa_token")
	}
	if err != nil {
		return st, fmt.Errorf("read sign-in challenge: %w", err)
	}
	return st, nil
}

// UseChallenge implements auth.TwoFactorStore.
func (s *TwoFactorStore) UseChallenge(ctx context.Context, hash []byte) (bool, error) {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE mfa_challenges SET used_at = now()
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`, hash)
	if err != nil {
		return false, fmt.Errorf("use sign-in challenge: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// GuardCodes implements auth.TwoFactorStore: the row is locked (FOR UPDATE) from its read to
// its write, so the codes of one person are counted one after the other on every node.
func (s *TwoFactorStore) GuardCodes(ctx context.Context, userID int64, decide func(auth.CodeGuard) auth.CodeGuard) error {
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO second_factor_guards (user_id) VALUES ($1)
			ON CONFLICT (user_id) DO NOTHING`, userID); err != nil {
			return err
		}
		var g auth.CodeGuard
		var until *time.Time
		if err := tx.QueryRow(ctx, `SELECT attempts, lockouts, locked_until FROM second_factor_guards
			WHERE user_id = $1 FOR UPDATE`, userID).Scan(&g.Attempts, &g.Lockouts, &until); err != nil {
			return err
		}
		if until != nil {
			g.LockedUntil = *until
		}
		n := decide(g)
		if n == g {
			return nil
		}
		var next *time.Time
		if !n.LockedUntil.IsZero() {
			next = &n.LockedUntil
		}
		_, err := tx.Exec(ctx, `UPDATE second_factor_guards SET attempts = $2, lockouts = $3, locked_until = $4,
			updated_at = now() WHERE user_id = $1`, userID, n.Attempts, n.Lockouts, next)
		return err
	})
	if err != nil {
		return fmt.Errorf("count second-factor code: %w", err)
	}
	return nil
}

// ClearCodeGuard implements auth.TwoFactorStore.
func (s *TwoFactorStore) ClearCodeGuard(ctx context.Context, userID int64) error {
	if _, err := s.db.Pool.Exec(ctx, `UPDATE second_factor_guards SET attempts = 0, lockouts = 0, locked_until = NULL,
		updated_at = now() WHERE user_id = $1 AND (attempts, lockouts) <> (0, 0)`, userID); err != nil {
		return fmt.Errorf("clear second-factor count: %w", err)
	}
	return nil
}
