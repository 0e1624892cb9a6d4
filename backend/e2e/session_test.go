package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// authAnswer is the JSON of a sign-up, login or refresh answer.
type authAnswer struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	refreshKey   bool
}

func (s *server) authAnswer(r response) authAnswer {
	s.t.Helper()
	var a authAnswer
	r.json(s.t, &a)
	var m map[string]json.RawMessage
	r.json(s.t, &m)
	_, a.refreshKey = m["refresh_token"]
	return a
}

// cookieOf is the value of the named cookie an answer sets, "" when it sets none.
func cookieOf(r response, name string) string {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// TestSignInTokenPair: sign-up and login answers keep the refresh token in its HttpOnly
// cookie, out of the body, unless the program asks for the pair with "token_pair": true.
func TestSignInTokenPair(t *testing.T) {
	s := newDeployment(t).start(t)
	const pw = "correct horse battery"
	cases := []struct {
		name string
		path string
		body map[string]any
		pair bool
	}{
		{"signup", "/api/v1/auth/signup", map[string]any{"email": "cookie@example.com", "password": pw}, false},
		{"login", "/api/v1/auth/login", map[string]any{"email": "cookie@example.com", "password": pw}, false},
		{"login token_pair false", "/api/v1/auth/login", map[string]any{"email": "cookie@example.com", "password": pw, "token_pair": false}, false},
		{"signup token_pair", "/api/v1/auth/signup", map[string]any{"email": "program@example.com", "password": pw, "token_pair": true}, true},
		{"login token_pair", "/api/v1/auth/login", map[string]any{"email": "program@example.com", "password": pw, "token_pair": true}, true},
	}
	for _, c := range cases {
		r := s.do("POST", c.path, "", c.body)
		if r.Status != http.StatusOK && r.Status != http.StatusCreated {
			t.Fatalf("%s: %d %s", c.name, r.Status, r.Body)
		}
		a := s.authAnswer(r)
		cookie := cookieOf(r, "sl_refresh")
		if a.AccessToken == "" || cookie == "" || cookieOf(r, "sl_access") == "" {
			t.Fatalf("%s: no access token or session cookies: %s", c.name, r.Body)
		}
		if a.refreshKey != c.pair {
			t.Errorf("%s: refresh_token in the body is %v, want %v (%s)", c.name, a.refreshKey, c.pair, r.Body)
		}
		if !c.pair && strings.Contains(string(r.Body), cookie) {
			t.Errorf("%s: the refresh cookie's value is in the body", c.name)
		}
		if c.pair {
			// The pair works for a program: the body's refresh token rotates.
			next := s.do("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": a.RefreshToken})
			if next.Status != http.StatusOK || s.authAnswer(next).RefreshToken == "" {
				t.Errorf("%s: refresh with the body's token: %d %s", c.name, next.Status, next.Body)
			}
		}
	}
}

// refreshAtOnce sends n refreshes at the same moment, each built by req, and returns the
// answers.
func (s *server) refreshAtOnce(n int, req func() *http.Request) []response {
	s.t.Helper()
	out := make([]response, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range out {
		r := req()
		wg.Go(func() {
			<-start
			out[i] = s.send(r)
		})
	}
	close(start)
	wg.Wait()
	return out
}

// TestRefreshTwoTabs: two tabs of one browser (one cookie jar) refresh at the same moment,
// and so do two threads of a program sharing one refresh token. Within REFRESH_GRACE every
// request gets the same successor and the session goes on; a reuse after the window is a
// replay and ends the session.
func TestRefreshTwoTabs(t *testing.T) {
	s := newDeployment(t).start(t, "REFRESH_GRACE", "3s")
	const pw = "correct horse battery"
	r := s.do("POST", "/api/v1/auth/signup", "", map[string]any{"email": "tabs@example.com", "password": pw})
	if r.Status != http.StatusCreated {
		t.Fatalf("signup: %d %s", r.Status, r.Body)
	}
	refresh, csrf := cookieOf(r, "sl_refresh"), cookieOf(r, "sl_csrf")
	withCookie := func(token string) func() *http.Request {
		return func() *http.Request {
			req, _ := http.NewRequest("POST", s.base+"/api/v1/auth/refresh", nil)
			req.AddCookie(&http.Cookie{Name: "sl_refresh", Value: token})
			req.AddCookie(&http.Cookie{Name: "sl_csrf", Value: csrf})
			req.Header.Set("X-CSRF-Token", csrf)
			return req
		}
	}
	withBody := func(token string) func() *http.Request {
		return func() *http.Request {
			req, _ := http.NewRequest("POST", s.base+"/api/v1/auth/refresh", strings.NewReader(`{"refresh_token":"`+token+`"}`))
			req.Header.Set("Content-Type", "application/json")
			return req
		}
	}

	// Cookies: both tabs are answered, with the same new refresh cookie, and stay signed in.
	tabs := s.refreshAtOnce(2, withCookie(refresh))
	next := ""
	for i, a := range tabs {
		if a.Status != http.StatusOK {
			t.Fatalf("tab %d: %d %s", i, a.Status, a.Body)
		}
		if s.authAnswer(a).refreshKey {
			t.Errorf("tab %d: a cookie refresh answered the refresh token in the body", i)
		}
		got := cookieOf(a, "sl_refresh")
		if got == "" || got == refresh || (next != "" && got != next) {
			t.Fatalf("tab %d: refresh cookie %q; want one new token for both tabs (other tab: %q)", i, got, next)
		}
		next = got
		if me := s.do("GET", "/api/v1/me", s.authAnswer(a).AccessToken, nil); me.Status != http.StatusOK {
			t.Errorf("tab %d: /me with the new access token: %d", i, me.Status)
		}
	}
	if a := s.refreshAtOnce(1, withCookie(next))[0]; a.Status != http.StatusOK {
		t.Fatalf("the shared successor: %d %s", a.Status, a.Body)
	} else {
		next = cookieOf(a, "sl_refresh")
	}

	// Body tokens: a program's threads racing with one token all get the same pair.
	r = s.do("POST", "/api/v1/auth/login", "", map[string]any{"email": "tabs@example.com", "password": pw, "token_pair": true})
	token := s.authAnswer(r).RefreshToken
	threads := s.refreshAtOnce(4, withBody(token))
	successor := ""
	for i, a := range threads {
		got := ""
		if a.Status == http.StatusOK {
			got = s.authAnswer(a).RefreshToken
		}
		if got == "" || (successor != "" && got != successor) {
			t.Fatalf("thread %d: %d %s; want the same successor for every thread (%q)", i, a.Status, a.Body, successor)
		}
		successor = got
	}

	// After the window, a reuse is a replay: that session ends, its newest token included;
	// the browser's session is another one and goes on.
	time.Sleep(3200 * time.Millisecond)
	if a := s.refreshAtOnce(1, withBody(token))[0]; a.Status != http.StatusUnauthorized {
		t.Errorf("reuse after the window: %d %s, want 401", a.Status, a.Body)
	}
	if a := s.refreshAtOnce(1, withBody(successor))[0]; a.Status != http.StatusUnauthorized {
		t.Errorf("newest token after a replay: %d %s, want 401", a.Status, a.Body)
	}
	if a := s.refreshAtOnce(1, withCookie(next))[0]; a.Status != http.StatusOK {
		t.Errorf("the browser's session was ended by another session's replay: %d %s", a.Status, a.Body)
	}
	if a := s.refreshAtOnce(1, withCookie(refresh))[0]; a.Status != http.StatusUnauthorized {
		t.Errorf("the browser's first token after the window: %d %s, want 401", a.Status, a.Body)
	}
}
