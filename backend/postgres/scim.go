package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/scim"
)

// SCIMStore implements scim.Store.
type SCIMStore struct{ db *DB }

// NewSCIMStore returns the provisioning store.
func NewSCIMStore(db *DB) *SCIMStore { return &SCIMStore{db: db} }

var _ scim.Store = (*SCIMStore)(nil)

var (
	errSCIMUserMissing  = apperr.Errorf(apperr.NotFound, "no such user").For("scim_user_not_found", "")
	errSCIMGroupMissing = apperr.Errorf(apperr.NotFound, "no such group").For("scim_group_not_found", "")
	errSCIMTokenMissing = apperr.Errorf(apperr.NotFound, "SCIM token not found").For("scim_token_not_found", "")
)

func scimConflict(what string) error {
	return apperr.Errorf(apperr.Conflict, "%s", what).For("scim_uniqueness", "")
}

// keepAppErr returns err as is when it carries an application error, else wrapped with what.
func keepAppErr(err error, what string) error {
	var ae *apperr.Error
	if err == nil || errors.As(err, &ae) {
		return err
	}
	return fmt.Errorf("%s: %w", what, err)
}

const scimTokenColumns = `id, workspace_id, name, prefix, created_by, created_at, last_used_at`

func scanSCIMToken(r pgx.Row) (*scim.Token, error) {
	var t scim.Token
	return &t, r.Scan(&t.ID, &t.WorkspaceID, &t.Name, &t.Prefix, &t.CreatedBy, &t.CreatedAt, &t.LastUsedAt)
}

// CreateToken implements scim.Store.
func (s *SCIMStore) CreateToken(ctx context.Context, t *scim.Token, hash []byte) (*scim.Token, error) {
	out, err := scanSCIMToken(s.db.Pool.QueryRow(ctx, `INSERT INTO scim_tokens (workspace_id, name, prefix, token_hash, created_by)
		VALUES ($1, $2, $3, $4, $5) RETURNING `+scimTokenColumns, t.WorkspaceID, t.Name, t.Prefix, hash, t.CreatedBy))
	if err != nil {
		return nil, fmt.Errorf("create scim token: %w", err)
	}
	return out, nil
}

// Tokens implements scim.Store.
func (s *SCIMStore) Tokens(ctx context.Context, workspaceID int64) ([]*scim.Token, error) {
	out, err := queryAll(ctx, s.db.Pool, asRow(scanSCIMToken), `SELECT `+scimTokenColumns+` FROM scim_tokens
		WHERE workspace_id = $1 ORDER BY id DESC`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list scim tokens: %w", err)
	}
	return out, nil
}

// DeleteToken implements scim.Store.
func (s *SCIMStore) DeleteToken(ctx context.Context, workspaceID, id int64) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM scim_tokens WHERE workspace_id = $1 AND id = $2`, workspaceID, id)
	if err != nil {
		return fmt.Errorf("delete scim token: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return errSCIMTokenMissing
	}
	return nil
}

// TokenByHash implements scim.Store; the use is recorded at most once a minute.
func (s *SCIMStore) TokenByHash(ctx context.Context, hash []byte) (*scim.Token, error) {
	t, err := scanSCIMToken(s.db.Pool.QueryRow(ctx, `SELECT `+scimTokenColumns+` FROM scim_tokens t
		WHERE token_hash = $1 AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = t.workspace_id AND w.deleted_at IS NULL)`, hash))
	if err != nil {
		return nil, fmt.Errorf("scim token: %w", notFound(err, "SCIM token"))
	}
	if _, err := s.db.Pool.Exec(ctx, `UPDATE scim_tokens SET last_used_at = now()
		WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, t.ID); err != nil {
		return nil, fmt.Errorf("record scim token use: %w", err)
	}
	return t, nil
}

