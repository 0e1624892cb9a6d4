package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/health"
	"github.com/shortlink/shortlink/backend/locale"
)

// HealthStore keeps links' health (link_health), the sweep's cursor and the digests sent.
type HealthStore struct{ db *DB }

// NewHealthStore returns a HealthStore over db.
func NewHealthStore(db *DB) *HealthStore { return &HealthStore{db: db} }

var _ health.Store = (*HealthStore)(nil)

// hostOf is the host name of url u, in lower case, as health.HostOf writes it.
const hostOf = `lower(coalesce(substring(%s from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\[[^]/?#]*\]|[^/?#:]*)'), ''))`

// newestPerSweep is how many links past the highest ID with a health row a sweep step takes
// besides its chunk: new links are checked within a step, not only when the cursor comes
// round (links made on a node whose ID block is below another's wait for the cursor).
const newestPerSweep = 1000

// Sweep implements health.Store: one statement takes the cursor (SKIP LOCKED: a node that
// finds it taken, or swept within pace, does nothing), reads the next n links by ID and the
// newest links (newestPerSweep), gives those without a row one due now, resets those whose
// destination changed, and moves the cursor (back to 0 after the last link). The nodes together
// sweep one chunk per pace.
func (s *HealthStore) Sweep(ctx context.Context, n int, pace time.Duration) (int, error) {
	var looked int
	err := s.db.Pool.QueryRow(ctx, `
		WITH cur AS (SELECT after_id FROM link_health_sweep
			WHERE id = 1 AND swept_at <= now() - make_interval(secs => $2) FOR UPDATE SKIP LOCKED),
		chunk AS (SELECT l.id, l.workspace_id, l.url FROM links l
			WHERE EXISTS (SELECT 1 FROM cur) AND l.id > (SELECT after_id FROM cur) ORDER BY l.id LIMIT $1),
		newest AS (SELECT l.id, l.workspace_id, l.url FROM links l
			WHERE EXISTS (SELECT 1 FROM cur) AND l.id > (SELECT coalesce(max(link_id), 0) FROM link_health)
			ORDER BY l.id LIMIT $3),
		ins AS (
			INSERT INTO link_health (link_id, workspace_id, url, host, next_at)
			SELECT c.id, c.workspace_id, c.url, `+fmt.Sprintf(hostOf, "c.url")+`, now()
			FROM (SELECT * FROM chunk UNION SELECT * FROM newest) c
			WHERE NOT EXISTS (SELECT 1 FROM link_health h WHERE h.link_id = c.id AND h.url = c.url)
			ON CONFLICT (link_id) DO UPDATE SET url = excluded.url, host = excluded.host, state = 'unknown',
				failures = 0, status = NULL, error = '', detail = '', checked_at = NULL, broken_at = NULL, next_at = now()
			WHERE link_health.url <> excluded.url
			RETURNING 1),
		moved AS (
			UPDATE link_health_sweep SET swept_at = now(), after_id = CASE
				WHEN (SELECT count(*) FROM chunk) < $1 THEN 0 ELSE (SELECT max(id) FROM chunk) END
			WHERE id = 1 AND EXISTS (SELECT 1 FROM cur)
			RETURNING 1)
		SELECT count(*) FROM chunk`, n, pace.Seconds(), newestPerSweep).Scan(&looked)
	if err != nil {
		return 0, fmt.Errorf("sweep links for health: %w", err)
	}
	return looked, nil
}

// dueColumns are a health.Due's, of link l and its health row h (LEFT JOINed).
const dueColumns = `l.id, l.workspace_id, l.url, coalesce(h.host, ''),
	l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now()),
	h.url, coalesce(h.state, 'unknown'), coalesce(h.failures, 0), coalesce(h.status, 0), coalesce(h.error, ''),
	coalesce(h.detail, ''), h.checked_at, h.broken_at`

func scanDue(row pgx.Row) (health.Due, error) {
	var d health.Due
	var checkedURL *string
	var checkedAt *time.Time
	r := &d.Record
	err := row.Scan(&d.LinkID, &d.WorkspaceID, &d.URL, &d.Host, &d.Active, &checkedURL, &r.State, &r.Failures,
		&r.Status, &r.Error, &r.Detail, &checkedAt, &r.BrokenAt)
	if checkedAt != nil {
		r.CheckedAt = *checkedAt
	}
	if checkedURL == nil || *checkedURL != d.URL {
		// About another destination: this one has no health yet.
		d.Record = health.Record{State: health.Unknown}
	}
	if d.Host == "" || checkedURL == nil || *checkedURL != d.URL {
		d.Host = health.HostOf(d.URL)
	}
	return d, err
}

