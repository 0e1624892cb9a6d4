package app_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
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
