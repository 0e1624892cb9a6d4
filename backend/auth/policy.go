package auth

import (
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// The bounds of a workspace's session policy (docs/security.md#session-policy).
const (
	MinSessionLimit = 5 * time.Minute
	MaxSessionLimit = 2160 * time.Hour // 90 days
)

// SessionPolicy is a workspace's limits on the sessions that reach it; a zero field is no
// limit.
type SessionPolicy struct {
	// MaxAge is how long after it began a session may reach the workspace.
	MaxAge time.Duration
	// IdleTimeout is how long a session may go without being let into a workspace and still
	// be let into this one.
	IdleTimeout time.Duration
}

// Limits reports whether the policy limits sessions at all.
func (p SessionPolicy) Limits() bool { return p.MaxAge > 0 || p.IdleTimeout > 0 }

var (
	errSessionTooOld = apperr.Errorf(apperr.Unauthorized,
		"this workspace's session policy limits how long a session lasts: sign in again").For("session_max_age", "")
	errSessionIdle = apperr.Errorf(apperr.Unauthorized,
		"this session was idle longer than this workspace's session policy allows: sign in again").For("session_idle_timeout", "")
	errSessionUnknown = apperr.Errorf(apperr.Unauthorized,
		"this workspace's session policy needs a session: sign in again").For("session_max_age", "")
)

// SessionFacts are what the policy looks at: when the session began and when it was last let
// into a workspace (its start when never).
type SessionFacts struct {
	StartedAt    time.Time
	LastActiveAt time.Time
}

// Check decides whether a session with facts f may reach a workspace of policy p at now:
// nil, or unauthorized with reason session_max_age or session_idle_timeout. A limit reached
// exactly refuses.
func (p SessionPolicy) Check(f SessionFacts, now time.Time) error {
	if !p.Limits() {
		return nil
	}
	if f.StartedAt.IsZero() {
		return errSessionUnknown // a token of no session: its age cannot be known
	}
	if p.MaxAge > 0 && !now.Before(f.StartedAt.Add(p.MaxAge)) {
		return errSessionTooOld
	}
	last := f.LastActiveAt
	if last.Before(f.StartedAt) {
		last = f.StartedAt
	}
	if p.IdleTimeout > 0 && !now.Before(last.Add(p.IdleTimeout)) {
		return errSessionIdle
	}
	return nil
}

// CheckSessionLimit refuses a limit of a session policy outside MinSessionLimit ..
// MaxSessionLimit (0 is no limit), naming field: invalid, reason session_limit_out_of_range.
func CheckSessionLimit(field string, d time.Duration) error {
	if d == 0 || (d >= MinSessionLimit && d <= MaxSessionLimit) {
		return nil
	}
	return apperr.Errorf(apperr.Invalid, "%s must be between %s and %s, or empty for no limit",
		field, FormatLimit(MinSessionLimit), FormatLimit(MaxSessionLimit)).For("session_limit_out_of_range", field)
}

// ParseSessionLimit reads a limit of a session policy written as a Go duration ("12h",
// "30m", "1h30m"); "" is no limit. A value that is no duration is invalid with reason
// duration_invalid, one out of bounds as CheckSessionLimit says.
func ParseSessionLimit(field, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || len(s) > 32 {
		return 0, apperr.Errorf(apperr.Invalid, `%s must be a duration such as "12h" or "30m"`, field).For("duration_invalid", field)
	}
	if d <= 0 {
		return 0, apperr.Errorf(apperr.Invalid, "%s must be positive, or empty for no limit", field).For("session_limit_out_of_range", field)
	}
	return d, CheckSessionLimit(field, d)
}

// FormatLimit writes a limit as the shortest Go duration that reads back the same: "12h",
// "30m", "1h30m" rather than time.Duration's "12h0m0s".
func FormatLimit(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