// Claim implements health.Store: the due rows oldest first, SKIP LOCKED so that checkers on
// other nodes take others, at most perHost of a host, leased by moving next_at to the lease's
// end.
func (s *HealthStore) Claim(ctx context.Context, n, perHost int, leaseUntil time.Time) ([]health.Due, error) {
	due, err := queryAll(ctx, s.db.Pool, asRow(func(r pgx.Row) (*health.Due, error) {
		d, err := scanDue(r)
		return &d, err
	}), `
		WITH due AS (
			SELECT link_id, host, next_at FROM link_health WHERE next_at <= now()
			ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED),
		picked AS (
			SELECT link_id FROM (SELECT link_id, row_number() OVER (PARTITION BY host ORDER BY next_at) AS k FROM due) r
			WHERE k <= $3 LIMIT $4),
		leased AS (
			UPDATE link_health h SET next_at = $2 FROM picked p WHERE h.link_id = p.link_id
			RETURNING h.*)
		SELECT `+dueColumns+` FROM leased h JOIN links l ON l.id = h.link_id`, 4*n, leaseUntil, perHost, n)
	if err != nil {
		return nil, fmt.Errorf("claim due links: %w", err)
	}
	out := make([]health.Due, len(due))
	for i, d := range due {
		out[i] = *d
	}
	return out, nil
}

// Get implements health.Store.
func (s *HealthStore) Get(ctx context.Context, workspaceID, linkID int64) (*health.Due, error) {
	d, err := scanDue(s.db.Pool.QueryRow(ctx, `SELECT `+dueColumns+`
		FROM links l LEFT JOIN link_health h ON h.link_id = l.id
		WHERE l.workspace_id = $1 AND l.id = $2`, workspaceID, linkID))
	if err != nil {
		return nil, fmt.Errorf("get link health: %w", notFound(err, "link"))
	}
	return &d, nil
}

// Record implements health.Store; a link deleted meanwhile is left alone.
func (s *HealthStore) Record(ctx context.Context, d health.Due, rec health.Record, next time.Time) error {
	var status *int
	if rec.Status != 0 {
		status = &rec.Status
	}
	_, err := s.db.Pool.Exec(ctx, `
		INSERT INTO link_health (link_id, workspace_id, url, host, state, failures, status, error, detail, checked_at, broken_at, next_at)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 WHERE EXISTS (SELECT 1 FROM links WHERE id = $1)
		ON CONFLICT (link_id) DO UPDATE SET url = excluded.url, host = excluded.host, state = excluded.state,
			failures = excluded.failures, status = excluded.status, error = excluded.error, detail = excluded.detail,
			checked_at = excluded.checked_at, broken_at = excluded.broken_at, next_at = excluded.next_at`,
		d.LinkID, d.WorkspaceID, d.URL, d.Host, rec.State, rec.Failures, status, rec.Error, rec.Detail, rec.CheckedAt,
		rec.BrokenAt, next)
	if err != nil && !isForeignKeyViolation(err) {
		return fmt.Errorf("record link health: %w", err)
	}
	return nil
}

// Postpone implements health.Store.
func (s *HealthStore) Postpone(ctx context.Context, linkID int64, next time.Time) error {
	if _, err := s.db.Pool.Exec(ctx, `UPDATE link_health SET next_at = $2 WHERE link_id = $1`, linkID, next); err != nil {
		return fmt.Errorf("put a link's check off: %w", err)
	}
	return nil
}

