package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

// movingClock is the servers' clock in a test of lockouts: the real time plus an offset the
// test moves forward, instead of waiting.
type movingClock struct{ offset atomic.Int64 }

func (c *movingClock) Now() time.Time      { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *movingClock) Add(d time.Duration) { c.offset.Add(int64(d)) }

// rightCodeAt is a code the server takes at at and has not taken yet: the next step's (the
// enrolment's confirmation used the current one).
func rightCodeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	return codeAt(t, secret, at.Add(30*time.Second))
}

// codeAt is the authenticator app's code of secret at the time at.
func codeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	code, err := totp.GenerateCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// wrongCodeAt is a code the server does not take at at: none of the steps around it.
func wrongCodeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	var near []string
	for d := -time.Minute; d <= time.Minute; d += 30 * time.Second {
		near = append(near, codeAt(t, secret, at.Add(d)))
	}
	wrong := "000000"
	for i := 0; slices.Contains(near, wrong); i++ {
		wrong = strings.Repeat(string(rune('1'+i)), 6)
	}
	return wrong
}

// addresses hands out client addresses never used before in the test.
type addresses struct{ n int }

func (a *addresses) next() string {
	a.n++
	return fmt.Sprintf("10.%d.%d.%d", a.n/62500%250, a.n/250%250, a.n%250+1)
}

// doFrom is do from the client address ip, as the trusted proxy in front names it
// (X-Forwarded-For; the servers run with TRUSTED_PROXIES=127.0.0.1/32).
func (s *server) doFrom(ip, method, path, token string, body any) response {
	s.t.Helper()
	buf, err := json.Marshal(body)
	if err != nil {
		s.t.Fatal(err)
	}
	req, err := http.NewRequest(method, s.base+path, bytes.NewReader(buf))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.send(req)
}

// wantLocked fails unless r refuses a code for the account's lockout, to be tried again in
// about want (Retry-After, give or take the seconds the test took).
func wantLocked(t *testing.T, r response, want time.Duration, what string) {
	t.Helper()
	if r.Status != http.StatusTooManyRequests || r.errorCode(t) != "rate_limited" || errorReason(t, r) != "second_factor_locked" {
		t.Fatalf("%s: %d %s, want 429 second_factor_locked", what, r.Status, r.Body)
	}
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || time.Duration(retry)*time.Second > want || time.Duration(retry)*time.Second < want-time.Minute {
		t.Fatalf("%s: Retry-After %q, want about %s", what, r.Header.Get("Retry-After"), want)
	}
}

// codeState is what the database holds of a person's codes: the newest accepted TOTP step and
// how many recovery codes are unused.
func (d *deployment) codeState(t *testing.T, userID int64) (lastStep int64, unused int) {
	t.Helper()
	if err := d.conn(t).QueryRow(context.Background(), `SELECT last_step,
		(SELECT count(*) FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL)
		FROM user_totp WHERE user_id = $1`, userID).Scan(&lastStep, &unused); err != nil {
		t.Fatal(err)
	}
	return lastStep, unused
}

const lockoutSubject = "Wrong sign-in codes"

