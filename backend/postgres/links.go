package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/tag"
	"github.com/shortlink/shortlink/backend/webhook"
)

// LinkStore implements link.Store.
type LinkStore struct {
	db *DB
	// searchIndex is whether the trigram index of the links search exists (a deployment makes
	// it by hand: docs/benchmarks.md#the-text-search-with-and-without-its-trigram-index): 0 not
	// asked yet, 1 yes, 2 no.
	searchIndex atomic.Int32
}

// NewLinkStore returns the PostgreSQL link store.
func NewLinkStore(db *DB) *LinkStore { return &LinkStore{db: db} }

// searchIndexed reports whether links_search_trgm exists, asked once per process (an index
// made by hand later is used after a restart). Without it List's search is the scan it was
// before the index, with no condition added for it.
func (s *LinkStore) searchIndexed(ctx context.Context) bool {
	switch s.searchIndex.Load() {
	case 1:
		return true
	case 2:
		return false
	}
	var ok bool
	if err := s.db.Pool.QueryRow(ctx, `SELECT to_regclass('links_search_trgm') IS NOT NULL`).Scan(&ok); err != nil {
		return false // asked again next time
	}
	if ok {
		s.searchIndex.Store(1)
	} else {
		s.searchIndex.Store(2)
	}
	return ok
}

var _ link.Store = (*LinkStore)(nil)

const linkColumns = `id, workspace_id, domain_id, key, is_alias, url, title, redirect_status,
	forward_query, status, expires_at, rules, created_by, created_at, updated_at, utm, archived_at`

func scanLink(row pgx.Row) (*link.Link, error) {
	var l link.Link
	var status int16
	var rules, utm []byte
	err := row.Scan(&l.ID, &l.WorkspaceID, &l.DomainID, &l.Key, &l.IsAlias, &l.URL, &l.Title, &status,
		&l.ForwardQuery, &l.Status, &l.ExpiresAt, &rules, &l.CreatedBy, &l.CreatedAt, &l.UpdatedAt, &utm, &l.ArchivedAt)
	l.RedirectStatus = int(status)
	if err == nil && rules != nil {
		if err = json.Unmarshal(rules, &l.Rules); err != nil {
			err = fmt.Errorf("link %d: rules: %w", l.ID, err)
		}
	}
	if err == nil {
		err = scanUTM(&l, utm)
	}
	return &l, err
}

// moderatedColumns are linkColumns of links l with the link's moderation state from
// link_moderation lm (LEFT JOINed: a link without a row is pending). The API's reads use them;
// the redirect path and the caches never do.
const moderatedColumns = `l.id, l.workspace_id, l.domain_id, l.key, l.is_alias, l.url, l.title, l.redirect_status,
	l.forward_query, l.status, l.expires_at, l.rules, l.created_by, l.created_at, l.updated_at, l.utm, l.archived_at,
	lm.state, lm.score, lm.category, lm.reason, lm.reviewed_at, lm.shared_review_id, lm.shared_link_id, lm.shared_at,
	lm.decided_by, lm.reason_code, lm.owner_text`

// taggedColumns are moderatedColumns with the link's tags and health: the owners' reads
// (scanTagged).
const taggedColumns = moderatedColumns + `, ` + linkTagsColumn + `, ` + linkHealthColumn

// linkHealthColumn is link l's health as JSON (link.Health): only when the checks made it ok
// or broken, and about its destination now (NULL after the destination changed).
const linkHealthColumn = `(SELECT json_build_object('state', h.state, 'checked_at', h.checked_at, 'status', h.status,
		'error', h.error, 'detail', h.detail) FROM link_health h
		WHERE h.link_id = l.id AND h.url = l.url AND h.state IN ('ok', 'broken'))`

// linkTagsColumn is the names of the tags of link l, in tag.Sort's order.
const linkTagsColumn = `ARRAY(SELECT tg.name FROM link_tags lt JOIN tags tg ON tg.id = lt.tag_id
		WHERE lt.link_id = l.id ORDER BY tg.folded COLLATE "C", tg.name COLLATE "C")`

// moderatedFrom joins a link to its moderation state.
const moderatedFrom = ` links l LEFT JOIN link_moderation lm ON lm.link_id = l.id `

