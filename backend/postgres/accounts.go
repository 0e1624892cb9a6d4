package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/locale"
)

// AccountStore implements account.Store: users, workspaces, members, invitations, API keys.
type AccountStore struct{ db *DB }

// NewAccountStore returns the PostgreSQL account store.
func NewAccountStore(db *DB) *AccountStore { return &AccountStore{db: db} }

var _ account.Store = (*AccountStore)(nil)

// inTx runs fn in a transaction, committing when it returns nil.
func (db *DB) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// collect scans every row with scan, closing rows. An empty result is an empty slice, which
// encodes as [] rather than null.
func collect[T any](rows pgx.Rows, scan func(pgx.Rows) (T, error)) ([]T, error) {
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

const userColumns = `id, email, system_role, email_verified_at IS NOT NULL, system_role_since, created_at, language`

func scanUser(row pgx.Row, extra ...any) (*account.User, error) {
	var u account.User
	var lang string
	err := row.Scan(append([]any{&u.ID, &u.Email, &u.SystemRole, &u.EmailVerified, &u.SystemRoleSince, &u.CreatedAt, &lang}, extra...)...)
	u.Language = locale.Of(lang)
	return &u, err
}

const workspaceColumns = `w.id, w.name, w.plan, w.require_2fa, w.session_max_age_seconds, w.session_idle_timeout_seconds, w.created_at`

func scanWorkspace(row pgx.Row, extra ...any) (*account.Workspace, error) {
	var w account.Workspace
	var maxAge, idle *int64
	err := row.Scan(append([]any{&w.ID, &w.Name, &w.Plan, &w.Require2FA, &maxAge, &idle, &w.CreatedAt}, extra...)...)
	w.SessionMaxAge, w.SessionIdleTimeout = account.LimitOf(seconds(maxAge)), account.LimitOf(seconds(idle))
	return &w, err
}

// seconds is a column of whole seconds as a duration; 0 for NULL.
func seconds(v *int64) time.Duration {
	if v == nil {
		return 0
	}
	return time.Duration(*v) * time.Second
}

// nullSeconds is a duration as a column of whole seconds; NULL for 0.
func nullSeconds(d time.Duration) *int64 {
	if d <= 0 {
		return nil
	}
	v := int64(d / time.Second)
	return &v
}

// CreateUser implements account.Store: the user, their workspace and its ownership commit
// together or not at all.
func (s *AccountStore) CreateUser(ctx context.Context, email, hash, wsName string) (*account.User, *account.Workspace, error) {
	var u *account.User
	var w *account.Workspace
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		u, err = scanUser(tx.QueryRow(ctx, `INSERT INTO users (email, password_hash) VALUES ($1, $2)
			RETURNING `+userColumns, email, hash))
		if err != nil {
			return err
		}
		w, err = createWorkspace(ctx, tx, u.ID, wsName)
		return err
	})
	if isUniqueViolation(err) {
		return nil, nil, apperr.Errorf(apperr.Conflict, "email already registered").For("email_taken", "email")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("create user: %w", err)
	}
	return u, w, nil
}

