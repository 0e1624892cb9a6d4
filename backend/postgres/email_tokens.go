package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
)

// CreateEmailToken implements account.Store.
func (s *AccountStore) CreateEmailToken(ctx context.Context, userID int64, purpose, email string, hash []byte, expires time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO email_tokens (user_id, purpose, email, token_hash, expires_at)
		VALUES ($1, $2, $3, $4, $5)`, userID, purpose, email, hash, expires)
	if err != nil {
		return fmt.Errorf("create email token: %w", err)
	}
	return nil
}

var errNoEmailToken = apperr.Errorf(apperr.NotFound, "token not found, used or expired").For("email_link_invalid", "")

// useEmailToken marks a live token of the purpose used and returns its user and the address
// it was sent to. The UPDATE is the check: of two requests racing with one token, one wins.
func useEmailToken(ctx context.Context, tx pgx.Tx, purpose string, hash []byte) (userID int64, email string, err error) {
	err = tx.QueryRow(ctx, `UPDATE email_tokens SET used_at = now()
		WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
		RETURNING user_id, email`, hash, purpose).Scan(&userID, &email)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", errNoEmailToken
	}
	return userID, email, err
}

// EmailToken implements account.Store.
func (s *AccountStore) EmailToken(ctx context.Context, purpose string, tokenHash []byte) (int64, string, error) {
	var userID int64
	var email string
	err := s.db.Pool.QueryRow(ctx, `SELECT user_id, email FROM email_tokens
		WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()`, tokenHash, purpose).Scan(&userID, &email)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", errNoEmailToken
	}
	if err != nil {
		return 0, "", fmt.Errorf("read email token: %w", err)
	}
	return userID, email, nil
}

// VerifyEmail implements account.Store. Only the address the token was sent to is verified:
// were the account's address changed since, the old mail proves nothing about the new one.
func (s *AccountStore) VerifyEmail(ctx context.Context, tokenHash []byte) (*account.User, error) {
	var u *account.User
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		userID, email, err := useEmailToken(ctx, tx, account.PurposeVerify, tokenHash)
		if err != nil {
			return err
		}
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users SET email_verified_at = coalesce(email_verified_at, now())
			WHERE id = $1 AND lower(email) = lower($2) RETURNING `+userColumns, userID, email))
		if errors.Is(err, pgx.ErrNoRows) {
			return errNoEmailToken
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("verify email: %w", err)
	}
	return u, nil
}

// ResetPassword implements account.Store.
func (s *AccountStore) ResetPassword(ctx context.Context, tokenHash []byte, passwordHash string) (*account.User, error) {
	var u *account.User
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		userID, email, err := useEmailToken(ctx, tx, account.PurposeReset, tokenHash)
		if err != nil {
			return err
		}
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users SET password_hash = $3,
			email_verified_at = CASE WHEN lower(email) = lower($2) THEN coalesce(email_verified_at, now())
			                         ELSE email_verified_at END
			WHERE id = $1 RETURNING `+userColumns, userID, email, passwordHash))
		if err != nil {
			return notFound(err, "user")
		}
		if _, err := tx.Exec(ctx, `UPDATE email_tokens SET used_at = now()
			WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, userID, account.PurposeReset); err != nil {
			return err
		}
		return revokeSessions(ctx, tx, userID)
	})
	if err != nil {
		return nil, fmt.Errorf("reset password: %w", err)
	}
	return u, nil
}