func scanModerated(row pgx.Row, extra ...any) (*link.Link, error) {
	var l link.Link
	var status int16
	var rules, utm []byte
	var state, category, reason *string
	var score *float32
	var sharedReview, sharedLink *int64
	var sharedAt *time.Time
	var decidedBy, reasonCode, ownerText *string
	err := row.Scan(append([]any{&l.ID, &l.WorkspaceID, &l.DomainID, &l.Key, &l.IsAlias, &l.URL, &l.Title, &status,
		&l.ForwardQuery, &l.Status, &l.ExpiresAt, &rules, &l.CreatedBy, &l.CreatedAt, &l.UpdatedAt, &utm, &l.ArchivedAt,
		&state, &score, &category, &reason, &l.Moderation.ReviewedAt, &sharedReview, &sharedLink, &sharedAt,
		&decidedBy, &reasonCode, &ownerText}, extra...)...)
	if sharedAt != nil {
		l.Moderation.Shared = &link.SharedReview{ReviewID: sharedReview, LinkID: sharedLink, At: *sharedAt}
	}
	l.RedirectStatus = int(status)
	if err == nil && rules != nil {
		if err = json.Unmarshal(rules, &l.Rules); err != nil {
			err = fmt.Errorf("link %d: rules: %w", l.ID, err)
		}
	}
	if err == nil {
		err = scanUTM(&l, utm)
	}
	if state != nil {
		l.Moderation.State, l.Moderation.Category, l.Moderation.Reason = *state, *category, *reason
		l.Moderation.DecidedBy, l.Moderation.ReasonCode, l.Moderation.OwnerText = *decidedBy, *reasonCode, *ownerText
	}
	l.Moderation.Score = score64(score)
	return &l, err
}

// scanTagged scans a row of taggedColumns, then extra.
func scanTagged(row pgx.Row, extra ...any) (*link.Link, error) {
	var tags []string
	var health []byte
	l, err := scanModerated(row, append([]any{&tags, &health}, extra...)...)
	l.Tags = tags
	if err == nil && health != nil {
		l.Health = &link.Health{}
		if err = json.Unmarshal(health, l.Health); err != nil {
			err = fmt.Errorf("link %d: health: %w", l.ID, err)
		}
	}
	return l, err
}

// scanUTM reads a link's utm column and derives its destination.
func scanUTM(l *link.Link, utm []byte) error {
	if utm != nil {
		if err := json.Unmarshal(utm, &l.UTM); err != nil {
			return fmt.Errorf("link %d: utm: %w", l.ID, err)
		}
	}
	l.Finish()
	return nil
}

// utmJSON is the utm column's value of u: NULL when it adds nothing.
func utmJSON(u *link.UTM) *string {
	if u == nil || u.IsZero() {
		return nil
	}
	b, _ := json.Marshal(u)
	s := string(b)
	return &s
}

