package auth

import (
	"log/slog"
	"testing"
	"time"
)

func TestLocalBucket(t *testing.T) {
	l := NewLimiter(nil, slog.New(slog.DiscardHandler))
	limit := Limit{Rate: 10, Burst: 10, Period: 10 * time.Minute} // one a minute
	now := time.Unix(1_700_000_000, 0)
	for i := range 10 {
		if !l.spendLocal("k", limit, now).Allowed {
			t.Fatalf("attempt %d refused", i)
		}
	}
	b := l.spendLocal("k", limit, now)
	if b.Allowed || b.RetryAfter != time.Minute {
		t.Errorf("11th attempt: ok=%v wait=%v, want refused, wait 1m", b.Allowed, b.RetryAfter)
	}
	if l.spendLocal("k", limit, now.Add(59*time.Second)).Allowed {
		t.Error("allowed before a token was back")
	}
	if !l.spendLocal("k", limit, now.Add(61*time.Second)).Allowed {
		t.Error("refused after a token was back")
	}
	if l.spendLocal("k", limit, now.Add(62*time.Second)).Allowed {
		t.Error("allowed two attempts for one token")
	}
	// After a long pause the burst is back, but no more than the burst.
	later := now.Add(24 * time.Hour)
	n := 0
	for range 20 {
		if l.spendLocal("k", limit, later).Allowed {
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d attempts after a day, want the burst of 10", n)
	}
}
