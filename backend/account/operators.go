// What operators do: the operator account made at start-up, listings of every workspace and
// user, plans and system roles.

package account

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/shortlink/shortlink/backend/apperr"
)

// MaxPage is the largest page of an operator listing.
const MaxPage = 100

// EnsureOperator creates the configured operator account (verified: the deployer chose the
// address), or gives an existing account of that email the operator role and the configured
// password. It runs at start-up. An existing account that is not an operator yet is promoted
// only if its address is verified, or if takeover is set (OPERATOR_TAKEOVER): otherwise
// whoever signed up first with that address would become operator. Promotion revokes every
// session of the account and every API key it created, so nothing issued before carries over.
func (s *Service) EnsureOperator(ctx context.Context, email, password string, takeover bool) (*User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, fmt.Errorf("OPERATOR_EMAIL: %w", err)
	}
	if err := ValidatePassword(password); err != nil {
		return nil, fmt.Errorf("OPERATOR_PASSWORD: %w", err)
	}
	existing, _, err := s.store.UserByEmail(ctx, e)
	switch {
	case err == nil && existing.SystemRole != SystemOperator && !existing.EmailVerified && !takeover:
		return nil, fmt.Errorf("OPERATOR_EMAIL: %s belongs to an account whose address was never verified, "+
			"so whoever signed up with it would become operator: verify that account's address, or set "+
			"OPERATOR_TAKEOVER=true to take it over (its sessions and API keys are revoked)", e)
	case err != nil && !apperr.Is(err, apperr.NotFound):
		return nil, fmt.Errorf("operator account: %w", err)
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return nil, fmt.Errorf("operator password: %w", err)
	}
	u, revoked, err := s.store.UpsertOperator(ctx, e, hash)
	if err != nil {
		return nil, err
	}
	if existing != nil && existing.SystemRole != SystemOperator {
		s.log.Warn("existing account made operator at start-up: its sessions and API keys are revoked",
			"user", u.ID, "was_verified", existing.EmailVerified, "keys_revoked", len(revoked))
	}
	s.keysRevoked(ctx, revoked)
	return u, nil
}

func checkPage(limit int) error {
	if limit < 1 || limit > MaxPage {
		return apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	return nil
}

// ListWorkspaces pages through every workspace, newest first (operators).
func (s *Service) ListWorkspaces(ctx context.Context, before int64, limit int) ([]*Workspace, error) {
	if err := checkPage(limit); err != nil {
		return nil, err
	}
	return s.store.ListWorkspaces(ctx, before, limit)
}

// SetPlan moves a workspace to a plan (operators).
func (s *Service) SetPlan(ctx context.Context, workspaceID int64, plan string) (*Workspace, error) {
	if !slices.Contains(Plans, plan) {
		return nil, apperr.Errorf(apperr.Invalid, "plan must be one of %s", strings.Join(Plans, ", ")).For("value_invalid", "plan")
	}
	return s.store.SetPlan(ctx, workspaceID, plan)
}

// ListUsers pages through every user, newest first (operators).
func (s *Service) ListUsers(ctx context.Context, before int64, limit int) ([]*User, error) {
	if err := checkPage(limit); err != nil {
		return nil, err
	}
	return s.store.ListUsers(ctx, before, limit)
}

// SetSystemRole grants or takes away moderation and operation rights (operators). Only an
// account with a verified address gets a system role (email_unverified otherwise). A change
// revokes every session of the account, so the old role does not come back with a refresh;
// granting a role also revokes every API key the account created, so nothing issued before
// the promotion carries over. Setting the role it has changes nothing.
func (s *Service) SetSystemRole(ctx context.Context, userID int64, role string) (*User, error) {
	if role != SystemUser && role != SystemModerator && role != SystemOperator {
		return nil, apperr.Errorf(apperr.Invalid, "system_role must be user, moderator or operator").For("value_invalid", "system_role")
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return nil, err
	}
	if u.SystemRole == role {
		return u, nil
	}
	if role != SystemUser && !u.EmailVerified {
		return nil, apperr.Errorf(apperr.EmailUnverified, "the account's email address is not verified: it cannot get a system role").For("user_email_unverified", "")
	}
	u, revoked, err := s.store.SetSystemRole(ctx, userID, role)
	if err != nil {
		return nil, err
	}
	s.keysRevoked(ctx, revoked)
	return u, nil
}