func createWorkspace(ctx context.Context, tx pgx.Tx, ownerID int64, name string) (*account.Workspace, error) {
	w, err := scanWorkspace(tx.QueryRow(ctx, `INSERT INTO workspaces AS w (name) VALUES ($1)
		RETURNING `+workspaceColumns, name))
	if err != nil {
		return nil, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role) VALUES ($1, $2, 'owner')`,
		w.ID, ownerID); err != nil {
		return nil, err
	}
	w.Role = account.RoleOwner
	return w, nil
}

// UserByEmail implements account.Store.
func (s *AccountStore) UserByEmail(ctx context.Context, email string) (*account.User, string, error) {
	var hash string
	u, err := scanUser(s.db.Pool.QueryRow(ctx, `SELECT `+userColumns+`, password_hash FROM users
		WHERE lower(email) = lower($1)`, email), &hash)
	if err != nil {
		return nil, "", fmt.Errorf("user by email: %w", notFound(err, "user"))
	}
	return u, hash, nil
}

// User implements account.Store.
func (s *AccountStore) User(ctx context.Context, id int64) (*account.User, error) {
	u, err := scanUser(s.db.Pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
	if err != nil {
		return nil, fmt.Errorf("user: %w", notFound(err, "user"))
	}
	return u, nil
}

// UpsertOperator implements account.Store. The row lock makes the check of the old role and
// the revocations one step with the promotion.
func (s *AccountStore) UpsertOperator(ctx context.Context, email, hash string) (*account.User, []int64, error) {
	var u *account.User
	var revoked []int64
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var id int64
		var role string
		err := tx.QueryRow(ctx, `SELECT id, system_role FROM users WHERE lower(email) = lower($1) FOR UPDATE`,
			email).Scan(&id, &role)
		if errors.Is(err, pgx.ErrNoRows) {
			u, err = scanUser(tx.QueryRow(ctx, `INSERT INTO users (email, password_hash, system_role, email_verified_at)
				VALUES ($1, $2, 'operator', now()) RETURNING `+userColumns, email, hash))
			if err != nil {
				return err
			}
			_, err = createWorkspace(ctx, tx, u.ID, "Operations")
			return err
		}
		if err != nil {
			return err
		}
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users SET password_hash = $2, system_role = 'operator',
			system_role_since = CASE WHEN system_role = 'operator' THEN system_role_since ELSE now() END,
			email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 RETURNING `+userColumns, id, hash))
		if err != nil || role == account.SystemOperator {
			return err
		}
		if err := revokeSessions(ctx, tx, id); err != nil {
			return err
		}
		revoked, err = revokeKeysCreatedBy(ctx, tx, id, 0, account.RevokedCreatorPromoted)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("upsert operator: %w", err)
	}
	return u, revoked, nil
}

// WorkspacesOf implements account.Store.
func (s *AccountStore) WorkspacesOf(ctx context.Context, userID int64) ([]*account.Workspace, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+workspaceColumns+`, m.role FROM workspaces w
		JOIN members m ON m.workspace_id = w.id WHERE m.user_id = $1 ORDER BY w.id`, userID)
	if err != nil {
		return nil, fmt.Errorf("workspaces of user: %w", err)
	}
	ws, err := collect(rows, func(r pgx.Rows) (*account.Workspace, error) {
		var role string
		w, err := scanWorkspace(r, &role)
		w.Role = role
		return w, err
	})
	if err != nil {
		return nil, fmt.Errorf("workspaces of user: %w", err)
	}
	return ws, nil
}

