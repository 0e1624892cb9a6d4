package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
)

// PasswordHash implements account.Store.
func (s *AccountStore) PasswordHash(ctx context.Context, userID int64) (string, error) {
	var hash string
	err := s.db.Pool.QueryRow(ctx, `SELECT password_hash FROM users WHERE id = $1`, userID).Scan(&hash)
	if err != nil {
		return "", fmt.Errorf("password hash: %w", notFound(err, "user"))
	}
	return hash, nil
}

// SetPassword implements account.Store.
func (s *AccountStore) SetPassword(ctx context.Context, userID int64, passwordHash string, keep uuid.UUID) error {
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE users SET password_hash = $2 WHERE id = $1`, userID, passwordHash)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return apperr.Errorf(apperr.NotFound, "user not found").For("user_not_found", "")
		}
		if _, err := tx.Exec(ctx, `UPDATE email_tokens SET used_at = now()
			WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, userID, account.PurposeReset); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE refresh_tokens SET revoked_at = now()
			WHERE user_id = $1 AND family <> $2 AND revoked_at IS NULL`, userID, keep)
		return err
	})
	if err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	return nil
}

// PendingEmail implements account.Store.
func (s *AccountStore) PendingEmail(ctx context.Context, userID int64) (string, error) {
	var email string
	err := s.db.Pool.QueryRow(ctx, `SELECT email FROM email_tokens
		WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
		ORDER BY created_at DESC, id DESC LIMIT 1`, userID, account.PurposeEmail).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("pending email: %w", err)
	}
	return email, nil
}

// ChangeEmail implements account.Store. The user's other email-change links are used up with
// it, and so are the verification and reset links sent to the former address.
func (s *AccountStore) ChangeEmail(ctx context.Context, tokenHash []byte) (*account.User, string, error) {
	var u *account.User
	var old string
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		userID, email, err := useEmailToken(ctx, tx, account.PurposeEmail, tokenHash)
		if err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT email FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&old); err != nil {
			return notFound(err, "user")
		}
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users SET email = $2, email_verified_at = now()
			WHERE id = $1 RETURNING `+userColumns, userID, email))
		if isUniqueViolation(err) {
			return apperr.Errorf(apperr.Conflict, "another account uses this email address").For("email_taken", "email")
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL`, userID)
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("change email: %w", err)
	}
	return u, old, nil
}

// DeleteUser implements account.Store. The user's row and their workspaces' rows are locked
// first, so no membership changes under the checks.
func (s *AccountStore) DeleteUser(ctx context.Context, userID int64) ([]int64, error) {
	var sole []int64
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&one); err != nil {
			return notFound(err, "user")
		}
		if _, err := tx.Exec(ctx, `SELECT 1 FROM workspaces w JOIN members m ON m.workspace_id = w.id
			WHERE m.user_id = $1 ORDER BY w.id FOR UPDATE OF w`, userID); err != nil {
			return err
		}
		shared, err := queryAll(ctx, tx, pgx.RowTo[string], `SELECT w.name FROM members m
			JOIN workspaces w ON w.id = m.workspace_id
			WHERE m.user_id = $1 AND m.role = 'owner'
			  AND EXISTS (SELECT 1 FROM members o WHERE o.workspace_id = m.workspace_id AND o.user_id <> $1)
			  AND NOT EXISTS (SELECT 1 FROM members o WHERE o.workspace_id = m.workspace_id AND o.user_id <> $1 AND o.role = 'owner')
			ORDER BY w.name, w.id`, userID)
		if err != nil {
			return err
		}
		if len(shared) > 0 {
			return apperr.Errorf(apperr.Conflict,
				"you are the only owner of workspaces with other members (%s): make another member owner or delete them first",
				strings.Join(quoteAll(shared), ", ")).For("owns_shared_workspace", "")
		}
		sole, err = queryAll(ctx, tx, pgx.RowTo[int64], `SELECT m.workspace_id FROM members m
			WHERE m.user_id = $1
			  AND NOT EXISTS (SELECT 1 FROM members o WHERE o.workspace_id = m.workspace_id AND o.user_id <> $1)
			ORDER BY m.workspace_id`, userID)
		if err != nil {
			return err
		}
		for _, id := range sole {
			if err := markWorkspaceDeleted(ctx, tx, id); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, userID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("delete user: %w", err)
	}
	return sole, nil
}

func quoteAll(names []string) []string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return q
}
