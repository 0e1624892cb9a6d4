package account

import (
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
