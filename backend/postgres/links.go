package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/qr"
	"github.com/shortlink/shortlink/backend/webhook"
)

// LinkStore implements link.Store.
type LinkStore struct {
	db *DB
	// searchIndex is which of the search table's indexes exist (searchIndexes; migrations 00063
	// and 00066 make them where pg_trgm, btree_gin and btree_gist are installed): 0 not asked yet.
	searchIndex atomic.Int32
	// searchCandidates replaces the constant of that name when set, searchUnsampled skips the
	// test of the newest links, searchUnordered never walks link_search_order, and
	// searchTagsIndexed asks the search table whatever a tag's size (tests).
	searchCandidates  int
	searchUnsampled   bool
	searchUnordered   bool
	searchTagsIndexed bool
}

// NewLinkStore returns the PostgreSQL link store.
func NewLinkStore(db *DB) *LinkStore { return &LinkStore{db: db} }

var _ link.Store = (*LinkStore)(nil)

const linkColumns = `id, workspace_id, domain_id, key, is_alias, url, title, redirect_status,
	forward_query, status, expires_at, rules, created_by, created_at, updated_at, utm, archived_at, qr_style`

func scanLink(row pgx.Row) (*link.Link, error) {
	var l link.Link
	var status int16
	var rules, utm []byte
	err := row.Scan(&l.ID, &l.WorkspaceID, &l.DomainID, &l.Key, &l.IsAlias, &l.URL, &l.Title, &status,
		&l.ForwardQuery, &l.Status, &l.ExpiresAt, &rules, &l.CreatedBy, &l.CreatedAt, &l.UpdatedAt, &utm, &l.ArchivedAt, &l.QR)
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
	l.forward_query, l.status, l.expires_at, l.rules, l.created_by, l.created_at, l.updated_at, l.utm, l.archived_at, l.qr_style,
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
		&l.ForwardQuery, &l.Status, &l.ExpiresAt, &rules, &l.CreatedBy, &l.CreatedAt, &l.UpdatedAt, &utm, &l.ArchivedAt, &l.QR,
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

// qrJSON is the qr_style column's value of a link's style: NULL for none.
func qrJSON(q *qr.Look) *string {
	if q == nil {
		return nil
	}
	b, _ := json.Marshal(q)
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

// Get implements link.Store.
func (s *LinkStore) Get(ctx context.Context, workspaceID, id int64) (*link.Link, error) {
	l, err := scanTagged(s.db.Pool.QueryRow(ctx,
		`SELECT `+taggedColumns+` FROM`+moderatedFrom+`WHERE l.workspace_id = $1 AND l.id = $2`, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("get link: %w", notFound(err, "link"))
	}
	return l, nil
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