// score64 widens a REAL score to the float64 it was stored from (0.95, not 0.949999988).
func score64(f *float32) *float64 {
	if f == nil {
		return nil
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(*f), 'g', -1, 32), 64)
	return &v
}

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
func (s *LinkStore) Insert(ctx context.Context, links []*link.Link) ([]error, error) {
	n := len(links)
	ids, ws, doms := make([]int64, n), make([]int64, n), make([]int64, n)
	keys, urls, titles, statuses := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	aliases, fwd := make([]bool, n), make([]bool, n)
	hashes, codes := make([]int64, n), make([]int16, n)
	expires, creators := make([]*time.Time, n), make([]*int64, n)
	created, rules, utms := make([]time.Time, n), make([]*string, n), make([]*string, n)
	domains, archived := make([]string, n), make([]*time.Time, n)
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
		domains[i], archived[i] = moderation.RegistrableDomain(l.URL), l.ArchivedAt
	}
	insert := `
		WITH l AS (INSERT INTO links (id, workspace_id, domain_id, key, is_alias, url, url_hash, title,
			redirect_status, forward_query, status, expires_at, rules, created_by, created_at, updated_at, utm, archived_at)
		SELECT id, ws, dom, key, alias, url, hash, title, code, fwd,
			CASE WHEN status = 'active' AND site <> '' AND (
				EXISTS (SELECT 1 FROM moderation_holds h WHERE h.domain = site AND h.until > now()) OR
				EXISTS (SELECT 1 FROM moderation_domains m WHERE m.domain = site AND m.state = 'banned'))
			THEN 'held' ELSE status END,
			exp, rules::jsonb, creator, created, created, utm::jsonb, archived
		FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bool[], $6::text[],
			$7::bigint[], $8::text[], $9::smallint[], $10::bool[], $11::text[], $12::timestamptz[],
			$13::bigint[], $14::timestamptz[], $15::text[], $16::text[], $17::text[], $18::timestamptz[])
			AS t(id, ws, dom, key, alias, url, hash, title, code, fwd, status, exp, creator, created, rules, utm, site, archived)
		ON CONFLICT (domain_id, key) DO NOTHING
		RETURNING ` + linkColumns + `)` + linkOutbox(webhook.LinkCreated)
	args := []any{ids, ws, doms, keys, aliases, urls, hashes, titles, codes, fwd, statuses, expires, creators, created, rules, utms, domains, archived}
	if len(tagLinks) > 0 {
		// The links and their tags in one statement: the tags' rows of the links inserted only,
		// each tag found by its folded name in the link's workspace (one deleted meanwhile is
		// left out).
		insert += `, tagged AS (
			INSERT INTO link_tags (tag_id, link_id)
			SELECT tg.id, l.id FROM unnest($19::bigint[], $20::text[]) AS x(link_id, folded)
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
	errs := make([]error, n)
	for i, l := range links {
		status, ok := inserted[l.ID]
		if !ok {
			errs[i] = apperr.Errorf(apperr.Conflict, "alias %q is already in use", l.Key).For("alias_taken", "alias")
			continue
		}
		l.Status = status
	}
	return errs, nil
}

// insertError explains a failed insert: a workspace (or creator) deleted while its links were
// being written is not found; anything else is the database's.
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

// Get implements link.Store.
func (s *LinkStore) Get(ctx context.Context, workspaceID, id int64) (*link.Link, error) {
	l, err := scanTagged(s.db.Pool.QueryRow(ctx,
		`SELECT `+taggedColumns+` FROM`+moderatedFrom+`WHERE l.workspace_id = $1 AND l.id = $2`, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("get link: %w", notFound(err, "link"))
	}
	return l, nil
}

// List implements link.Store, in one statement: the page's IDs in the order asked, then their
// links with the moderation state, the visits since made (visit_totals) and, when days are
// asked, people's visits per day (visit_hours). In an order by visits of the whole workspace (or
// of its active links, most of them) the page comes from two ordered parts, each stopping at
// the page's size: the links with visits, walked in visit_totals' index of them, and those with
// none, walked by ID; the second is read only when the first runs out (or, least visited first,
// the other way round). A narrower filter could make that walk pass most of the index before it
// finds a page (the few disabled links may be the least visited): such a listing reads the
// links it matches with their visits and sorts them.
//
// A tag narrows the listing by as much as its links are few: an order by visits of a tag on
// fewer than manyTagged links reads them all and sorts them, that of a larger one walks the two
// ordered parts, keeping the tag's links.
func (s *LinkStore) List(ctx context.Context, workspaceID int64, f link.Filter) ([]*link.Link, bool, error) {
	if len(f.AlsoTagIDs) > 0 {
		var err error
		if f, err = s.fewestTagged(ctx, f); err != nil {
			return nil, false, err
		}
	}
	many := false
	if f.TagID != nil && f.Sort.ByVisits() {
		var n int
		err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM link_tags WHERE tag_id = $1 LIMIT $2) s`,
			*f.TagID, manyTagged).Scan(&n)
		if err != nil {
			return nil, false, fmt.Errorf("list links: count the tag's links: %w", err)
		}
		many = n >= manyTagged
	}
	query, args := listQuery(workspaceID, f, many, strings.TrimSpace(f.Query) != "" && s.searchIndexed(ctx))
	rows, err := s.db.Pool.Query(ctx, query, args...)
	if err != nil {
		return nil, false, fmt.Errorf("list links: %w", err)
	}
	defer rows.Close()
	var links []*link.Link
	for rows.Next() {
		v := &link.Visits{}
		l, err := scanTagged(rows, &v.Total, &v.Days)
		if err != nil {
			return nil, false, fmt.Errorf("list links: %w", err)
		}
		l.Visits = v
		links = append(links, l)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("list links: %w", err)
	}
	links, more := trimPage(links, f.Limit)
	return links, more, nil
}

// fewestTagged is f with the tag of fewest links among f.TagID and f.AlsoTagIDs as its TagID,
// the one whose links the listing walks or reads; the others are checked on each link. Tags are
// counted up to manyTagged links each.
func (s *LinkStore) fewestTagged(ctx context.Context, f link.Filter) (link.Filter, error) {
	ids := append([]int64{*f.TagID}, f.AlsoTagIDs...)
	var fewest int64
	err := s.db.Pool.QueryRow(ctx, `SELECT t.id FROM unnest($1::bigint[]) WITH ORDINALITY AS t (id, i)
		CROSS JOIN LATERAL (SELECT count(*) AS n FROM (SELECT 1 FROM link_tags lt WHERE lt.tag_id = t.id LIMIT $2) s) c
		ORDER BY c.n, t.i LIMIT 1`, ids, manyTagged).Scan(&fewest)
	if err != nil {
		return f, fmt.Errorf("list links: count the tags' links: %w", err)
	}
	f.TagID, f.AlsoTagIDs = &fewest, slices.DeleteFunc(ids, func(id int64) bool { return id == fewest })
	return f, nil
}