// CreateWorkspace implements account.Store.
func (s *AccountStore) CreateWorkspace(ctx context.Context, ownerID int64, name string, maxOwned int) (*account.Workspace, error) {
	var w *account.Workspace
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		// The user's row lock makes the count exact when one user creates two at once.
		var owned int
		err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM members WHERE user_id = $1 AND role = 'owner')
			FROM users WHERE id = $1 FOR UPDATE`, ownerID).Scan(&owned)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.Errorf(apperr.NotFound, "user not found").For("user_not_found", "")
		}
		if err != nil {
			return err
		}
		if owned >= maxOwned {
			return apperr.Errorf(apperr.QuotaExceeded, "you own %d workspaces, the most one account may own: delete one first", owned).For("workspace_quota_exceeded", "")
		}
		w, err = createWorkspace(ctx, tx, ownerID, name)
		return err
	})
	if err != nil && apperr.CodeOf(err) == apperr.Internal {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	return w, err
}

// Workspace implements account.Store.
func (s *AccountStore) Workspace(ctx context.Context, id int64) (*account.Workspace, error) {
	w, err := scanWorkspace(s.db.Pool.QueryRow(ctx, `SELECT `+workspaceColumns+` FROM workspaces w
		WHERE w.id = $1 AND w.deleted_at IS NULL`, id))
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", notFound(err, "workspace"))
	}
	return w, nil
}

// RenameWorkspace implements account.Store.
func (s *AccountStore) RenameWorkspace(ctx context.Context, id int64, name string) (*account.Workspace, error) {
	return s.setWorkspace(ctx, "rename workspace", "name", id, name)
}

// setWorkspace sets one column (a constant of the caller's) of a workspace not deleted and
// returns the workspace.
func (s *AccountStore) setWorkspace(ctx context.Context, what, column string, id int64, value any) (*account.Workspace, error) {
	w, err := scanWorkspace(s.db.Pool.QueryRow(ctx, `UPDATE workspaces w SET `+column+` = $2
		WHERE w.id = $1 AND w.deleted_at IS NULL RETURNING `+workspaceColumns, id, value))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, notFound(err, "workspace"))
	}
	return w, nil
}

// MarkWorkspaceDeleted implements account.Store: in one short transaction the workspace is
// marked deleted and loses its members, invitations and API keys, so nobody reaches it any more;
// its links are removed afterwards by DeleteWorkspaceLinks, in batches.
func (s *AccountStore) MarkWorkspaceDeleted(ctx context.Context, id int64) error {
	err := s.db.inTx(ctx, func(tx pgx.Tx) error { return markWorkspaceDeleted(ctx, tx, id) })
	if err != nil && !apperr.Is(err, apperr.NotFound) {
		return fmt.Errorf("delete workspace: %w", err)
	}
	return err
}

// markWorkspaceDeleted takes a workspace from everyone: members, invitations and API keys go;
// not_found if there is none or it is deleted already.
func markWorkspaceDeleted(ctx context.Context, tx pgx.Tx, id int64) error {
	tag, err := tx.Exec(ctx, `UPDATE workspaces SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	}
	for _, q := range []string{
		`DELETE FROM members WHERE workspace_id = $1`,
		`DELETE FROM invitations WHERE workspace_id = $1`,
		`DELETE FROM api_keys WHERE workspace_id = $1`,
	} {
		if _, err := tx.Exec(ctx, q, id); err != nil {
			return err
		}
	}
	return nil
}