// scimUserSelect reads a provisioned user with its account's address and its groups.
const scimUserSelect = `SELECT su.id::text, su.workspace_id, su.user_id, COALESCE(su.external_id, ''), u.email,
	su.given_name, su.family_name, su.formatted, su.display_name, su.active, su.role, su.created_at, su.updated_at,
	COALESCE((SELECT json_agg(json_build_object('Value', g.id::text, 'Display', g.display_name) ORDER BY g.display_name)
		FROM scim_group_members gm JOIN scim_groups g ON g.id = gm.group_id WHERE gm.scim_user_id = su.id), '[]')
	FROM scim_users su JOIN users u ON u.id = su.user_id`

func scanSCIMUser(r pgx.Row) (*scim.User, error) {
	var u scim.User
	var groups []byte
	if err := r.Scan(&u.ID, &u.WorkspaceID, &u.UserID, &u.ExternalID, &u.UserName, &u.GivenName, &u.FamilyName,
		&u.Formatted, &u.DisplayName, &u.Active, &u.Role, &u.Created, &u.Updated, &groups); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(groups, &u.Groups); err != nil {
		return nil, fmt.Errorf("scim user groups: %w", err)
	}
	return &u, nil
}

// validID reports whether id can be a resource's ID (a UUID): other IDs find nothing.
func validID(id string) bool { _, err := uuid.Parse(id); return err == nil }

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CreateUser implements scim.Store.
func (s *SCIMStore) CreateUser(ctx context.Context, workspaceID int64, in *scim.User, allow func(string) error) (*scim.User, scim.Changed, error) {
	var out *scim.User
	var ch scim.Changed
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		ch = scim.Changed{}
		var userID int64
		var systemRole string
		var verified bool
		err := tx.QueryRow(ctx, `SELECT id, system_role, email_verified_at IS NOT NULL FROM users
			WHERE lower(email) = lower($1) FOR UPDATE`, in.UserName).Scan(&userID, &systemRole, &verified)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			// No password: the account opens through the workspace's provider only.
			if err := tx.QueryRow(ctx, `INSERT INTO users (email, password_hash, email_verified_at)
				VALUES ($1, '', now()) RETURNING id`, in.UserName).Scan(&userID); err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			if err := allow(systemRole); err != nil {
				return err
			}
			if !verified {
				// Whoever made the account never proved the address; the provider vouches
				// for its owner, as a sign-on does (SSOStore.Join).
				if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = '', email_verified_at = now() WHERE id = $1`, userID); err != nil {
					return err
				}
				if err := revokeSessions(ctx, tx, userID); err != nil {
					return err
				}
				keys, err := revokeKeysCreatedBy(ctx, tx, userID, 0, account.RevokedCreatorTakenOver)
				if err != nil {
					return err
				}
				ch.RevokedKeys = append(ch.RevokedKeys, keys...)
				ch.EndedSessionsOf = append(ch.EndedSessionsOf, userID)
				if _, err := tx.Exec(ctx, `DELETE FROM user_totp WHERE user_id = $1`, userID); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, `DELETE FROM user_recovery_codes WHERE user_id = $1`, userID); err != nil {
					return err
				}
			}
		}
		var id string
		err = tx.QueryRow(ctx, `INSERT INTO scim_users (workspace_id, user_id, external_id, given_name, family_name,
			formatted, display_name, active, role) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text`,
			workspaceID, userID, nullable(in.ExternalID), in.GivenName, in.FamilyName, in.Formatted, in.DisplayName,
			in.Active, in.Role).Scan(&id)
		if isUniqueViolation(err) {
			return scimConflict("this person or externalId is provisioned already")
		}
		if err != nil {
			return err
		}
		if in.Active {
			added, err := addMemberWithRole(ctx, tx, workspaceID, userID, in.Role)
			if err != nil {
				return err
			}
			if added {
				ch.Restored = append(ch.Restored, userID)
			}
			// A member already keeps their role; it is the one to give back too.
			if _, err := tx.Exec(ctx, `UPDATE scim_users su SET role = m.role FROM members m
				WHERE su.id = $1 AND m.workspace_id = su.workspace_id AND m.user_id = su.user_id`, id); err != nil {
				return err
			}
		} else {
			d, err := deprovision(ctx, tx, workspaceID, userID)
			if err != nil {
				return err
			}
			ch.Merge(d)
		}
		out, err = scanSCIMUser(tx.QueryRow(ctx, scimUserSelect+` WHERE su.id = $1`, id))
		return err
	})
	if err != nil {
		return nil, scim.Changed{}, keepAppErr(err, "scim create user")
	}
	return out, ch, nil
}

// addMemberWithRole makes the user a member with role unless they are one or the workspace
// is deleted, and reports whether it did.
func addMemberWithRole(ctx context.Context, tx pgx.Tx, workspaceID, userID int64, role string) (bool, error) {
	tag, err := tx.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role)
		SELECT $1, $2, $3 FROM workspaces WHERE id = $1 AND deleted_at IS NULL
		ON CONFLICT (workspace_id, user_id) DO NOTHING`, workspaceID, userID, role)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

// deprovision ends a person's membership of the workspace (keeping its role to give back),
// every session of the account, and the API keys they made in the workspace. The last owner
// is not removed: a workspace keeps one.
func deprovision(ctx context.Context, tx pgx.Tx, workspaceID, userID int64) (scim.Changed, error) {
	var ch scim.Changed
	var role string
	err := tx.QueryRow(ctx, `SELECT role FROM members WHERE workspace_id = $1 AND user_id = $2 FOR UPDATE`,
		workspaceID, userID).Scan(&role)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return ch, err
	default:
		if role == account.RoleOwner {
			var others int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM members WHERE workspace_id = $1 AND role = 'owner' AND user_id <> $2`,
				workspaceID, userID).Scan(&others); err != nil {
				return ch, err
			}
			if others == 0 {
				return ch, apperr.Errorf(apperr.Invalid, "the workspace's last owner cannot be deprovisioned: make another owner first").For("scim_mutability", "")
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM members WHERE workspace_id = $1 AND user_id = $2`, workspaceID, userID); err != nil {
			return ch, err
		}
		if _, err := tx.Exec(ctx, `UPDATE scim_users SET role = $3 WHERE workspace_id = $1 AND user_id = $2`,
			workspaceID, userID, role); err != nil {
			return ch, err
		}
		ch.Deprovisioned = append(ch.Deprovisioned, userID)
	}
	if err := revokeSessions(ctx, tx, userID); err != nil {
		return ch, err
	}
	ch.EndedSessionsOf = append(ch.EndedSessionsOf, userID)
	keys, err := revokeKeysCreatedBy(ctx, tx, userID, workspaceID, account.RevokedCreatorDeprovisioned)
	if err != nil {
		return ch, err
	}
	ch.RevokedKeys = append(ch.RevokedKeys, keys...)
	return ch, nil
}

