package account_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/postgres"
)

// session starts a refresh-token family for the user and returns its token's hash.
func session(t *testing.T, db *postgres.DB, userID int64) []byte {
	t.Helper()
	hash := auth.HashEmailToken(uuid.NewString())
	if err := postgres.NewRefreshTokenStore(db).CreateRefresh(context.Background(), userID, uuid.New(), hash, time.Now().Add(time.Hour), auth.ViaPassword); err != nil {
		t.Fatal(err)
	}
	return hash
}

// sessionAlive reports whether the refresh token can still be rotated.
func sessionAlive(t *testing.T, db *postgres.DB, hash []byte) bool {
	t.Helper()
	next := auth.HashEmailToken(uuid.NewString())
	use, err := postgres.NewRefreshTokenStore(db).RotateRefresh(context.Background(), hash, next, time.Now().Add(time.Hour))
	return err == nil && !use.Reused
}

func TestEmailVerification(t *testing.T) {
	t.Parallel()
	svc, db := newService(t)
	ctx := context.Background()
	owner, ws := signup(t, svc, "owner@example.com")
	bob, _, err := svc.Signup(ctx, "bob@example.com", "correct horse battery", nil, "")
	if err != nil || bob.EmailVerified {
		t.Fatalf("Signup = %+v, %v; want an unverified user", bob, err)
	}
	// Unverified: his own workspace works, invitations do not.
	inv, err := svc.Invite(ctx, ws.ID, owner.ID, "bob@example.com", account.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.AcceptInvitation(ctx, bob.ID, inv.ID)
	wantCode(t, "unverified accepts", err, apperr.EmailUnverified)

	msg := mailbox(t, svc).WaitSubject(t, "bob@example.com", verifySubject)
	if !strings.HasPrefix(msg.Link(t), "https://sho.rt/app/verify?token=") || !strings.Contains(msg.Subject, "Confirm") ||
		msg.From != "no-reply@sho.rt" {
		t.Errorf("verification mail from %s %q: %s", msg.From, msg.Subject, msg.Body)
	}
	token := msg.Token(t)
	_, err = svc.VerifyEmail(ctx, strings.ToUpper(token[:1])+token[1:]+"x")
	wantCode(t, "malformed token", err, apperr.Invalid)
	_, err = svc.VerifyEmail(ctx, strings.Repeat("A", 43))
	wantCode(t, "unknown token", err, apperr.Invalid)
	u, err := svc.VerifyEmail(ctx, token)
	if err != nil || !u.EmailVerified || u.ID != bob.ID {
		t.Fatalf("VerifyEmail = %+v, %v", u, err)
	}
	_, err = svc.VerifyEmail(ctx, token)
	wantCode(t, "token used twice", err, apperr.Invalid)
	if _, err := svc.AcceptInvitation(ctx, bob.ID, inv.ID); err != nil {
		t.Errorf("verified accepts: %v", err)
	}
	wantCode(t, "resend when verified", svc.ResendVerification(ctx, bob.ID), apperr.Conflict)

	// Tokens are kept hashed, and expire.
	var stored int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM email_tokens WHERE token_hash = $1`, []byte(token)).Scan(&stored); err != nil || stored != 0 {
		t.Errorf("a token is stored in clear: %d, %v", stored, err)
	}
	carol, _, err := svc.Signup(ctx, "carol@example.com", "correct horse battery", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	first := mailbox(t, svc).Wait(t, "carol@example.com").Token(t)
	if _, err := db.Pool.Exec(ctx, `UPDATE email_tokens SET expires_at = now() - interval '1 second'
		WHERE token_hash = $1`, auth.HashEmailToken(first)); err != nil {
		t.Fatal(err)
	}
	_, err = svc.VerifyEmail(ctx, first)
	wantCode(t, "expired token", err, apperr.Invalid)
	if err := svc.ResendVerification(ctx, carol.ID); err != nil {
		t.Fatal(err)
	}
	if u := verifyByMail(t, svc, "carol@example.com"); u.ID != carol.ID {
		t.Errorf("resent link verified %+v", u)
	}
}

func TestPasswordReset(t *testing.T) {
	t.Parallel()
	svc, db := newService(t)
	ctx := context.Background()
	dave, _, err := svc.Signup(ctx, "dave@example.com", "correct horse battery", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	mailbox(t, svc).Wait(t, "dave@example.com") // the verification mail, left unused
	sess := session(t, db, dave.ID)

	wantCode(t, "reset of a malformed email", svc.RequestPasswordReset("dave@"), apperr.Invalid)
	if err := svc.RequestPasswordReset("nobody@example.com"); err != nil {
		t.Errorf("reset of an unknown email: %v", err)
	}
	for range 2 {
		if err := svc.RequestPasswordReset(" Dave@Example.com"); err != nil {
			t.Fatal(err)
		}
	}
	older := mailbox(t, svc).Wait(t, "dave@example.com")
	msg := mailbox(t, svc).Wait(t, "dave@example.com")
	if !strings.HasPrefix(msg.Link(t), "https://sho.rt/app/reset-password?token=") {
		t.Errorf("reset mail: %s", msg.Body)
	}
	wantCode(t, "short password", svc.ResetPassword(ctx, msg.Token(t), "short"), apperr.Invalid)
	_, err = svc.VerifyEmail(ctx, msg.Token(t))
	wantCode(t, "reset token used to verify", err, apperr.Invalid)
	if err := svc.ResetPassword(ctx, msg.Token(t), "a brand new password"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "reset token used twice", svc.ResetPassword(ctx, msg.Token(t), "another new password"), apperr.Invalid)
	wantCode(t, "the other reset link", svc.ResetPassword(ctx, older.Token(t), "another new password"), apperr.Invalid)
	if _, err := svc.Login(ctx, "dave@example.com", "correct horse battery"); err == nil {
		t.Error("the old password still works")
	}
	u, err := svc.Login(ctx, "dave@example.com", "a brand new password")
	if err != nil || !u.EmailVerified {
		t.Errorf("Login with the new password = %+v, %v; want a verified user", u, err)
	}
	if sessionAlive(t, db, sess) {
		t.Error("a session from before the reset still works")
	}
	if n := mailbox(t, svc).Count("nobody@example.com"); n != 0 {
		t.Errorf("%d mails to an address without an account", n)
	}
}

// TestSystemRoleRevokes: giving a system role needs a verified address and ends every session
// and API key of the account; taking it away ends the sessions.
func TestSystemRoleRevokes(t *testing.T) {
	t.Parallel()
	svc, db := newService(t)
	ctx := context.Background()
	var announced []int64
	svc.OnKeyRevoked(func(_ context.Context, id int64) { announced = append(announced, id) })
	erin, ws, err := svc.Signup(ctx, "erin@example.com", "correct horse battery", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.SetSystemRole(ctx, erin.ID, account.SystemModerator)
	wantCode(t, "unverified moderator", err, apperr.EmailUnverified)
	verifyByMail(t, svc, "erin@example.com")

	k, secret, err := svc.CreateAPIKey(ctx, ws.ID, erin.ID, "ci", []string{"links:read"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AuthenticateAPIKey(ctx, secret); err != nil { // now cached
		t.Fatal(err)
	}
	sess := session(t, db, erin.ID)
	u, err := svc.SetSystemRole(ctx, erin.ID, account.SystemModerator)
	if err != nil || u.SystemRole != account.SystemModerator {
		t.Fatalf("SetSystemRole = %+v, %v", u, err)
	}
	if _, err := svc.AuthenticateAPIKey(ctx, secret); !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("the key of the promoted account still works: %v", err)
	}
	if len(announced) != 1 || announced[0] != k.ID {
		t.Errorf("revoked keys announced = %v, want [%d]", announced, k.ID)
	}
	if sessionAlive(t, db, sess) {
		t.Error("a session from before the promotion still works")
	}
	sess = session(t, db, erin.ID)
	if _, err := svc.SetSystemRole(ctx, erin.ID, account.SystemUser); err != nil {
		t.Fatal(err)
	}
	if sessionAlive(t, db, sess) {
		t.Error("a session from before the demotion still works")
	}
}

// TestEnsureOperatorTakeover: the first to register the operator's address does not become
// operator at start-up; with the takeover allowed, nothing they held carries over.
func TestEnsureOperatorTakeover(t *testing.T) {
	t.Parallel()
	svc, db := newService(t)
	ctx := context.Background()
	squatter, ws, err := svc.Signup(ctx, "ops@example.com", "squatter's password", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	_, secret, err := svc.CreateAPIKey(ctx, ws.ID, squatter.ID, "mine", []string{"links:read"})
	if err != nil {
		t.Fatal(err)
	}
	sess := session(t, db, squatter.ID)

	_, err = svc.EnsureOperator(ctx, "ops@example.com", "operator password", false)
	if err == nil || !strings.Contains(err.Error(), "OPERATOR_EMAIL") || !strings.Contains(err.Error(), "OPERATOR_TAKEOVER") {
		t.Fatalf("EnsureOperator over an unverified account: %v; want a refusal naming OPERATOR_EMAIL and OPERATOR_TAKEOVER", err)
	}
	if u, _ := svc.User(ctx, squatter.ID); u.SystemRole != account.SystemUser {
		t.Errorf("refused start-up changed the role: %+v", u)
	}
	op, err := svc.EnsureOperator(ctx, "ops@example.com", "operator password", true)
	if err != nil || op.ID != squatter.ID || op.SystemRole != account.SystemOperator || !op.EmailVerified {
		t.Fatalf("EnsureOperator with takeover = %+v, %v", op, err)
	}
	if _, err := svc.AuthenticateAPIKey(ctx, secret); err == nil {
		t.Error("the squatter's API key survived the takeover")
	}
	if sessionAlive(t, db, sess) {
		t.Error("the squatter's session survived the takeover")
	}
	if _, err := svc.Login(ctx, "ops@example.com", "squatter's password"); err == nil {
		t.Error("the squatter's password survived the takeover")
	}
}
