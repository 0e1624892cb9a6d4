// Package link holds the Link, its rules and validation, and the Service that creates, edits and
// finds links. It knows nothing of HTTP, SQL or Redis: those implement the interfaces below.
package link

import (
	"context"
	"errors"
	"time"

	"github.com/shortlink/shortlink/backend/qr"
)

// Status of a link; only active links redirect.
const (
	StatusActive   = "active"
	StatusDisabled = "disabled"
	StatusBanned   = "banned"
	// StatusHeld is a link made while its destination's domain stood banned for phishing (or
	// by a moderator): it answers the warning page until its own review bans it or releases it
	// (back to active). Only the moderation sets or ends it; owners cannot change it.
	StatusHeld = "held"
	// StatusExpired is not a status of its own but a filter of the listing: the links whose
	// expiry has passed, whatever their status.
	StatusExpired = "expired"
)

// HeldReasonDomainBanned is why a held link is held: its domain's record (or a moderator)
// banned it (the moderation answer's held_reason).
const HeldReasonDomainBanned = "domain_banned"

// DefaultDomain is the domain_id of the service's own short domain.
const DefaultDomain int64 = 0

// Link is a short link: a key on a domain that sends visitors to URL. Its JSON form is how the
// shared cache stores it (short names: a million of them fit in little memory); the API's
// answer is built from it in httpapi. Domain and ShortURL are derived, never stored.
type Link struct {
	ID          int64  `json:"i"`
	WorkspaceID int64  `json:"w"`
	DomainID    int64  `json:"d"`
	Domain      string `json:"-"`
	Key         string `json:"k"`
	IsAlias     bool   `json:"a,omitempty"`
	ShortURL    string `json:"-"`
	// DomainRemoved: the link was made on a custom domain since removed; it answers nowhere
	// and has no ShortURL (derived, never stored).
	DomainRemoved  bool       `json:"-"`
	URL            string     `json:"u"`
	Title          string     `json:"t,omitempty"`
	RedirectStatus int        `json:"r"`
	ForwardQuery   bool       `json:"f,omitempty"`
	Status         string     `json:"s"`
	ExpiresAt      *time.Time `json:"e,omitempty"`
	Rules          Rules      `json:"x,omitzero"`
	// UTM are the campaign parameters merged into URL's query on redirect.
	UTM UTM `json:"q,omitzero"`
	// Dest is URL with UTM merged when the link has UTM ("" otherwise): computed by Finish
	// when the link is read or made and cached with it, so a redirect does no merging.
	Dest      string    `json:"z,omitempty"`
	CreatedBy *int64    `json:"b,omitempty"`
	CreatedAt time.Time `json:"c"`
	UpdatedAt time.Time `json:"m"`
	// Moderation is what the moderation last decided, read with the link by the API's reads
	// and never cached (the redirect path goes by Status alone).
	Moderation Moderation `json:"-"`
	// Visits are the link's people's visits as a listing reads them (Store.List); nil
	// elsewhere, and never cached.
	Visits *Visits `json:"-"`
	// Tags are the names of the link's tags (package tag), in tag.Sort's order: read with the
	// link by the API's reads, never cached (the redirect path has no use for them).
	Tags []string `json:"-"`
	// Health is what the last check of the link's destination found, once it made the link
	// ok or broken (package health); nil before that, and never cached.
	Health *Health `json:"-"`
	// ArchivedAt is when the link was archived: hidden from the default listing, still
	// redirecting (docs/api.md#archived-links); nil when it is not. Never cached.
	ArchivedAt *time.Time `json:"-"`
	// QR is the link's saved QR style (docs/api.md#a-links-saved-qr-style); nil for the
	// default. Never cached: the redirect path has no use for it.
	QR *qr.Look `json:"-"`
	// password is a new link's password until it is hashed into Rules.PasswordHash: hashing
	// waits until the month's quota has granted the link (write), so refused rows cost nothing.
	password string
}

// Health is a link's health as its owner sees it (docs/api.md#link-health): the state ("ok" or "broken")
// and what the last check of its destination found.
type Health struct {
	State     string    `json:"state"`
	CheckedAt time.Time `json:"checked_at"`
	// Status is the HTTP status of the last check's answer; nil when none came.
	Status *int `json:"status"`
	// Error is why the last check failed (dns, tls, timeout, connect, status, redirects,
	// refused); "" when it succeeded.
	Error string `json:"error"`
	// Detail says more, in English.
	Detail string `json:"detail"`
}

// Moderation is a link's moderation state as its owner sees it (docs/moderation.md). The zero value
// is a link not reviewed yet: State "" reads as pending.
type Moderation struct {
	// State is one of package moderation's states; "" when the link has none yet.
	State      string
	Score      *float64 // of the last review; nil before the first
	Category   string
	Reason     string
	ReviewedAt *time.Time
	// Shared is the review of another link whose verdict the last review took; nil when it
	// opened the browser itself.
	Shared *SharedReview
	// DecidedBy says who decided the state ("review", "moderator" or "domain"), ReasonCode is
	// the reason the web app translates for the owner, and OwnerText a moderator's words to
	// the owner; Reason is the scorer's, for moderators only (docs/moderation.md).
	DecidedBy, ReasonCode, OwnerText string
}

