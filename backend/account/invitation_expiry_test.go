package account

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestInvitationExpiry(t *testing.T) {
	t.Parallel()
	sent := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	invs := []*Invitation{{ID: 1, ExpiresAt: sent.Add(InvitationValidity)}, {ID: 2, ExpiresAt: sent.Add(time.Hour)}}
	markExpired(invs, sent.Add(time.Hour))
	if invs[0].Expired || !invs[1].Expired {
		t.Errorf("at its expiry an invitation is expired, before it not: %v %v", invs[0].Expired, invs[1].Expired)
	}
	for _, c := range []struct{ by, want string }{
		{"ada@example.com", "ask ada@example.com"},
		{"", "ask an owner or admin of the workspace"},
	} {
		err := errInvitationExpired(c.by)
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Code != apperr.Gone || ae.Reason != "invitation_expired" || !strings.Contains(ae.Message, c.want) {
			t.Errorf("errInvitationExpired(%q) = %v, want gone invitation_expired saying %q", c.by, err, c.want)
		}
	}
}
