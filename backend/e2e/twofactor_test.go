package e2e

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

// totpCode is the authenticator app's code of secret at now+ahead.
func totpCode(t *testing.T, secret string, ahead time.Duration) string {
	t.Helper()
	code, err := totp.GenerateCode(secret, time.Now().Add(ahead))
	if err != nil {
		t.Fatal(err)
	}
	return code
}

type enrolmentJSON struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauth_url"`
}

type loginJSON struct {
	MFARequired  bool   `json:"mfa_required"`
	MFAToken     string `json:"mfa_token"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	User         struct {
		ID int64 `json:"id"`
	} `json:"user"`
}

// errorReason is the reason of an error answer.
func errorReason(t *testing.T, r response) string {
	t.Helper()
	var e struct {
		Error struct{ Reason string } `json:"error"`
	}
	r.json(t, &e)
	return e.Error.Reason
}

// wantError fails unless r is an error of the status and reason.
func wantError(t *testing.T, r response, status int, reason, what string) {
	t.Helper()
	if r.Status != status || errorReason(t, r) != reason {
		t.Fatalf("%s: %d %s, want %d %s", what, r.Status, r.Body, status, reason)
	}
}

// enrol2FA turns 2FA on for tn with a code of now, and answers the secret and recovery codes.
func (s *server) enrol2FA(tn tenant) (string, []string) {
	t := s.t
	t.Helper()
	e := answer[enrolmentJSON](t, s.do("POST", "/api/v1/me/2fa", tn.Token, nil), http.StatusOK, "enrol")
	out := answer[struct {
		RecoveryCodes []string `json:"recovery_codes"`
	}](t, s.do("POST", "/api/v1/me/2fa/confirm", tn.Token, map[string]string{"code": totpCode(t, e.Secret, 0)}), http.StatusOK, "confirm")
	return e.Secret, out.RecoveryCodes
}

func (s *server) passwordLogin(email string, pair bool) response {
	s.t.Helper()
	return s.do("POST", "/api/v1/auth/login", "", map[string]any{"email": email, "password": "correct horse battery", "token_pair": pair})
}

// mfaToken signs email in with the password and answers the token of the second step.
func (s *server) mfaToken(email string) string {
	t := s.t
	t.Helper()
	r := s.passwordLogin(email, false)
	l := answer[loginJSON](t, r, http.StatusOK, "login "+email)
	if !l.MFARequired || l.MFAToken == "" || l.AccessToken != "" {
		t.Fatalf("login of %s with 2FA on: %s", email, r.Body)
	}
	if len(r.Header.Values("Set-Cookie")) != 0 {
		t.Fatalf("the password alone set cookies: %q", r.Header.Values("Set-Cookie"))
	}
	return l.MFAToken
}

func hasCookie(r response, name string) bool {
	for _, c := range r.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, name+"=") && !strings.HasPrefix(c, name+"=;") {
			return true
		}
	}
	return false
}

// TestTwoFactor walks two-factor sign-in as people use it: enrolment, confirmation, sign-in
// with a code (once), with recovery codes (each once), the web app's cookie sign-in, turning it
// off; another person's 2FA stays as it was, and API keys manage none of it.
func TestTwoFactor(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	a := s.signup("alice@example.com")
	b := s.signup("bob@example.com")

	// API keys cannot manage 2FA.
	for _, m := range []string{"POST /api/v1/me/2fa", "POST /api/v1/me/2fa/confirm", "DELETE /api/v1/me/2fa"} {
		method, path, _ := strings.Cut(m, " ")
		wantError(t, s.do(method, path, a.Key, map[string]string{"code": "123456"}), http.StatusForbidden, "api_key_not_allowed", m+" with a key")
	}

	// Enrolment: a secret and its otpauth URL; until confirmed, the password alone signs in.
	e := answer[enrolmentJSON](t, s.do("POST", "/api/v1/me/2fa", a.Token, nil), http.StatusOK, "enrol")
	if len(e.Secret) < 16 || !strings.HasPrefix(e.OTPAuthURL, "otpauth://totp/") || !strings.Contains(e.OTPAuthURL, "secret="+e.Secret) ||
		!strings.Contains(e.OTPAuthURL, "alice@example.com") {
		t.Fatalf("enrolment %+v", e)
	}
	if l := answer[loginJSON](t, s.passwordLogin("alice@example.com", false), http.StatusOK, "login while pending"); l.MFARequired || l.AccessToken == "" {
		t.Fatalf("a pending enrolment asked for a code: %+v", l)
	}
	// Starting again replaces the pending secret: the first one's codes no longer confirm.
	e2 := answer[enrolmentJSON](t, s.do("POST", "/api/v1/me/2fa", a.Token, nil), http.StatusOK, "enrol again")
	if e2.Secret == e.Secret {
		t.Fatal("a new enrolment kept the secret")
	}
	wantError(t, s.do("POST", "/api/v1/me/2fa/confirm", a.Token, map[string]string{"code": totpCode(t, e.Secret, 0)}), http.StatusBadRequest, "code_invalid", "confirm with the replaced secret")
	secret := e2.Secret
	// The secret is sealed at rest.
	var stored []byte
	if err := d.conn(t).QueryRow(context.Background(), `SELECT secret FROM user_totp WHERE user_id = $1`, a.UserID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(stored), secret) || len(stored) <= len(secret) {
		t.Fatalf("the secret is stored readable: %q", stored)
	}

	// Confirmation: ten distinct recovery codes, stored hashed.
	// The code is kept: on a slow run the clock may pass into the next 30-second step before it
	// is replayed below, and a code computed again then would be a new one.
	confirmation := totpCode(t, secret, 0)
	r := s.do("POST", "/api/v1/me/2fa/confirm", a.Token, map[string]string{"code": confirmation})
	codes := answer[struct {
		RecoveryCodes []string `json:"recovery_codes"`
	}](t, r, http.StatusOK, "confirm").RecoveryCodes
	if len(codes) != 10 || len(slices.Compact(slices.Sorted(slices.Values(codes)))) != 10 {
		t.Fatalf("recovery codes %q", codes)
	}
	var plain int
	if err := d.conn(t).QueryRow(context.Background(), `SELECT count(*) FROM user_recovery_codes
		WHERE user_id = $1 AND position(convert_to($2, 'UTF8') in code_hash) > 0`, a.UserID, codes[0]).Scan(&plain); err != nil || plain != 0 {
		t.Fatalf("recovery codes stored readable: %d %v", plain, err)
	}
	wantError(t, s.do("POST", "/api/v1/me/2fa/confirm", a.Token, map[string]string{"code": totpCode(t, secret, 0)}), http.StatusConflict, "two_factor_not_pending", "confirm twice")
	wantError(t, s.do("POST", "/api/v1/me/2fa", a.Token, nil), http.StatusConflict, "two_factor_enabled", "enrol while on")

	// With 2FA on, the password answers a token and no session; the confirmation's code
	// (accepted already) is a replay.
	token := s.mfaToken("alice@example.com")
	wantError(t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": confirmation}), http.StatusUnauthorized, "code_used", "the confirmation's code again")

	// The next code signs in, as the cookie login of the web app does.
	code := totpCode(t, secret, 30*time.Second)
	r = s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": code})
	l := answer[loginJSON](t, r, http.StatusOK, "second step")
	if l.AccessToken == "" || l.RefreshToken != "" || l.User.ID != a.UserID || !hasCookie(r, "sl_access") || !hasCookie(r, "sl_refresh") {
		t.Fatalf("second step: %s %q", r.Body, r.Header.Values("Set-Cookie"))
	}
	if r := s.do("GET", "/api/v1/me", l.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("me after 2fa: %d %s", r.Status, r.Body)
	}
	// The token works once, and the code too, in a new sign-in.
	wantError(t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": totpCode(t, secret, 60*time.Second)}), http.StatusUnauthorized, "mfa_token_invalid", "token reused")
	token = s.mfaToken("alice@example.com")
	wantError(t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": code}), http.StatusUnauthorized, "code_used", "code replayed")

	// A recovery code signs in once, whatever its case and dashes; a program's sign-in gets
	// its refresh token, and the session refreshes.
	r = s.do("POST", "/api/v1/auth/login/2fa", "", map[string]any{"mfa_token": token, "recovery_code": codes[0], "token_pair": true})
	l = answer[loginJSON](t, r, http.StatusOK, "recovery code")
	if l.RefreshToken == "" {
		t.Fatalf("token_pair without a refresh token: %s", r.Body)
	}
	if r := s.do("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": l.RefreshToken}); r.Status != http.StatusOK {
		t.Fatalf("refresh after 2fa: %d %s", r.Status, r.Body)
	}
	token = s.mfaToken("alice@example.com")
	wantError(t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "recovery_code": codes[0]}), http.StatusUnauthorized, "code_invalid", "recovery code twice")
	answer[loginJSON](t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token,
		"recovery_code": strings.ToUpper(strings.ReplaceAll(codes[1], "-", ""))}), http.StatusOK, "recovery code, another spelling")

	// An expired token is refused.
	token = s.mfaToken("alice@example.com")
	if _, err := d.conn(t).Exec(context.Background(), `UPDATE mfa_challenges SET expires_at = now() - interval '1 second'
		WHERE used_at IS NULL`); err != nil {
		t.Fatal(err)
	}
	wantError(t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "recovery_code": codes[2]}), http.StatusUnauthorized, "mfa_token_invalid", "expired token")

	// Bob's account is untouched by Alice's 2FA: his password signs in, he has nothing to
	// confirm or turn off, and Alice's codes do not confirm his enrolment.
	if l := answer[loginJSON](t, s.passwordLogin("bob@example.com", false), http.StatusOK, "bob's login"); l.MFARequired || l.AccessToken == "" {
		t.Fatalf("bob's login asked for a code: %+v", l)
	}
	wantError(t, s.do("DELETE", "/api/v1/me/2fa", b.Token, map[string]string{"code": totpCode(t, secret, 0)}), http.StatusConflict, "two_factor_off", "bob turns off")
	wantError(t, s.do("POST", "/api/v1/me/2fa/confirm", b.Token, map[string]string{"code": totpCode(t, secret, 0)}), http.StatusConflict, "two_factor_not_pending", "bob confirms")
	bobSecret := answer[enrolmentJSON](t, s.do("POST", "/api/v1/me/2fa", b.Token, nil), http.StatusOK, "bob enrols").Secret
	wantError(t, s.do("POST", "/api/v1/me/2fa/confirm", b.Token, map[string]string{"code": totpCode(t, secret, 30*time.Second)}), http.StatusBadRequest, "code_invalid", "bob confirms with alice's code")

	// Bob turns it on and off again with a code; Alice's stays on.
	answer[struct{}](t, s.do("POST", "/api/v1/me/2fa/confirm", b.Token, map[string]string{"code": totpCode(t, bobSecret, 0)}), http.StatusOK, "bob confirms")
	wantError(t, s.do("DELETE", "/api/v1/me/2fa", b.Token, map[string]string{"code": totpCode(t, secret, 30*time.Second)}), http.StatusBadRequest, "code_invalid", "bob turns off with alice's code")
	wantError(t, s.do("DELETE", "/api/v1/me/2fa", b.Token, map[string]string{"code": totpCode(t, bobSecret, 0)}), http.StatusBadRequest, "code_used", "bob turns off with his used code")
	if r := s.do("DELETE", "/api/v1/me/2fa", b.Token, map[string]string{"code": totpCode(t, bobSecret, 30*time.Second)}); r.Status != http.StatusNoContent {
		t.Fatalf("bob turns off: %d %s", r.Status, r.Body)
	}
	if l := answer[loginJSON](t, s.passwordLogin("bob@example.com", false), http.StatusOK, "bob's login after"); l.MFARequired {
		t.Fatal("bob's 2FA stayed on")
	}
	s.mfaToken("alice@example.com")

	// Alice turns it off with a recovery code; then her password alone signs in.
	if r := s.do("DELETE", "/api/v1/me/2fa", a.Token, map[string]string{"recovery_code": codes[3]}); r.Status != http.StatusNoContent {
		t.Fatalf("alice turns off: %d %s", r.Status, r.Body)
	}
	if l := answer[loginJSON](t, s.passwordLogin("alice@example.com", false), http.StatusOK, "alice's login after"); l.MFARequired || l.AccessToken == "" {
		t.Fatalf("alice's 2FA stayed on: %+v", l)
	}
	var left int
	if err := d.conn(t).QueryRow(context.Background(), `SELECT (SELECT count(*) FROM user_totp) + (SELECT count(*) FROM user_recovery_codes)`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("secrets or codes left after turning off: %d %v", left, err)
	}
}

// TestTwoFactorWrongCodesLimited: wrong codes spend the password's budgets; once spent, even
// the right code waits, and another account of the same address still signs in.
func TestTwoFactorWrongCodesLimited(t *testing.T) {
	s := newDeployment(t).start(t)
	c := s.signup("carol@example.com")
	secret, _ := s.enrol2FA(c)
	// A wrong code: none of the codes the server would take now.
	near := []string{totpCode(t, secret, -30*time.Second), totpCode(t, secret, 0), totpCode(t, secret, 30*time.Second), totpCode(t, secret, 60*time.Second)}
	wrong := "000000"
	for i := 0; slices.Contains(near, wrong); i++ {
		wrong = strings.Repeat(string(rune('1'+i)), 6)
	}
	token := s.mfaToken("carol@example.com")
	limited := false
	for i := 0; i < 12 && !limited; i++ {
		r := s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": wrong})
		switch r.Status {
		case http.StatusUnauthorized:
			if i >= 10 {
				t.Fatalf("wrong code %d not limited", i+1)
			}
		case http.StatusTooManyRequests:
			if i < 3 || r.Header.Get("Retry-After") == "" {
				t.Fatalf("limited after %d wrong codes, Retry-After %q", i, r.Header.Get("Retry-After"))
			}
			limited = true
		default:
			t.Fatalf("wrong code: %d %s", r.Status, r.Body)
		}
	}
	if !limited {
		t.Fatal("wrong codes were never limited")
	}
	r := s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": totpCode(t, secret, 30*time.Second)})
	if r.Status != http.StatusTooManyRequests {
		t.Fatalf("the right code while limited: %d %s", r.Status, r.Body)
	}
	// The password budget is the same one: turning 2FA off with a code waits too.
	if r := s.do("DELETE", "/api/v1/me/2fa", c.Token, map[string]string{"code": totpCode(t, secret, 30*time.Second)}); r.Status != http.StatusTooManyRequests {
		t.Fatalf("turning off while limited: %d %s", r.Status, r.Body)
	}
	// Another account signs in from the same address.
	s.signup("erin@example.com")
	if l := answer[loginJSON](t, s.passwordLogin("erin@example.com", false), http.StatusOK, "erin"); l.AccessToken == "" {
		t.Fatal("erin got no session")
	}
}
