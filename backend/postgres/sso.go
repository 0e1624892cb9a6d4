package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/sso"
)

// SSOStore implements sso.Store.
type SSOStore struct{ db *DB }

// NewSSOStore returns the single sign-on store.
func NewSSOStore(db *DB) *SSOStore { return &SSOStore{db: db} }

var _ sso.Store = (*SSOStore)(nil)

const ssoColumns = `workspace_id, issuer, client_id, client_secret, email_domain, token, verified_at, enforce, updated_at,
	protocol, idp_metadata, idp_metadata_url`

func scanSSO(r pgx.Row) (*sso.Settings, error) {
	var s sso.Settings
	return &s, r.Scan(&s.WorkspaceID, &s.Issuer, &s.ClientID, &s.SealedSecret, &s.EmailDomain, &s.Token, &s.VerifiedAt,
		&s.Enforce, &s.UpdatedAt, &s.Protocol, &s.IdPMetadata, &s.IdPMetadataURL)
}

// Get implements sso.Store.
func (s *SSOStore) Get(ctx context.Context, workspaceID int64) (*sso.Settings, error) {
	st, err := scanSSO(s.db.Pool.QueryRow(ctx, `SELECT `+ssoColumns+` FROM workspace_sso WHERE workspace_id = $1`, workspaceID))
	if err != nil {
		return nil, fmt.Errorf("get sso settings: %w", notFound(err, "sso settings"))
	}
	return st, nil
}

// Put implements sso.Store.
func (s *SSOStore) Put(ctx context.Context, in *sso.Settings) (*sso.Settings, error) {
	st, err := scanSSO(s.db.Pool.QueryRow(ctx, `INSERT INTO workspace_sso
		(workspace_id, issuer, client_id, client_secret, email_domain, token, verified_at, enforce,
			protocol, idp_metadata, idp_metadata_url)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (workspace_id) DO UPDATE SET issuer = $2, client_id = $3, client_secret = $4, email_domain = $5,
			token = $6, verified_at = $7, enforce = $8, protocol = $9, idp_metadata = $10, idp_metadata_url = $11,
			updated_at = now()
		RETURNING `+ssoColumns,
		in.WorkspaceID, in.Issuer, in.ClientID, in.SealedSecret, in.EmailDomain, in.Token, in.VerifiedAt, in.Enforce,
		protocolOf(in), in.IdPMetadata, in.IdPMetadataURL))
	if isUniqueViolation(err) {
		return nil, apperr.Errorf(apperr.Conflict, "another workspace holds the email domain").For("sso_domain_taken", "email_domain")
	}
	if err != nil {
		return nil, fmt.Errorf("put sso settings: %w", err)
	}
	return st, nil
}

// Delete implements sso.Store.
func (s *SSOStore) Delete(ctx context.Context, workspaceID int64) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM workspace_sso WHERE workspace_id = $1`, workspaceID)
	if err != nil {
		return fmt.Errorf("delete sso settings: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Missing("sso settings")
	}
	return nil
}

// MarkVerified implements sso.Store.
func (s *SSOStore) MarkVerified(ctx context.Context, workspaceID int64, token string) (*sso.Settings, error) {
	st, err := scanSSO(s.db.Pool.QueryRow(ctx, `UPDATE workspace_sso SET verified_at = now(), updated_at = now()
		WHERE workspace_id = $1 AND token = $2 RETURNING `+ssoColumns, workspaceID, token))
	if isUniqueViolation(err) {
		return nil, apperr.Errorf(apperr.Conflict, "another workspace proved the email domain").For("sso_domain_taken", "email_domain")
	}
	if err != nil {
		return nil, fmt.Errorf("verify sso domain: %w", notFound(err, "sso settings"))
	}
	return st, nil
}

// ClaimPending implements sso.Store: SKIP LOCKED lets every node claim its own share.
func (s *SSOStore) ClaimPending(ctx context.Context, every time.Duration, limit int) ([]*sso.Settings, error) {
	out, err := queryAll(ctx, s.db.Pool, asRow(scanSSO), `UPDATE workspace_sso SET checked_at = now()
		WHERE workspace_id IN (SELECT workspace_id FROM workspace_sso
			WHERE verified_at IS NULL AND (checked_at IS NULL OR checked_at < now() - make_interval(secs => $1))
			ORDER BY checked_at NULLS FIRST, workspace_id LIMIT $2 FOR UPDATE SKIP LOCKED)
		RETURNING `+ssoColumns, every.Seconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("claim pending sso domains: %w", err)
	}
	return out, nil
}

// ByDomain implements sso.Store.
func (s *SSOStore) ByDomain(ctx context.Context, emailDomain string) (*sso.Settings, error) {
	st, err := scanSSO(s.db.Pool.QueryRow(ctx, `SELECT `+ssoColumns+` FROM workspace_sso s
		WHERE email_domain = $1 AND verified_at IS NOT NULL
		AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = s.workspace_id AND w.deleted_at IS NULL)`, emailDomain))
	if err != nil {
		return nil, fmt.Errorf("sso settings by domain: %w", notFound(err, "sso settings"))
	}
	return st, nil
}

// SaveState implements sso.Store; expired states of earlier sign-ins go on the way.
func (s *SSOStore) SaveState(ctx context.Context, st *sso.State) error {
	if _, err := s.db.Pool.Exec(ctx, `DELETE FROM sso_states WHERE expires_at < now() - interval '1 hour'`); err != nil {
		return fmt.Errorf("purge sso states: %w", err)
	}
	if _, err := s.db.Pool.Exec(ctx, `INSERT INTO sso_states (state_hash, workspace_id, verifier, nonce, return_to, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, st.Hash, st.WorkspaceID, st.Verifier, st.Nonce, st.ReturnTo, st.Expires); err != nil {
		return fmt.Errorf("save sso state: %w", err)
	}
	return nil
}

