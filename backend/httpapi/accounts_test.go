package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/httpapi"
	"github.com/shortlink/shortlink/backend/mail"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// env is an API server on a fresh database and Redis namespace, without the link service
// (these tests never reach link handlers).
type env struct {
	t        *testing.T
	api      http.Handler
	accounts *account.Service
	mailbox  *testenv.Mailbox
}

func newEnv(t *testing.T, secureCookies bool) *env {
	t.Helper()
	db := testenv.DB(t)
	rdb, _ := testenv.Redis(t)
	log := slog.New(slog.DiscardHandler)
	accounts := account.NewService(postgres.NewAccountStore(db), auth.NewHasher(2, time.Minute), log)
	t.Cleanup(accounts.Close)
	box := testenv.SMTP(t)
	sender, err := mail.NewSMTP(box.URL, "no-reply@sho.rt")
	if err != nil {
		t.Fatal(err)
	}
	accounts.UseMail(sender, &url.URL{Scheme: "https", Host: "sho.rt"})
	authSvc := auth.NewService(auth.Options{
		Secret:     []byte("test secret, at least 32 characters long"),
		AccessTTL:  15 * time.Minute,
		RefreshTTL: 24 * time.Hour,
	}, postgres.NewRefreshTokenStore(db), redis.NewBuckets(rdb), log)
	api, err := httpapi.New(httpapi.Deps{Accounts: accounts, Auth: authSvc, Log: log, MaxBodyBytes: 1 << 20, SecureCookies: secureCookies})
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, api: api, accounts: accounts, mailbox: box}
}

// client is one browser or API client: its own cookies, bearer token and address.
type client struct {
	e       *env
	ip      string
	bearer  string
	cookies map[string]string
	noCSRF  bool   // leave out X-CSRF-Token even when the cookie is there
	csrf    string // send this X-CSRF-Token instead of the cookie's value
}

func (e *env) client() *client {
	return &client{e: e, ip: "192.0.2.10", cookies: map[string]string{}}
}

type response struct {
	code    int
	header  http.Header
	body    []byte
	cookies []*http.Cookie
}

func (r *response) json() map[string]any {
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		panic(fmt.Sprintf("body %q is not a JSON object: %v", r.body, err))
	}
	return m
}

func (r *response) errorCode() string {
	if e, ok := r.json()["error"].(map[string]any); ok {
		return e["code"].(string)
	}
	return ""
}

func (r *response) errorMessage() string {
	if e, ok := r.json()["error"].(map[string]any); ok {
		return e["message"].(string)
	}
	return ""
}

func (r *response) cookie(name string) *http.Cookie {
	for _, c := range r.cookies {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// do sends a request; body is JSON-encoded unless it is a string or nil.
func (c *client) do(method, path string, body any) *response {
	c.e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		js, _ := json.Marshal(b)
		rd = bytes.NewReader(js)
	}
	req := httptest.NewRequest(method, path, rd)
	req.RemoteAddr = c.ip + ":40000"
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	for name, v := range c.cookies {
		if name == "sl_refresh" && !strings.HasPrefix(path, "/api/v1/auth") {
			continue // its Path
		}
		req.AddCookie(&http.Cookie{Name: name, Value: v})
	}
	if v, ok := c.cookies["sl_csrf"]; ok && !c.noCSRF {
		if c.csrf != "" {
			v = c.csrf
		}
		req.Header.Set("X-CSRF-Token", v)
	}
	rec := httptest.NewRecorder()
	c.e.api.ServeHTTP(rec, req)
	res := rec.Result()
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 {
			delete(c.cookies, ck.Name)
		} else {
			c.cookies[ck.Name] = ck.Value
		}
	}
	return &response{code: rec.Code, header: rec.Header(), body: rec.Body.Bytes(), cookies: res.Cookies()}
}

func (c *client) want(code int, method, path string, body any) *response {
	c.e.t.Helper()
	r := c.do(method, path, body)
	if r.code != code {
		c.e.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, r.code, code, r.body)
	}
	return r
}

const password = "correct horse battery"

// signup signs a new user up and returns a client holding their bearer token, their user ID
// and the ID of their workspace.
func (e *env) signup(email string) (*client, int64, int64) {
	e.t.Helper()
	c := e.client()
	m := c.want(201, "POST", "/api/v1/auth/signup", map[string]string{"email": email, "password": password}).json()
	c.bearer = m["access_token"].(string)
	c.cookies = map[string]string{}
	return c, id(m["user"]), id(m["workspace"])
}