// TestSecondFactorLockout: ten wrong codes in a row lock an account's second factor, however
// many client addresses and server processes they come through; during the lockout a right
// code and a right recovery code are refused unchecked (and stay unused); the lockout holds
// across a restart, grows with each run of ten (15 minutes, 1 hour, 4 hours), wrong recovery
// codes count as wrong codes, a right code starts it all afresh, and each lockout is mailed to
// the account's address.
func TestSecondFactorLockout(t *testing.T) {
	d := newDeployment(t)
	clock := &movingClock{}
	d.now = clock.Now
	s1 := d.start(t, "TRUSTED_PROXIES", "127.0.0.1/32")
	s2 := d.start(t, "TRUSTED_PROXIES", "127.0.0.1/32")
	const email = "dave@example.com"
	dave := s1.signup(email)
	s1.mailbox.WaitSubject(t, email, "Confirm your email address")
	secret, recovery := s1.enrol2FA(dave)
	ips := &addresses{}
	servers := []*server{s1, s2}
	token := s1.mfaToken(email)
	// second sends the second step of the sign-in through the i-th server (of two, in turn),
	// from an address never seen before.
	second := func(i int, body map[string]string) response {
		body["mfa_token"] = token
		return servers[i%len(servers)].doFrom(ips.next(), "POST", "/api/v1/auth/login/2fa", "", body)
	}
	// wrongRun sends ten wrong codes, recovery codes from the first-th on, all checked.
	wrongRun := func(recoveryFrom int) {
		t.Helper()
		for i := range 10 {
			body := map[string]string{"code": wrongCodeAt(t, secret, clock.Now())}
			if i >= recoveryFrom {
				body = map[string]string{"recovery_code": fmt.Sprintf("wrong-code%d", i)}
			}
			wantError(t, second(i, body), http.StatusUnauthorized, "code_invalid", fmt.Sprintf("wrong code %d", i+1))
		}
	}

	wrongRun(10)
	mail := s1.mailbox.WaitSubject(t, email, lockoutSubject)
	lockEnd := clock.Now().Add(15 * time.Minute)
	if !strings.Contains(mail.Body, "10 wrong two-factor codes") || !strings.Contains(mail.Body, "/app/forgot-password") ||
		!strings.Contains(mail.Body, lockEnd.UTC().Format("2006-01-02")) {
		t.Fatalf("lockout mail:\n%s", mail.Body)
	}

	// Locked: a right code, and a right recovery code, are refused as a wrong one is, from any
	// address and server, and neither is used up.
	step, unused := d.codeState(t, dave.UserID)
	wantLocked(t, second(0, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}), 15*time.Minute, "the right code while locked")
	wantLocked(t, second(1, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}), 15*time.Minute, "the right code on the other server")
	wantLocked(t, second(0, map[string]string{"recovery_code": recovery[0]}), 15*time.Minute, "a recovery code while locked")
	wantLocked(t, second(1, map[string]string{"code": wrongCodeAt(t, secret, clock.Now())}), 15*time.Minute, "a wrong code while locked")
	if s, u := d.codeState(t, dave.UserID); s != step || u != unused || unused != 10 {
		t.Fatalf("codes used while locked: step %d→%d, unused recovery codes %d→%d", step, s, unused, u)
	}

	// The lockout is in the database: a server started afresh refuses too.
	s1.stop()
	servers[0] = d.start(t, "TRUSTED_PROXIES", "127.0.0.1/32")
	wantLocked(t, second(0, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}), 15*time.Minute, "the right code after a restart")

	// Once it is over, the right code signs in and starts the count afresh: the next ten wrong
	// codes (half of them recovery codes) lock for 15 minutes again, not an hour.
	clock.Add(15 * time.Minute)
	answer[loginJSON](t, second(1, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}), http.StatusOK, "the right code after the lockout")
	token = servers[0].mfaToken(email)
	wrongRun(5)
	wantLocked(t, second(0, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}), 15*time.Minute, "after a success, ten wrong codes")
	s1.mailbox.WaitSubject(t, email, lockoutSubject)

	// Each further run of ten locks longer.
	clock.Add(15 * time.Minute)
	wrongRun(10)
	wantLocked(t, second(0, map[string]string{"recovery_code": recovery[0]}), time.Hour, "the second lockout")
	s1.mailbox.WaitSubject(t, email, lockoutSubject)
	clock.Add(time.Hour - time.Minute)
	wantLocked(t, second(1, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}), time.Minute, "the second lockout's last minute")
	clock.Add(time.Minute)
	wrongRun(0)
	wantLocked(t, second(0, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}), 4*time.Hour, "the third lockout")
	s1.mailbox.WaitSubject(t, email, lockoutSubject)

	// After it, a recovery code signs in.
	clock.Add(4 * time.Hour)
	answer[loginJSON](t, second(1, map[string]string{"recovery_code": recovery[0]}), http.StatusOK, "a recovery code after the lockouts")
	if _, u := d.codeState(t, dave.UserID); u != 9 {
		t.Fatalf("unused recovery codes %d, want 9", u)
	}
	// One mail per lockout, and the verification.
	if n := s1.mailbox.Count(email); n != 5 {
		t.Fatalf("%d mails to %s, want the verification and 4 lockouts", n, email)
	}
}

