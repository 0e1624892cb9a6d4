package sso

import (
	"context"
	"fmt"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
)

// Provisioned answers the workspaces whose identity provider provisioned the account with
// email over SCIM and keeps it active (docs/scim.md).
type Provisioned func(ctx context.Context, email string) ([]int64, error)

// Deprovisioned reports whether the workspace's provider deprovisioned the account with email
// over SCIM (active false).
type Deprovisioned func(ctx context.Context, workspaceID int64, email string) (bool, error)

// BindProvisioned makes the people a workspace's provider provisioned sign in through it only,
// and keep their address in its domain, as the members of an enforcing workspace do
// (docs/security.md#single-sign-on), whether or not the workspace enforces; and keeps a
// sign-on from making a member again of someone the provider deprovisioned (off).
func (s *Service) BindProvisioned(fn Provisioned, off Deprovisioned) {
	s.provisioned, s.deprovisioned = fn, off
}

var errDeprovisioned = apperr.Errorf(apperr.Forbidden,
	"your organisation's identity provider removed your access to this workspace: ask your administrator").For("sso_deprovisioned", "")

// mayRejoin refuses a sign-on's membership for a person the workspace's provider deprovisioned:
// only the provider (active true) gives the access back. A store that could not tell refuses.
func (s *Service) mayRejoin(ctx context.Context, workspaceID int64, email string) error {
	if s.deprovisioned == nil {
		return nil
	}
	off, err := s.deprovisioned(ctx, workspaceID, email)
	if err != nil {
		return fmt.Errorf("sso: deprovisioned accounts: %w", err)
	}
	if off {
		return errDeprovisioned
	}
	return nil
}

// provisionedBy returns the proven settings of a workspace, whose plan has sso, that
// provisioned email; nil when none did. A store that could not tell answers its error.
func (s *Service) provisionedBy(ctx context.Context, email string) (*Settings, error) {
	if s.provisioned == nil || email == "" {
		return nil, nil
	}
	ids, err := s.provisioned(ctx, email)
	if err != nil {
		return nil, fmt.Errorf("sso: provisioned accounts: %w", err)
	}
	for _, id := range ids {
		err := s.plans.Require(ctx, id, plan.SSO)
		if apperr.Is(err, apperr.PlanRequired) {
			continue // a downgraded workspace binds nobody, as with enforcement
		}
		if err != nil {
			return nil, err
		}
		st, err := s.store.Get(ctx, id)
		if apperr.Is(err, apperr.NotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if st.Verified() {
			return st, nil
		}
	}
	return nil, nil
}

// provisionedEmailChange refuses moving a provisioned person's address out of the domain of
// the workspace that provisioned them.
func (s *Service) provisionedEmailChange(ctx context.Context, current, email string) error {
	st, err := s.provisionedBy(ctx, current)
	if err != nil || st == nil || EmailDomain(email) == st.EmailDomain {
		return err
	}
	return apperr.Errorf(apperr.Forbidden, "your organisation provisions your account: your address stays in %s", st.EmailDomain).
		For("sso_required", "email")
}