// verify follows the link of the next verification mail to email, as the web app's page does:
// it posts the link's token. Other mail (an invitation) may reach the address first.
func (e *env) verify(email string) {
	e.t.Helper()
	token := e.mailbox.WaitSubject(e.t, email, "Confirm your email address").Token(e.t)
	e.client().want(200, "POST", "/api/v1/auth/verify-email", map[string]string{"token": token})
}

func id(v any) int64 { return int64(v.(map[string]any)["id"].(float64)) }

func ws(id int64, rest string) string {
	return "/api/v1/workspaces/" + strconv.FormatInt(id, 10) + rest
}

func TestSignupAndLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	c := e.client()

	r := c.want(201, "POST", "/api/v1/auth/signup", map[string]string{"email": "Alice@Example.com", "password": password})
	m := r.json()
	user, _ := m["user"].(map[string]any)
	work, _ := m["workspace"].(map[string]any)
	if user["id"] == nil || user["email"] != "alice@example.com" || work["id"] == nil || work["name"] == "" || work["plan"] != "free" {
		t.Errorf("signup body = %s", r.body)
	}
	if tok, _ := m["access_token"].(string); strings.Count(tok, ".") != 2 {
		t.Errorf("access_token %q is not a JWT", tok)
	}
	if _, ok := m["refresh_token"]; ok {
		t.Error("sign-up without token_pair put the refresh token in the body, where scripts can read it")
	}
	checkSessionCookies(t, r, false)

	c.want(409, "POST", "/api/v1/auth/signup", map[string]string{"email": "alice@example.com", "password": "another password"})
	bad := []struct {
		body any
		code int
	}{
		{`{"email":"bob@example.com"`, 400},
		{`{"email":"bob@example.com","password":"correct horse","admin":true}`, 400},
		{`[]`, 400},
		{map[string]string{"email": "bob", "password": password}, 400},
		{map[string]string{"email": "bob@example.com", "password": "short"}, 400},
		{`{"email":"bob@example.com","password":"correct horse battery","token_pair":"yes"}`, 400},
	}
	for _, b := range bad {
		if r := c.do("POST", "/api/v1/auth/signup", b.body); r.code != b.code || r.errorCode() != "invalid" {
			t.Errorf("signup %v: %d %s, want %d invalid", b.body, r.code, r.body, b.code)
		}
	}

	r = e.client().want(200, "POST", "/api/v1/auth/login", map[string]string{"email": "alice@example.com", "password": password})
	m = r.json()
	if id(m["user"]) != int64(user["id"].(float64)) || m["access_token"] == "" {
		t.Errorf("login body = %s", r.body)
	}
	if _, ok := m["refresh_token"]; ok {
		t.Error("login without token_pair put the refresh token in the body")
	}
	checkSessionCookies(t, r, false)

	// Programs ask for the pair explicitly.
	r = e.client().want(200, "POST", "/api/v1/auth/login", map[string]any{"email": "alice@example.com", "password": password, "token_pair": true})
	if tok, _ := r.json()["refresh_token"].(string); tok == "" {
		t.Errorf("login with token_pair: no refresh_token in %s", r.body)
	}
	checkSessionCookies(t, r, false)
	r = e.client().want(201, "POST", "/api/v1/auth/signup", map[string]any{"email": "dave@example.com", "password": password, "token_pair": true})
	if tok, _ := r.json()["refresh_token"].(string); tok == "" {
		t.Errorf("signup with token_pair: no refresh_token in %s", r.body)
	}
	checkSessionCookies(t, r, false)

	// A wrong password and an unknown email answer alike.
	wrong := e.client().want(401, "POST", "/api/v1/auth/login", map[string]string{"email": "alice@example.com", "password": "wrong password"})
	unknown := e.client().want(401, "POST", "/api/v1/auth/login", map[string]string{"email": "nobody@example.com", "password": password})
	if !bytes.Equal(wrong.body, unknown.body) || wrong.errorCode() != "unauthorized" {
		t.Errorf("wrong password %s and unknown email %s answer differently", wrong.body, unknown.body)
	}
	if wrong.cookie("sl_access") != nil {
		t.Error("a failed login set a session cookie")
	}

	secure := newEnv(t, true).client()
	checkSessionCookies(t, secure.want(201, "POST", "/api/v1/auth/signup", map[string]string{"email": "carol@example.com", "password": password}), true)
}