// TestSecondFactorLockoutTurningOff: codes sent to turn 2FA off count with the sign-in's,
// and the lockout refuses them too.
func TestSecondFactorLockoutTurningOff(t *testing.T) {
	d := newDeployment(t)
	clock := &movingClock{}
	d.now = clock.Now
	s := d.start(t, "TRUSTED_PROXIES", "127.0.0.1/32")
	const email = "erin@example.com"
	erin := s.signup(email)
	secret, recovery := s.enrol2FA(erin)
	ips := &addresses{}
	token := s.mfaToken(email)
	for i := range 5 {
		wantError(t, s.doFrom(ips.next(), "POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token,
			"code": wrongCodeAt(t, secret, clock.Now())}), http.StatusUnauthorized, "code_invalid", fmt.Sprintf("wrong code %d at sign-in", i+1))
	}
	for i := range 5 {
		body := map[string]string{"code": wrongCodeAt(t, secret, clock.Now())}
		if i%2 == 1 {
			body = map[string]string{"recovery_code": "aaaaa-bbbbb"}
		}
		wantError(t, s.doFrom(ips.next(), "DELETE", "/api/v1/me/2fa", erin.Token, body), http.StatusBadRequest, "code_invalid",
			fmt.Sprintf("wrong code %d turning off", i+1))
	}
	s.mailbox.WaitSubject(t, email, lockoutSubject)
	wantLocked(t, s.doFrom(ips.next(), "DELETE", "/api/v1/me/2fa", erin.Token, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}),
		15*time.Minute, "turning off with the right code while locked")
	wantLocked(t, s.doFrom(ips.next(), "DELETE", "/api/v1/me/2fa", erin.Token, map[string]string{"recovery_code": recovery[0]}),
		15*time.Minute, "turning off with a recovery code while locked")
	wantLocked(t, s.doFrom(ips.next(), "POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token,
		"code": rightCodeAt(t, secret, clock.Now())}), 15*time.Minute, "signing in while locked")
	clock.Add(15 * time.Minute)
	if r := s.doFrom(ips.next(), "DELETE", "/api/v1/me/2fa", erin.Token, map[string]string{"code": rightCodeAt(t, secret, clock.Now())}); r.Status != http.StatusNoContent {
		t.Fatalf("turning off after the lockout: %d %s", r.Status, r.Body)
	}
}

// TestSecondFactorLockoutFailsClosed: when the count of wrong codes cannot be read or
// written (its table held by another transaction past WRITE_TIMEOUT), a right code is
// refused, not checked: it is still good once the count answers again.
func TestSecondFactorLockoutFailsClosed(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	const email = "fay@example.com"
	fay := s.signup(email)
	secret, _ := s.enrol2FA(fay)
	token := s.mfaToken(email)
	hurried := d.start(t, "WRITE_TIMEOUT", "2s")

	ctx := context.Background()
	tx, err := d.conn(t).Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `LOCK TABLE second_factor_guards IN EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	code := totpCode(t, secret, 30*time.Second)
	r := hurried.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": code})
	if r.Status != http.StatusServiceUnavailable || r.errorCode(t) != "unavailable" {
		t.Fatalf("a code while its count does not answer: %d %s", r.Status, r.Body)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	answer[loginJSON](t, hurried.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": code}),
		http.StatusOK, "the same code once the count answers")
}