// manyTagged is how many links a tag has for List to walk an order by visits rather than sort
// the tag's links; a variable for tests.
var manyTagged = 5000

// listQuery is List's statement and its arguments; manyTagged says f.TagID's tag has at least
// manyTagged links, searchIndex that the trigram index links_search_trgm exists.
func listQuery(workspaceID int64, f link.Filter, manyTagged, searchIndex bool) (string, []any) {
	var a sqlArgs
	ws := a.add(workspaceID)
	where := append([]string{"l.workspace_id = " + ws}, searchConditions(&a, f.Query, searchIndex)...)
	where = append(where, statusConditions(&a, f)...)
	if f.DomainID != nil {
		where = append(where, "l.domain_id = "+a.add(*f.DomainID))
	}
	where, healthState, healthWalk := healthFilter(f, where)
	var tagID string
	if f.TagID != nil {
		tagID = a.add(*f.TagID)
		if f.Sort.ByVisits() || f.Sort.ByUpdate() {
			where = append(where, "EXISTS (SELECT 1 FROM link_tags lt WHERE lt.tag_id = "+tagID+" AND lt.link_id = l.id)")
		}
	}
	limit := a.add(f.Limit + 1)
	dir, cmp := "DESC", "<"
	if !f.Sort.Descending() && f.Sort != "" {
		dir, cmp = "ASC", ">"
	}
	var page, order string
	switch {
	case f.Sort.ByUpdate():
		// links_workspace_updated (migration 00048) walks the workspace's links by their last
		// change, each checked against the other filters.
		if c := f.After; c != nil {
			where = append(where, "(l.updated_at, l.id) "+cmp+" ("+a.add(c.Updated)+"::timestamptz, "+a.add(c.ID)+"::bigint)")
		}
		page = `SELECT l.id FROM links l WHERE ` + strings.Join(where, " AND ") +
			` ORDER BY l.updated_at ` + dir + `, l.id ` + dir + ` LIMIT ` + limit
		order = `l.updated_at ` + dir + `, l.id ` + dir
	case healthWalk:
		page, order = healthPage(&a, where, ws, healthState, limit, dir, cmp, f.After, f.Sort.ByVisits())
	case f.Sort.ByVisits() && (f.Query != "" || f.DomainID != nil || (f.TagID != nil && !manyTagged) || (f.Status != "" && f.Status != link.StatusActive) || f.Health == "broken"):
		if c := f.After; c != nil {
			where = append(where, "(coalesce(t.visits, 0), l.id) "+cmp+" ("+a.add(c.Visits)+"::bigint, "+a.add(c.ID)+"::bigint)")
		}
		page = `SELECT l.id FROM links l LEFT JOIN (
				SELECT link_id, visits FROM visit_totals WHERE workspace_id = ` + ws + ` AND visits > 0
			) t ON t.link_id = l.id
			WHERE ` + strings.Join(where, " AND ") + `
			ORDER BY coalesce(t.visits, 0) ` + dir + `, l.id ` + dir + ` LIMIT ` + limit
		order = `coalesce(t.visits, 0) ` + dir + `, l.id ` + dir
	case f.Sort.ByVisits():
		visited := append(slices.Clone(where), "t.workspace_id = "+ws, "t.visits > 0")
		unvisited := append(slices.Clone(where),
			"NOT EXISTS (SELECT 1 FROM visit_totals t WHERE t.link_id = l.id AND t.visits > 0)")
		// The parts in the order of the listing; a cursor in the second has left the first behind.
		useVisited, useUnvisited := true, true
		if c := f.After; c != nil {
			if c.Visits == 0 {
				unvisited = append(unvisited, "l.id "+cmp+" "+a.add(c.ID))
				useVisited = dir == "ASC"
			} else {
				useUnvisited = dir == "DESC"
			}
			if useVisited {
				visited = append(visited, "(t.visits, t.link_id) "+cmp+" ("+a.add(c.Visits)+"::bigint, "+a.add(c.ID)+"::bigint)")
			}
		}
		var parts []string
		if useVisited {
			parts = append(parts, `(SELECT t.link_id AS id FROM visit_totals t JOIN links l ON l.id = t.link_id WHERE `+
				strings.Join(visited, " AND ")+` ORDER BY t.visits `+dir+`, t.link_id `+dir+` LIMIT `+limit+`)`)
		}
		if useUnvisited {
			parts = append(parts, `(SELECT l.id FROM links l WHERE `+strings.Join(unvisited, " AND ")+
				` ORDER BY l.id `+dir+` LIMIT `+limit+`)`)
		}
		if dir == "ASC" {
			slices.Reverse(parts)
		}
		page = `SELECT id FROM (` + strings.Join(parts, " UNION ALL ") + `) u LIMIT ` + limit
		order = `coalesce(t.visits, 0) ` + dir + `, l.id ` + dir
	case tagID != "":
		// The tag's links by ID from link_tags' key, each checked against the other filters: a
		// page costs the links it passes, whether the tag is on few links or most.
		if f.After != nil {
			// On both sides, so that whichever the join walks starts at the cursor.
			after := a.add(f.After.ID)
			where = append(where, "lt.link_id "+cmp+" "+after, "l.id "+cmp+" "+after)
		}
		page = `SELECT lt.link_id AS id FROM link_tags lt JOIN links l ON l.id = lt.link_id
			WHERE lt.tag_id = ` + tagID + ` AND ` + strings.Join(where, " AND ") + `
			ORDER BY lt.link_id ` + dir + ` LIMIT ` + limit
		order = `l.id ` + dir
	default:
		if f.After != nil {
			where = append(where, "l.id "+cmp+" "+a.add(f.After.ID))
		}
		page = `SELECT l.id FROM links l WHERE ` + strings.Join(where, " AND ") + ` ORDER BY l.id ` + dir + ` LIMIT ` + limit
		order = `l.id ` + dir
	}
	days := "NULL::bigint[]"
	if n := len(f.Days) - 1; n > 0 {
		// A UTC hour counts in the day it begins in; an hour begun before the first day (in a zone
		// whose offset is not whole hours) counts in the first, as the statistics count it.
		days = `ARRAY(SELECT coalesce(d.n, 0) FROM generate_series(1, ` + strconv.Itoa(n) + `) g (i) LEFT JOIN (
			SELECT greatest(width_bucket(h.hour, ` + a.add(f.Days) + `::timestamptz[]), 1) AS i, sum(h.visits)::bigint AS n
			FROM visit_hours h WHERE h.link_id = l.id AND h.hour >= ` + a.add(f.Days[0].Truncate(time.Hour)) + `
				AND h.hour < ` + a.add(f.Days[n]) + ` GROUP BY 1) d ON d.i = g.i ORDER BY g.i)`
	}
	return `SELECT ` + taggedColumns + `, coalesce(t.visits, 0), ` + days + `
		FROM (` + page + `) p
		JOIN links l ON l.id = p.id AND l.workspace_id = ` + ws + `
		LEFT JOIN link_moderation lm ON lm.link_id = l.id
		LEFT JOIN visit_totals t ON t.link_id = l.id
		ORDER BY ` + order, a
}