// SharedReview is what a link's owner is told of a shared review: the review and its link
// only when they are in the owner's workspace, and when it was made.
type SharedReview struct {
	ReviewID *int64
	LinkID   *int64
	At       time.Time
}

// Visits are a link's people's visits (crawlers never count) as the visit rollups hold them.
type Visits struct {
	Total int64 // since the link was made
	// Days are the visits of each day of Filter.Days, oldest first; nil when none were asked.
	Days []int64
}

// Expired reports whether the link is past its expiry at t.
func (l *Link) Expired(t time.Time) bool { return l.ExpiresAt != nil && !t.Before(*l.ExpiresAt) }

// Input is what a client sends to create a link.
type Input struct {
	URL            string     `json:"url"`
	Alias          string     `json:"alias,omitempty"`
	Domain         string     `json:"domain,omitempty"`
	Title          string     `json:"title,omitempty"`
	RedirectStatus int        `json:"redirect_status,omitempty"`
	ForwardQuery   bool       `json:"forward_query,omitempty"`
	ExpiresAt      *time.Time `json:"expires_at,omitempty"`
	// Tags name the link's tags; the workspace's tags are made for names it has none of.
	Tags []string `json:"tags,omitempty"`
	UTM  *UTM     `json:"utm,omitempty"`
	// QR is the link's QR style; null, absent or the default keeps none.
	QR *qr.Look `json:"qr,omitempty"`
	RuleFields
	// Dedupe returns the workspace's newest working (active, unexpired) link to the same URL
	// instead of a new one. It is ignored when an alias is given.
	Dedupe bool `json:"dedupe,omitempty"`
	// Archived makes the link archived from the start.
	Archived bool `json:"archived,omitempty"`
}

// Patch holds the fields a client changes; unset fields stay as they are.
type Patch struct {
	URL            Opt[string]     `json:"url"`
	Title          Opt[string]     `json:"title"`
	RedirectStatus Opt[int]        `json:"redirect_status"`
	ForwardQuery   Opt[bool]       `json:"forward_query"`
	Status         Opt[string]     `json:"status"`
	ExpiresAt      Opt[*time.Time] `json:"expires_at"`
	// Tags replace the link's tags (null or [] removes them all).
	Tags Opt[[]string] `json:"tags"`
	// UTM replaces the link's UTM as a whole; null or {} clears it.
	UTM Opt[*UTM] `json:"utm"`
	// QR replaces the link's QR style as a whole; null or the default clears it.
	QR Opt[*qr.Look] `json:"qr"`
	// Archived archives the link (true) or brings it back to the listing (false).
	Archived Opt[bool] `json:"archived"`
	RuleFields
	// Rules is the edit RuleFields make, with the password hashed: what the store writes.
	Rules RulesEdit `json:"-"`
	// TagIDs are the IDs of the tags Tags names: what the store writes.
	TagIDs []int64 `json:"-"`
}

// Sort is the order of a listing of links: by creation (the ID, issued in creation order) or
// by people's visits since the link was made, ties by ID; a leading "-" is the reverse
// (largest first).
type Sort string

// The orders of a listing.
const (
	SortNewest       Sort = "-created" // the default
	SortOldest       Sort = "created"
	SortMostVisited  Sort = "-visits"
	SortLeastVisited Sort = "visits"
	// SortUpdated is the least recently changed first, SortRecentlyUpdated the most; a link
	// changed while a client pages moves, as in an order by visits.
	SortUpdated         Sort = "updated"
	SortRecentlyUpdated Sort = "-updated"
)

// Valid reports whether s is one of the orders.
func (s Sort) Valid() bool {
	switch s {
	case SortNewest, SortOldest, SortMostVisited, SortLeastVisited, SortUpdated, SortRecentlyUpdated:
		return true
	}
	return false
}

// ByVisits reports whether the listing is in order of visits.
func (s Sort) ByVisits() bool { return s == SortMostVisited || s == SortLeastVisited }

// Descending reports whether the listing starts with the largest.
func (s Sort) Descending() bool {
	return s == SortNewest || s == SortMostVisited || s == SortRecentlyUpdated
}

// ByUpdate reports whether the listing is ordered by the links' last change.
func (s Sort) ByUpdate() bool { return s == SortUpdated || s == SortRecentlyUpdated }

// Cursor is where a page of a listing ended: its last link's ID and, in an order by visits,
// that link's visits. The next page starts after it in the listing's order.
type Cursor struct {
	ID     int64
	Visits int64
	// Updated is, in an order by update, that link's last change (to the microsecond).
	Updated time.Time
}