func checkSessionCookies(t *testing.T, r *response, secure bool) {
	t.Helper()
	want := []struct {
		name, path string
		httpOnly   bool
		sameSite   http.SameSite
	}{
		{"sl_access", "/", true, http.SameSiteLaxMode},
		{"sl_refresh", "/api/v1/auth", true, http.SameSiteStrictMode},
		{"sl_csrf", "/", false, http.SameSiteLaxMode},
	}
	for _, w := range want {
		c := r.cookie(w.name)
		if c == nil {
			t.Errorf("no %s cookie", w.name)
			continue
		}
		if c.Value == "" || c.Path != w.path || c.HttpOnly != w.httpOnly || c.SameSite != w.sameSite || c.Secure != secure || c.MaxAge <= 0 {
			t.Errorf("%s cookie = %+v; want path %s, HttpOnly %v, SameSite %v, Secure %v", w.name, c, w.path, w.httpOnly, w.sameSite, secure)
		}
	}
	if tok, ok := r.json()["refresh_token"]; ok && tok != r.cookie("sl_refresh").Value {
		t.Error("the refresh token in the body and the cookie differ")
	}
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	web := e.client()
	web.want(201, "POST", "/api/v1/auth/signup", map[string]string{"email": "alice@example.com", "password": password})
	bearer, _, _ := e.signup("bob@example.com")
	create := map[string]string{"name": "New"}

	tests := []struct {
		name   string
		setup  func(c *client)
		method string
		path   string
		code   int
	}{
		{"no credentials", func(c *client) { c.cookies = map[string]string{} }, "GET", "/api/v1/me", 401},
		{"bad bearer", func(c *client) { c.cookies = map[string]string{}; c.bearer = "nonsense" }, "GET", "/api/v1/me", 401},
		{"bad API key", func(c *client) { c.cookies = map[string]string{}; c.bearer = "sl_nonsense" }, "GET", "/api/v1/me", 401},
		{"bad cookie", func(c *client) { c.cookies["sl_access"] = "nonsense" }, "GET", "/api/v1/me", 401},
		{"cookie, safe method", func(c *client) {}, "GET", "/api/v1/me", 200},
		{"cookie, no CSRF header", func(c *client) { c.noCSRF = true }, "POST", "/api/v1/workspaces", 403},
		{"cookie, wrong CSRF header", func(c *client) { c.csrf = "forged" }, "POST", "/api/v1/workspaces", 403},
		{"cookie, CSRF header of another session", func(c *client) { c.csrf = web.cookies["sl_csrf"] + "x" }, "POST", "/api/v1/workspaces", 403},
		{"cookie, no CSRF cookie", func(c *client) { delete(c.cookies, "sl_csrf") }, "POST", "/api/v1/workspaces", 403},
		{"cookie, CSRF header", func(c *client) {}, "POST", "/api/v1/workspaces", 201},
		{"cookie, CSRF on DELETE too", func(c *client) { c.noCSRF = true }, "DELETE", "/api/v1/me/invitations/1", 403},
	}
	for _, tt := range tests {
		c := &client{e: e, ip: web.ip, cookies: map[string]string{}}
		for k, v := range web.cookies {
			c.cookies[k] = v
		}
		tt.setup(c)
		var body any
		if tt.method == "POST" {
			body = create
		}
		r := c.do(tt.method, tt.path, body)
		if r.code != tt.code {
			t.Errorf("%s: %s %s = %d %s, want %d", tt.name, tt.method, tt.path, r.code, r.body, tt.code)
		}
		if tt.code == 403 && !strings.Contains(r.errorMessage(), "X-CSRF-Token") {
			t.Errorf("%s: message %q does not name the header", tt.name, r.errorMessage())
		}
	}

	// Bearer tokens need no CSRF header: browsers never add them on their own.
	bearer.want(201, "POST", "/api/v1/workspaces", create)
	bearer.bearer = "Basic"
	r := bearer.do("GET", "/api/v1/me", nil)
	if r.code != 401 {
		t.Errorf("malformed Authorization: %d", r.code)
	}
}

