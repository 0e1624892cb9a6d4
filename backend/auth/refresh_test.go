package auth_test

import (
	"context"
	"crypto/sha256"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// refreshEnv is an auth service on a fresh database with one user; grace is its
// RefreshGrace.
func refreshEnv(t *testing.T, ttl, grace time.Duration) (*auth.Service, *postgres.DB, int64) {
	t.Helper()
	db := testenv.DB(t)
	var uid int64
	if err := db.Pool.QueryRow(context.Background(), `INSERT INTO users (email, password_hash)
		VALUES ('alice@example.com', 'x') RETURNING id`).Scan(&uid); err != nil {
		t.Fatal(err)
	}
	s := auth.NewService(auth.Options{Secret: []byte("0123456789abcdef0123456789abcdef"), AccessTTL: time.Minute, RefreshTTL: ttl, RefreshGrace: grace},
		postgres.NewRefreshTokenStore(db), nil, slog.New(slog.DiscardHandler))
	return s, db, uid
}

func wantUnauthorized(t *testing.T, what string, err error) {
	t.Helper()
	if !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("%s: err = %v, want unauthorized", what, err)
	}
}

func TestRefreshRotation(t *testing.T) {
	t.Parallel()
	s, db, uid := refreshEnv(t, time.Hour, 0)
	ctx := context.Background()

	t1, err := s.NewRefresh(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	if len(t1) != 43 {
		t.Errorf("token %q is not 32 bytes in base64url", t1)
	}
	// Only the hash is stored.
	var n int
	sum := sha256.Sum256([]byte(t1))
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM refresh_tokens WHERE token_hash = $1`, sum[:]).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d rows hold the token's SHA-256, want 1", n)
	}

	got, t2, err := s.Rotate(ctx, t1)
	if err != nil || got != uid || t2 == "" || t2 == t1 {
		t.Fatalf("Rotate = %d, %q, %v", got, t2, err)
	}
	got, t3, err := s.Rotate(ctx, t2)
	if err != nil || got != uid {
		t.Fatalf("second Rotate = %d, %v", got, err)
	}

	// Another session of the same user, untouched by what happens to the first.
	other, _ := s.NewRefresh(ctx, uid)

	// t1 was already used: someone replays it. The whole family goes, t3 included.
	_, _, err = s.Rotate(ctx, t1)
	wantUnauthorized(t, "reuse of a rotated token", err)
	_, _, err = s.Rotate(ctx, t3)
	wantUnauthorized(t, "newest token after reuse", err)
	if _, _, err := s.Rotate(ctx, other); err != nil {
		t.Errorf("another session was revoked too: %v", err)
	}

	for _, bad := range []string{"", "nonsense", t1 + "x"} {
		_, _, err := s.Rotate(ctx, bad)
		wantUnauthorized(t, "Rotate("+bad+")", err)
	}
}

func TestRefreshRevoke(t *testing.T) {
	t.Parallel()
	s, _, uid := refreshEnv(t, time.Hour, time.Minute)
	ctx := context.Background()
	t1, _ := s.NewRefresh(ctx, uid)
	_, t2, err := s.Rotate(ctx, t1)
	if err != nil {
		t.Fatal(err)
	}
	// Logging out with any token of the session ends it.
	if err := s.Revoke(ctx, t1); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Rotate(ctx, t2)
	wantUnauthorized(t, "rotate after logout", err)
	for _, tok := range []string{t2, "", "unknown"} {
		if err := s.Revoke(ctx, tok); err != nil {
			t.Errorf("Revoke(%q) = %v, want nil", tok, err)
		}
	}
}

func TestRefreshExpired(t *testing.T) {
	t.Parallel()
	s, _, uid := refreshEnv(t, -time.Second, time.Minute)
	ctx := context.Background()
	t1, err := s.NewRefresh(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Rotate(ctx, t1)
	wantUnauthorized(t, "expired token", err)
}

// TestRefreshRace: without a grace window, requests racing with one token are told apart:
// one wins; the others are replays, so the winner's new token is revoked with the family.
func TestRefreshRace(t *testing.T) {
	t.Parallel()
	s, _, uid := refreshEnv(t, time.Hour, 0)
	ctx := context.Background()
	for range 5 {
		tok, _ := s.NewRefresh(ctx, uid)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var wins []string
		var losses int
		for range 4 {
			wg.Go(func() {
				_, next, err := s.Rotate(ctx, tok)
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					wins = append(wins, next)
				} else if apperr.Is(err, apperr.Unauthorized) {
					losses++
				} else {
					t.Errorf("Rotate: %v", err)
				}
			})
		}
		wg.Wait()
		if len(wins) != 1 || losses != 3 {
			t.Fatalf("%d rotations succeeded and %d failed, want 1 and 3", len(wins), losses)
		}
		_, _, err := s.Rotate(ctx, wins[0])
		wantUnauthorized(t, "winner's token after a replay", err)
	}
}

// TestRefreshRaceInGrace: two tabs refresh with one token at once. Within the grace window
// every request gets the same successor, which works; the session lives on.
func TestRefreshRaceInGrace(t *testing.T) {
	t.Parallel()
	s, db, uid := refreshEnv(t, time.Hour, time.Minute)
	ctx := context.Background()
	for range 5 {
		tok, _ := s.NewRefresh(ctx, uid)
		var wg sync.WaitGroup
		var mu sync.Mutex
		got := map[string]int{}
		for range 4 {
			wg.Go(func() {
				id, next, err := s.Rotate(ctx, tok)
				mu.Lock()
				defer mu.Unlock()
				if err != nil || id != uid {
					t.Errorf("Rotate = %d, %v; want a success for each tab", id, err)
					return
				}
				got[next]++
			})
		}
		wg.Wait()
		if len(got) != 1 {
			t.Fatalf("the racing requests got %d different successors, want 1", len(got))
		}
		for next := range got {
			if _, after, err := s.Rotate(ctx, next); err != nil || after == next {
				t.Fatalf("the shared successor does not rotate: %q, %v", after, err)
			}
		}
	}
	// One successor row per rotation: five sessions, each of three tokens.
	var n int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM refresh_tokens`).Scan(&n); err != nil || n != 15 {
		t.Errorf("%d refresh tokens stored (%v), want 15", n, err)
	}
}