// statusConditions are the conditions of List's status and archive filters and of its tags
// past the first.
func statusConditions(a *sqlArgs, f link.Filter) []string {
	var where []string
	switch f.Archived {
	case link.ArchivedAll:
	case link.ArchivedOnly:
		where = append(where, "l.archived_at IS NOT NULL")
	default:
		where = append(where, "l.archived_at IS NULL")
	}
	switch f.Status {
	case "":
	case link.StatusExpired:
		// The first condition lets the partial index links_workspace_expiring serve it.
		where = append(where, "l.expires_at IS NOT NULL", "l.expires_at <= now()")
	case link.StatusActive:
		where = append(where, "l.status = "+a.add(f.Status))
	default:
		// The first condition lets the partial index links_workspace_inactive (migration 00048)
		// serve it whatever the plan.
		where = append(where, "l.status <> 'active'", "l.status = "+a.add(f.Status))
	}
	for _, id := range f.AlsoTagIDs {
		where = append(where, "EXISTS (SELECT 1 FROM link_tags lt WHERE lt.tag_id = "+a.add(id)+" AND lt.link_id = l.id)")
	}
	return where
}

// searchConditions are the conditions of List's text search q (none when it is blank);
// searchIndex says the trigram index links_search_trgm exists.
func searchConditions(a *sqlArgs, q string, searchIndex bool) []string {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil
	}
	p := a.add("%" + escapeLike(q) + "%")
	var where []string
	if searchIndex && utf8.RuneCountInString(q) >= 3 {
		// Implied by the next condition, this is the expression of the trigram index
		// links_search_trgm (made by hand: docs/benchmarks.md), which finds the candidates the
		// next decides. A text of fewer than three characters has no trigram: the index would
		// be read whole.
		where = append(where, "(l.url || ' ' || l.key || ' ' || l.title) ILIKE "+p)
	}
	return append(where, "(l.url ILIKE "+p+" OR l.key ILIKE "+p+" OR l.title ILIKE "+p+")")
}