// User implements scim.Store.
func (s *SCIMStore) User(ctx context.Context, workspaceID int64, id string) (*scim.User, error) {
	if !validID(id) {
		return nil, errSCIMUserMissing
	}
	u, err := scanSCIMUser(s.db.Pool.QueryRow(ctx, scimUserSelect+` WHERE su.workspace_id = $1 AND su.id = $2`, workspaceID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errSCIMUserMissing
	}
	if err != nil {
		return nil, fmt.Errorf("scim user: %w", err)
	}
	return u, nil
}

// Users implements scim.Store.
func (s *SCIMStore) Users(ctx context.Context, workspaceID int64, q scim.Query, p scim.Page) ([]*scim.User, int, error) {
	where, args := []string{"su.workspace_id = $1"}, []any{workspaceID}
	switch q.Attr {
	case "userName", "email":
		args = append(args, q.Value)
		where = append(where, fmt.Sprintf("lower(u.email) = lower($%d)", len(args)))
	case "externalId":
		args = append(args, q.Value)
		where = append(where, fmt.Sprintf("su.external_id = $%d", len(args)))
	case "id":
		if !validID(q.Value) {
			return nil, 0, nil
		}
		args = append(args, q.Value)
		where = append(where, fmt.Sprintf("su.id = $%d", len(args)))
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM scim_users su JOIN users u ON u.id = su.user_id WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count scim users: %w", err)
	}
	args = append(args, p.Count, p.StartIndex-1)
	out, err := queryAll(ctx, s.db.Pool, asRow(scanSCIMUser), scimUserSelect+` WHERE `+cond+
		fmt.Sprintf(` ORDER BY su.created_at, su.id LIMIT $%d OFFSET $%d`, len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list scim users: %w", err)
	}
	return out, total, nil
}

// UpdateUser implements scim.Store.
func (s *SCIMStore) UpdateUser(ctx context.Context, workspaceID int64, id string, apply func(*scim.User) error) (*scim.User, scim.Changed, error) {
	if !validID(id) {
		return nil, scim.Changed{}, errSCIMUserMissing
	}
	var out *scim.User
	var ch scim.Changed
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		ch = scim.Changed{}
		cur, err := scanSCIMUser(tx.QueryRow(ctx, scimUserSelect+` WHERE su.workspace_id = $1 AND su.id = $2 FOR UPDATE OF su`, workspaceID, id))
		if errors.Is(err, pgx.ErrNoRows) {
			return errSCIMUserMissing
		}
		if err != nil {
			return err
		}
		next := *cur
		if err := apply(&next); err != nil {
			return err
		}
		if next.UserName != cur.UserName {
			_, err := tx.Exec(ctx, `UPDATE users SET email = $2 WHERE id = $1`, cur.UserID, next.UserName)
			if isUniqueViolation(err) {
				return scimConflict("another account has this address")
			}
			if err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `UPDATE scim_users SET external_id = $2, given_name = $3, family_name = $4, formatted = $5,
			display_name = $6, active = $7, updated_at = now() WHERE id = $1`, id, nullable(next.ExternalID), next.GivenName,
			next.FamilyName, next.Formatted, next.DisplayName, next.Active)
		if isUniqueViolation(err) {
			return scimConflict("another user has this externalId")
		}
		if err != nil {
			return err
		}
		switch {
		case cur.Active && !next.Active:
			d, err := deprovision(ctx, tx, workspaceID, cur.UserID)
			if err != nil {
				return err
			}
			ch.Merge(d)
		case !cur.Active && next.Active:
			added, err := addMemberWithRole(ctx, tx, workspaceID, cur.UserID, cur.Role)
			if err != nil {
				return err
			}
			if added {
				ch.Restored = append(ch.Restored, cur.UserID)
			}
		}
		out, err = scanSCIMUser(tx.QueryRow(ctx, scimUserSelect+` WHERE su.id = $1`, id))
		return err
	})
	if err != nil {
		return nil, scim.Changed{}, keepAppErr(err, "scim update user")
	}
	return out, ch, nil
}