func TestRefreshAndLogout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	api := e.client()
	m := api.want(201, "POST", "/api/v1/auth/signup", map[string]any{"email": "alice@example.com", "password": password, "token_pair": true}).json()
	api.cookies = map[string]string{} // an API client: tokens in bodies only
	r1 := m["refresh_token"].(string)

	m = api.want(200, "POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": r1}).json()
	r2, access := m["refresh_token"].(string), m["access_token"].(string)
	if r2 == "" || r2 == r1 || access == "" || m["user"] == nil {
		t.Fatalf("refresh body = %v", m)
	}
	api.cookies = map[string]string{}
	api.bearer = access
	api.want(200, "GET", "/api/v1/me", nil)
	api.bearer = ""

	// The first token again: a replay. The session is over, for the newest token too.
	if r := api.do("POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": r1}); r.code != 401 {
		t.Errorf("replayed refresh token: %d %s", r.code, r.body)
	}
	if r := api.do("POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": r2}); r.code != 401 {
		t.Errorf("newest refresh token after a replay: %d %s", r.code, r.body)
	}
	api.want(401, "POST", "/api/v1/auth/refresh", nil)

	// The web app refreshes with its cookie, which needs the CSRF header.
	web := e.client()
	web.want(200, "POST", "/api/v1/auth/login", map[string]string{"email": "alice@example.com", "password": password})
	web.noCSRF = true
	web.want(403, "POST", "/api/v1/auth/refresh", nil)
	web.noCSRF = false
	before := web.cookies["sl_refresh"]
	r := web.want(200, "POST", "/api/v1/auth/refresh", nil)
	checkSessionCookies(t, r, false)
	if _, ok := r.json()["refresh_token"]; ok {
		t.Error("a cookie refresh put the refresh token in the body, where scripts can read it")
	}
	if web.cookies["sl_refresh"] == before {
		t.Error("refresh did not rotate the cookie")
	}
	web.want(200, "GET", "/api/v1/me", nil)

	// Logout ends the session and clears the cookies.
	latest := web.cookies["sl_refresh"]
	r = web.want(204, "POST", "/api/v1/auth/logout", nil)
	for _, name := range []string{"sl_access", "sl_refresh", "sl_csrf"} {
		if c := r.cookie(name); c == nil || c.MaxAge >= 0 {
			t.Errorf("logout did not clear %s: %+v", name, c)
		}
	}
	web.want(401, "GET", "/api/v1/me", nil)
	api.want(401, "POST", "/api/v1/auth/refresh", map[string]string{"refresh_token": latest})
}

func TestLoginRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	e.signup("alice@example.com")
	c := e.client()
	c.ip = "203.0.113.5"
	for i := range 5 {
		r := c.do("POST", "/api/v1/auth/login", map[string]string{"email": "alice@example.com", "password": fmt.Sprintf("guess %d!", i)})
		if r.code != 401 {
			t.Fatalf("attempt %d: %d %s, want 401", i+1, r.code, r.body)
		}
	}
	for _, pw := range []string{"guess 6!", password} {
		r := c.do("POST", "/api/v1/auth/login", map[string]string{"email": "alice@example.com", "password": pw})
		if r.code != 429 || r.errorCode() != "rate_limited" {
			t.Fatalf("attempt after the limit: %d %s, want 429 rate_limited", r.code, r.body)
		}
		if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 || s > 60*60 {
			t.Errorf("Retry-After = %q", r.header.Get("Retry-After"))
		}
	}
	// Another account from the same address is still let in.
	e.signup("bob@example.com")
	c.want(200, "POST", "/api/v1/auth/login", map[string]string{"email": "bob@example.com", "password": password})
}