// DeleteWorkspaceLinks implements account.Store. One batch of a workspace runs at a time (a
// transaction-scoped advisory lock on the workspace); a node that finds it taken answers
// account.ErrPurgeBusy and leaves the work to the other.
func (s *AccountStore) DeleteWorkspaceLinks(ctx context.Context, id int64, limit int) ([]account.LinkRef, error) {
	var links []account.LinkRef
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1, hashint8($2))`, purgeLockClass, id).Scan(&locked); err != nil {
			return err
		}
		if !locked {
			return account.ErrPurgeBusy
		}
		rows, err := tx.Query(ctx, `DELETE FROM links WHERE id IN (
				SELECT l.id FROM links l JOIN workspaces w ON w.id = l.workspace_id
				WHERE l.workspace_id = $1 AND w.deleted_at IS NOT NULL LIMIT $2 FOR UPDATE OF l SKIP LOCKED)
			RETURNING domain_id, key`, id, limit)
		if err != nil {
			return err
		}
		links, err = collect(rows, func(r pgx.Rows) (account.LinkRef, error) {
			var l account.LinkRef
			return l, r.Scan(&l.DomainID, &l.Key)
		})
		return err
	})
	if err != nil && !errors.Is(err, account.ErrPurgeBusy) {
		return nil, fmt.Errorf("delete workspace links: %w", err)
	}
	return links, err
}

// purgeLockClass is the first key of the advisory locks that keep two batches of one
// workspace's removal from running at once.
const purgeLockClass = 0x5107

// FinishWorkspaceDeletion implements account.Store. It deletes nothing while links remain (a
// create that raced with the deletion, or a batch another node has not finished), so the rows
// always go a batch at a time.
// The workspace's visits go with it, raw and rolled up, in the same transaction.
func (s *AccountStore) FinishWorkspaceDeletion(ctx context.Context, id int64) (bool, error) {
	var deleted bool
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM workspaces w WHERE w.id = $1 AND w.deleted_at IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM links WHERE workspace_id = $1)`, id)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		deleted = true
		for _, q := range forgetWorkspaceVisits {
			if _, err := tx.Exec(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("finish workspace deletion: %w", err)
	}
	if deleted {
		return true, nil
	}
	var left bool
	if err := s.db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM workspaces WHERE id = $1)`, id).Scan(&left); err != nil {
		return false, fmt.Errorf("finish workspace deletion: %w", err)
	}
	return !left, nil
}

// forgetWorkspaceVisits delete a removed workspace's visits and rollups: what is keyed by link
// first, through visit_totals, which names every link that had a visit.
var forgetWorkspaceVisits = []string{
	`DELETE FROM visit_key_hours WHERE link_id IN (SELECT link_id FROM visit_totals WHERE workspace_id = $1)`,
	`DELETE FROM visit_key_days WHERE link_id IN (SELECT link_id FROM visit_totals WHERE workspace_id = $1)`,
	`DELETE FROM visit_key_months WHERE link_id IN (SELECT link_id FROM visit_totals WHERE workspace_id = $1)`,
	`DELETE FROM visitor_sets WHERE link_id IN (SELECT link_id FROM visit_totals WHERE workspace_id = $1)`,
	`DELETE FROM visitor_sketches WHERE link_id IN (SELECT link_id FROM visit_totals WHERE workspace_id = $1)`,
	`DELETE FROM moderation_due WHERE link_id IN (SELECT link_id FROM visit_totals WHERE workspace_id = $1)`,
	`DELETE FROM visit_totals WHERE workspace_id = $1`,
	`DELETE FROM visit_hours WHERE workspace_id = $1`,
	`DELETE FROM workspace_visit_hours WHERE workspace_id = $1`,
	`DELETE FROM workspace_visitor_sketches WHERE workspace_id = $1`,
	`DELETE FROM visits WHERE workspace_id = $1`,
}

// DeletedWorkspaces implements account.Store.
func (s *AccountStore) DeletedWorkspaces(ctx context.Context, minAge time.Duration) ([]int64, error) {
	ids, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `SELECT id FROM workspaces
		WHERE deleted_at IS NOT NULL AND deleted_at <= now() - make_interval(secs => $1) ORDER BY id`, minAge.Seconds())
	if err != nil {
		return nil, fmt.Errorf("list deleted workspaces: %w", err)
	}
	return ids, nil
}

// exactlyOne runs a statement that must change one row; none is not_found naming noun.
func exactlyOne(ctx context.Context, db *DB, what, noun, sql string, args ...any) error {
	tag, err := db.Pool.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Missing(noun)
	}
	return nil
}

// Role implements account.Store.
func (s *AccountStore) Role(ctx context.Context, workspaceID, userID int64) (string, error) {
	var role string
	err := s.db.Pool.QueryRow(ctx, `SELECT role FROM members WHERE workspace_id = $1 AND user_id = $2`,
		workspaceID, userID).Scan(&role)
	if err != nil {
		return "", fmt.Errorf("role: %w", notFound(err, "workspace"))
	}
	return role, nil
}

// Access implements account.Store: the membership and, with it, whether the workspace
// requires a 2FA the user has not confirmed.
func (s *AccountStore) Access(ctx context.Context, workspaceID, userID int64) (account.Access, error) {
	var a account.Access
	var maxAge, idle *int64
	err := s.db.Pool.QueryRow(ctx, `SELECT m.role, w.require_2fa AND NOT EXISTS (
			SELECT 1 FROM user_totp t WHERE t.user_id = m.user_id AND t.enabled_at IS NOT NULL),
			w.session_max_age_seconds, w.session_idle_timeout_seconds
		FROM members m JOIN workspaces w ON w.id = m.workspace_id
		WHERE m.workspace_id = $1 AND m.user_id = $2`, workspaceID, userID).Scan(&a.Role, &a.MissingTwoFactor, &maxAge, &idle)
	if err != nil {
		return account.Access{}, fmt.Errorf("access: %w", notFound(err, "workspace"))
	}
	a.SessionPolicy.MaxAge, a.SessionPolicy.IdleTimeout = seconds(maxAge), seconds(idle)
	return a, nil
}

// SetSessionPolicy implements account.Store.
func (s *AccountStore) SetSessionPolicy(ctx context.Context, id int64, p auth.SessionPolicy) (*account.Workspace, bool, error) {
	var changed bool
	w, err := scanWorkspace(s.db.Pool.QueryRow(ctx, `WITH old AS (
			SELECT session_max_age_seconds AS max_age, session_idle_timeout_seconds AS idle
			FROM workspaces WHERE id = $1 AND deleted_at IS NULL FOR UPDATE)
		UPDATE workspaces w SET session_max_age_seconds = $2, session_idle_timeout_seconds = $3 FROM old
		WHERE w.id = $1 RETURNING `+workspaceColumns+`,
			old.max_age IS DISTINCT FROM $2 OR old.idle IS DISTINCT FROM $3`,
		id, nullSeconds(p.MaxAge), nullSeconds(p.IdleTimeout)), &changed)
	if err != nil {
		return nil, false, fmt.Errorf("set session policy: %w", notFound(err, "workspace"))
	}
	return w, changed, nil
}

// SetRequire2FA implements account.Store.
func (s *AccountStore) SetRequire2FA(ctx context.Context, id int64, on bool) (*account.Workspace, bool, error) {
	var changed bool
	w, err := scanWorkspace(s.db.Pool.QueryRow(ctx, `WITH old AS (
			SELECT require_2fa FROM workspaces WHERE id = $1 AND deleted_at IS NULL FOR UPDATE)
		UPDATE workspaces w SET require_2fa = $2 FROM old
		WHERE w.id = $1 RETURNING `+workspaceColumns+`, old.require_2fa <> $2`, id, on), &changed)
	if err != nil {
		return nil, false, fmt.Errorf("set require_2fa: %w", notFound(err, "workspace"))
	}
	return w, changed, nil
}

const memberColumns = `m.user_id, u.email, m.role, m.created_at,
	EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = m.user_id AND t.enabled_at IS NOT NULL)`

func scanMember(r pgx.Row) (*account.Member, error) {
	var m account.Member
	return &m, r.Scan(&m.UserID, &m.Email, &m.Role, &m.CreatedAt, &m.TwoFactor)
}

// Members implements account.Store.
func (s *AccountStore) Members(ctx context.Context, workspaceID int64) ([]*account.Member, error) {
	ms, err := queryAll(ctx, s.db.Pool, asRow(scanMember),
		`SELECT `+memberColumns+` FROM members m JOIN users u ON u.id = m.user_id
		WHERE m.workspace_id = $1 ORDER BY m.created_at, m.user_id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("members: %w", err)
	}
	return ms, nil
}