// TestRefreshGrace: a used token presented again within the window gets the same successor;
// after the window, or once the session is revoked, it is a replay and the family goes.
func TestRefreshGrace(t *testing.T) {
	t.Parallel()
	const grace = 2 * time.Second
	s, _, uid := refreshEnv(t, time.Hour, grace)
	ctx := context.Background()

	t1, _ := s.NewRefresh(ctx, uid)
	_, t2, err := s.Rotate(ctx, t1)
	if err != nil {
		t.Fatal(err)
	}
	_, again, err := s.Rotate(ctx, t1)
	if err != nil || again != t2 {
		t.Fatalf("second use within the window = %q, %v; want the same successor %q", again, err, t2)
	}
	// The successor moves on; the old token's answer in the window stays the same.
	_, t3, err := s.Rotate(ctx, t2)
	if err != nil {
		t.Fatal(err)
	}
	if _, again, err := s.Rotate(ctx, t1); err != nil || again != t2 {
		t.Fatalf("third use within the window = %q, %v; want %q", again, err, t2)
	}

	time.Sleep(grace + 200*time.Millisecond)
	_, _, err = s.Rotate(ctx, t1)
	wantUnauthorized(t, "reuse after the window", err)
	_, _, err = s.Rotate(ctx, t3)
	wantUnauthorized(t, "newest token after a late reuse", err)

	// A session ended within the window stays ended.
	u1, _ := s.NewRefresh(ctx, uid)
	if _, _, err := s.Rotate(ctx, u1); err != nil {
		t.Fatal(err)
	}
	if err := s.Revoke(ctx, u1); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Rotate(ctx, u1)
	wantUnauthorized(t, "reuse within the window after logout", err)
}