// DigestsDue implements health.Store: the workspaces with broken links (from the partial
// index of broken links' times), each looked at once: is its digest due, and is a link of it
// broken since, active, about its destination now.
func (s *HealthStore) DigestsDue(ctx context.Context, every time.Duration, n int) ([]int64, error) {
	ids, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `
		SELECT w.workspace_id FROM (SELECT DISTINCT workspace_id FROM link_health WHERE state = 'broken') w
		LEFT JOIN link_health_digests d ON d.workspace_id = w.workspace_id
		WHERE (d.sent_at IS NULL OR d.sent_at <= now() - make_interval(secs => $1))
		  AND EXISTS (SELECT 1 FROM link_health h JOIN links l ON l.id = h.link_id AND l.url = h.url AND l.status = 'active'
			WHERE h.workspace_id = w.workspace_id AND h.state = 'broken' AND h.broken_at > coalesce(d.sent_at, '-infinity'))
		LIMIT $2`, every.Seconds(), n)
	if err != nil {
		return nil, fmt.Errorf("workspaces due a health digest: %w", err)
	}
	return ids, nil
}

// ClaimDigest implements health.Store.
func (s *HealthStore) ClaimDigest(ctx context.Context, workspaceID int64, every time.Duration) (*time.Time, time.Time, bool, error) {
	var since *time.Time
	var at time.Time
	err := s.db.Pool.QueryRow(ctx, `
		INSERT INTO link_health_digests AS d (workspace_id, sent_at) VALUES ($1, now())
		ON CONFLICT (workspace_id) DO UPDATE SET sent_at = now(), previous_at = d.sent_at
		WHERE d.sent_at <= now() - make_interval(secs => $2)
		RETURNING previous_at, sent_at`, workspaceID, every.Seconds()).Scan(&since, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		if isForeignKeyViolation(err) {
			return nil, time.Time{}, false, nil // the workspace is gone
		}
		return nil, time.Time{}, false, fmt.Errorf("claim a health digest: %w", err)
	}
	return since, at, true, nil
}

// UndoDigest implements health.Store.
func (s *HealthStore) UndoDigest(ctx context.Context, workspaceID int64, at time.Time, since *time.Time) error {
	var err error
	if since == nil {
		_, err = s.db.Pool.Exec(ctx, `DELETE FROM link_health_digests WHERE workspace_id = $1 AND sent_at = $2`, workspaceID, at)
	} else {
		_, err = s.db.Pool.Exec(ctx, `UPDATE link_health_digests SET sent_at = $3, previous_at = NULL
			WHERE workspace_id = $1 AND sent_at = $2`, workspaceID, at, *since)
	}
	if err != nil {
		return fmt.Errorf("give a health digest back: %w", err)
	}
	return nil
}

// BrokenSince implements health.Store.
func (s *HealthStore) BrokenSince(ctx context.Context, workspaceID int64, since *time.Time, n int) ([]health.BrokenLink, int, []locale.Recipient, error) {
	var links []health.BrokenLink
	total := 0
	rows, err := s.db.Pool.Query(ctx, `
		SELECT l.id, l.domain_id, l.key, l.url, coalesce(h.status, 0), h.error, h.detail, h.checked_at, count(*) OVER ()
		FROM link_health h JOIN links l ON l.id = h.link_id AND l.url = h.url
		WHERE h.workspace_id = $1 AND h.state = 'broken' AND ($2::timestamptz IS NULL OR h.broken_at > $2)
		  AND l.status = 'active'
		ORDER BY h.broken_at, l.id LIMIT $3`, workspaceID, since, n)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("links broken since the last digest: %w", err)
	}
	for rows.Next() {
		b := health.BrokenLink{Record: health.Record{State: health.Broken}}
		var checkedAt *time.Time
		if err := rows.Scan(&b.LinkID, &b.DomainID, &b.Key, &b.URL, &b.Record.Status, &b.Record.Error, &b.Record.Detail,
			&checkedAt, &total); err != nil {
			rows.Close()
			return nil, 0, nil, fmt.Errorf("links broken since the last digest: %w", err)
		}
		if checkedAt != nil {
			b.Record.CheckedAt = *checkedAt
		}
		links = append(links, b)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, nil, fmt.Errorf("links broken since the last digest: %w", err)
	}
	owners, err := queryAll(ctx, s.db.Pool, pgx.RowToStructByPos[locale.Recipient], `
		SELECT u.email, u.language FROM members m JOIN users u ON u.id = m.user_id JOIN workspaces w ON w.id = m.workspace_id
		WHERE m.workspace_id = $1 AND m.role = 'owner' AND w.deleted_at IS NULL ORDER BY m.created_at`, workspaceID)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("owners of a workspace: %w", err)
	}
	return links, total, owners, nil
}