// TakeState implements sso.Store: the DELETE makes a state good once, even for two callbacks
// at the same moment.
func (s *SSOStore) TakeState(ctx context.Context, hash []byte) (*sso.State, error) {
	st := sso.State{Hash: hash}
	err := s.db.Pool.QueryRow(ctx, `DELETE FROM sso_states WHERE state_hash = $1 AND expires_at > now()
		RETURNING workspace_id, verifier, nonce, return_to, expires_at`, hash).
		Scan(&st.WorkspaceID, &st.Verifier, &st.Nonce, &st.ReturnTo, &st.Expires)
	if err != nil {
		return nil, fmt.Errorf("take sso state: %w", notFound(err, "sso state"))
	}
	return &st, nil
}

// Join implements sso.Store.
func (s *SSOStore) Join(ctx context.Context, workspaceID int64, email string, allow func(sso.Existing) error) (*sso.Joined, error) {
	var j sso.Joined
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		j = sso.Joined{}
		var e sso.Existing
		err := tx.QueryRow(ctx, `SELECT id, system_role, email_verified_at IS NOT NULL,
				EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL)
			FROM users u WHERE lower(email) = lower($1) FOR UPDATE`, email).Scan(&e.ID, &e.SystemRole, &e.EmailVerified, &e.TwoFactor)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			// No password: the empty hash matches none, so only the provider (or a reset
			// link mailed to the address) opens the account.
			if err := tx.QueryRow(ctx, `INSERT INTO users (email, password_hash, email_verified_at)
				VALUES ($1, '', now()) RETURNING id`, email).Scan(&j.UserID); err != nil {
				return err
			}
			j.Created = true
		case err != nil:
			return err
		default:
			if err := allow(e); err != nil {
				return err
			}
			j.UserID = e.ID
			if !e.EmailVerified {
				if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = '', email_verified_at = now() WHERE id = $1`, e.ID); err != nil {
					return err
				}
				if err := revokeSessions(ctx, tx, e.ID); err != nil {
					return err
				}
				if j.RevokedKeys, err = revokeKeysCreatedBy(ctx, tx, e.ID, 0, account.RevokedCreatorTakenOver); err != nil {
					return err
				}
				// A second factor the unproven holder enrolled is theirs, not the address's
				// owner's: it would keep the owner out, or let the holder back in.
				if _, err := tx.Exec(ctx, `DELETE FROM user_totp WHERE user_id = $1`, e.ID); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, e.ID); err != nil {
					return err
				}
				e.TwoFactor = false
				j.TookOver = true
			}
		}
		if e.TwoFactor {
			// The membership waits for the second factor (AddMember).
			var member bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM members WHERE workspace_id = $1 AND user_id = $2)`,
				workspaceID, j.UserID).Scan(&member); err != nil {
				return err
			}
			j.Pending = !member
			return nil
		}
		var err2 error
		j.Member, err2 = addMember(ctx, tx, workspaceID, j.UserID)
		return err2
	})
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return nil, err
		}
		return nil, fmt.Errorf("sso join: %w", err)
	}
	return &j, nil
}

// execer is a pool or a transaction.
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// addMember makes the user a member of the workspace, unless they are one or it is deleted.
func addMember(ctx context.Context, q execer, workspaceID, userID int64) (bool, error) {
	tag, err := q.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role)
		SELECT $1, $2, 'member' FROM workspaces WHERE id = $1 AND deleted_at IS NULL
		ON CONFLICT (workspace_id, user_id) DO NOTHING`, workspaceID, userID)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

// AddMember implements sso.Store.
func (s *SSOStore) AddMember(ctx context.Context, workspaceID, userID int64) (bool, error) {
	added, err := addMember(ctx, s.db.Pool, workspaceID, userID)
	if err != nil {
		return false, fmt.Errorf("sso add member: %w", err)
	}
	return added, nil
}

// IsMember implements sso.Store.
func (s *SSOStore) IsMember(ctx context.Context, workspaceID, userID int64) (bool, error) {
	var member bool
	err := s.db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM members m JOIN workspaces w ON w.id = m.workspace_id
		WHERE m.workspace_id = $1 AND m.user_id = $2 AND w.deleted_at IS NULL)`, workspaceID, userID).Scan(&member)
	if err != nil {
		return false, fmt.Errorf("sso membership: %w", err)
	}
	return member, nil
}

// Members implements sso.Store.
func (s *SSOStore) Members(ctx context.Context, workspaceID int64) ([]*account.User, error) {
	out, err := queryAll(ctx, s.db.Pool, asRow(func(r pgx.Row) (*account.User, error) { return scanUser(r) }),
		`SELECT `+userColumns+` FROM users WHERE id IN (SELECT user_id FROM members WHERE workspace_id = $1)
		ORDER BY id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("sso members: %w", err)
	}
	return out, nil
}

// EndPasswordSessions implements sso.Store: a family goes whole, so a session whose tokens
// all began with a password is revoked token by token, and its live tokens with it.
func (s *SSOStore) EndPasswordSessions(ctx context.Context, userIDs []int64) (int, error) {
	var n int
	err := s.db.Pool.QueryRow(ctx, `WITH revoked AS (
			UPDATE refresh_tokens SET revoked_at = now()
			WHERE user_id = ANY($1) AND signed_in_with = 'password' AND revoked_at IS NULL
			RETURNING family)
		SELECT count(DISTINCT family) FROM revoked`, userIDs).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("end password sessions: %w", err)
	}
	return n, nil
}
