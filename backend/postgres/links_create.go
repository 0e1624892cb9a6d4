package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/tag"
	"github.com/shortlink/shortlink/backend/webhook"
)

// urlHash keys the dedupe index: a short fixed-size stand-in for URLs of up to 2 KB.
func urlHash(u string) int64 {
	sum := sha256.Sum256([]byte(u))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}

// Insert writes the batch with one multi-row statement over arrays, so one prepared
// statement serves any batch size. Rows whose key is taken are skipped by ON CONFLICT and
// answered with their own conflict error. A new active link whose destination's registrable
// domain is held (moderation_holds, or a moderator's ban in moderation_domains) is written
// held (link.StatusHeld), in the same statement: it answers the warning page from its first
// visit, on every node, whatever the caches (each link's Status is set to what was written).
// Each distinct workspace and creator of the batch is locked once (FOR KEY SHARE, as a foreign
// key's check would for every row; migration 00059): a link is written only while its
// workspace is there, and keeps no creator whose account is gone.
func (s *LinkStore) Insert(ctx context.Context, links []*link.Link) ([]error, error) {
	n := len(links)
	ids, ws, doms := make([]int64, n), make([]int64, n), make([]int64, n)
	keys, urls, titles, statuses := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	aliases, fwd := make([]bool, n), make([]bool, n)
	hashes, codes := make([]int64, n), make([]int16, n)
	expires, creators := make([]*time.Time, n), make([]*int64, n)
	created, rules, utms := make([]time.Time, n), make([]*string, n), make([]*string, n)
	domains, archived, qrs := make([]string, n), make([]*time.Time, n), make([]*string, n)
	// The tags' rows: each link's ID with the folded name of each of its tags (made already).
	var tagLinks []int64
	var tagNames []string
	for i, l := range links {
		utms[i] = utmJSON(&l.UTM)
		for _, t := range l.Tags {
			tagLinks, tagNames = append(tagLinks, l.ID), append(tagNames, tag.Fold(t))
		}
		if b := link.MarshalRules(&l.Rules); b != nil {
			r := string(b)
			rules[i] = &r
		}
		ids[i], ws[i], doms[i], keys[i] = l.ID, l.WorkspaceID, l.DomainID, l.Key
		aliases[i], urls[i], hashes[i], titles[i] = l.IsAlias, l.URL, urlHash(l.URL), l.Title
		codes[i], fwd[i], statuses[i] = int16(l.RedirectStatus), l.ForwardQuery, l.Status
		expires[i], creators[i], created[i] = l.ExpiresAt, l.CreatedBy, l.CreatedAt
		domains[i], archived[i], qrs[i] = moderation.RegistrableDomain(l.URL), l.ArchivedAt, qrJSON(l.QR)
	}
	insert := `
		WITH l AS (INSERT INTO links (id, workspace_id, domain_id, key, is_alias, url, url_hash, title,
			redirect_status, forward_query, status, expires_at, rules, created_by, created_at, updated_at, utm, archived_at, qr_style)
		SELECT id, ws, dom, key, alias, url, hash, title, code, fwd,
			CASE WHEN status = 'active' AND site <> '' AND (
				EXISTS (SELECT 1 FROM moderation_holds h WHERE h.domain = site AND h.until > now()) OR
				EXISTS (SELECT 1 FROM moderation_domains m WHERE m.domain = site AND m.state = 'banned'))
			THEN 'held' ELSE status END,
			exp, rules::jsonb, pu.creator_id, created, created, utm::jsonb, archived, qr::jsonb
		FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bool[], $6::text[],
			$7::bigint[], $8::text[], $9::smallint[], $10::bool[], $11::text[], $12::timestamptz[],
			$13::bigint[], $14::timestamptz[], $15::text[], $16::text[], $17::text[], $18::timestamptz[], $19::text[])
			AS t(id, ws, dom, key, alias, url, hash, title, code, fwd, status, exp, creator, created, rules, utm, site, archived, qr)
		JOIN (SELECT id AS ws_id FROM workspaces WHERE id = ANY ($2::bigint[]) FOR KEY SHARE) pw ON pw.ws_id = t.ws
		LEFT JOIN (SELECT id AS creator_id FROM users WHERE id = ANY ($13::bigint[]) FOR KEY SHARE) pu ON pu.creator_id = t.creator
		ON CONFLICT (domain_id, key) DO NOTHING
		RETURNING ` + linkColumns + `)` + linkOutbox(webhook.LinkCreated)
	args := []any{ids, ws, doms, keys, aliases, urls, hashes, titles, codes, fwd, statuses, expires, creators, created, rules, utms, domains, archived, qrs}
	if len(tagLinks) > 0 {
		// The links and their tags in one statement: the tags' rows of the links inserted only,
		// each tag found by its folded name in the link's workspace (one deleted meanwhile is
		// left out).
		insert += `, tagged AS (
			INSERT INTO link_tags (tag_id, link_id)
			SELECT tg.id, l.id FROM unnest($20::bigint[], $21::text[]) AS x(link_id, folded)
			JOIN l ON l.id = x.link_id
			JOIN tags tg ON tg.workspace_id = l.workspace_id AND tg.folded = x.folded
			ON CONFLICT DO NOTHING)`
		args = append(args, tagLinks, tagNames)
	}
	rows, err := s.db.Pool.Query(ctx, insert+`
		SELECT id, status FROM l`, args...)
	if err != nil {
		return nil, insertError(err)
	}
	inserted := make(map[int64]string, n)
	for rows.Next() {
		var id int64
		var status string
		if err := rows.Scan(&id, &status); err != nil {
			rows.Close()
			return nil, fmt.Errorf("insert links: %w", err)
		}
		inserted[id] = status
	}
	if err := rows.Err(); err != nil {
		return nil, insertError(err)
	}
	var gone map[int64]bool
	if len(inserted) < n {
		if gone, err = s.goneWorkspaces(ctx, ws); err != nil {
			return nil, err
		}
	}
	errs := make([]error, n)
	for i, l := range links {
		status, ok := inserted[l.ID]
		switch {
		case !ok && gone[l.WorkspaceID]:
			errs[i] = apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
		case !ok:
			errs[i] = apperr.Errorf(apperr.Conflict, "alias %q is already in use", l.Key).For("alias_taken", "alias")
		default:
			l.Status = status
		}
	}
	return errs, nil
}

