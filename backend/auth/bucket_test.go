package auth

import (
	"log/slog"
	"testing"
	"time"

	"github.com/go-redis/redis_rate/v10"
)

func TestLocalBucket(t *testing.T) {
	l := NewLimiter(nil, "", slog.New(slog.DiscardHandler))
	limit := redis_rate.Limit{Rate: 10, Burst: 10, Period: 10 * time.Minute} // one a minute
	now := time.Unix(1_700_000_000, 0)
	for i := range 10 {
		if _, ok := l.takeLocal("k", limit, now); !ok {
			t.Fatalf("attempt %d refused", i)
		}
	}
	wait, ok := l.takeLocal("k", limit, now)
	if ok || wait != time.Minute {
		t.Errorf("11th attempt: ok=%v wait=%v, want refused, wait 1m", ok, wait)
	}
	if _, ok := l.takeLocal("k", limit, now.Add(59*time.Second)); ok {
		t.Error("allowed before a token was back")
	}
	if _, ok := l.takeLocal("k", limit, now.Add(61*time.Second)); !ok {
		t.Error("refused after a token was back")
	}
	if _, ok := l.takeLocal("k", limit, now.Add(62*time.Second)); ok {
		t.Error("allowed two attempts for one token")
	}
	// After a long pause the burst is back, but no more than the burst.
	later := now.Add(24 * time.Hour)
	n := 0
	for range 20 {
		if _, ok := l.takeLocal("k", limit, later); ok {
			n++
		}
	}
	if n != 10 {
		t.Errorf("%d attempts after a day, want the burst of 10", n)
	}
}
