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

// refreshEnv is an auth service on a fresh database with one user.
func refreshEnv(t *testing.T, ttl time.Duration) (*auth.Service, *postgres.DB, int64) {
	t.Helper()
	db := testenv.DB(t)
	var uid int64
	if err := db.Pool.QueryRow(context.Background(), `INSERT INTO users (email, password_hash)
		VALUES ('alice@example.com', 'x') RETURNING id`).Scan(&uid); err != nil {
		t.Fatal(err)
	}
	s := auth.NewService(auth.Options{Secret: []byte("0123456789abcdef0123456789abcdef"), AccessTTL: time.Minute, RefreshTTL: ttl},
		postgres.NewRefreshTokenStore(db), nil, "", slog.New(slog.DiscardHandler))
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
	s, db, uid := refreshEnv(t, time.Hour)
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
	db.Pool.QueryRow(ctx, `SELECT count(*) FROM refresh_tokens WHERE token_hash = $1`, sum[:]).Scan(&n)
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
	s, _, uid := refreshEnv(t, time.Hour)
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
	s, _, uid := refreshEnv(t, -time.Second)
	ctx := context.Background()
	t1, err := s.NewRefresh(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Rotate(ctx, t1)
	wantUnauthorized(t, "expired token", err)
}

// TestRefreshRace: two requests race with one token. One wins; the other is a replay, so the
// winner's new token is revoked with the family.
func TestRefreshRace(t *testing.T) {
	t.Parallel()
	s, _, uid := refreshEnv(t, time.Hour)
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
