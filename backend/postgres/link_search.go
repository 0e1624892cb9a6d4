package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/linksearch"
)

// searchCandidates is how many links of a workspace a search's index may find for the list to
// read them all and sort them; past it the list walks the workspace's links in the order asked
// testing each, which finds a page within about size/searchCandidates × the page's links.
const searchCandidates = 5000

// LinkSearch implements linksearch.Store: the search table link_search (migration 00063) kept
// from the queue the links' triggers fill.
type LinkSearch struct{ db *DB }

// NewLinkSearch returns the search table's indexer over db.
func NewLinkSearch(db *DB) *LinkSearch { return &LinkSearch{db: db} }

var _ linksearch.Store = (*LinkSearch)(nil)

// searchLock is the advisory lock a batch holds while it copies: one indexer at a time, so a
// link's rows are written in the order its changes committed.
const searchLock = 0x6c696e6b73 // "links"

// Index implements linksearch.Store: the queue's oldest rows up to about links links (at least
// one row, at most 200), their links' text copied from links (or their rows deleted where the
// link is gone) and the queue's rows deleted, in one transaction.
func (s *LinkSearch) Index(ctx context.Context, links int) (linksearch.Batch, error) {
	var b linksearch.Batch
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var locked bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock($1)`, searchLock).Scan(&locked); err != nil {
			return err
		}
		if !locked {
			b.Busy = true
			return nil
		}
		var oldest *time.Time
		err := tx.QueryRow(ctx, `
			WITH q AS (
				DELETE FROM link_search_queue WHERE seq IN (
					SELECT seq FROM (
						SELECT seq, sum(cardinality(ids)) OVER (ORDER BY seq) - cardinality(ids) AS before
						FROM (SELECT seq, ids FROM link_search_queue ORDER BY seq LIMIT 200) f) r
					WHERE before < $1)
				RETURNING ids, queued_at),
			ids AS (SELECT DISTINCT unnest(ids) AS id FROM q),
			gone AS (
				DELETE FROM link_search s USING ids
				WHERE s.link_id = ids.id AND NOT EXISTS (SELECT 1 FROM links l WHERE l.id = ids.id)
				RETURNING 1),
			put AS (
				INSERT INTO link_search (link_id, workspace_id, domain_id, doc, grams)
				SELECT l.id, l.workspace_id, l.domain_id, d.doc, link_search_grams(d.doc)
				FROM ids JOIN links l ON l.id = ids.id
				CROSS JOIN LATERAL (SELECT l.url || ' ' || l.key || ' ' || l.title AS doc) d
				ON CONFLICT (link_id) DO UPDATE SET workspace_id = EXCLUDED.workspace_id, domain_id = EXCLUDED.domain_id,
					doc = EXCLUDED.doc, grams = EXCLUDED.grams
				WHERE (link_search.workspace_id, link_search.domain_id, link_search.doc)
					IS DISTINCT FROM (EXCLUDED.workspace_id, EXCLUDED.domain_id, EXCLUDED.doc)
				RETURNING 1)
			SELECT (SELECT count(*) FROM q), (SELECT count(*) FROM ids), (SELECT count(*) FROM put),
				(SELECT count(*) FROM gone), (SELECT min(queued_at) FROM q)`, links).
			Scan(&b.Rows, &b.Links, &b.Written, &b.Deleted, &oldest)
		if oldest != nil {
			b.Oldest = *oldest
		}
		return err
	})
	if err != nil {
		return linksearch.Batch{}, fmt.Errorf("index links search: %w", err)
	}
	return b, nil
}

// Backlog implements linksearch.Store.
func (s *LinkSearch) Backlog(ctx context.Context) (linksearch.Backlog, error) {
	var b linksearch.Backlog
	var oldest, newest *time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT count(*), coalesce(sum(cardinality(ids)), 0), min(queued_at), max(queued_at) FROM link_search_queue`).
		Scan(&b.Rows, &b.Links, &oldest, &newest)
	if err != nil {
		return b, fmt.Errorf("links search backlog: %w", err)
	}
	if oldest != nil && newest != nil {
		b.Oldest, b.Newest = *oldest, *newest
	}
	return b, nil
}

// Ends implements linksearch.Store.
func (s *LinkSearch) Ends(ctx context.Context) (oldest, newest time.Time, err error) {
	var o, n *time.Time
	err = s.db.Pool.QueryRow(ctx, `SELECT (SELECT queued_at FROM link_search_queue ORDER BY seq LIMIT 1),
		(SELECT queued_at FROM link_search_queue ORDER BY seq DESC LIMIT 1)`).Scan(&o, &n)
	if err != nil {
		return oldest, newest, fmt.Errorf("links search queue: %w", err)
	}
	if o != nil && n != nil {
		oldest, newest = *o, *n
	}
	return oldest, newest, nil
}

