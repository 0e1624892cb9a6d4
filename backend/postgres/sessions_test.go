package postgres_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestSessionStore: a session is a live family of its user's; one person never reaches
// another's, and revoking keeps what it is told to keep.
func TestSessionStore(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	s := postgres.NewRefreshTokenStore(db)
	accounts := postgres.NewAccountStore(db)
	a, _ := newUser(t, accounts, "a@example.com")
	b, _ := newUser(t, accounts, "b@example.com")
	ctx := context.Background()
	hash := func(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }
	start := func(user int64, token string) uuid.UUID {
		f := uuid.New()
		if err := s.CreateRefresh(ctx, user, f, hash(token), time.Now().Add(time.Hour), auth.ViaPassword); err != nil {
			t.Fatal(err)
		}
		return f
	}
	a1, a2, a3, b1 := start(a.ID, "a1"), start(a.ID, "a2"), start(a.ID, "a3"), start(b.ID, "b1")
	if err := s.DescribeRefresh(ctx, hash("a1"), auth.Device{Browser: "Firefox", OS: "Windows", Network: "203.0.113.0/24"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RotateRefresh(ctx, hash("a1"), hash("a1+1"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	list, err := s.Sessions(ctx, a.ID)
	if err != nil || len(list) != 3 {
		t.Fatalf("a's sessions: %+v, %v", list, err)
	}
	for _, ss := range list {
		if ss.ID == a1 && (ss.Browser != "" || ss.LastUsedAt.Before(ss.CreatedAt)) {
			t.Errorf("a1 after rotation (the newest token has no device yet): %+v", ss)
		}
	}

	wantCode(t, "b revokes a's session", s.RevokeSession(ctx, b.ID, a2), apperr.NotFound)
	if live, _ := sessionLive(ctx, s, a2); !live {
		t.Error("a2 is dead after b's attempt")
	}
	if err := s.RevokeSession(ctx, a.ID, a2); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "revoke twice", s.RevokeSession(ctx, a.ID, a2), apperr.NotFound)
	if live, _ := sessionLive(ctx, s, a2); live {
		t.Error("a2 is live after its revocation")
	}
	if n, err := s.RevokeSessionsExcept(ctx, a.ID, a1); err != nil || n != 1 {
		t.Errorf("revoke a's others: %d, %v; want a3 only", n, err)
	}
	for f, want := range map[uuid.UUID]bool{a1: true, a3: false, b1: true, uuid.New(): false} {
		if live, err := sessionLive(ctx, s, f); err != nil || live != want {
			t.Errorf("SessionLive = %v, %v; want %v", live, err, want)
		}
	}
}

// TestDeleteUser: refused while the user alone owns a workspace with members; otherwise the
// user goes with the workspaces only they belong to.
func TestDeleteUser(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	s := postgres.NewAccountStore(db)
	ctx := context.Background()
	owner, shared := newUser(t, s, "owner@example.com")
	member, own := newUser(t, s, "member@example.com")
	if _, err := db.Pool.Exec(ctx, `INSERT INTO members (workspace_id, user_id, role) VALUES ($1, $2, 'member')`, shared.ID, member.ID); err != nil {
		t.Fatal(err)
	}
	_, err := s.DeleteUser(ctx, owner.ID)
	wantCode(t, "the only owner of a shared workspace", err, apperr.Conflict)
	if _, err := s.User(ctx, owner.ID); err != nil {
		t.Fatalf("the refused deletion deleted: %v", err)
	}
	gone, err := s.DeleteUser(ctx, member.ID)
	if err != nil || len(gone) != 1 || gone[0] != own.ID {
		t.Fatalf("delete the member: %v, %v; want their own workspace %d", gone, err, own.ID)
	}
	if ms, _ := s.Members(ctx, shared.ID); len(ms) != 1 {
		t.Errorf("members of the shared workspace: %+v", ms)
	}
	if ws, _ := s.DeletedWorkspaces(ctx, 0); len(ws) != 1 || ws[0] != own.ID {
		t.Errorf("workspaces marked deleted: %v", ws)
	}
	_, err = s.DeleteUser(ctx, member.ID)
	wantCode(t, "delete twice", err, apperr.NotFound)
	if gone, err := s.DeleteUser(ctx, owner.ID); err != nil || len(gone) != 1 {
		t.Errorf("the owner, alone again: %v, %v", gone, err)
	}
}

// TestEndPasswordSessions: enforcing single sign-on ends the sessions begun with a password of
// the users it is given, their renewed tokens included, and no sign-on session nor anyone
// else's; a sign-on session stays one when it is renewed.
func TestEndPasswordSessions(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	s := postgres.NewRefreshTokenStore(db)
	ssoStore := postgres.NewSSOStore(db)
	accounts := postgres.NewAccountStore(db)
	a, _ := newUser(t, accounts, "a@example.com")
	b, _ := newUser(t, accounts, "b@example.com")
	ctx := context.Background()
	hash := func(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }
	start := func(user int64, token string, via auth.Via) uuid.UUID {
		f := uuid.New()
		if err := s.CreateRefresh(ctx, user, f, hash(token), time.Now().Add(time.Hour), via); err != nil {
			t.Fatal(err)
		}
		return f
	}
	aPassword, aSSO := start(a.ID, "a-pw", auth.ViaPassword), start(a.ID, "a-sso", auth.ViaSSO)
	bPassword := start(b.ID, "b-pw", auth.ViaPassword)
	for _, tok := range []string{"a-pw", "a-sso"} {
		if _, err := s.RotateRefresh(ctx, hash(tok), hash(tok+"+1"), time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	n, err := ssoStore.EndPasswordSessions(ctx, []int64{a.ID})
	if err != nil || n != 1 {
		t.Fatalf("ended %d sessions (%v), want 1", n, err)
	}
	for f, want := range map[uuid.UUID]bool{aPassword: false, aSSO: true, bPassword: true} {
		if live, err := sessionLive(ctx, s, f); err != nil || live != want {
			t.Errorf("session %s live %v (%v), want %v", f, live, err, want)
		}
	}
	if use, err := s.RotateRefresh(ctx, hash("a-pw+1"), hash("a-pw+2"), time.Now().Add(time.Hour)); err != nil || !use.Revoked {
		t.Errorf("the ended session's renewed token: %+v %v, want it revoked", use, err)
	}
	// Again: nothing left to end.
	if n, err := ssoStore.EndPasswordSessions(ctx, []int64{a.ID}); err != nil || n != 0 {
		t.Errorf("ended %d sessions again (%v)", n, err)
	}
}

// sessionLive is whether the store answers the session live.
func sessionLive(ctx context.Context, s *postgres.RefreshTokenStore, id uuid.UUID) (bool, error) {
	st, err := s.SessionState(ctx, id)
	return st.Live, err
}