// DeleteUser implements scim.Store.
func (s *SCIMStore) DeleteUser(ctx context.Context, workspaceID int64, id string) (scim.Changed, error) {
	if !validID(id) {
		return scim.Changed{}, errSCIMUserMissing
	}
	var ch scim.Changed
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var userID int64
		err := tx.QueryRow(ctx, `SELECT user_id FROM scim_users WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, workspaceID, id).Scan(&userID)
		if errors.Is(err, pgx.ErrNoRows) {
			return errSCIMUserMissing
		}
		if err != nil {
			return err
		}
		if ch, err = deprovision(ctx, tx, workspaceID, userID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM scim_users WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return scim.Changed{}, keepAppErr(err, "scim delete user")
	}
	return ch, nil
}

// scimGroupSelect reads a group with its members (the users' IDs and addresses).
const scimGroupSelect = `SELECT g.id::text, g.workspace_id, g.display_name, COALESCE(g.external_id, ''), g.created_at, g.updated_at,
	CASE WHEN $0 THEN '[]'::json ELSE COALESCE((SELECT json_agg(json_build_object('Value', su.id::text, 'Display', u.email) ORDER BY u.email)
		FROM scim_group_members gm JOIN scim_users su ON su.id = gm.scim_user_id JOIN users u ON u.id = su.user_id
		WHERE gm.group_id = g.id), '[]') END
	FROM scim_groups g`

// groupSelect is scimGroupSelect with members left out or not, its flag the placeholder n.
func groupSelect(n int) string {
	return strings.Replace(scimGroupSelect, "$0", fmt.Sprintf("$%d::boolean", n), 1)
}

func scanSCIMGroup(r pgx.Row) (*scim.Group, error) {
	var g scim.Group
	var members []byte
	if err := r.Scan(&g.ID, &g.WorkspaceID, &g.DisplayName, &g.ExternalID, &g.Created, &g.Updated, &members); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(members, &g.Members); err != nil {
		return nil, fmt.Errorf("scim group members: %w", err)
	}
	return &g, nil
}

// CreateGroup implements scim.Store.
func (s *SCIMStore) CreateGroup(ctx context.Context, workspaceID int64, in *scim.Group, roleOf scim.RoleOf) (*scim.Group, scim.Changed, error) {
	var out *scim.Group
	var ch scim.Changed
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		ch = scim.Changed{}
		var id string
		err := tx.QueryRow(ctx, `INSERT INTO scim_groups (workspace_id, display_name, external_id) VALUES ($1, $2, $3)
			RETURNING id::text`, workspaceID, in.DisplayName, nullable(in.ExternalID)).Scan(&id)
		if isUniqueViolation(err) {
			return scimConflict("a group with this displayName exists")
		}
		if err != nil {
			return err
		}
		if ch, err = setGroupMembers(ctx, tx, workspaceID, id, in.Members, roleOf); err != nil {
			return err
		}
		out, err = scanSCIMGroup(tx.QueryRow(ctx, groupSelect(2)+` WHERE g.id = $1`, id, false))
		return err
	})
	if err != nil {
		return nil, scim.Changed{}, keepAppErr(err, "scim create group")
	}
	return out, ch, nil
}

// setGroupMembers makes the group's members exactly members (IDs of the workspace's users;
// an unknown one is invalid) and gives each person who joined or left it their role anew.
func setGroupMembers(ctx context.Context, tx pgx.Tx, workspaceID int64, groupID string, members []scim.Ref, roleOf scim.RoleOf) (scim.Changed, error) {
	ids := make([]string, 0, len(members))
	for _, m := range members {
		if !validID(m.Value) {
			return scim.Changed{}, apperr.Errorf(apperr.Invalid, "member %q is not a user of this workspace", m.Value).For("scim_invalid_value", "")
		}
		ids = append(ids, m.Value)
	}
	var known int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM scim_users WHERE workspace_id = $1 AND id = ANY($2::uuid[])`,
		workspaceID, ids).Scan(&known); err != nil {
		return scim.Changed{}, err
	}
	if known != len(uniq(ids)) {
		return scim.Changed{}, apperr.Errorf(apperr.Invalid, "a member is not a user of this workspace").For("scim_invalid_value", "")
	}
	rows, err := tx.Query(ctx, `WITH gone AS (
			DELETE FROM scim_group_members WHERE group_id = $1 AND NOT (scim_user_id = ANY($2::uuid[])) RETURNING scim_user_id),
		came AS (
			INSERT INTO scim_group_members (group_id, scim_user_id) SELECT $1, x FROM unnest($2::uuid[]) x
			ON CONFLICT DO NOTHING RETURNING scim_user_id)
		SELECT scim_user_id::text FROM gone UNION SELECT scim_user_id::text FROM came`, groupID, ids)
	if err != nil {
		return scim.Changed{}, err
	}
	changed, err := collect(rows, func(r pgx.Rows) (string, error) {
		var id string
		return id, r.Scan(&id)
	})
	if err != nil {
		return scim.Changed{}, err
	}
	if _, err := tx.Exec(ctx, `UPDATE scim_groups SET updated_at = now() WHERE id = $1`, groupID); err != nil {
		return scim.Changed{}, err
	}
	return giveRoles(ctx, tx, workspaceID, changed, roleOf)
}

