package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// InvitationValidity is how long an invitation can be accepted after it was sent or last
// resent (docs/api.md#workspaces-members-and-invitations): a week gives an invitee who is
// away a working week to answer, and a forgotten invitation stops letting in whoever later
// reads the mailbox.
const InvitationValidity = 7 * 24 * time.Hour

// UseClock makes the service read the time of invitations' expiry from now (tests move it).
func (s *Service) UseClock(now func() time.Time) { s.now = now }

// clock is the service's time.
func (s *Service) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// expired says whether the invitation can no longer be accepted at now.
func (i *Invitation) expired(now time.Time) bool { return !now.Before(i.ExpiresAt) }

// markExpired sets Expired on each invitation at now.
func markExpired(invs []*Invitation, now time.Time) []*Invitation {
	for _, inv := range invs {
		inv.Expired = inv.expired(now)
	}
	return invs
}

// errInvitationExpired refuses an invitation past its validity, naming whom to ask for it
// again: its sender, or the workspace's owners and admins once the sender's account is gone.
func errInvitationExpired(invitedBy string) error {
	whom := invitedBy
	if whom == "" {
		whom = "an owner or admin of the workspace"
	}
	return apperr.Errorf(apperr.Gone, "the invitation has expired: ask %s to send it again", whom).
		For("invitation_expired", "invitation")
}

// checkPlace refuses one more invitation (quota_exceeded, reason member_limit_reached) when
// the members and the invitations still valid already fill the workspace's plan: an expired
// invitation holds no place. An address with a valid invitation already (email; "" for none)
// takes no new place: inviting it again is refused as already_invited.
func (s *Service) checkPlace(ctx context.Context, workspaceID int64, email, what string) error {
	if s.memberCheck == nil {
		return nil
	}
	waiting, err := s.store.Invitations(ctx, workspaceID)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	now := s.clock()
	var valid int64
	for _, inv := range waiting {
		if inv.expired(now) {
			continue
		}
		if email != "" && inv.Email == email {
			return nil
		}
		valid++
	}
	if err := s.memberCheck(ctx, workspaceID, valid+1); err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code == apperr.QuotaExceeded {
			return ae.For("member_limit_reached", "email")
		}
		return err
	}
	return nil
}

// expiredInvitation says whether the workspace's invitation id is past its expiry at now.
func (s *Service) expiredInvitation(ctx context.Context, workspaceID, id int64) (bool, error) {
	waiting, err := s.store.Invitations(ctx, workspaceID)
	if err != nil {
		return false, err
	}
	now := s.clock()
	for _, inv := range waiting {
		if inv.ID == id {
			return inv.expired(now), nil
		}
	}
	return false, nil
}