var keyShape = regexp.MustCompile(`^sl_[0-9A-Za-z]{40}$`)

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	alice, _, wsA := e.signup("alice@example.com")
	_, _, wsB := e.signup("bob@example.com")

	for _, body := range []any{
		map[string]any{"name": "ci", "scopes": []string{"links:read", "links:delete"}},
		map[string]any{"name": "ci", "scopes": []string{}},
		map[string]any{"name": "ci"},
		map[string]any{"name": "", "scopes": []string{"links:read"}},
		map[string]any{"name": "ci", "scopes": "links:read"},
	} {
		if r := alice.do("POST", ws(wsA, "/api-keys"), body); r.code != 400 {
			t.Errorf("create key %v: %d %s, want 400", body, r.code, r.body)
		}
	}

	r := alice.want(201, "POST", ws(wsA, "/api-keys"), map[string]any{"name": "reader", "scopes": []string{"links:read"}})
	m := r.json()
	secret, _ := m["key"].(string)
	if !keyShape.MatchString(secret) || m["id"] == nil || m["name"] != "reader" || m["prefix"] != secret[:10] ||
		fmt.Sprint(m["scopes"]) != "[links:read]" || m["created_at"] == nil {
		t.Errorf("create key body = %s", r.body)
	}
	keyID := int64(m["id"].(float64))
	if list := alice.want(200, "GET", ws(wsA, "/api-keys"), nil); bytes.Contains(list.body, []byte(secret[10:])) {
		t.Errorf("the listing shows the secret: %s", list.body)
	}

	key := e.client()
	key.bearer = secret
	denied := []struct {
		method, path, scope string
		code                int
	}{
		{"GET", ws(wsB, ""), "", 404},
		{"GET", ws(wsB, "/links"), "", 404},
		{"POST", ws(wsA, "/links"), "links:write", 403},
		{"GET", ws(wsA, ""), "", 403},
		{"GET", ws(wsA, "/members"), "", 403},
		{"GET", "/api/v1/workspaces", "", 403},
		{"GET", ws(wsA, "/api-keys"), "", 403},
		{"POST", ws(wsA, "/api-keys"), "", 403},
		{"PATCH", ws(wsA, ""), "", 403},
		{"DELETE", ws(wsA, ""), "", 403},
		{"POST", ws(wsA, "/invitations"), "", 403},
		{"GET", "/api/v1/me", "", 403},
		{"POST", "/api/v1/workspaces", "", 403},
		{"GET", "/api/v1/admin/workspaces", "", 403},
	}
	for _, d := range denied {
		r := key.do(d.method, d.path, map[string]any{})
		if r.code != d.code || (d.scope != "" && !strings.Contains(r.errorMessage(), d.scope)) {
			t.Errorf("key %s %s: %d %s, want %d naming %q", d.method, d.path, r.code, r.body, d.code, d.scope)
		}
	}

	alice.want(204, "DELETE", ws(wsA, "/api-keys/"+strconv.FormatInt(keyID, 10)), nil)
	if r := key.do("GET", ws(wsA, ""), nil); r.code != 401 {
		t.Errorf("revoked key: %d %s, want 401", r.code, r.body)
	}
	alice.want(404, "DELETE", ws(wsA, "/api-keys/"+strconv.FormatInt(keyID, 10)), nil)
}

// TestIsolation: another workspace answers exactly like one that does not exist, whatever
// the caller names in the path.
func TestIsolation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	alice, _, wsA := e.signup("alice@example.com")
	bob, _, wsB := e.signup("bob@example.com")
	e.signup("carol@example.com")
	kb := bob.want(201, "POST", ws(wsB, "/api-keys"), map[string]any{"name": "b", "scopes": []string{"links:read"}}).json()
	keyB := strconv.FormatInt(int64(kb["id"].(float64)), 10)
	ib := bob.want(201, "POST", ws(wsB, "/invitations"), map[string]any{"email": "carol@example.com"}).json()
	invB := strconv.FormatInt(int64(ib["id"].(float64)), 10)

	notFound := alice.want(404, "GET", ws(1<<40, ""), nil).body
	probes := []struct{ method, path string }{
		{"GET", ws(wsB, "")},
		{"PATCH", ws(wsB, "")},
		{"DELETE", ws(wsB, "")},
		{"GET", ws(wsB, "/members")},
		{"DELETE", ws(wsB, "/members/1")},
		{"GET", ws(wsB, "/invitations")},
		{"DELETE", ws(wsB, "/invitations/"+invB)},
		{"GET", ws(wsB, "/api-keys")},
		{"DELETE", ws(wsB, "/api-keys/"+keyB)},
		{"GET", "/api/v1/workspaces/abc"},
		{"GET", "/api/v1/workspaces/-1"},
	}
	for _, p := range probes {
		r := alice.do(p.method, p.path, map[string]any{"name": "x"})
		if r.code != 404 || (strings.HasPrefix(p.path, ws(wsB, "")) && !bytes.Equal(r.body, notFound)) {
			t.Errorf("alice %s %s: %d %s, want 404 like a missing workspace (%s)", p.method, p.path, r.code, r.body, notFound)
		}
	}
	// B's rows named through A's own path are not found either.
	alice.want(404, "DELETE", ws(wsA, "/api-keys/"+keyB), nil)
	alice.want(404, "DELETE", ws(wsA, "/invitations/"+invB), nil)
	// And B is untouched.
	if keys := bob.want(200, "GET", ws(wsB, "/api-keys"), nil).json()["api_keys"].([]any); len(keys) != 1 {
		t.Errorf("B's keys = %v", keys)
	}
	if invs := bob.want(200, "GET", ws(wsB, "/invitations"), nil).json()["invitations"].([]any); len(invs) != 1 {
		t.Errorf("B's invitations = %v", invs)
	}
}

