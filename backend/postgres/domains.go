package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/domain"
)

// DomainStore implements domain.Store.
type DomainStore struct{ db *DB }

// NewDomainStore returns the domains' store.
func NewDomainStore(db *DB) *DomainStore { return &DomainStore{db: db} }

var _ domain.Store = (*DomainStore)(nil)

const domainColumns = `id, workspace_id, hostname, token, verified_at, root_url, checked_at, check_error,
	created_at, removed_at`

func scanDomain(r pgx.Row) (*domain.Domain, error) {
	var d domain.Domain
	return &d, r.Scan(&d.ID, &d.WorkspaceID, &d.Hostname, &d.Token, &d.VerifiedAt, &d.RootURL, &d.CheckedAt,
		&d.CheckError, &d.CreatedAt, &d.RemovedAt)
}

// Create implements domain.Store. The workspace's row is locked while its domains are counted,
// so two adds at once cannot both pass the plan's limit.
func (s *DomainStore) Create(ctx context.Context, d *domain.Domain, check func(current int64) error) (*domain.Domain, error) {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("create domain: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var current int64
	var taken bool
	err = tx.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM domains WHERE workspace_id = w.id AND removed_at IS NULL),
			EXISTS (SELECT 1 FROM domains WHERE hostname = $2 AND removed_at IS NULL
				AND (workspace_id = w.id OR verified_at IS NOT NULL))
		FROM workspaces w WHERE w.id = $1 FOR UPDATE`, d.WorkspaceID, d.Hostname).Scan(&current, &taken)
	if err != nil {
		return nil, fmt.Errorf("create domain: %w", notFound(err, "workspace"))
	}
	if taken {
		return nil, apperr.Errorf(apperr.Conflict, "%q is already taken", d.Hostname).For("domain_taken", "hostname")
	}
	if err := check(current); err != nil {
		return nil, err
	}
	out, err := scanDomain(tx.QueryRow(ctx, `INSERT INTO domains (workspace_id, hostname, token)
		VALUES ($1, $2, $3) RETURNING `+domainColumns, d.WorkspaceID, d.Hostname, d.Token))
	if err != nil {
		if isUniqueViolation(err) {
			return nil, apperr.Errorf(apperr.Conflict, "%q is already taken", d.Hostname).For("domain_taken", "hostname")
		}
		return nil, fmt.Errorf("create domain: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("create domain: %w", err)
	}
	return out, nil
}

// Get implements domain.Store.
func (s *DomainStore) Get(ctx context.Context, workspaceID, id int64) (*domain.Domain, error) {
	d, err := scanDomain(s.db.Pool.QueryRow(ctx, `SELECT `+domainColumns+` FROM domains
		WHERE workspace_id = $1 AND id = $2 AND removed_at IS NULL`, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("get domain: %w", notFound(err, "domain"))
	}
	return d, nil
}

// List implements domain.Store.
func (s *DomainStore) List(ctx context.Context, workspaceID int64) ([]*domain.Domain, error) {
	ds, err := queryAll(ctx, s.db.Pool, asRow(scanDomain), `SELECT `+domainColumns+` FROM domains
		WHERE workspace_id = $1 AND removed_at IS NULL ORDER BY id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list domains: %w", err)
	}
	return ds, nil
}

// SetRootURL implements domain.Store.
func (s *DomainStore) SetRootURL(ctx context.Context, workspaceID, id int64, rootURL string) (*domain.Domain, error) {
	d, err := scanDomain(s.db.Pool.QueryRow(ctx, `UPDATE domains SET root_url = $3
		WHERE workspace_id = $1 AND id = $2 AND removed_at IS NULL RETURNING `+domainColumns, workspaceID, id, rootURL))
	if err != nil {
		return nil, fmt.Errorf("set domain root url: %w", notFound(err, "domain"))
	}
	return d, nil
}

// Checked implements domain.Store. A failed check writes only checked_at and check_error,
// which the nodes' tables do not hold (the epoch trigger ignores them).
func (s *DomainStore) Checked(ctx context.Context, workspaceID, id int64, verified bool, checkError string) (*domain.Domain, error) {
	q := `UPDATE domains SET checked_at = now(), check_error = $3
		WHERE workspace_id = $1 AND id = $2 AND removed_at IS NULL RETURNING ` + domainColumns
	if verified {
		q = `UPDATE domains SET checked_at = now(), check_error = $3, verified_at = coalesce(verified_at, now())
			WHERE workspace_id = $1 AND id = $2 AND removed_at IS NULL RETURNING ` + domainColumns
	}
	d, err := scanDomain(s.db.Pool.QueryRow(ctx, q, workspaceID, id, checkError))
	if err != nil {
		if isUniqueViolation(err) {
			return nil, apperr.Errorf(apperr.Conflict, "this host name was verified by another workspace first").For("domain_taken", "")
		}
		return nil, fmt.Errorf("record domain check: %w", notFound(err, "domain"))
	}
	return d, nil
}

