// Invitations to a workspace: sending, listing, answering and withdrawing them.

package account

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// LimitInvitations bounds the invitations each workspace sends to perHour.
func (s *Service) LimitInvitations(l Limiter, perHour int) { s.invites, s.invitesPerHour = l, perHour }

var errNoInvitation = apperr.Errorf(apperr.NotFound, "no such invitation: it was withdrawn or used, or the link is incomplete").
	For("invitation_not_found", "")

// PreviewInvitation tells the holder of an invitation link's secret what the invitation is;
// not_found for anything else, alike whether the ID exists.
func (s *Service) PreviewInvitation(ctx context.Context, id int64, token string) (*InvitationPreview, error) {
	if !auth.IsEmailToken(token) {
		return nil, errNoInvitation
	}
	p, err := s.store.InvitationPreview(ctx, id, auth.HashEmailToken(token))
	if apperr.Is(err, apperr.NotFound) {
		return nil, errNoInvitation
	}
	if err == nil {
		p.Expired = !s.clock().Before(p.ExpiresAt)
	}
	return p, err
}

// Invite invites an email address to the workspace with a role below owner (ownership is
// given by an owner to a member). Whether the address has an account changes nothing in the
// answer: whoever signs in with it sees the invitation. Invitations spend the workspace's
// hourly budget (LimitInvitations), whatever their outcome.
//
// Invitations waiting count against the plan's member limit as if accepted: an invitation
// is refused (quota_exceeded, reason member_limit_reached) when the members and the
// invitations still valid already fill the plan. An expired invitation holds no place, and
// inviting its address again replaces it (docs/api.md#workspaces-members-and-invitations).
func (s *Service) Invite(ctx context.Context, workspaceID, by int64, email, role string) (*Invitation, error) {
	if role != RoleAdmin && role != RoleMember && role != RoleViewer {
		return nil, apperr.Errorf(apperr.Invalid, "role must be admin, member or viewer").For("role_invalid", "role")
	}
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	if err := s.checkPlace(ctx, workspaceID, e, "invite"); err != nil {
		return nil, err
	}
	if s.invites != nil {
		key := "invite:ws:" + strconv.FormatInt(workspaceID, 10)
		if err := s.invites.Take(ctx, key, "invitations from this workspace", s.invitesPerHour, time.Hour); err != nil {
			return nil, err
		}
	}
	// Members can be listed by whoever may invite, so saying so tells nothing new.
	member, err := s.store.IsMemberByEmail(ctx, workspaceID, e)
	if err != nil {
		return nil, fmt.Errorf("invite: %w", err)
	}
	if member {
		return nil, apperr.Errorf(apperr.Conflict, "%q is already a member", e).For("already_member", "email")
	}
	token, hash, err := auth.NewEmailToken()
	if err != nil {
		return nil, fmt.Errorf("invite: %w", err)
	}
	now := s.clock()
	inv, err := s.store.CreateInvitation(ctx, workspaceID, e, role, by, hash, now.Add(InvitationValidity))
	if apperr.Is(err, apperr.Conflict) {
		inv, err = s.store.ReplaceExpiredInvitation(ctx, workspaceID, e, role, by, hash, now, now.Add(InvitationValidity))
		if apperr.Is(err, apperr.NotFound) {
			return nil, apperr.Errorf(apperr.Conflict, "%q is already invited", e).For("already_invited", "email")
		}
	}
	if err == nil {
		inv.Token = token
		s.mailInvitation(inv, by)
	}
	return inv, err
}

// Invitations lists a workspace's pending invitations.
func (s *Service) Invitations(ctx context.Context, workspaceID int64) ([]*Invitation, error) {
	invs, err := s.store.Invitations(ctx, workspaceID)
	return markExpired(invs, s.clock()), err
}

// InvitationsFor lists the invitations a user has received.
func (s *Service) InvitationsFor(ctx context.Context, userID int64) ([]*Invitation, error) {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("invitations: %w", err)
	}
	if !u.EmailVerified {
		// Invitations are for whoever reads the mailbox: until the address is proven, its
		// account sees none (nor which workspaces invited it).
		return []*Invitation{}, nil
	}
	invs, err := s.store.InvitationsFor(ctx, userID)
	return markExpired(invs, s.clock()), err
}

// AcceptInvitation makes the user a member with the invited role and returns the workspace.
// Returns email_unverified until the user has verified their address: an invitation is
// meant for whoever reads that mailbox, not whoever registered the address first. Returns
// gone (invitation_expired) past the invitation's expiry: its sender can resend it.
func (s *Service) AcceptInvitation(ctx context.Context, userID, id int64) (*Workspace, error) {
	if err := s.mayAnswerInvitation(ctx, userID, id); err != nil {
		return nil, err
	}
	invs, err := s.store.InvitationsFor(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("accept invitation: %w", err)
	}
	for _, inv := range invs {
		if inv.ID != id {
			continue
		}
		if inv.expired(s.clock()) {
			return nil, errInvitationExpired(inv.InvitedBy)
		}
		if s.memberCheck != nil {
			if err := s.memberCheck(ctx, inv.WorkspaceID, 1); err != nil {
				return nil, err
			}
		}
	}
	return s.store.AcceptInvitation(ctx, userID, id)
}

// DeclineInvitation drops an invitation the user received; like accepting, it needs a verified
// address, or anyone who registered it could turn invitations down for its owner.
func (s *Service) DeclineInvitation(ctx context.Context, userID, id int64) error {
	if err := s.mayAnswerInvitation(ctx, userID, id); err != nil {
		return err
	}
	return s.store.DeclineInvitation(ctx, userID, id)
}

// mayAnswerInvitation answers email_unverified for an unverified user's own invitation, and
// not_found for anyone else's, verified or not.
func (s *Service) mayAnswerInvitation(ctx context.Context, userID, id int64) error {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return fmt.Errorf("answer invitation: %w", err)
	}
	if u.EmailVerified {
		return nil
	}
	invs, err := s.store.InvitationsFor(ctx, userID)
	if err != nil {
		return fmt.Errorf("answer invitation: %w", err)
	}
	if !slices.ContainsFunc(invs, func(inv *Invitation) bool { return inv.ID == id }) {
		return apperr.Errorf(apperr.NotFound, "invitation not found").For("invitation_not_found", "")
	}
	return errUnverified
}

// CancelInvitation withdraws one of the workspace's pending invitations.
func (s *Service) CancelInvitation(ctx context.Context, workspaceID, id int64) error {
	return s.store.DeleteInvitation(ctx, workspaceID, id)
}
