// Reading links: one by ID, by short URL or code, and pages of the workspace's links.

package link

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/tag"
)

// Get returns one of the workspace's links.
func (s *Service) Get(ctx context.Context, workspaceID, id int64) (*Link, error) {
	l, err := s.store.Get(ctx, workspaceID, id)
	if err != nil {
		return nil, err
	}
	return s.Decorate(l), nil
}

// MaxPage is the largest page List returns.
const MaxPage = 100

// MaxDays is the most days of visits a listing answers per link.
const MaxDays = 31

// List returns a page of the workspace's links in the order of f.Sort, each with its visits,
// and the cursor of the next page (nil when there is none).
func (s *Service) List(ctx context.Context, workspaceID int64, f Filter) ([]*Link, *Cursor, error) {
	f, match, err := s.ResolveFilter(ctx, workspaceID, f)
	if err != nil {
		return nil, nil, err
	}
	if !match {
		return []*Link{}, nil, nil
	}
	links, more, err := s.store.List(ctx, workspaceID, f)
	if err != nil {
		return nil, nil, err
	}
	for _, l := range links {
		s.Decorate(l)
	}
	if !more || len(links) == 0 {
		return links, nil, nil
	}
	last := links[len(links)-1]
	next := &Cursor{ID: last.ID}
	if f.Sort.ByVisits() && last.Visits != nil {
		next.Visits = last.Visits.Total
	}
	if f.Sort.ByUpdate() {
		next.Updated = last.UpdatedAt
	}
	return links, next, nil
}

// checkFilter refuses a listing's filter the service cannot answer (f.Sort set).
func checkFilter(f Filter) error {
	if f.Limit < 1 || f.Limit > MaxPage {
		return apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	if !f.Sort.Valid() {
		return apperr.Errorf(apperr.Invalid, "sort must be created, -created, visits, -visits, updated or -updated").For("value_invalid", "sort")
	}
	if f.After != nil && (f.After.ID <= 0 || f.After.Visits < 0 || (!f.Sort.ByVisits() && f.After.Visits != 0) ||
		f.Sort.ByUpdate() == f.After.Updated.IsZero()) {
		return apperr.Errorf(apperr.Invalid, "cursor is not one of this listing's").For("value_invalid", "cursor")
	}
	if len(f.Days) == 1 || len(f.Days) > MaxDays+1 {
		return fmt.Errorf("list links: %d day bounds", len(f.Days))
	}
	if len(f.Query) > 200 || !utf8.ValidString(f.Query) || strings.IndexByte(f.Query, 0) >= 0 {
		return apperr.Errorf(apperr.Invalid, "q must be text of at most 200 characters").For("value_invalid", "q")
	}
	switch f.Status {
	case "", StatusActive, StatusDisabled, StatusBanned, StatusHeld, StatusExpired:
	default:
		return apperr.Errorf(apperr.Invalid, "status must be active, disabled, banned, held or expired").For("value_invalid", "status")
	}
	switch f.Health {
	case "", "ok", "broken":
	default:
		return apperr.Errorf(apperr.Invalid, "health must be ok or broken").For("value_invalid", "health")
	}
	switch f.Archived {
	case "", ArchivedNo, ArchivedOnly, ArchivedAll:
	default:
		return apperr.Errorf(apperr.Invalid, "archived must be true, false or all").For("value_invalid", "archived")
	}
	return nil
}

// MaxListTags is how many tags one listing may name.
const MaxListTags = 10

// tagIDs are the IDs of the workspace's tags of these names, one each (a name given twice
// counts once), or nil when the workspace has no tag of one of them.
func (s *Service) tagIDs(ctx context.Context, workspaceID int64, names []string) ([]int64, error) {
	if len(names) > MaxListTags {
		return nil, apperr.Errorf(apperr.Invalid, "tag may be given at most %d times", MaxListTags).For("value_invalid", "tag")
	}
	folded := make(map[string]bool, len(names))
	for _, n := range names {
		if s.tags == nil || len(n) > 4*tag.MaxNameLength {
			return nil, nil
		}
		folded[tag.Fold(strings.TrimSpace(n))] = true
	}
	tags, err := s.tags.Find(ctx, workspaceID, names)
	if err != nil {
		return nil, err
	}
	if len(tags) < len(folded) {
		return nil, nil
	}
	ids := make([]int64, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	return ids, nil
}

// Lookup finds the workspace's link by its short URL or its code.
func (s *Service) Lookup(ctx context.Context, workspaceID int64, shortURL, key string) (*Link, error) {
	domainID := DefaultDomain
	if shortURL != "" {
		u, err := url.Parse(shortURL)
		if err != nil || u.Host == "" {
			return nil, apperr.Errorf(apperr.Invalid, "short_url must be a full URL such as %sabc123", s.base).For("short_url_invalid", "short_url")
		}
		id, err := s.domainID(ctx, workspaceID, u.Hostname())
		if err != nil {
			if id, err = s.domainID(ctx, workspaceID, u.Host); err != nil {
				return nil, apperr.Errorf(apperr.NotFound, "link not found").For("link_not_found", "")
			}
		}
		domainID = id
		key = strings.TrimSuffix(strings.TrimPrefix(u.Path, "/"), "+")
	}
	if key == "" {
		return nil, apperr.Errorf(apperr.Invalid, "give short_url or code").For("short_url_required", "short_url")
	}
	if !KeyShaped(key) {
		return nil, apperr.Errorf(apperr.NotFound, "link not found").For("link_not_found", "")
	}
	l, err := s.store.FindByKey(ctx, workspaceID, domainID, key)
	if err != nil {
		return nil, err
	}
	return s.Decorate(l), nil
}