func uniq(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if !seen[strings.ToLower(id)] {
			seen[strings.ToLower(id)] = true
			out = append(out, id)
		}
	}
	return out
}

// giveRoles gives each of the users (scim_users IDs) the role their groups map to, now: the
// membership's when active (never an owner's), and the one kept for reactivation. A role
// that may not make API keys revokes those the person made.
func giveRoles(ctx context.Context, tx pgx.Tx, workspaceID int64, users []string, roleOf scim.RoleOf) (scim.Changed, error) {
	var ch scim.Changed
	for _, id := range users {
		rows, err := tx.Query(ctx, `SELECT g.display_name FROM scim_group_members gm JOIN scim_groups g ON g.id = gm.group_id
			WHERE gm.scim_user_id = $1 AND g.workspace_id = $2`, id, workspaceID)
		if err != nil {
			return ch, err
		}
		groups, err := collect(rows, func(r pgx.Rows) (string, error) {
			var n string
			return n, r.Scan(&n)
		})
		if err != nil {
			return ch, err
		}
		role := roleOf(groups)
		var userID int64
		var kept string
		var current *string
		err = tx.QueryRow(ctx, `SELECT su.user_id, su.role, m.role FROM scim_users su
			LEFT JOIN members m ON m.workspace_id = su.workspace_id AND m.user_id = su.user_id
			WHERE su.id = $1 AND su.workspace_id = $2 FOR UPDATE OF su`, id, workspaceID).Scan(&userID, &kept, &current)
		if err != nil {
			return ch, err
		}
		if kept == account.RoleOwner || (current != nil && *current == account.RoleOwner) {
			continue // owners are made in the workspace, not by groups
		}
		if _, err := tx.Exec(ctx, `UPDATE scim_users SET role = $2, updated_at = now() WHERE id = $1`, id, role); err != nil {
			return ch, err
		}
		if current == nil || *current == role {
			continue
		}
		if _, err := tx.Exec(ctx, `UPDATE members SET role = $3 WHERE workspace_id = $1 AND user_id = $2`, workspaceID, userID, role); err != nil {
			return ch, err
		}
		if ch.Roles == nil {
			ch.Roles = map[int64]string{}
		}
		ch.Roles[userID] = role
		if !account.RoleAllows(role, account.PermManage) {
			keys, err := revokeKeysCreatedBy(ctx, tx, userID, workspaceID, account.RevokedCreatorDemoted)
			if err != nil {
				return ch, err
			}
			ch.RevokedKeys = append(ch.RevokedKeys, keys...)
		}
	}
	return ch, nil
}