func TestMembersAndInvitations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	owner, ownerID, w := e.signup("owner@example.com")
	viewer, viewerID, _ := e.signup("viewer@example.com")
	admin, adminID, _ := e.signup("admin@example.com")

	owner.want(400, "POST", ws(w, "/invitations"), map[string]any{"email": "viewer@example.com", "role": "owner"})
	owner.want(409, "POST", ws(w, "/invitations"), map[string]any{"email": "owner@example.com"})
	inv := owner.want(201, "POST", ws(w, "/invitations"), map[string]any{"email": "viewer@example.com", "role": "viewer"}).json()
	owner.want(409, "POST", ws(w, "/invitations"), map[string]any{"email": "viewer@example.com", "role": "viewer"})
	invID := strconv.FormatInt(int64(inv["id"].(float64)), 10)

	// Before accepting, the invitee is not in.
	viewer.want(404, "GET", ws(w, ""), nil)
	if mine := viewer.want(200, "GET", "/api/v1/me/invitations", nil).json()["invitations"].([]any); len(mine) != 0 {
		t.Fatalf("unverified, my invitations = %v", mine)
	}
	if r := viewer.want(403, "POST", "/api/v1/me/invitations/"+invID+"/accept", nil); r.errorCode() != "email_unverified" {
		t.Errorf("unverified accept: %s", r.body)
	}
	e.verify("viewer@example.com")
	mine := viewer.want(200, "GET", "/api/v1/me/invitations", nil).json()["invitations"].([]any)
	if len(mine) != 1 || mine[0].(map[string]any)["workspace_name"] == "" {
		t.Fatalf("my invitations = %v", mine)
	}
	e.verify("admin@example.com")
	admin.want(404, "POST", "/api/v1/me/invitations/"+invID+"/accept", nil)
	joined := viewer.want(200, "POST", "/api/v1/me/invitations/"+invID+"/accept", nil).json()
	if int64(joined["id"].(float64)) != w || joined["role"] != "viewer" {
		t.Errorf("accept = %v", joined)
	}
	ai := owner.want(201, "POST", ws(w, "/invitations"), map[string]any{"email": "admin@example.com", "role": "admin"}).json()
	admin.want(200, "POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", int64(ai["id"].(float64))), nil)

	me := viewer.want(200, "GET", "/api/v1/me", nil).json()
	if len(me["workspaces"].([]any)) != 2 || me["user"].(map[string]any)["email"] != "viewer@example.com" {
		t.Errorf("me = %v", me)
	}

	member := func(uid int64) string { return ws(w, "/members/"+strconv.FormatInt(uid, 10)) }
	steps := []struct {
		name   string
		c      *client
		method string
		path   string
		body   any
		code   int
	}{
		{"viewer sees members", viewer, "GET", ws(w, "/members"), nil, 200},
		{"viewer cannot create keys", viewer, "POST", ws(w, "/api-keys"), map[string]any{"name": "k", "scopes": []string{"links:read"}}, 403},
		{"viewer cannot rename", viewer, "PATCH", ws(w, ""), map[string]any{"name": "x"}, 403},
		{"viewer cannot invite", viewer, "POST", ws(w, "/invitations"), map[string]any{"email": "admin@example.com"}, 403},
		{"viewer cannot change roles", viewer, "PATCH", member(viewerID), map[string]any{"role": "admin"}, 403},
		{"viewer cannot remove others", viewer, "DELETE", member(adminID), nil, 403},
		{"admin renames", admin, "PATCH", ws(w, ""), map[string]any{"name": "Renamed"}, 200},
		{"admin cannot delete", admin, "DELETE", ws(w, ""), nil, 403},
		{"admin cannot demote the owner", admin, "PATCH", member(ownerID), map[string]any{"role": "member"}, 403},
		{"admin cannot remove the owner", admin, "DELETE", member(ownerID), nil, 403},
		{"admin cannot make owners", admin, "PATCH", member(viewerID), map[string]any{"role": "owner"}, 403},
		{"admin promotes the viewer", admin, "PATCH", member(viewerID), map[string]any{"role": "member"}, 200},
		{"unknown role", owner, "PATCH", member(viewerID), map[string]any{"role": "god"}, 400},
		{"the last owner cannot step down", owner, "PATCH", member(ownerID), map[string]any{"role": "admin"}, 409},
		{"the last owner cannot leave", owner, "DELETE", member(ownerID), nil, 409},
		{"a member may leave", viewer, "DELETE", member(viewerID), nil, 204},
		{"gone", viewer, "GET", ws(w, ""), nil, 404},
		{"owner deletes", owner, "DELETE", ws(w, ""), nil, 204},
		{"deleted", owner, "GET", ws(w, ""), nil, 404},
	}
	for _, s := range steps {
		if r := s.c.do(s.method, s.path, s.body); r.code != s.code {
			t.Fatalf("%s: %s %s = %d %s, want %d", s.name, s.method, s.path, r.code, r.body, s.code)
		}
	}
}

