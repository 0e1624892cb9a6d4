package account

import (
	"context"
	"encoding/json"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// Duration is a limit of a workspace's session policy as the API writes it: the shortest Go
// duration that reads back the same ("12h", "30m").
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(auth.FormatLimit(time.Duration(d)))
}

// LimitOf is the limit as a workspace shows it: nil for none.
func LimitOf(d time.Duration) *Duration {
	if d <= 0 {
		return nil
	}
	v := Duration(d)
	return &v
}

// SessionPolicyOf is the workspace's session policy.
func (w *Workspace) SessionPolicyOf() auth.SessionPolicy {
	var p auth.SessionPolicy
	if w.SessionMaxAge != nil {
		p.MaxAge = time.Duration(*w.SessionMaxAge)
	}
	if w.SessionIdleTimeout != nil {
		p.IdleTimeout = time.Duration(*w.SessionIdleTimeout)
	}
	return p
}

// SetSessionPolicy sets the workspace's session policy on behalf of a member with role: only
// owners change it, and each limit lies within the bounds (auth.CheckSessionLimit). The plan
// is the caller's to check. Reports whether it changed.
func (s *Service) SetSessionPolicy(ctx context.Context, id int64, role string, p auth.SessionPolicy) (*Workspace, bool, error) {
	if role != RoleOwner {
		return nil, false, apperr.Errorf(apperr.Forbidden, "only an owner can change the workspace's session policy").For("owner_required", "")
	}
	if err := auth.CheckSessionLimit("session_max_age", p.MaxAge); err != nil {
		return nil, false, err
	}
	if err := auth.CheckSessionLimit("session_idle_timeout", p.IdleTimeout); err != nil {
		return nil, false, err
	}
	return s.store.SetSessionPolicy(ctx, id, p)
}