// Group implements scim.Store.
func (s *SCIMStore) Group(ctx context.Context, workspaceID int64, id string) (*scim.Group, error) {
	if !validID(id) {
		return nil, errSCIMGroupMissing
	}
	g, err := scanSCIMGroup(s.db.Pool.QueryRow(ctx, groupSelect(3)+` WHERE g.workspace_id = $1 AND g.id = $2`, workspaceID, id, false))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errSCIMGroupMissing
	}
	if err != nil {
		return nil, fmt.Errorf("scim group: %w", err)
	}
	return g, nil
}

// Groups implements scim.Store.
func (s *SCIMStore) Groups(ctx context.Context, workspaceID int64, q scim.Query, p scim.Page, withoutMembers bool) ([]*scim.Group, int, error) {
	where, args := []string{"g.workspace_id = $1"}, []any{workspaceID}
	switch q.Attr {
	case "displayName":
		args = append(args, q.Value)
		where = append(where, fmt.Sprintf("lower(g.display_name) = lower($%d)", len(args)))
	case "externalId":
		args = append(args, q.Value)
		where = append(where, fmt.Sprintf("g.external_id = $%d", len(args)))
	case "id":
		if !validID(q.Value) {
			return nil, 0, nil
		}
		args = append(args, q.Value)
		where = append(where, fmt.Sprintf("g.id = $%d", len(args)))
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM scim_groups g WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count scim groups: %w", err)
	}
	args = append(args, withoutMembers, p.Count, p.StartIndex-1)
	n := len(args)
	out, err := queryAll(ctx, s.db.Pool, asRow(scanSCIMGroup), groupSelect(n-2)+` WHERE `+cond+
		fmt.Sprintf(` ORDER BY g.created_at, g.id LIMIT $%d OFFSET $%d`, n-1, n), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list scim groups: %w", err)
	}
	return out, total, nil
}