func TestAdmin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	if _, err := e.accounts.EnsureOperator(context.Background(), "ops@example.com", "operator password", false); err != nil {
		t.Fatal(err)
	}
	op := e.client()
	op.bearer = op.want(200, "POST", "/api/v1/auth/login", map[string]string{"email": "ops@example.com", "password": "operator password"}).json()["access_token"].(string)
	op.cookies = map[string]string{}
	user, userID, w := e.signup("alice@example.com")
	path := "/api/v1/admin/workspaces/" + strconv.FormatInt(w, 10)

	user.want(403, "PATCH", path, map[string]string{"plan": "enterprise"})
	user.want(403, "GET", "/api/v1/admin/workspaces", nil)

	m := op.want(200, "PATCH", path, map[string]string{"plan": "enterprise"}).json()
	if int64(m["id"].(float64)) != w || m["plan"] != "enterprise" {
		t.Errorf("set plan = %v", m)
	}
	if got := user.want(200, "GET", ws(w, ""), nil).json(); got["plan"] != "enterprise" {
		t.Errorf("workspace after plan change = %v", got)
	}
	op.want(400, "PATCH", path, map[string]string{"plan": "platinum"})
	op.want(400, "PATCH", path, map[string]string{"name": "x"})
	op.want(404, "PATCH", "/api/v1/admin/workspaces/999999999", map[string]string{"plan": "trial"})
	op.want(404, "PATCH", "/api/v1/admin/workspaces/abc", map[string]string{"plan": "trial"})

	page := op.want(200, "GET", "/api/v1/admin/workspaces?limit=1", nil).json()
	if list := page["workspaces"].([]any); len(list) != 1 || id(list[0]) != w || page["next_cursor"] == "" {
		t.Errorf("first page = %v", page)
	}
	next := op.want(200, "GET", "/api/v1/admin/workspaces?limit=1&cursor="+page["next_cursor"].(string), nil).json()
	if list := next["workspaces"].([]any); len(list) != 1 || id(list[0]) == w {
		t.Errorf("second page = %v", next)
	}
	op.want(400, "GET", "/api/v1/admin/workspaces?limit=1000", nil)
	op.want(400, "GET", "/api/v1/admin/users?cursor=!!", nil)

	upath := "/api/v1/admin/users/" + strconv.FormatInt(userID, 10)
	if r := op.want(403, "PATCH", upath, map[string]string{"system_role": "operator"}); r.errorCode() != "email_unverified" {
		t.Errorf("unverified promotion: %s", r.body)
	}
	e.verify("alice@example.com")
	if m := op.want(200, "PATCH", upath, map[string]string{"system_role": "operator"}).json(); m["system_role"] != "operator" {
		t.Errorf("set system role = %v", m)
	}
	// A token signed before the promotion carries none of it; a new sign-in does.
	user.want(401, "GET", "/api/v1/admin/users", nil)
	user.bearer = user.want(200, "POST", "/api/v1/auth/login", map[string]string{"email": "alice@example.com", "password": password}).json()["access_token"].(string)
	user.cookies = map[string]string{}
	user.want(200, "GET", "/api/v1/admin/users", nil)
	// Taking the role away works at once, with the token issued before.
	op.want(200, "PATCH", upath, map[string]string{"system_role": "user"})
	user.want(403, "GET", "/api/v1/admin/users", nil)
	op.want(400, "PATCH", upath, map[string]string{"system_role": "root"})
}
