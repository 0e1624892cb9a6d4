package account

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/shortlink/shortlink/backend/auth"
)

// ResendInvitation mails the workspace's invitation id again, with a new link: the old link's
// secret stops working, so a mail forwarded by mistake can be replaced. A resent mail counts
// against the workspace's hourly budget of invitations as a new one does (docs/api.md).
// Returns not_found when the workspace has no invitation id. by resends it (its language is the
// mail's when the address has no account). The invitation is valid for InvitationValidity again.
//
// An expired invitation held no place of the plan's members, so renewing one takes a place
// again and is refused (member_limit_reached) when the plan is full.
func (s *Service) ResendInvitation(ctx context.Context, workspaceID, by, id int64) (*Invitation, error) {
	if s.memberCheck != nil {
		expired, err := s.expiredInvitation(ctx, workspaceID, id)
		if err != nil {
			return nil, fmt.Errorf("resend invitation: %w", err)
		}
		if expired {
			if err := s.checkPlace(ctx, workspaceID, "", "resend invitation"); err != nil {
				return nil, err
			}
		}
	}
	if s.invites != nil {
		key := "invite:ws:" + strconv.FormatInt(workspaceID, 10)
		if err := s.invites.Take(ctx, key, "invitations from this workspace", s.invitesPerHour, time.Hour); err != nil {
			return nil, err
		}
	}
	token, hash, err := auth.NewEmailToken()
	if err != nil {
		return nil, fmt.Errorf("resend invitation: %w", err)
	}
	inv, err := s.store.RenewInvitation(ctx, workspaceID, id, hash, s.clock().Add(InvitationValidity))
	if err != nil {
		return nil, fmt.Errorf("resend invitation: %w", err)
	}
	inv.Token = token
	s.mailInvitation(inv, by)
	return inv, nil
}
