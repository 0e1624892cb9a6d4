package httpapi_test

import (
	"strings"
	"testing"
)

func TestEmailVerificationEndpoints(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	c, _, w := e.signup("ann@example.com")
	if u := c.want(200, "GET", "/api/v1/me", nil).json()["user"].(map[string]any); u["email_verified"] != false {
		t.Errorf("me before verifying = %v", u)
	}
	// The sign-up's mail, then four more: the account's budget is five an hour.
	for range 4 {
		c.want(202, "POST", "/api/v1/me/verification", nil)
	}
	c.want(202, "POST", "/api/v1/me/verification", nil)
	if r := c.want(429, "POST", "/api/v1/me/verification", nil); r.header.Get("Retry-After") == "" || r.errorCode() != "rate_limited" {
		t.Errorf("sixth resend: %v %s", r.header, r.body)
	}
	var last string
	for range 6 {
		last = e.mailbox.Wait(t, "ann@example.com").Token(t)
	}
	anon := e.client()
	anon.want(400, "POST", "/api/v1/auth/verify-email", map[string]string{})
	anon.want(400, "POST", "/api/v1/auth/verify-email", map[string]string{"token": "nope"})
	anon.want(400, "POST", "/api/v1/auth/verify-email", map[string]string{"token": strings.Repeat("A", 43)})
	r := anon.want(200, "POST", "/api/v1/auth/verify-email", map[string]string{"token": last})
	if u := r.json()["user"].(map[string]any); u["email"] != "ann@example.com" || u["email_verified"] != true {
		t.Errorf("verify-email = %s", r.body)
	}
	anon.want(400, "POST", "/api/v1/auth/verify-email", map[string]string{"token": last})
	if u := c.want(200, "GET", "/api/v1/me", nil).json()["user"].(map[string]any); u["email_verified"] != true {
		t.Errorf("me after verifying = %v", u)
	}

	// Resending to a verified address is a conflict; API keys cannot ask.
	key := c.want(201, "POST", ws(w, "/api-keys"), map[string]any{"name": "k", "scopes": []string{"links:read"}}).json()["key"].(string)
	keyed := e.client()
	keyed.bearer = key
	keyed.want(403, "POST", "/api/v1/me/verification", nil)
	e3, _, _ := e.signup("bo@example.com")
	e.verify("bo@example.com")
	e3.want(409, "POST", "/api/v1/me/verification", nil)
}

func TestPasswordResetEndpoints(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	c := e.client()
	signed := c.want(201, "POST", "/api/v1/auth/signup", map[string]any{"email": "cy@example.com", "password": password, "token_pair": true}).json()
	refresh := signed["refresh_token"].(string)
	e.mailbox.Wait(t, "cy@example.com") // the verification mail

	anon := e.client()
	anon.want(400, "POST", "/api/v1/auth/password-reset", map[string]string{"email": "cy@"})
	unknown := anon.want(202, "POST", "/api/v1/auth/password-reset", map[string]string{"email": "nobody@example.com"})
	known := anon.want(202, "POST", "/api/v1/auth/password-reset", map[string]string{"email": "cy@example.com"})
	if string(unknown.body) != string(known.body) {
		t.Errorf("answers differ: %q vs %q", unknown.body, known.body)
	}
	token := e.mailbox.Wait(t, "cy@example.com").Token(t)
	anon.want(400, "POST", "/api/v1/auth/password-reset/confirm", map[string]string{"token": token, "password": "short"})
	anon.want(400, "POST", "/api/v1/auth/password-reset/confirm", map[string]string{"password": "a brand new password"})
	anon.want(204, "POST", "/api/v1/auth/password-reset/confirm", map[string]string{"token": token, "password": "a brand new password"})
	anon.want(400, "POST", "/api/v1/auth/password-reset/confirm", map[string]string{"token": token, "password": "another new password"})

	// Every session ended; the new password signs in, verified.
	anon.want(401, "POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": refresh})
	anon.want(401, "POST", "/api/v1/auth/login", map[string]string{"email": "cy@example.com", "password": password})
	u := anon.want(200, "POST", "/api/v1/auth/login", map[string]string{"email": "cy@example.com", "password": "a brand new password"}).json()["user"].(map[string]any)
	if u["email_verified"] != true {
		t.Errorf("user after reset = %v", u)
	}

	// Five requests an hour per address, whether or not it has an account.
	other := e.client()
	other.ip = "192.0.2.99"
	for range 5 {
		other.want(202, "POST", "/api/v1/auth/password-reset", map[string]string{"email": "nobody2@example.com"})
	}
	if r := other.want(429, "POST", "/api/v1/auth/password-reset", map[string]string{"email": "nobody2@example.com"}); r.header.Get("Retry-After") == "" {
		t.Errorf("no Retry-After: %v", r.header)
	}
}