// UpdateGroup implements scim.Store.
func (s *SCIMStore) UpdateGroup(ctx context.Context, workspaceID int64, id string, apply func(*scim.Group) error, roleOf scim.RoleOf) (*scim.Group, scim.Changed, error) {
	if !validID(id) {
		return nil, scim.Changed{}, errSCIMGroupMissing
	}
	var out *scim.Group
	var ch scim.Changed
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		ch = scim.Changed{}
		cur, err := scanSCIMGroup(tx.QueryRow(ctx, groupSelect(3)+` WHERE g.workspace_id = $1 AND g.id = $2 FOR UPDATE OF g`,
			workspaceID, id, false))
		if errors.Is(err, pgx.ErrNoRows) {
			return errSCIMGroupMissing
		}
		if err != nil {
			return err
		}
		next := *cur
		next.Members = append([]scim.Ref(nil), cur.Members...)
		if err := apply(&next); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE scim_groups SET display_name = $2, external_id = $3, updated_at = now() WHERE id = $1`,
			id, next.DisplayName, nullable(next.ExternalID))
		if isUniqueViolation(err) {
			return scimConflict("a group with this displayName exists")
		}
		if err != nil {
			return err
		}
		if ch, err = setGroupMembers(ctx, tx, workspaceID, id, next.Members, roleOf); err != nil {
			return err
		}
		if !strings.EqualFold(next.DisplayName, cur.DisplayName) {
			// A new name may map to another role: every member's role is decided again.
			all := make([]string, 0, len(next.Members))
			for _, m := range next.Members {
				all = append(all, m.Value)
			}
			more, err := giveRoles(ctx, tx, workspaceID, all, roleOf)
			if err != nil {
				return err
			}
			ch.RevokedKeys = append(ch.RevokedKeys, more.RevokedKeys...)
			for k, v := range more.Roles {
				if ch.Roles == nil {
					ch.Roles = map[int64]string{}
				}
				ch.Roles[k] = v
			}
		}
		out, err = scanSCIMGroup(tx.QueryRow(ctx, groupSelect(2)+` WHERE g.id = $1`, id, false))
		return err
	})
	if err != nil {
		return nil, scim.Changed{}, keepAppErr(err, "scim update group")
	}
	return out, ch, nil
}

// DeleteGroup implements scim.Store.
func (s *SCIMStore) DeleteGroup(ctx context.Context, workspaceID int64, id string, roleOf scim.RoleOf) (scim.Changed, error) {
	if !validID(id) {
		return scim.Changed{}, errSCIMGroupMissing
	}
	var ch scim.Changed
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var found bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM scim_groups WHERE workspace_id = $1 AND id = $2 FOR UPDATE)`,
			workspaceID, id).Scan(&found); err != nil {
			return err
		}
		if !found {
			return errSCIMGroupMissing
		}
		rows, err := tx.Query(ctx, `SELECT scim_user_id::text FROM scim_group_members WHERE group_id = $1`, id)
		if err != nil {
			return err
		}
		users, err := collect(rows, func(r pgx.Rows) (string, error) {
			var u string
			return u, r.Scan(&u)
		})
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM scim_groups WHERE id = $1`, id); err != nil {
			return err
		}
		ch, err = giveRoles(ctx, tx, workspaceID, users, roleOf)
		return err
	})
	if err != nil {
		return scim.Changed{}, keepAppErr(err, "scim delete group")
	}
	return ch, nil
}

// RoleMapping implements scim.Store.
func (s *SCIMStore) RoleMapping(ctx context.Context, workspaceID int64) (map[string]string, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT group_name, role FROM scim_role_mappings WHERE workspace_id = $1`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("scim role mapping: %w", err)
	}
	type pair struct{ name, role string }
	ps, err := collect(rows, func(r pgx.Rows) (pair, error) {
		var p pair
		return p, r.Scan(&p.name, &p.role)
	})
	if err != nil {
		return nil, fmt.Errorf("scim role mapping: %w", err)
	}
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.name] = p.role
	}
	return m, nil
}

