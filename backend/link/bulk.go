package link

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/tag"
)

// MaxBulk is the most links one bulk edit changes.
const MaxBulk = 1000

// BulkSet is what a bulk edit changes of every link it names (docs/api.md#bulk-edit); unset fields stay
// as they are.
type BulkSet struct {
	Status    Opt[string]     `json:"status"`
	ExpiresAt Opt[*time.Time] `json:"expires_at"`
	// Archived archives every link (true) or brings them back to the listing (false).
	Archived Opt[bool] `json:"archived"`
	// TagsAdd are tag names added to each link (tags the workspace lacks are made);
	// TagsRemove are taken off (names it has no tag of are ignored).
	TagsAdd    []string `json:"tags_add"`
	TagsRemove []string `json:"tags_remove"`
}

// BulkEdit is a checked BulkSet as the store applies it.
type BulkEdit struct {
	Status    Opt[string]
	ExpiresAt Opt[*time.Time]
	Archived  Opt[bool]
	// AddTags and RemoveTags are tag IDs of the workspace.
	AddTags    []int64
	RemoveTags []int64
}

// Refuse is the error of a link the edit must leave as it is, nil for one it changes. status
// is the link's status, tags how many tags it would carry after the edit. A link banned by the
// moderation keeps its status: an edit that sets one is refused for it (only a moderator lifts
// a ban), while tags and expiry may change. So does a held link, until its review.
func (e BulkEdit) Refuse(status string, tags int) error {
	if e.Status.Set && status == StatusBanned {
		return apperr.Errorf(apperr.Forbidden, "the link was banned by the moderation; only a moderator lifts a ban (appeal it)").For("link_banned", "status")
	}
	if e.Status.Set && status == StatusHeld {
		return apperr.Errorf(apperr.Forbidden, "the link is held until the moderation has reviewed it").For("link_held", "status")
	}
	if tags > tag.MaxPerLink {
		return apperr.Errorf(apperr.Invalid, "a link carries at most %d tags", tag.MaxPerLink).For("tags_too_many", "tags_add")
	}
	return nil
}

// ChangesCache reports whether the edit changes what the caches hold of a link (tags are not
// cached).
func (e BulkEdit) ChangesCache() bool { return e.Status.Set || e.ExpiresAt.Set }

// BulkUpdate applies set to the workspace's links ids, answering each ID in input order: the
// changed link, or why it was left as it is (not_found for an ID the workspace has no link of,
// whoever's it is). A repeated ID gets the same answer each time. Every link changes on its own
// terms, in one transaction: one statement per kind of change, not one per link.
func (s *Service) BulkUpdate(ctx context.Context, workspaceID int64, ids []int64, set BulkSet) ([]Result, error) {
	if len(ids) == 0 || len(ids) > MaxBulk {
		return nil, apperr.Errorf(apperr.Invalid, "ids must hold 1 to %d link IDs", MaxBulk).For("batch_size", "ids")
	}
	e, err := s.bulkEdit(ctx, workspaceID, set)
	if err != nil {
		return nil, err
	}
	unique := make([]int64, 0, len(ids))
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if id > 0 && !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	changed := map[int64]*Link{}
	refused := map[int64]error{}
	if len(unique) > 0 {
		if changed, refused, err = s.store.UpdateMany(ctx, workspaceID, unique, e); err != nil {
			return nil, fmt.Errorf("bulk edit: %w", err)
		}
	}
	if e.ChangesCache() && len(changed) > 0 {
		links := make([]*Link, 0, len(changed))
		for _, l := range changed {
			links = append(links, l)
		}
		s.cache.ChangedMany(ctx, links)
	}
	out := make([]Result, len(ids))
	for i, id := range ids {
		switch l, ok := changed[id]; {
		case ok:
			out[i].Link = s.Decorate(l)
		case refused[id] != nil:
			out[i].Err = refused[id]
		default:
			out[i].Err = apperr.Missing("link")
		}
	}
	return out, nil
}

// bulkEdit checks set and finds (or makes) its tags.
func (s *Service) bulkEdit(ctx context.Context, workspaceID int64, set BulkSet) (BulkEdit, error) {
	e := BulkEdit{Status: set.Status, ExpiresAt: set.ExpiresAt, Archived: set.Archived}
	if !set.Status.Set && !set.ExpiresAt.Set && !set.Archived.Set && len(set.TagsAdd) == 0 && len(set.TagsRemove) == 0 {
		return e, apperr.Errorf(apperr.Invalid, "set must change status, expires_at, archived, tags_add or tags_remove").For("value_invalid", "set")
	}
	if set.Status.Set && set.Status.Value != StatusActive && set.Status.Value != StatusDisabled {
		return e, apperr.Errorf(apperr.Invalid, "status must be active or disabled").For("value_invalid", "status")
	}
	if set.ExpiresAt.Value != nil && !set.ExpiresAt.Value.After(time.Now()) {
		return e, apperr.Errorf(apperr.Invalid, "expires_at must be in the future").For("expires_at_past", "expires_at")
	}
	add, err := tag.Names(set.TagsAdd, "tags_add")
	if err != nil {
		return e, err
	}
	remove, err := tag.Names(set.TagsRemove, "tags_remove")
	if err != nil {
		return e, err
	}
	for _, r := range remove {
		if slices.ContainsFunc(add, func(a string) bool { return tag.Fold(a) == tag.Fold(r) }) {
			return e, apperr.Errorf(apperr.Invalid, "tag %q is both added and removed", r).For("value_invalid", "tags_remove")
		}
	}
	if len(add) > 0 || len(remove) > 0 {
		if s.tags == nil {
			return e, fmt.Errorf("bulk edit: no tag service configured")
		}
	}
	if len(add) > 0 {
		tags, err := s.tags.Ensure(ctx, workspaceID, add)
		if err != nil {
			return e, err
		}
		for _, t := range tags {
			e.AddTags = append(e.AddTags, t.ID)
		}
	}
	if len(remove) > 0 {
		tags, err := s.tags.Find(ctx, workspaceID, remove)
		if err != nil {
			return e, err
		}
		for _, t := range tags {
			e.RemoveTags = append(e.RemoveTags, t.ID)
		}
	}
	return e, nil
}