// healthFilter is the state of f's health filter written out ("" for none; one of two, so
// that the partial index of that state serves it), and whether the listing's page walks that
// index (healthPage: no tag to walk, and an order by ID, or by visits among the few broken
// links); a page that does not checks each link's state in where.
func healthFilter(f link.Filter, where []string) (_ []string, state string, walk bool) {
	switch f.Health {
	case "ok":
		state = "'ok'"
	case "broken":
		state = "'broken'"
	default:
		return where, "", false
	}
	walk = f.TagID == nil && !f.Sort.ByUpdate() && (!f.Sort.ByVisits() || f.Health == "broken")
	if !walk {
		where = append(where, "EXISTS (SELECT 1 FROM link_health h WHERE h.link_id = l.id AND h.state = "+state+" AND h.url = l.url)")
	}
	return where, state, walk
}

// healthPage is a listing's page of links in a health state from link_health's partial index
// of it, each link looked up by its key and checked against the other filters (where): by ID,
// a page costs the rows it passes (broken links are few, ok ones most); by visits, it reads
// every link in the state (broken ones only) with its visits and sorts them. The lookup is a
// LATERAL subquery with a LIMIT, which the planner cannot turn into a join that reads every
// link of the workspace.
func healthPage(a *sqlArgs, where []string, ws, state, limit, dir, cmp string, after *link.Cursor, byVisits bool) (page, order string) {
	from := `link_health h
			CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = h.link_id AND l.url = h.url AND ` + strings.Join(where, " AND ") + ` LIMIT 1) m`
	cond := ""
	if byVisits {
		if after != nil {
			cond = " AND (coalesce(t.visits, 0), h.link_id) " + cmp + " (" + a.add(after.Visits) + "::bigint, " + a.add(after.ID) + "::bigint)"
		}
		return `SELECT h.link_id AS id FROM ` + from + `
			LEFT JOIN visit_totals t ON t.link_id = h.link_id AND t.visits > 0
			WHERE h.workspace_id = ` + ws + ` AND h.state = ` + state + cond + `
			ORDER BY coalesce(t.visits, 0) ` + dir + `, h.link_id ` + dir + ` LIMIT ` + limit,
			`coalesce(t.visits, 0) ` + dir + `, l.id ` + dir
	}
	if after != nil {
		cond = " AND h.link_id " + cmp + " " + a.add(after.ID)
	}
	return `SELECT h.link_id AS id FROM ` + from + `
			WHERE h.workspace_id = ` + ws + ` AND h.state = ` + state + cond + `
			ORDER BY h.link_id ` + dir + ` LIMIT ` + limit,
		`l.id ` + dir
}

// sqlArgs are a statement's arguments as its conditions are built.
type sqlArgs []any

// add appends v and answers its placeholder.
func (a *sqlArgs) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// FindByURL implements link.Store.
func (s *LinkStore) FindByURL(ctx context.Context, workspaceID int64, url string) (*link.Link, error) {
	// The link found is answered instead of a new one: with its moderation state.
	l, err := scanTagged(s.db.Pool.QueryRow(ctx, `SELECT `+taggedColumns+` FROM`+moderatedFrom+`
		WHERE l.workspace_id = $1 AND l.url_hash = $2 AND l.url = $3
		  AND l.status = 'active' AND (l.expires_at IS NULL OR l.expires_at > now())
		ORDER BY l.id DESC LIMIT 1`,
		workspaceID, urlHash(url), url))
	if err != nil {
		return nil, fmt.Errorf("find link by url: %w", notFound(err, "link"))
	}
	return l, nil
}

// FindByKey implements link.Store.
func (s *LinkStore) FindByKey(ctx context.Context, workspaceID, domainID int64, key string) (*link.Link, error) {
	l, err := scanTagged(s.db.Pool.QueryRow(ctx, `SELECT `+taggedColumns+` FROM`+moderatedFrom+`
		WHERE l.workspace_id = $1 AND l.domain_id = $2 AND l.key = $3`, workspaceID, domainID, key))
	if err != nil {
		return nil, fmt.Errorf("find link by key: %w", notFound(err, "link"))
	}
	return l, nil
}