// SetRoleMapping implements scim.Store.
func (s *SCIMStore) SetRoleMapping(ctx context.Context, workspaceID int64, m map[string]string, roleOf scim.RoleOf) (scim.Changed, error) {
	var ch scim.Changed
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		// One mapping change at a time per workspace: the roles follow the last one.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('scim_roles', $1))`, workspaceID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM scim_role_mappings WHERE workspace_id = $1`, workspaceID); err != nil {
			return err
		}
		for name, role := range m {
			if _, err := tx.Exec(ctx, `INSERT INTO scim_role_mappings (workspace_id, group_name, role) VALUES ($1, $2, $3)`,
				workspaceID, strings.ToLower(name), role); err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, `SELECT id::text FROM scim_users WHERE workspace_id = $1 ORDER BY id`, workspaceID)
		if err != nil {
			return err
		}
		users, err := collect(rows, func(r pgx.Rows) (string, error) {
			var id string
			return id, r.Scan(&id)
		})
		if err != nil {
			return err
		}
		ch, err = giveRoles(ctx, tx, workspaceID, users, roleOf)
		return err
	})
	if err != nil {
		return scim.Changed{}, fmt.Errorf("set scim role mapping: %w", err)
	}
	return ch, nil
}

// ProvisionedIn answers the workspaces (not deleted) whose provider provisioned the account
// with email and keeps it active (sso.Provisioned).
func (s *SCIMStore) ProvisionedIn(ctx context.Context, email string) ([]int64, error) {
	out, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `SELECT su.workspace_id FROM scim_users su
		JOIN users u ON u.id = su.user_id JOIN workspaces w ON w.id = su.workspace_id
		WHERE lower(u.email) = lower($1) AND su.active AND w.deleted_at IS NULL ORDER BY su.workspace_id`, email)
	if err != nil {
		return nil, fmt.Errorf("scim provisioned workspaces: %w", err)
	}
	return out, nil
}

// DeprovisionedIn reports whether the workspace's provider deprovisioned the account with
// email (sso.Deprovisioned).
func (s *SCIMStore) DeprovisionedIn(ctx context.Context, workspaceID int64, email string) (bool, error) {
	var off bool
	err := s.db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM scim_users su JOIN users u ON u.id = su.user_id
		WHERE su.workspace_id = $1 AND lower(u.email) = lower($2) AND NOT su.active)`, workspaceID, email).Scan(&off)
	if err != nil {
		return false, fmt.Errorf("scim deprovisioned: %w", err)
	}
	return off, nil
}
