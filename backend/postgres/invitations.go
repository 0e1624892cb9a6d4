package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
)

// invitationColumns are an invitation's, read from i joined with its workspace w and its
// inviter ib.
const invitationColumns = `i.id, i.workspace_id, w.name, i.email, i.role, i.created_at, i.expires_at, coalesce(ib.email, '')`

const invitationSelect = `SELECT ` + invitationColumns + `
	FROM invitations i JOIN workspaces w ON w.id = i.workspace_id LEFT JOIN users ib ON ib.id = i.invited_by`

func scanInvitation(r pgx.Row) (*account.Invitation, error) {
	var i account.Invitation
	err := r.Scan(&i.ID, &i.WorkspaceID, &i.WorkspaceName, &i.Email, &i.Role, &i.CreatedAt, &i.ExpiresAt, &i.InvitedBy)
	i.CreatedAt, i.ExpiresAt = i.CreatedAt.UTC(), i.ExpiresAt.UTC()
	return &i, err
}

// IsMemberByEmail implements account.Store.
func (s *AccountStore) IsMemberByEmail(ctx context.Context, workspaceID int64, email string) (bool, error) {
	var member bool
	err := s.db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM members m JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = $1 AND lower(u.email) = lower($2))`, workspaceID, email).Scan(&member)
	if err != nil {
		return false, fmt.Errorf("is member by email: %w", err)
	}
	return member, nil
}

// CreateInvitation implements account.Store.
func (s *AccountStore) CreateInvitation(ctx context.Context, workspaceID int64, email, role string, by int64, tokenHash []byte, expiresAt time.Time) (*account.Invitation, error) {
	var inviter *int64
	if by != 0 {
		inviter = &by
	}
	inv, err := scanInvitation(s.db.Pool.QueryRow(ctx, `WITH i AS (
			INSERT INTO invitations (workspace_id, email, role, invited_by, token_hash, expires_at) VALUES ($1, lower($2), $3, $4, $5, $6)
			RETURNING *)
		SELECT `+invitationColumns+` FROM i JOIN workspaces w ON w.id = i.workspace_id LEFT JOIN users ib ON ib.id = i.invited_by`,
		workspaceID, email, role, inviter, tokenHash, expiresAt))
	if isUniqueViolation(err) {
		return nil, apperr.Errorf(apperr.Conflict, "the address is already invited").For("already_invited", "email")
	}
	if err != nil {
		return nil, fmt.Errorf("create invitation: %w", err)
	}
	return inv, nil
}

// ReplaceExpiredInvitation implements account.Store.
func (s *AccountStore) ReplaceExpiredInvitation(ctx context.Context, workspaceID int64, email, role string, by int64, tokenHash []byte, now, expiresAt time.Time) (*account.Invitation, error) {
	var inviter *int64
	if by != 0 {
		inviter = &by
	}
	inv, err := scanInvitation(s.db.Pool.QueryRow(ctx, `WITH i AS (
			UPDATE invitations SET role = $3, invited_by = $4, token_hash = $5, created_at = $6, expires_at = $7
			WHERE workspace_id = $1 AND email = lower($2) AND expires_at <= $6
			RETURNING *)
		SELECT `+invitationColumns+` FROM i JOIN workspaces w ON w.id = i.workspace_id LEFT JOIN users ib ON ib.id = i.invited_by`,
		workspaceID, email, role, inviter, tokenHash, now, expiresAt))
	if err != nil {
		return nil, fmt.Errorf("replace expired invitation: %w", notFound(err, "invitation"))
	}
	return inv, nil
}

// InvitationPreview implements account.Store. An invitation without a secret (made before
// links carried one) matches no hash.
func (s *AccountStore) InvitationPreview(ctx context.Context, id int64, tokenHash []byte) (*account.InvitationPreview, error) {
	var p account.InvitationPreview
	err := s.db.Pool.QueryRow(ctx, `SELECT i.id, i.workspace_id, w.name, coalesce(u.email, ''), i.role, i.email,
			EXISTS (SELECT 1 FROM users a WHERE lower(a.email) = lower(i.email)), i.expires_at
		FROM invitations i JOIN workspaces w ON w.id = i.workspace_id AND w.deleted_at IS NULL
		LEFT JOIN users u ON u.id = i.invited_by
		WHERE i.id = $1 AND i.token_hash = $2`, id, tokenHash).
		Scan(&p.ID, &p.WorkspaceID, &p.WorkspaceName, &p.InvitedBy, &p.Role, &p.Email, &p.HasAccount, &p.ExpiresAt)
	p.ExpiresAt = p.ExpiresAt.UTC()
	if err != nil {
		return nil, fmt.Errorf("invitation preview: %w", notFound(err, "invitation"))
	}
	return &p, nil
}

// CreateInvitedUser implements account.Store: the user, their membership and the end of the
// invitation commit together, so the invitation is used once.
func (s *AccountStore) CreateInvitedUser(ctx context.Context, email, hash string, id int64, tokenHash []byte) (*account.User, *account.Workspace, error) {
	var u *account.User
	var w *account.Workspace
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var wsID int64
		var role string
		// The service refused an expired invitation; the database's own clock refuses it too.
		err := tx.QueryRow(ctx, `DELETE FROM invitations WHERE id = $1 AND token_hash = $2 AND email = lower($3)
			AND expires_at > now() RETURNING workspace_id, role`, id, tokenHash, email).Scan(&wsID, &role)
		if err != nil {
			return notFound(err, "invitation")
		}
		u, err = scanUser(tx.QueryRow(ctx, `INSERT INTO users (email, password_hash, email_verified_at)
			VALUES ($1, $2, now()) RETURNING `+userColumns, email, hash))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role) VALUES ($1, $2, $3)`,
			wsID, u.ID, role); err != nil {
			return err
		}
		w, err = scanWorkspace(tx.QueryRow(ctx, `SELECT `+workspaceColumns+` FROM workspaces w
			WHERE w.id = $1 AND w.deleted_at IS NULL`, wsID))
		if err != nil {
			return notFound(err, "invitation")
		}
		w.Role = role
		return nil
	})
	if isUniqueViolation(err) {
		return nil, nil, apperr.Errorf(apperr.Conflict, "email already registered").For("email_taken", "email")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("create invited user: %w", err)
	}
	return u, w, nil
}