// Update implements link.Store. A banned link stays banned whatever its owner sends: only
// moderation lifts a ban.
func (s *LinkStore) Update(ctx context.Context, workspaceID, id int64, p link.Patch) (*link.Link, error) {
	// updated_at only moves forward, whatever the clocks: the caches order a link's versions by it.
	sets, args := []string{"updated_at = greatest(now(), updated_at + interval '1 microsecond')"}, []any{workspaceID, id}
	set := func(col string, v any) {
		args = append(args, v)
		sets = append(sets, col+" = $"+strconv.Itoa(len(args)))
	}
	if p.URL.Set {
		set("url", p.URL.Value)
		set("url_hash", urlHash(p.URL.Value))
	}
	if p.Title.Set {
		set("title", p.Title.Value)
	}
	if p.RedirectStatus.Set {
		set("redirect_status", int16(p.RedirectStatus.Value))
	}
	if p.ForwardQuery.Set {
		set("forward_query", p.ForwardQuery.Value)
	}
	if p.ExpiresAt.Set {
		set("expires_at", p.ExpiresAt.Value)
	}
	if p.UTM.Set {
		args = append(args, utmJSON(p.UTM.Value))
		sets = append(sets, "utm = $"+strconv.Itoa(len(args))+"::jsonb")
	}
	if p.Archived.Set {
		sets = append(sets, archiveSet(&args, p.Archived.Value))
	}
	if p.Rules.Set != nil || len(p.Rules.Unset) > 0 {
		// Key by key: two edits of different rules made at once both stand.
		args = append(args, p.Rules.Unset, p.Rules.Set)
		n := len(args)
		sets = append(sets, fmt.Sprintf("rules = nullif((coalesce(rules, '{}') - coalesce($%d::text[], '{}')) || coalesce($%d::jsonb, '{}'), '{}'::jsonb)", n-1, n))
	}
	if p.Status.Set {
		args = append(args, p.Status.Value)
		sets = append(sets, "status = CASE WHEN status IN ('banned', 'held') THEN status ELSE $"+strconv.Itoa(len(args))+" END")
	}
	update := `WITH l AS (UPDATE links SET ` + strings.Join(sets, ", ") + `
		WHERE workspace_id = $1 AND id = $2 RETURNING ` + linkColumns + `)` + linkOutbox(webhook.LinkUpdated) + `
		SELECT ` + taggedColumns + ` FROM l LEFT JOIN link_moderation lm ON lm.link_id = l.id`
	var l *link.Link
	var err error
	if p.TagIDs == nil {
		l, err = scanTagged(s.db.Pool.QueryRow(ctx, update, args...))
	} else {
		// The tags first, so that the link read back by the update carries them; a link not in
		// the workspace changes nothing (the update finds no row and all is rolled back).
		err = s.db.inTx(ctx, func(tx pgx.Tx) error {
			if err := setLinkTags(ctx, tx, workspaceID, []int64{id}, p.TagIDs, nil, true); err != nil {
				return err
			}
			var err error
			l, err = scanTagged(tx.QueryRow(ctx, update, args...))
			return err
		})
	}
	if err != nil {
		return nil, fmt.Errorf("update link: %w", notFound(err, "link"))
	}
	return l, nil
}

// setLinkTags adds the tags add to the workspace's links ids and takes remove off them; with
// only, it takes off every tag not in add instead.
func setLinkTags(ctx context.Context, tx pgx.Tx, workspaceID int64, ids, add, remove []int64, only bool) error {
	if only {
		_, err := tx.Exec(ctx, `DELETE FROM link_tags lt USING links l
			WHERE l.id = lt.link_id AND l.workspace_id = $1 AND lt.link_id = ANY($2) AND NOT lt.tag_id = ANY($3)`, workspaceID, ids, add)
		if err != nil {
			return fmt.Errorf("set link tags: %w", err)
		}
	} else if len(remove) > 0 {
		_, err := tx.Exec(ctx, `DELETE FROM link_tags lt USING links l
			WHERE l.id = lt.link_id AND l.workspace_id = $1 AND lt.link_id = ANY($2) AND lt.tag_id = ANY($3)`, workspaceID, ids, remove)
		if err != nil {
			return fmt.Errorf("remove link tags: %w", err)
		}
	}
	if len(add) == 0 {
		return nil
	}
	// Only links and tags of the workspace: an ID of another workspace's link or tag adds nothing.
	_, err := tx.Exec(ctx, `
		INSERT INTO link_tags (tag_id, link_id)
		SELECT tg.id, l.id FROM links l JOIN tags tg ON tg.workspace_id = l.workspace_id
		WHERE l.workspace_id = $1 AND l.id = ANY($2) AND tg.id = ANY($3)
		ON CONFLICT DO NOTHING`, workspaceID, ids, add)
	if err != nil {
		return fmt.Errorf("add link tags: %w", err)
	}
	return nil
}

