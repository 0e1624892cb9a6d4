// Package share keeps the public pages of a link's statistics (docs/api.md#shared-statistics):
// an unguessable address a link's owners make, read without an account by whoever holds it,
// until they revoke it or the link goes. It knows nothing of HTTP or SQL.
package share

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/url"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/stats"
)

// MaxPerLink is the most shares one link has at once.
const MaxPerLink = 20

// idBytes is the randomness of a share's ID: 128 bits.
const idBytes = 16

// Share is one public address of a link's statistics.
type Share struct {
	// ID is 128 random bits in unpadded base64url (22 characters): the address itself.
	ID          string
	WorkspaceID int64
	LinkID      int64
	CreatedBy   *int64
	CreatedAt   time.Time
}

// Store keeps shares; every method but Find takes the workspace.
type Store interface {
	// Create writes s unless its link has max shares already (conflict, shares_too_many).
	Create(ctx context.Context, s *Share, max int) error
	// List returns the link's shares, oldest first.
	List(ctx context.Context, workspaceID, linkID int64) ([]Share, error)
	// Delete removes the link's share id; not_found when there is none.
	Delete(ctx context.Context, workspaceID, linkID int64, id string) error
	// Find returns the share id across workspaces (the public read); not_found when there is
	// none.
	Find(ctx context.Context, id string) (*Share, error)
}

// Links reads a workspace's links (link.Service).
type Links interface {
	Get(ctx context.Context, workspaceID, id int64) (*link.Link, error)
}

// Stats answers a link's statistics (stats.Service).
type Stats interface {
	LinkFiltered(ctx context.Context, workspaceID, linkID int64, r stats.Range, f stats.Filter) (*stats.LinkStats, error)
}

// Plans says whether a workspace's plan has a feature (plan.Service).
type Plans interface {
	Require(ctx context.Context, workspaceID int64, f plan.Feature) error
}

// Feature is the plan feature sharing needs: the statistics beyond a link's own page, the
// dashboard's (docs/rules-and-plans.md#plans).
const Feature = plan.Dashboard

// Service makes, lists, revokes and reads shares.
type Service struct {
	store Store
	links Links
	stats Stats
	plans Plans
}

// NewService returns the shares' service; plans may be nil (every workspace may share).
func NewService(store Store, links Links, st Stats, plans Plans) *Service {
	return &Service{store: store, links: links, stats: st, plans: plans}
}

// Create makes a new share of the workspace's link. A link the moderation banned or holds is
// not shared (forbidden), and the plan needs Feature.
func (s *Service) Create(ctx context.Context, workspaceID, userID, linkID int64) (*Share, error) {
	l, err := s.links.Get(ctx, workspaceID, linkID)
	if err != nil {
		return nil, err
	}
	if l.Status == link.StatusBanned || l.Status == link.StatusHeld {
		return nil, apperr.Errorf(apperr.Forbidden, "a link the moderation banned or holds cannot be shared").For("link_banned", "")
	}
	if s.plans != nil {
		if err := s.plans.Require(ctx, workspaceID, Feature); err != nil {
			return nil, err
		}
	}
	id, err := newID()
	if err != nil {
		return nil, err
	}
	sh := &Share{ID: id, WorkspaceID: workspaceID, LinkID: linkID, CreatedAt: time.Now().UTC()}
	if userID != 0 {
		sh.CreatedBy = &userID
	}
	if err := s.store.Create(ctx, sh, MaxPerLink); err != nil {
		return nil, err
	}
	return sh, nil
}

// List returns the shares of the workspace's link; not_found when the link is not the
// workspace's.
func (s *Service) List(ctx context.Context, workspaceID, linkID int64) ([]Share, error) {
	if _, err := s.links.Get(ctx, workspaceID, linkID); err != nil {
		return nil, err
	}
	return s.store.List(ctx, workspaceID, linkID)
}

// Revoke deletes a share of the workspace's link: its page answers 404 from then on.
func (s *Service) Revoke(ctx context.Context, workspaceID, linkID int64, id string) error {
	if !ValidID(id) {
		return errNotFound
	}
	return s.store.Delete(ctx, workspaceID, linkID, id)
}

// Public is what a share shows: the link's short URL, its destination's host and its
// statistics, nothing else of the link or its workspace.
type Public struct {
	ShortURL        string `json:"short_url"`
	DestinationHost string `json:"destination_host"`
	// From, To and TZ are the range answered.
	From           time.Time        `json:"from"`
	To             time.Time        `json:"to"`
	TZ             string           `json:"tz"`
	Visits         int64            `json:"visits"`
	UniqueVisitors int64            `json:"unique_visitors"`
	Bots           int64            `json:"bots"`
	Series         stats.Series     `json:"series"`
	Breakdowns     stats.Breakdowns `json:"breakdowns"`
	// Filter is the filter answered, by parameter name; absent when there is none.
	Filter map[string]string `json:"filter,omitempty"`
}

// errNotFound answers every share that cannot be shown, whatever the cause: no such ID,
// revoked, its link deleted, banned or held, or its workspace's plan without Feature.
var errNotFound = apperr.Errorf(apperr.NotFound, "share not found").For("share_not_found", "")

// Read answers the share id over r, of the visits that match f only unless it is empty. A plan
// that could not be read fails the read: the page is not shown on a guess.
func (s *Service) Read(ctx context.Context, id string, r stats.Range, f stats.Filter) (*Public, error) {
	if !ValidID(id) {
		return nil, errNotFound
	}
	sh, err := s.store.Find(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := s.links.Get(ctx, sh.WorkspaceID, sh.LinkID)
	if apperr.Is(err, apperr.NotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	if !Shown(l.Status) {
		return nil, errNotFound
	}
	if s.plans != nil {
		if err := s.plans.Require(ctx, sh.WorkspaceID, Feature); apperr.Is(err, apperr.PlanRequired) {
			return nil, errNotFound
		} else if err != nil {
			return nil, fmt.Errorf("read share: plan: %w", err)
		}
	}
	st, err := s.stats.LinkFiltered(ctx, sh.WorkspaceID, sh.LinkID, r, f)
	if apperr.Is(err, apperr.NotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	out := &Public{ShortURL: l.ShortURL, DestinationHost: host(l.URL), From: st.From, To: st.To, TZ: st.TZ,
		Visits: st.Visits, UniqueVisitors: st.UniqueVisitors, Bots: st.Bots, Series: st.Series, Breakdowns: st.Breakdowns,
		Filter: st.Filter}
	// A variant's key is its whole URL: more of the owner's destinations than the host.
	out.Breakdowns.Variant = []stats.Count{}
	return out, nil
}

// Shown reports whether a link in status shows its shares: not while the moderation bans or
// holds it.
func Shown(status string) bool { return status != link.StatusBanned && status != link.StatusHeld }

// ValidID reports whether id has the shape of a share's ID.
func ValidID(id string) bool {
	if len(id) != base64.RawURLEncoding.EncodedLen(idBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(id)
	return err == nil
}

func newID() (string, error) {
	b := make([]byte, idBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("share id: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// host is the host name of a destination URL, "" when it has none.
func host(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Hostname()
}
