package httpapi_test

import (
	"fmt"
	"testing"
)

// login tries a password for email from ip and returns the status.
func (e *env) login(ip, email, pw string) *response {
	e.t.Helper()
	c := e.client()
	c.ip = ip
	return c.do("POST", "/api/v1/auth/login", map[string]string{"email": email, "password": pw})
}

// TestLoginLockout: strangers cannot lock an owner out of their account, yet guessing is
// still stopped, from one address or from one IPv6 /64.
func TestLoginLockout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	const victim, home = "victim@example.com", "192.0.2.77"
	e.signup(victim)
	if r := e.login(home, victim, password); r.code != 200 {
		t.Fatalf("the owner's first login: %d %s", r.code, r.body)
	}

	// An attacker with many addresses guesses until the account's own budget runs out.
	refused := 0
	for i := range 21 {
		for j := range 5 {
			r := e.login(fmt.Sprintf("198.51.100.%d", i+1), victim, fmt.Sprintf("guess %d-%d", i, j))
			switch {
			case r.code == 429 && r.errorCode() == "rate_limited":
				refused++
			case r.code != 401:
				t.Fatalf("guess %d-%d: %d %s", i, j, r.code, r.body)
			}
		}
	}
	if refused == 0 {
		t.Error("105 guesses at one account from 21 addresses were all checked: no per-account limit")
	}
	// The owner still signs in from home, again and again.
	for i := range 3 {
		if r := e.login(home, victim, password); r.code != 200 {
			t.Fatalf("the owner from their own address after the attack (try %d): %d %s", i+1, r.code, r.body)
		}
	}

	// One address guessing one account is stopped after a few tries, the right password too.
	e.signup("bob@example.com")
	for i := range 5 {
		if r := e.login("203.0.113.50", "bob@example.com", fmt.Sprintf("guess %d", i)); r.code != 401 {
			t.Fatalf("guess %d: %d %s, want 401", i+1, r.code, r.body)
		}
	}
	if r := e.login("203.0.113.50", "bob@example.com", password); r.code != 429 {
		t.Errorf("the 6th try from one address: %d %s, want 429", r.code, r.body)
	}
	// Bob himself, from elsewhere, is not locked out by it.
	if r := e.login("192.0.2.88", "bob@example.com", password); r.code != 200 {
		t.Errorf("bob from his own address: %d %s, want 200", r.code, r.body)
	}

	// An IPv6 attacker rotating addresses within one /64 is one address.
	e.signup("carol@example.com")
	for i := range 5 {
		ip := fmt.Sprintf("2001:db8:aa:bb:%x::%x", i*4099, i+1)
		if r := e.login(ip, "carol@example.com", fmt.Sprintf("guess %d", i)); r.code != 401 {
			t.Fatalf("IPv6 guess %d: %d %s, want 401", i+1, r.code, r.body)
		}
	}
	if r := e.login("2001:db8:aa:bb:ffff:1:2:3", "carol@example.com", "guess 6"); r.code != 429 {
		t.Errorf("the 6th guess from the same /64: %d %s, want 429", r.code, r.body)
	}
}