// Invitations implements account.Store.
func (s *AccountStore) Invitations(ctx context.Context, workspaceID int64) ([]*account.Invitation, error) {
	return s.invitations(ctx, "invitations", invitationSelect+` WHERE i.workspace_id = $1 ORDER BY i.id`, workspaceID)
}

// InvitationsFor implements account.Store.
func (s *AccountStore) InvitationsFor(ctx context.Context, userID int64) ([]*account.Invitation, error) {
	return s.invitations(ctx, "invitations for user", invitationSelect+`
		JOIN users u ON i.email = lower(u.email) WHERE u.id = $1 ORDER BY i.id`, userID)
}

func (s *AccountStore) invitations(ctx context.Context, what, sql string, args ...any) ([]*account.Invitation, error) {
	invs, err := queryAll(ctx, s.db.Pool, asRow(scanInvitation), sql, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return invs, nil
}

// AcceptInvitation implements account.Store: the invitation becomes a membership in one
// transaction, so it can be accepted once.
func (s *AccountStore) AcceptInvitation(ctx context.Context, userID, id int64) (*account.Workspace, error) {
	var w *account.Workspace
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var wsID int64
		var role string
		// The service refused an expired invitation; the database's own clock refuses it too.
		err := tx.QueryRow(ctx, `DELETE FROM invitations i USING users u
			WHERE i.id = $1 AND u.id = $2 AND i.email = lower(u.email) AND i.expires_at > now()
			RETURNING i.workspace_id, i.role`, id, userID).Scan(&wsID, &role)
		if err != nil {
			return notFound(err, "invitation")
		}
		// Someone who joined some other way keeps the role they have.
		if _, err := tx.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role) VALUES ($1, $2, $3)
			ON CONFLICT (workspace_id, user_id) DO NOTHING`, wsID, userID, role); err != nil {
			return err
		}
		w, err = scanWorkspace(tx.QueryRow(ctx, `SELECT `+workspaceColumns+`, m.role FROM workspaces w
			JOIN members m ON m.workspace_id = w.id AND m.user_id = $2 WHERE w.id = $1`, wsID, userID), &role)
		if err == nil {
			w.Role = role
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("accept invitation: %w", err)
	}
	return w, nil
}

// DeclineInvitation implements account.Store.
func (s *AccountStore) DeclineInvitation(ctx context.Context, userID, id int64) error {
	return exactlyOne(ctx, s.db, "decline invitation", "invitation",
		`DELETE FROM invitations i USING users u WHERE u.id = $1 AND i.id = $2 AND i.email = lower(u.email)`, userID, id)
}

// DeleteInvitation implements account.Store.
func (s *AccountStore) DeleteInvitation(ctx context.Context, workspaceID, id int64) error {
	return exactlyOne(ctx, s.db, "delete invitation", "invitation",
		`DELETE FROM invitations WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
}

// RenewInvitation implements account.Store.
func (s *AccountStore) RenewInvitation(ctx context.Context, workspaceID, id int64, tokenHash []byte, expiresAt time.Time) (*account.Invitation, error) {
	inv, err := scanInvitation(s.db.Pool.QueryRow(ctx, `WITH i AS (
			UPDATE invitations SET token_hash = $3, expires_at = $4 WHERE workspace_id = $1 AND id = $2
			RETURNING *)
		SELECT `+invitationColumns+` FROM i JOIN workspaces w ON w.id = i.workspace_id LEFT JOIN users ib ON ib.id = i.invited_by`,
		workspaceID, id, tokenHash, expiresAt))
	if err != nil {
		return nil, fmt.Errorf("renew invitation: %w", notFound(err, "invitation"))
	}
	return inv, nil
}
