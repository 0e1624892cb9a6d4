package auth_test

import (
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// TestSessionPolicyCheck: the maximum age counts from the start, the idle timeout from the
// last activity (the start when none), a limit reached exactly refuses, no limit lets in, and
// a session of unknown start is refused by a policy that limits.
func TestSessionPolicyCheck(t *testing.T) {
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	facts := auth.SessionFacts{StartedAt: start}
	active := auth.SessionFacts{StartedAt: start, LastActiveAt: at(50 * time.Minute)}
	maxAge := auth.SessionPolicy{MaxAge: time.Hour}
	idle := auth.SessionPolicy{IdleTimeout: 30 * time.Minute}
	both := auth.SessionPolicy{MaxAge: time.Hour, IdleTimeout: 30 * time.Minute}
	for _, c := range []struct {
		name   string
		p      auth.SessionPolicy
		f      auth.SessionFacts
		now    time.Time
		reason string
	}{
		{"no policy", auth.SessionPolicy{}, facts, at(1000 * time.Hour), ""},
		{"no policy, unknown start", auth.SessionPolicy{}, auth.SessionFacts{}, at(0), ""},
		{"young", maxAge, facts, at(59 * time.Minute), ""},
		{"max age reached", maxAge, facts, at(time.Hour), "session_max_age"},
		{"max age past, active", maxAge, active, at(61 * time.Minute), "session_max_age"},
		{"idle from the start", idle, facts, at(29 * time.Minute), ""},
		{"idle reached from the start", idle, facts, at(30 * time.Minute), "session_idle_timeout"},
		{"idle from the last activity", idle, active, at(79 * time.Minute), ""},
		{"idle past the last activity", idle, active, at(81 * time.Minute), "session_idle_timeout"},
		{"activity before the start counts as the start", idle, auth.SessionFacts{StartedAt: start, LastActiveAt: at(-time.Hour)}, at(31 * time.Minute), "session_idle_timeout"},
		{"both, age first", both, active, at(61 * time.Minute), "session_max_age"},
		{"unknown start", both, auth.SessionFacts{}, at(0), "session_max_age"},
	} {
		err := c.p.Check(c.f, c.now)
		if c.reason == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !apperr.Is(err, apperr.Unauthorized) || apperr.ReasonOf(err) != c.reason {
			t.Errorf("%s: %v, want unauthorized %s", c.name, err, c.reason)
		}
	}
}

// TestParseSessionLimit: Go durations within 5m .. 2160h, "" for none; anything else is
// refused with a reason of its own, naming the field; and what is shown reads back the same.
func TestParseSessionLimit(t *testing.T) {
	for _, c := range []struct {
		in     string
		want   time.Duration
		reason string
		shown  string
	}{
		{"", 0, "", ""},
		{"12h", 12 * time.Hour, "", "12h"},
		{"30m", 30 * time.Minute, "", "30m"},
		{"1h30m", 90 * time.Minute, "", "1h30m"},
		{"5m", 5 * time.Minute, "", "5m"},
		{"2160h", 2160 * time.Hour, "", "2160h"},
		{"300s", 5 * time.Minute, "", "5m"},
		{"4m59s", 0, "session_limit_out_of_range", ""},
		{"2160h1s", 0, "session_limit_out_of_range", ""},
		{"0s", 0, "session_limit_out_of_range", ""},
		{"-1h", 0, "session_limit_out_of_range", ""},
		{"12", 0, "duration_invalid", ""},
		{"12 hours", 0, "duration_invalid", ""},
		{"P1D", 0, "duration_invalid", ""},
	} {
		got, err := auth.ParseSessionLimit("session_max_age", c.in)
		if c.reason != "" {
			if apperr.ReasonOf(err) != c.reason || !apperr.Is(err, apperr.Invalid) {
				t.Errorf("%q: %v, want invalid %s", c.in, err, c.reason)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q = %v, %v; want %v", c.in, got, err, c.want)
			continue
		}
		if got > 0 && auth.FormatLimit(got) != c.shown {
			t.Errorf("%q shown as %q, want %q", c.in, auth.FormatLimit(got), c.shown)
		}
	}
}