// Remove implements domain.Store.
func (s *DomainStore) Remove(ctx context.Context, workspaceID, id int64) (*domain.Domain, error) {
	d, err := scanDomain(s.db.Pool.QueryRow(ctx, `UPDATE domains SET removed_at = now()
		WHERE workspace_id = $1 AND id = $2 AND removed_at IS NULL RETURNING `+domainColumns, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("remove domain: %w", notFound(err, "domain"))
	}
	return d, nil
}

// ClaimPending implements domain.Store: SKIP LOCKED leaves the rows another node is claiming
// to it, and checked_at moves them out of every node's next claim for every.
func (s *DomainStore) ClaimPending(ctx context.Context, every time.Duration, limit int) ([]*domain.Domain, error) {
	ds, err := queryAll(ctx, s.db.Pool, asRow(scanDomain), `UPDATE domains SET checked_at = now()
		WHERE id IN (SELECT id FROM domains
			WHERE verified_at IS NULL AND removed_at IS NULL
				AND (checked_at IS NULL OR checked_at < now() - make_interval(secs => $1))
			ORDER BY checked_at NULLS FIRST, id LIMIT $2 FOR UPDATE SKIP LOCKED)
		RETURNING `+domainColumns, every.Seconds(), limit)
	if err != nil {
		return nil, fmt.Errorf("claim pending domains: %w", err)
	}
	return ds, nil
}

// Routes implements domain.Store, in one statement: the epoch and the rows of one snapshot.
func (s *DomainStore) Routes(ctx context.Context) (int64, []domain.Route, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT e.n, d.id, d.workspace_id, d.hostname, d.root_url,
			d.removed_at IS NULL, d.apple_app_site_association::text, d.assetlinks::text
		FROM domain_epoch e LEFT JOIN domains d ON d.verified_at IS NOT NULL OR d.removed_at IS NOT NULL
		ORDER BY d.id`)
	if err != nil {
		return 0, nil, fmt.Errorf("read domain routes: %w", err)
	}
	defer rows.Close()
	var epoch int64
	var out []domain.Route
	for rows.Next() {
		var id, ws *int64
		var host, root *string
		var active *bool
		var aasa, assetlinks *string
		if err := rows.Scan(&epoch, &id, &ws, &host, &root, &active, &aasa, &assetlinks); err != nil {
			return 0, nil, fmt.Errorf("read domain routes: %w", err)
		}
		if id == nil {
			continue // no domain at all: the epoch alone
		}
		r := domain.Route{ID: *id, WorkspaceID: *ws, Hostname: *host, RootURL: *root, Active: *active}
		if aasa != nil {
			r.AASA = []byte(*aasa)
		}
		if assetlinks != nil {
			r.AssetLinks = []byte(*assetlinks)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("read domain routes: %w", err)
	}
	return epoch, out, nil
}

// Epoch implements domain.Store.
func (s *DomainStore) Epoch(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.Pool.QueryRow(ctx, `SELECT n FROM domain_epoch`).Scan(&n); err != nil {
		return 0, fmt.Errorf("read domains epoch: %w", err)
	}
	return n, nil
}

// AppLinks implements domain.Store.
func (s *DomainStore) AppLinks(ctx context.Context, workspaceID, id int64) (*domain.AppLinks, error) {
	var aasa, assetlinks *string
	err := s.db.Pool.QueryRow(ctx, `SELECT apple_app_site_association::text, assetlinks::text FROM domains
		WHERE workspace_id = $1 AND id = $2 AND removed_at IS NULL`, workspaceID, id).Scan(&aasa, &assetlinks)
	if err != nil {
		return nil, fmt.Errorf("get app links: %w", notFound(err, "domain"))
	}
	a := &domain.AppLinks{}
	if aasa != nil {
		a.AppleAppSiteAssociation = []byte(*aasa)
	}
	if assetlinks != nil {
		a.AssetLinks = []byte(*assetlinks)
	}
	return a, nil
}

// SetAppLinks implements domain.Store.
func (s *DomainStore) SetAppLinks(ctx context.Context, workspaceID, id int64, a domain.AppLinks) error {
	text := func(b []byte) *string {
		if b == nil {
			return nil
		}
		v := string(b)
		return &v
	}
	tag, err := s.db.Pool.Exec(ctx, `UPDATE domains SET apple_app_site_association = $3::jsonb, assetlinks = $4::jsonb
		WHERE workspace_id = $1 AND id = $2 AND removed_at IS NULL`,
		workspaceID, id, text(a.AppleAppSiteAssociation), text(a.AssetLinks))
	if err != nil {
		return fmt.Errorf("set app links: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Missing("domain")
	}
	return nil
}