var errNoMember = apperr.Errorf(apperr.NotFound, "member not found").For("member_not_found", "")

// changeMembers runs a change to the workspace's memberships and then checks an owner is
// left. The workspace row is locked first, so two owners removing each other at the same
// time cannot both succeed.
func (s *AccountStore) changeMembers(ctx context.Context, workspaceID int64, change func(pgx.Tx) error) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT 1 FROM workspaces WHERE id = $1 FOR UPDATE`, workspaceID); err != nil {
			return err
		}
		if err := change(tx); err != nil {
			return err
		}
		var owners int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM members WHERE workspace_id = $1 AND role = 'owner'`,
			workspaceID).Scan(&owners); err != nil {
			return err
		}
		if owners == 0 {
			return apperr.Errorf(apperr.Conflict, "a workspace must keep at least one owner: make another member owner first").For("last_owner", "")
		}
		return nil
	})
}

// SetRole implements account.Store.
func (s *AccountStore) SetRole(ctx context.Context, workspaceID, userID int64, role string) (*account.Member, error) {
	var m *account.Member
	err := s.changeMembers(ctx, workspaceID, func(tx pgx.Tx) error {
		var err error
		m, err = scanMember(tx.QueryRow(ctx, `UPDATE members m SET role = $3 FROM users u
			WHERE m.workspace_id = $1 AND m.user_id = $2 AND u.id = m.user_id RETURNING `+memberColumns,
			workspaceID, userID, role))
		if errors.Is(err, pgx.ErrNoRows) {
			return errNoMember
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("set member role: %w", err)
	}
	return m, nil
}

// RemoveMember implements account.Store.
func (s *AccountStore) RemoveMember(ctx context.Context, workspaceID, userID int64) error {
	err := s.changeMembers(ctx, workspaceID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM members WHERE workspace_id = $1 AND user_id = $2`, workspaceID, userID)
		if err == nil && tag.RowsAffected() == 0 {
			return errNoMember
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("remove member: %w", err)
	}
	return nil
}

// TransferOwnership implements account.Store.
func (s *AccountStore) TransferOwnership(ctx context.Context, workspaceID, from, to int64) (*account.Member, error) {
	var m *account.Member
	err := s.changeMembers(ctx, workspaceID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE members SET role = 'admin'
			WHERE workspace_id = $1 AND user_id = $2 AND role = 'owner'`, workspaceID, from)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return apperr.Errorf(apperr.Conflict, "only an owner can hand over the workspace").For("owner_only", "")
		}
		m, err = scanMember(tx.QueryRow(ctx, `UPDATE members m SET role = 'owner' FROM users u
			WHERE m.workspace_id = $1 AND m.user_id = $2 AND u.id = m.user_id RETURNING `+memberColumns,
			workspaceID, to))
		if errors.Is(err, pgx.ErrNoRows) {
			return errNoMember
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("transfer ownership: %w", err)
	}
	return m, nil
}

// ListWorkspaces implements account.Store.
func (s *AccountStore) ListWorkspaces(ctx context.Context, before int64, limit int) ([]*account.Workspace, error) {
	ws, err := queryAll(ctx, s.db.Pool, func(r pgx.CollectableRow) (*account.Workspace, error) {
		var b account.BillingSummary
		w, err := scanWorkspace(r, &b.Status, &b.BilledPlan, &b.BilledUntil, &b.PastDueSince)
		w.Billing = &b
		return w, err
	},
		`SELECT `+workspaceColumns+`, COALESCE(b.status, 'none'), w.billed_plan, w.billed_until, b.past_due_since
		FROM workspaces w LEFT JOIN workspace_billing b ON b.workspace_id = w.id
		WHERE ($1::bigint = 0 OR w.id < $1) AND w.deleted_at IS NULL ORDER BY w.id DESC LIMIT $2`, before, limit)
	if err != nil {
		return nil, fmt.Errorf("list workspaces: %w", err)
	}
	return ws, nil
}

// SetPlan implements account.Store.
func (s *AccountStore) SetPlan(ctx context.Context, workspaceID int64, plan string) (*account.Workspace, error) {
	return s.setWorkspace(ctx, "set plan", "plan", workspaceID, plan)
}

// ListUsers implements account.Store.
func (s *AccountStore) ListUsers(ctx context.Context, before int64, limit int) ([]*account.User, error) {
	us, err := queryAll(ctx, s.db.Pool, func(r pgx.CollectableRow) (*account.User, error) { return scanUser(r) },
		`SELECT `+userColumns+` FROM users
		WHERE $1::bigint = 0 OR id < $1 ORDER BY id DESC LIMIT $2`, before, limit)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return us, nil
}

// SetSystemRole implements account.Store.
func (s *AccountStore) SetSystemRole(ctx context.Context, userID int64, role string) (*account.User, []int64, error) {
	var u *account.User
	var revoked []int64
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		u, err = scanUser(tx.QueryRow(ctx, `UPDATE users SET system_role = $2, system_role_since = now()
			WHERE id = $1 RETURNING `+userColumns, userID, role))
		if err != nil {
			return notFound(err, "user")
		}
		if err := revokeSessions(ctx, tx, userID); err != nil {
			return err
		}
		if role != account.SystemUser {
			revoked, err = revokeKeysCreatedBy(ctx, tx, userID, 0, account.RevokedCreatorPromoted)
		}
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("set system role: %w", err)
	}
	return u, revoked, nil
}