// Filter selects a page of a workspace's links, newest first unless Sort says otherwise.
type Filter struct {
	Query  string // matched against URL, code and title
	Status string // active, disabled, banned, held or StatusExpired; "" for any
	// Domain is the host name of the links' domain, the service's own or a verified custom
	// domain of the workspace; "" for any. The service resolves it into DomainID.
	Domain   string
	DomainID *int64 // only links on this domain; nil for any
	// Tag is the name of a tag of the workspace, in any case: only links carrying it; "" for
	// any. The service resolves it into TagID.
	Tag   string
	TagID *int64 // only links carrying this tag; nil for any
	// AlsoTags are more names of tags: only links carrying Tag and every one of these (the
	// API's repeated tag=). The service resolves them into AlsoTagIDs.
	AlsoTags   []string
	AlsoTagIDs []int64
	Sort       Sort    // "" is SortNewest
	After      *Cursor // only links after it in the order of Sort; nil from the first
	// Days are the bounds of the days whose visits each link answers in Visits.Days: the start
	// of each day and the end of the last (len(Days)-1 days); none when empty.
	Days  []time.Time
	Limit int

	// Health is "ok" or "broken": only links whose destination's last checks made them so;
	// "" for any.
	Health string
	// Archived is ArchivedNo ("" too), ArchivedOnly or ArchivedAll.
	Archived string
}

// The values of Filter.Archived: links not archived (the default), archived ones, or both.
const (
	ArchivedNo   = "false"
	ArchivedOnly = "true"
	ArchivedAll  = "all"
)

// ErrRefused is wrapped by a Store's error when the database answered and refused a write, as
// opposed to not answering at all.
var ErrRefused = errors.New("the database refused the write")

// Store keeps links; every method that reads or writes tenant data takes the workspace.
type Store interface {
	// Insert writes new links in one transaction. A row whose (domain, key) is taken gets a
	// conflict error of its own in errs; err is set when the whole batch failed, and wraps
	// ErrRefused when the database answered and refused it (one row may be at fault).
	Insert(ctx context.Context, links []*Link) (errs []error, err error)
	// Get returns the link, or a not_found error if it is not in the workspace.
	Get(ctx context.Context, workspaceID, id int64) (*Link, error)
	// List returns up to f.Limit links, each with its Visits, and whether more follow.
	List(ctx context.Context, workspaceID int64, f Filter) ([]*Link, bool, error)
	// FindByURL returns the workspace's newest active, unexpired link to url, or not_found.
	FindByURL(ctx context.Context, workspaceID int64, url string) (*Link, error)
	// FindByKey returns the workspace's link at (domain, key), or not_found.
	FindByKey(ctx context.Context, workspaceID, domainID int64, key string) (*Link, error)
	// Update applies p and returns the changed link, or not_found.
	Update(ctx context.Context, workspaceID, id int64, p Patch) (*Link, error)
	// UpdateMany applies e to those of the workspace's links ids that e.Refuse lets through, all
	// in one transaction, and returns them changed by ID; every other ID has its error in
	// refused (not_found for an ID the workspace has no link of).
	UpdateMany(ctx context.Context, workspaceID int64, ids []int64, e BulkEdit) (changed map[int64]*Link, refused map[int64]error, err error)
	// Delete removes the link and returns it, or not_found.
	Delete(ctx context.Context, workspaceID, id int64) (*Link, error)
	// Resolve returns the link at (domain, key) in any workspace, for redirects; not_found if none.
	Resolve(ctx context.Context, domainID int64, key string) (*Link, error)
	// ReserveID keeps id from being issued because a custom alias of the workspace (key on
	// domainID) spells its code; conflict if id was already issued, quota_exceeded if the
	// workspace holds limit reservations already. Deleting the alias's link frees it.
	ReserveID(ctx context.Context, workspaceID, domainID int64, key string, id int64, limit int) error
}

// IDs hands out link IDs that were never issued before.
type IDs interface {
	Next(ctx context.Context) (int64, error)
}

// Cache is told of every committed change so that every node follows within a second.
type Cache interface {
	// Created stores new links where the redirect path looks first; the error says the
	// cache did not take them.
	Created(ctx context.Context, links []*Link) error
	// NotCached is told of new links whose Created failed or did not return in time: the
	// cache may still hold a miss for their keys, so they must be read past it until it has
	// them.
	NotCached(links []*Link)
	// Changed replaces a link's cached copies everywhere.
	Changed(ctx context.Context, l *Link)
	// ChangedMany is Changed for many links at once (a bulk edit).
	ChangedMany(ctx context.Context, links []*Link)
	// Removed drops a deleted link's cached copies everywhere.
	Removed(ctx context.Context, l *Link)
	// Reserved tells every node that id's code is now a custom alias.
	Reserved(ctx context.Context, id int64)
}