// UpdateMany implements link.Store in one transaction of five statements whatever the number of
// links: lock the workspace's links named and count the tags each would carry, then (for those
// e.Refuse lets through) set status and expiry, take tags off, put tags on, and read them back.
// A banned link keeps its status (e.Refuse refuses an edit setting one for it).
func (s *LinkStore) UpdateMany(ctx context.Context, workspaceID int64, ids []int64, e link.BulkEdit) (map[int64]*link.Link, map[int64]error, error) {
	changed := make(map[int64]*link.Link, len(ids))
	refused := map[int64]error{}
	add, remove := e.AddTags, e.RemoveTags
	if add == nil {
		add = []int64{}
	}
	if remove == nil {
		remove = []int64{}
	}
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		clear(changed)
		clear(refused)
		rows, err := tx.Query(ctx, `
			SELECT l.id, l.status, (SELECT count(*) FROM link_tags lt
				WHERE lt.link_id = l.id AND NOT lt.tag_id = ANY($3) AND NOT lt.tag_id = ANY($4))
			FROM links l WHERE l.workspace_id = $1 AND l.id = ANY($2)
			ORDER BY l.id FOR UPDATE OF l`, workspaceID, ids, add, remove)
		if err != nil {
			return fmt.Errorf("lock links: %w", err)
		}
		var ok []int64
		for rows.Next() {
			var id, kept int64
			var status string
			if err := rows.Scan(&id, &status, &kept); err != nil {
				rows.Close()
				return fmt.Errorf("lock links: %w", err)
			}
			if err := e.Refuse(status, int(kept)+len(add)); err != nil {
				refused[id] = err
				continue
			}
			ok = append(ok, id)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("lock links: %w", err)
		}
		if len(ok) == 0 {
			return nil
		}
		// updated_at only moves forward, whatever the clocks: the caches order a link's versions by it.
		sets, args := []string{"updated_at = greatest(now(), updated_at + interval '1 microsecond')"}, []any{workspaceID, ok}
		if e.Status.Set {
			args = append(args, e.Status.Value)
			sets = append(sets, "status = CASE WHEN status IN ('banned', 'held') THEN status ELSE $"+strconv.Itoa(len(args))+" END")
		}
		if e.ExpiresAt.Set {
			args = append(args, e.ExpiresAt.Value)
			sets = append(sets, "expires_at = $"+strconv.Itoa(len(args)))
		}
		if e.Archived.Set {
			sets = append(sets, archiveSet(&args, e.Archived.Value))
		}
		// Each link changed is a link.updated event for the workspace's webhooks, in this transaction.
		if _, err := tx.Exec(ctx, `WITH l AS (UPDATE links SET `+strings.Join(sets, ", ")+` WHERE workspace_id = $1 AND id = ANY($2)
			RETURNING `+linkColumns+`)`+linkOutbox(webhook.LinkUpdated)+` SELECT count(*) FROM l`, args...); err != nil {
			return fmt.Errorf("update links: %w", err)
		}
		if err := setLinkTags(ctx, tx, workspaceID, ok, add, remove, false); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `SELECT `+taggedColumns+` FROM`+moderatedFrom+`WHERE l.workspace_id = $1 AND l.id = ANY($2)`, workspaceID, ok)
		if err != nil {
			return fmt.Errorf("read links: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			l, err := scanTagged(rows)
			if err != nil {
				return fmt.Errorf("read links: %w", err)
			}
			changed[l.ID] = l
		}
		return rows.Err()
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bulk edit links: %w", err)
	}
	return changed, refused, nil
}

// Delete implements link.Store.
func (s *LinkStore) Delete(ctx context.Context, workspaceID, id int64) (*link.Link, error) {
	l, err := scanLink(s.db.Pool.QueryRow(ctx,
		`WITH l AS (DELETE FROM links WHERE workspace_id = $1 AND id = $2 RETURNING `+linkColumns+`)`+
			linkOutbox(webhook.LinkDeleted)+` SELECT `+linkColumns+` FROM l`, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("delete link: %w", notFound(err, "link"))
	}
	return l, nil
}

// Resolve implements link.Store: the redirect path's lookup, across workspaces by design.
func (s *LinkStore) Resolve(ctx context.Context, domainID int64, key string) (*link.Link, error) {
	l, err := scanLink(s.db.Pool.QueryRow(ctx,
		`SELECT `+linkColumns+` FROM links WHERE domain_id = $1 AND key = $2`, domainID, key))
	if err != nil {
		return nil, fmt.Errorf("resolve link: %w", notFound(err, "link"))
	}
	return l, nil
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
