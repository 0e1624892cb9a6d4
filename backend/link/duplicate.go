// Duplicating a link: a new code with the source's settings.

package link

import (
	"context"
	"slices"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Duplicate makes a new link of the workspace with the settings of its link id: destination,
// title, redirect status, query forwarding, status (active or disabled), expiry, tags, UTM, QR
// style and every rule, password included (docs/api.md#duplicate-a-link). It gets a new generated code on
// the same domain; visits, form responses, moderation and archiving are the source's own and
// are not copied. A link the moderation banned or holds is not duplicated (forbidden): a copy
// would be a way around the ban. The copy counts against the month's quota as a create, and
// its rules against the plan as a create's would.
func (s *Service) Duplicate(ctx context.Context, workspaceID, userID, id int64) (*Link, error) {
	src, err := s.store.Get(ctx, workspaceID, id)
	if err != nil {
		return nil, err
	}
	switch src.Status {
	case StatusBanned:
		return nil, apperr.Errorf(apperr.Forbidden, "the link was banned by the moderation: it cannot be duplicated").For("link_banned", "")
	case StatusHeld:
		return nil, apperr.Errorf(apperr.Forbidden, "the link is held until the moderation has reviewed it").For("link_held", "")
	}
	s.Decorate(src)
	if src.DomainID != DefaultDomain {
		// The domain must still be the workspace's, verified, and on its plan.
		if _, err := s.domainID(ctx, workspaceID, src.Domain); err != nil {
			return nil, err
		}
	}
	if err := s.checkPlan(ctx, workspaceID, src.Rules.Names(), false); err != nil {
		return nil, err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	l := &Link{
		WorkspaceID: workspaceID, DomainID: src.DomainID, URL: src.URL, Title: src.Title,
		RedirectStatus: src.RedirectStatus, ForwardQuery: src.ForwardQuery, Status: StatusActive,
		ExpiresAt: src.ExpiresAt, Rules: src.Rules, UTM: src.UTM, Tags: slices.Clone(src.Tags), QR: src.QR,
		CreatedAt: now, UpdatedAt: now,
	}
	if src.Status == StatusDisabled {
		l.Status = StatusDisabled
	}
	if userID != 0 {
		l.CreatedBy = &userID
	}
	l.Finish()
	if err := s.assignCode(ctx, l); err != nil {
		return nil, err
	}
	results := []Result{{Link: l}}
	s.write(ctx, workspaceID, results, []int{0}, true)
	return results[0].Link, results[0].Err
}