// goneWorkspaces answers which of ids name no workspace: an insert's rows left out for want of
// their workspace (deleted while they were written), told apart from those whose key was taken.
func (s *LinkStore) goneWorkspaces(ctx context.Context, ids []int64) (map[int64]bool, error) {
	there, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `SELECT id FROM workspaces WHERE id = ANY ($1::bigint[])`, ids)
	if err != nil {
		return nil, fmt.Errorf("insert links: %w", err)
	}
	gone := make(map[int64]bool, len(ids))
	for _, id := range ids {
		gone[id] = !slices.Contains(there, id)
	}
	return gone, nil
}

// insertError explains a failed insert: a workspace deleted while its links' tags were being
// written is not found; anything else is the database's.
func insertError(err error) error {
	if isForeignKeyViolation(err) {
		return apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return fmt.Errorf("insert links: %w: %w", link.ErrRefused, err)
	}
	return fmt.Errorf("insert links: %w", err)
}

// ReserveID implements link.Store. The sequence's last value bounds every ID issued so far, so
// an ID above it can still be kept out of every future block. The count per workspace is a
// bound, not a quota: two reservations racing at the limit may both pass.
func (s *LinkStore) ReserveID(ctx context.Context, workspaceID, domainID int64, key string, id int64, limit int) error {
	var held int
	err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM reserved_ids WHERE workspace_id = $1`, workspaceID).Scan(&held)
	if err != nil {
		return fmt.Errorf("reserve id: count: %w", err)
	}
	if held >= limit {
		return apperr.Errorf(apperr.QuotaExceeded, "this workspace has %d custom aliases shaped like short codes, the most it may have; choose an alias of another length or with - or _", held).For("code_aliases_exceeded", "alias")
	}
	var got int64
	err = s.db.Pool.QueryRow(ctx, `
		INSERT INTO reserved_ids (id, workspace_id, domain_id, key)
		SELECT $1, $2, $3, $4 WHERE $1 > (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM link_ids)
		ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id
		RETURNING id`, id, workspaceID, domainID, key).Scan(&got)
	if err != nil {
		if err == pgx.ErrNoRows {
			return apperr.Errorf(apperr.Conflict, "that code was already issued").For("alias_taken", "alias")
		}
		return fmt.Errorf("reserve id: %w", err)
	}
	return nil
}

// IDSource implements idblock.Source on the link_ids sequence.
type IDSource struct{ db *DB }

// NewIDSource returns the sequence-backed ID source.
func NewIDSource(db *DB) *IDSource { return &IDSource{db: db} }

// NextBlock takes n values of the sequence in one round trip, leaving out IDs whose codes were
// taken by custom aliases. Concurrent callers get disjoint values: nextval never repeats.
func (s *IDSource) NextBlock(ctx context.Context, n int) ([]int64, error) {
	ids, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `
		SELECT v FROM (SELECT nextval('link_ids') AS v FROM generate_series(1, $1)) s
		WHERE NOT EXISTS (SELECT 1 FROM reserved_ids r WHERE r.id = s.v)
		ORDER BY v`, n)
	if err != nil {
		return nil, fmt.Errorf("next id block: %w", err)
	}
	return ids, nil
}

// HighestIssued is the highest ID any node has taken from the sequence.
func (s *IDSource) HighestIssued(ctx context.Context) (int64, error) {
	var v int64
	err := s.db.Pool.QueryRow(ctx,
		`SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM link_ids`).Scan(&v)
	if err != nil {
		return 0, fmt.Errorf("highest issued id: %w", err)
	}
	return v, nil
}
