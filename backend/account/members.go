// A workspace's members: their roles, leaving and removal, and handing the ownership over.

package account

import (
	"context"
	"fmt"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Role is the user's role in the workspace; not_found if they are not a member.
func (s *Service) Role(ctx context.Context, workspaceID, userID int64) (string, error) {
	return s.store.Role(ctx, workspaceID, userID)
}

// Members lists a workspace's members.
func (s *Service) Members(ctx context.Context, workspaceID int64) ([]*Member, error) {
	return s.store.Members(ctx, workspaceID)
}

var errNoMember = apperr.Errorf(apperr.NotFound, "member not found").For("member_not_found", "")

// memberRole is the role of a member of the workspace, not_found naming the member.
func (s *Service) memberRole(ctx context.Context, workspaceID, userID int64) (string, error) {
	role, err := s.store.Role(ctx, workspaceID, userID)
	if apperr.Is(err, apperr.NotFound) {
		return "", errNoMember
	}
	return role, err
}

// SetMemberRole changes a member's role on behalf of a manager whose role is actorRole. Only
// owners make owners or change an owner's role; the last owner cannot step down.
func (s *Service) SetMemberRole(ctx context.Context, workspaceID int64, actorRole string, userID int64, role string) (*Member, error) {
	if !ValidRole(role) {
		return nil, apperr.Errorf(apperr.Invalid, "role must be owner, admin, member or viewer").For("role_invalid", "role")
	}
	if !RoleAllows(actorRole, PermManage) {
		return nil, apperr.Errorf(apperr.Forbidden, "only owners and admins change roles").For("role_forbidden", "")
	}
	current, err := s.memberRole(ctx, workspaceID, userID)
	if err != nil {
		return nil, err
	}
	if actorRole != RoleOwner && (current == RoleOwner || role == RoleOwner) {
		return nil, apperr.Errorf(apperr.Forbidden, "only an owner can change an owner's role or make an owner").For("owner_required", "")
	}
	m, err := s.store.SetRole(ctx, workspaceID, userID, role)
	if err != nil {
		return nil, err
	}
	// Making keys needs the manage permission, which every scope's permission comes with: a
	// role without it may hold none of the keys its member made.
	if !RoleAllows(role, PermManage) {
		if _, err := s.RevokeKeysCreatedBy(ctx, userID, workspaceID, RevokedCreatorDemoted); err != nil {
			return nil, fmt.Errorf("set member role: %w", err)
		}
	}
	return m, nil
}

// RemoveMember removes userID from the workspace on behalf of actorID. Anyone may leave;
// owners and admins remove others, but only owners remove owners; the last owner stays.
func (s *Service) RemoveMember(ctx context.Context, workspaceID, actorID int64, actorRole string, userID int64) error {
	current, err := s.memberRole(ctx, workspaceID, userID)
	if err != nil {
		return err
	}
	if actorID != userID {
		if !RoleAllows(actorRole, PermManage) {
			return apperr.Errorf(apperr.Forbidden, "you may only remove yourself").For("role_forbidden", "")
		}
		if current == RoleOwner && actorRole != RoleOwner {
			return apperr.Errorf(apperr.Forbidden, "only an owner can remove an owner").For("owner_required", "")
		}
	}
	if err := s.store.RemoveMember(ctx, workspaceID, userID); err != nil {
		return err
	}
	if _, err := s.RevokeKeysCreatedBy(ctx, userID, workspaceID, RevokedCreatorRemoved); err != nil {
		return fmt.Errorf("remove member: %w", err)
	}
	return nil
}

// TransferOwnership hands the workspace from its owner actorID to the member to, who becomes
// its owner while actorID stays on as an admin (their API keys keep working: admins make
// keys too). Returns invalid when to is the actor and not_found when to is not a member.
func (s *Service) TransferOwnership(ctx context.Context, workspaceID, actorID int64, actorRole string, to int64) (*Member, error) {
	if actorRole != RoleOwner {
		return nil, apperr.Errorf(apperr.Forbidden, "only an owner can hand over the workspace").For("owner_only", "")
	}
	if to == actorID {
		return nil, apperr.Errorf(apperr.Invalid, "you own the workspace already: choose another member").For("transfer_to_self", "user_id")
	}
	if _, err := s.memberRole(ctx, workspaceID, to); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return nil, apperr.Errorf(apperr.NotFound, "the new owner must be a member of the workspace").For("not_a_member", "user_id")
		}
		return nil, err
	}
	return s.store.TransferOwnership(ctx, workspaceID, actorID, to)
}

// CheckMembersWith sets what says whether a workspace may take adding more members (its
// plan's limit); accepting an invitation, signing up through one and inviting ask it.
func (s *Service) CheckMembersWith(check func(ctx context.Context, workspaceID, adding int64) error) {
	s.memberCheck = check
}