// searchIndexable reports whether the search table's index can narrow a search for q: q holds
// three ASCII letters or digits in a row (a trigram pg_trgm takes from a pattern in any locale:
// trigrams) or a letter outside ASCII (link_search_grams: beyondASCII). A shorter ASCII text,
// such as "77", would have the index read every link of the workspace.
func searchIndexable(q string) bool { return trigrams(q) || beyondASCII(q) }

// beyondASCII reports whether q holds a character outside ASCII.
func beyondASCII(q string) bool {
	for i := 0; i < len(q); i++ {
		if q[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// fewTagged is how many links of a tag make a search under it ask the search table's index
// (searchedLinks); under fewer, the list walks the tag's links testing each.
const fewTagged = 2000

// searchSample is how many of a workspace's newest links a search tests first, and
// searchCommon how many of them holding the text make it common: the list then walks the links
// in the order asked (about searchSample/searchCommon links read for each link of the page)
// without asking the search table's index, whose bitmap of a text that most links hold costs
// what they are (140 ms for "example.com" in 100,000 links; docs/benchmarks.md).
const (
	searchSample = 500
	searchCommon = 10
)

// searchedLinks is how List finds the links of the workspace whose text holds q: none of the
// ways below under a tag of fewer than fewTagged links, which the list walks; way.common
// says the text is common among the links an order by visits passes next, or among its newest
// links (or they are all the links it has), so that a
// walk of its links in any order soon finds a page; otherwise, when few is true, ids is every
// link whose text in link_search holds q, with those of its links not yet copied there
// (link_search_queue), at most searchCandidates of them; way.many says they are more. Before
// any of that, way.ordered says f's listing by ID of a text with trigrams walks the search
// table in link_search_order (migration 00066; searchOrderPage). None says walk the links,
// testing each. The search table's GIN index is asked for a bitmap with a cap, never walked in
// an order; the list checks each candidate's own columns.
func (s *LinkStore) searchedLinks(ctx context.Context, workspaceID int64, q string, f link.Filter) (ids []int64, few bool, way searchWay, err error) {
	if f.TagID != nil && !s.searchTagsIndexed {
		if small, err := s.fewTaggedLinks(ctx, *f.TagID); err != nil || small {
			return nil, false, way, err
		}
	}
	p := "%" + escapeLike(q) + "%"
	if !s.searchUnsampled && f.TagID == nil && f.Sort == link.SortMostVisited && (f.After == nil || f.After.Visits > 0) {
		if common, err := s.commonNextByVisits(ctx, workspaceID, p, f.After); err != nil || common {
			return nil, false, searchWay{common: common}, err
		}
	}
	if !s.searchUnsampled {
		if common, err := s.commonNewest(ctx, workspaceID, p); err != nil || common {
			return nil, false, searchWay{common: common}, err
		}
	}
	indexes := s.searchIndexes(ctx)
	if !searchIndexable(q) || indexes&searchGIN == 0 {
		return nil, false, way, nil
	}
	if s.walksSearchOrder(q, f, indexes) {
		return nil, false, searchWay{ordered: true}, nil
	}
	ids, err = s.searchCandidatesOf(ctx, workspaceID, q, p)
	if err != nil {
		return nil, false, way, err
	}
	if len(ids) > s.candidates() {
		return nil, false, searchWay{many: true}, nil
	}
	return ids, true, way, nil
}

// fewTaggedLinks says whether the tag has fewer than fewTagged links: the list then walks
// them testing each link's text, whatever the search table holds. The walk passes fewTagged
// links at most, where the table's bitmap of a text of many links costs what the workspace
// holds (40–90 ms for one link in eight of 1,000,000, and up to 926 ms on a loaded machine,
// for a tag of 1,000 links).
func (s *LinkStore) fewTaggedLinks(ctx context.Context, tagID int64) (bool, error) {
	var n int
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM link_tags WHERE tag_id = $1 LIMIT $2) s`,
		tagID, fewTagged).Scan(&n); err != nil {
		return false, fmt.Errorf("list links: search: count the tag's links: %w", err)
	}
	return n < fewTagged, nil
}

// commonNextByVisits says whether enough of the links the walk of the visit order passes next
// (most visited first, from after) hold the pattern p: that walk then finds a page within a few
// thousand rows, without the search table's bitmap, which costs what the workspace holds (40–90
// ms a page for one link in eight of 1,000,000), nor the newest links, which may not hold it.
func (s *LinkStore) commonNextByVisits(ctx context.Context, workspaceID int64, p string, after *link.Cursor) (bool, error) {
	var a sqlArgs
	ws, pat := a.add(workspaceID), a.add(p)
	cond := ""
	if after != nil {
		cond = " AND (t.visits, t.link_id) < (" + a.add(after.Visits) + "::bigint, " + a.add(after.ID) + "::bigint)"
	}
	var held int
	err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT t.link_id FROM visit_totals t
			WHERE t.workspace_id = `+ws+` AND t.visits > 0`+cond+`
			ORDER BY t.visits DESC, t.link_id DESC LIMIT `+a.add(searchSample)+`) v
		CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = v.link_id
			AND (l.url ILIKE `+pat+` OR l.key ILIKE `+pat+` OR l.title ILIKE `+pat+`) LIMIT 1) m`, a...).Scan(&held)
	if err != nil {
		return false, fmt.Errorf("list links: search: %w", err)
	}
	return held >= searchCommon, nil
}

// commonNewest says whether enough of the workspace's newest links hold the pattern p, or they
// are all the links it has. They are read in links_workspace_idx's order, the workspace a value
// the planner cannot see (workspaceWalk): by ID alone, or with the workspace a constant, the
// planner may walk every workspace's newest links (links_pkey) for those of this one.
func (s *LinkStore) commonNewest(ctx context.Context, workspaceID int64, p string) (bool, error) {
	var held, sampled int
	err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE url ILIKE $2 OR key ILIKE $2 OR title ILIKE $2), count(*)
		FROM (SELECT url, key, title FROM links WHERE workspace_id = (SELECT $1::bigint) ORDER BY workspace_id, id DESC LIMIT $3) s`,
		workspaceID, p, searchSample).Scan(&held, &sampled)
	if err != nil {
		return false, fmt.Errorf("list links: search: %w", err)
	}
	return held >= searchCommon || sampled < searchSample, nil
}

// walksSearchOrder says whether f's listing of q walks the search table in an order of its
// own. A listing by ID of a text with trigrams, no tag (whose own walk passes its links only),
// walks link_search_order whatever the text's links number: the bitmap of link_search_gin
// costs what the workspace holds, capped or not (130 ms on average, on a loaded 2-core machine,
// for a workspace of 1,000,000 links), the walk of a text of many links a few milliseconds, of
// a text nothing holds about 10, of digits alone, whose trigrams many texts share, about 100
// (docs/benchmarks.md#the-text-search). A text without trigrams but with letters outside ASCII
// likewise walks link_search_grams_order (migration 00068): GIN's bitmap of a Chinese word of
// one link in 80 of 1,000,000 cost 57 ms capped at 5,000 links, and the walk of the
// workspace's links by ID that followed 300 ms and more; the walk of the index 2–7 ms.
func (s *LinkStore) walksSearchOrder(q string, f link.Filter, indexes int32) bool {
	if f.Sort.ByVisits() || f.Sort.ByUpdate() || f.TagID != nil || s.searchUnordered || s.searchCandidates < 0 {
		return false
	}
	if trigrams(q) {
		return indexes&searchOrder != 0
	}
	return beyondASCII(q) && indexes&searchGramsOrder != 0
}

// searchCandidatesOf is every link of the workspace whose text in link_search may hold q (p
// its pattern), with those not yet copied there (link_search_queue), up to one more than
// s.candidates(). The search table's GIN index is asked for a bitmap with a cap, never walked
// in an order; the list checks each candidate's own columns.
func (s *LinkStore) searchCandidatesOf(ctx context.Context, workspaceID int64, q, p string) ([]int64, error) {
	var a sqlArgs
	ws := a.add(workspaceID)
	where := "workspace_id = " + ws
	if trigrams(q) {
		where += " AND doc ILIKE " + a.add(p)
	}
	if beyondASCII(q) {
		where += " AND grams @> link_search_grams(" + a.add(q) + ")"
	}
	limit := a.add(s.candidates() + 1)
	var ids []int64
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		// With a LIMIT the planner may prefer a walk of the table testing each row; only the
		// index's bitmap bounds the work by what it matches.
		if _, err := tx.Exec(ctx, `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`); err != nil {
			return err
		}
		var err error
		ids, err = queryAll(ctx, tx, pgx.RowTo[int64], `
			(SELECT link_id FROM link_search WHERE `+where+` LIMIT `+limit+`)
			UNION
			(SELECT id FROM link_search_queue q CROSS JOIN unnest(q.ids) id WHERE q.workspace_id = `+ws+` LIMIT `+limit+`)
			LIMIT `+limit, a...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list links: search: %w", err)
	}
	return ids, nil
}

// searchOrderPage is a listing's page by ID of a search (searchedLinks' ordered):
// the search table's rows holding the text walked in link_search_order (migration 00066), or in
// link_search_grams_order (migration 00068) for a text without trigrams, from the cursor, nearest first (link_id <-> the cursor's end of the IDs), each link looked up by
// its key and checked against its own columns and the other filters (where) in a LATERAL
// subquery, so that the walk stops at the page's size; beside them the workspace's links
// still queued for the indexer (link_search_queue), in the same order. A page costs the rows
// of the text it passes and the parts of the index its trigrams rule out, not the links
// between them that do not hold it.
func searchOrderPage(a *sqlArgs, f link.Filter, where []string, ws, limit, dir, cmp string) (page, order string) {
	// The index's distances are float8 (btree_gist): exact for IDs up to 2^53, so the newest
	// first are the nearest to 2^53, not to the largest bigint, where IDs a thousand apart
	// are the same distance.
	end := "0"
	if dir == "DESC" {
		end = "9007199254740992"
	}
	cond, queued := "", "true"
	if f.After != nil {
		after := a.add(f.After.ID)
		cond = " AND s.link_id " + cmp + " " + after + "::bigint"
		queued = "q.id " + cmp + " " + after
	}
	if f.DomainID != nil && *f.DomainID != link.DefaultDomain {
		// link_search_domain_order (migration 00069) walks the domain's links alone; its
		// condition written out, as links_workspace_domain's is.
		cond += " AND s.domain_id = " + a.add(*f.DomainID) + "::bigint AND s.domain_id <> 0"
	}
	q := strings.TrimSpace(f.Query)
	var holds string
	if trigrams(q) {
		holds = "s.doc ILIKE " + a.add("%"+escapeLike(q)+"%")
	} else {
		// The text's letters and pairs of letters, every one a lexeme of the row's grams:
		// grams @> link_search_grams(q), as link_search_grams_order (migration 00068) answers it.
		// The letters are outside ASCII (link_search_grams), none a quote or a backslash.
		holds = "s.grams <> '{}' AND array_to_tsvector(s.grams) @@ (SELECT string_agg(quote_literal(g), ' & ') FROM unnest(link_search_grams(" +
			a.add(q) + "::text)) g)::tsquery"
	}
	lookup := `CROSS JOIN LATERAL (SELECT 1 FROM links l WHERE l.id = %s AND ` + strings.Join(where, " AND ") + ` LIMIT 1) m`
	return `SELECT id FROM (
			(SELECT s.link_id AS id FROM link_search s ` + fmt.Sprintf(lookup, "s.link_id") + `
				WHERE s.workspace_id = ` + ws + `::bigint AND ` + holds + cond + `
				ORDER BY s.link_id <-> ` + end + `::bigint LIMIT ` + limit + `)
			UNION
			(SELECT q.id FROM (SELECT DISTINCT id FROM link_search_queue sq CROSS JOIN unnest(sq.ids) q (id)
					WHERE sq.workspace_id = ` + ws + `) q ` + fmt.Sprintf(lookup, "q.id") + `
				WHERE ` + queued + ` ORDER BY q.id ` + dir + ` LIMIT ` + limit + `)
		) u ORDER BY id ` + dir + ` LIMIT ` + limit, `l.id ` + dir
}

// candidates is searchCandidates, or what a test set (below zero: every search walks the links,
// none the search table's order).
func (s *LinkStore) candidates() int {
	if s.searchCandidates != 0 {
		return s.searchCandidates
	}
	return searchCandidates
}

// trigrams reports whether q holds three ASCII letters or digits in a row.
func trigrams(q string) bool {
	run := 0
	for _, r := range q {
		if r < utf8.RuneSelf && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			if run++; run >= 3 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// The search table's indexes, as searchIndexes reports them.
const (
	searchAsked = 1 << iota
	searchGIN   // link_search_gin (migration 00063)
	searchOrder // link_search_order (migration 00066)
	// link_search_grams_order (migration 00068)
	searchGramsOrder
)

// searchIndexes reports which of the search table's indexes exist, asked once per process (an
// index made later is used after a restart). Without link_search_gin List's search walks the
// links as it did before the search table; without link_search_order a text of many links
// does, and without link_search_grams_order a text of many links without trigrams.
func (s *LinkStore) searchIndexes(ctx context.Context) int32 {
	if got := s.searchIndex.Load(); got != 0 {
		return got
	}
	var gin, order, grams bool
	if err := s.db.Pool.QueryRow(ctx, `SELECT to_regclass('link_search_gin') IS NOT NULL, to_regclass('link_search_order') IS NOT NULL,
		to_regclass('link_search_grams_order') IS NOT NULL`).Scan(&gin, &order, &grams); err != nil {
		return searchAsked // asked again next time
	}
	got := int32(searchAsked)
	if gin {
		got |= searchGIN
	}
	if order {
		got |= searchOrder
	}
	if grams {
		got |= searchGramsOrder
	}
	s.searchIndex.Store(got)
	return got
}
