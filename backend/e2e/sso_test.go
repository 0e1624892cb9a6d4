package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// ssoCallback is the redirect URI the test deployments register with their providers.
const ssoCallback = "http://" + shortHost + "/api/v1/auth/sso/callback"

// idpClientSecret is the secret of the client "shortlink" at every test provider.
const idpClientSecret = "idp-client-secret-0123456789"

// idpUsers are a provider's people, by user name.
type idpUsers map[string]*storage.User

func (u idpUsers) GetUserByID(id string) *storage.User {
	for _, x := range u {
		if x.ID == id {
			return x
		}
	}
	return nil
}
func (u idpUsers) GetUserByUsername(name string) *storage.User { return u[name] }
func (u idpUsers) ExampleClientID() string                     { return "service" }

// idpUser is a person of a test provider; their password is their user name backwards.
func idpUser(name, email string, verified bool) *storage.User {
	return &storage.User{ID: "id-" + name, Username: name, Password: "pw-" + name, FirstName: name, LastName: "Test",
		Email: email, EmailVerified: verified, PreferredLanguage: language.English}
}

// idpStorage is the example provider's storage with authorization codes that expire.
type idpStorage struct {
	*storage.Storage
	mu      sync.Mutex
	issued  map[string]time.Time
	codeTTL time.Duration
}

func (s *idpStorage) SaveAuthCode(ctx context.Context, id, code string) error {
	s.mu.Lock()
	s.issued[code] = time.Now()
	s.mu.Unlock()
	return s.Storage.SaveAuthCode(ctx, id, code)
}

func (s *idpStorage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	at, ok := s.issued[code]
	ttl := s.codeTTL
	s.mu.Unlock()
	if !ok || time.Since(at) > ttl {
		return nil, errors.New("code invalid or expired")
	}
	return s.Storage.AuthRequestByCode(ctx, code)
}

func (s *idpStorage) setCodeTTL(d time.Duration) {
	s.mu.Lock()
	s.codeTTL = d
	s.mu.Unlock()
}

func newIdPStorage(users idpUsers) *idpStorage {
	clients := map[string]*storage.Client{"shortlink": storage.WebClient("shortlink", idpClientSecret, ssoCallback)}
	return &idpStorage{Storage: storage.NewStorageWithClients(users, clients), issued: map[string]time.Time{}, codeTTL: time.Minute}
}

// idp is a real OpenID provider (zitadel/oidc's example OP) on a loopback port.
type idp struct {
	URL   string // the issuer
	store *idpStorage
}

func startIdP(t *testing.T, st *idpStorage, opts ...op.Option) *idp {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	issuer := "http://" + l.Addr().String()
	srv := &http.Server{Handler: exampleop.SetupServer(issuer, st, nil, false, opts...), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return &idp{URL: issuer, store: st}
}

// ssoBrowser is a browser of one person: a cookie jar, the short domain mapped to the server,
// stopping at the service's callback so the test sends it.
func (s *server) ssoBrowser() *http.Client {
	jar, _ := cookiejar.New(nil)
	addr := strings.TrimPrefix(s.base, "http://")
	tr := &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
		if a == shortHost+":80" {
			a = addr
		}
		var d net.Dialer
		return d.DialContext(ctx, network, a)
	}}
	return &http.Client{Jar: jar, Transport: tr, Timeout: 20 * time.Second,
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			if req.URL.Path == "/api/v1/auth/sso/callback" {
				return http.ErrUseLastResponse
			}
			return nil
		}}
}

var authRequestID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// ssoSignIn starts a sign-in of email in browser b, signs in at the provider's login page as
// user, and returns the provider's redirect to the service's callback, not yet followed.
func (s *server) ssoSignIn(b *http.Client, email, user string) *url.URL {
	s.t.Helper()
	return s.ssoSignInAt(b, "/api/v1/auth/sso/start?email="+url.QueryEscape(email), user)
}

// ssoSignInAt is ssoSignIn from a start path and query of the test's own.
func (s *server) ssoSignInAt(b *http.Client, start, user string) *url.URL {
	s.t.Helper()
	res, err := b.Get("http://" + shortHost + start)
	if err != nil {
		s.t.Fatalf("start: %v", err)
	}
	page, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	m := authRequestID.FindSubmatch(page)
	if res.StatusCode != http.StatusOK || m == nil {
		s.t.Fatalf("the provider's login page: %d %s %.300s", res.StatusCode, res.Request.URL, page)
	}
	login := res.Request.URL.ResolveReference(&url.URL{Path: "/login/username"})
	res, err = b.PostForm(login.String(), url.Values{"id": {string(m[1])}, "username": {user}, "password": {"pw-" + user}})
	if err != nil {
		s.t.Fatalf("login at the provider: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != http.StatusFound {
		s.t.Fatalf("login at the provider: %d %.300s", res.StatusCode, body)
	}
	cb, err := url.Parse(res.Header.Get("Location"))
	if err != nil || cb.Path != "/api/v1/auth/sso/callback" {
		s.t.Fatalf("the provider's redirect %q", res.Header.Get("Location"))
	}
	return cb
}

// stateCookie is the sl_sso cookie browser b holds.
func stateCookie(b *http.Client) string {
	u, _ := url.Parse(ssoCallback)
	for _, c := range b.Jar.Cookies(u) {
		if c.Name == "sl_sso" {
			return c.Value
		}
	}
	return ""
}

// ssoFinish sends the provider's redirect to the service with the state cookie given ("" for
// none), as a browser following it would.
func (s *server) ssoFinish(cb *url.URL, cookie string) response {
	s.t.Helper()
	req, err := http.NewRequest("GET", s.base+cb.RequestURI(), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Host = shortHost
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "sl_sso", Value: cookie})
	}
	return s.send(req)
}

// ssoMe is the /me answer of the session whose cookies r set.
func (s *server) ssoMe(r response) (id int64, email string) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.base+"/api/v1/me", nil)
	n := 0
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "sl_access" && c.Value != "" {
			req.AddCookie(c)
			n++
		}
	}
	if n == 0 {
		s.t.Fatalf("no session cookie: %d %s", r.Status, r.Body)
	}
	me := answer[struct {
		User struct {
			ID            int64
			Email         string
			EmailVerified bool `json:"email_verified"`
		}
	}](s.t, s.send(req), http.StatusOK, "me")
	if !me.User.EmailVerified {
		s.t.Errorf("%s: the address is not marked verified", me.User.Email)
	}
	return me.User.ID, me.User.Email
}

// wantReason fails unless r has status and the error reason.
func wantReason(t *testing.T, r response, status int, reason, what string) {
	t.Helper()
	if r.Status != status || !strings.Contains(string(r.Body), `"reason":"`+reason+`"`) {
		t.Errorf("%s: %d %s, want %d %s", what, r.Status, r.Body, status, reason)
	}
}

type ssoJSON struct {
	Issuer          string `json:"issuer"`
	ClientID        string `json:"client_id"`
	ClientSecretSet bool   `json:"client_secret_set"`
	EmailDomain     string `json:"email_domain"`
	Enforce         bool   `json:"enforce"`
	Verified        bool   `json:"verified"`
	CallbackURL     string `json:"callback_url"`
	Verification    struct {
		Type, Name, Value string
		ProblemReason     string `json:"problem_reason"`
	} `json:"verification"`
}

// ssoSettings sets up single sign-on of tn's workspace through p for domain and proves the
// domain with its TXT record on ns.
func (s *server) ssoSettings(tn tenant, ns *dnsServer, issuer, domain string) ssoJSON {
	s.t.Helper()
	ws := fmt.Sprintf("/api/v1/workspaces/%d/sso", tn.WorkspaceID)
	st := answer[ssoJSON](s.t, s.do("PUT", ws, tn.Token, map[string]any{"issuer": issuer, "client_id": "shortlink",
		"client_secret": idpClientSecret, "email_domain": domain}), http.StatusOK, "put sso "+domain)
	ns.set(st.Verification.Name, st.Verification.Value)
	st = answer[ssoJSON](s.t, s.do("POST", ws+"/verify", tn.Token, nil), http.StatusOK, "verify sso "+domain)
	if !st.Verified {
		s.t.Fatalf("%s not verified: %+v", domain, st)
	}
	return st
}

// TestSSO signs people in through a real OpenID provider: settings for owners of plans with
// sso only, the TXT proof, first and later sign-ins, accounts that exist, replayed and stolen
// states, expired codes, wrong issuers, addresses outside the domain or unverified, and enforce.
func TestSSO(t *testing.T) {
	ns := startDNS(t)
	d := newDeployment(t)
	s := d.start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	users := idpUsers{
		"ann":   idpUser("ann", "ann@sso-acme.com", true),
		"bob":   idpUser("bob", "Bob@SSO-Acme.com", true),
		"carol": idpUser("carol", "carol@sso-acme.com", true),
		"dan":   idpUser("dan", "dan@sso-acme.com", false),
		"eve":   idpUser("eve", "eve@elsewhere.com", true),
		"gil":   idpUser("gil", "gil@sso-gamma.com", true),
	}
	p := startIdP(t, newIdPStorage(users))
	owner := s.signupOn("owner@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	settings := map[string]any{"issuer": p.URL, "client_id": "shortlink", "client_secret": idpClientSecret,
		"email_domain": "SSO-Acme.COM."}

	// Plans without sso: 403 plan_required.
	free := s.signup("free@example.com")
	wantReason(t, s.do("PUT", fmt.Sprintf("/api/v1/workspaces/%d/sso", free.WorkspaceID), free.Token, settings),
		http.StatusForbidden, "plan_required", "free plan")

	// Enforce needs the proof first; the answer names the record to set and never the secret.
	enforced := map[string]any{"enforce": true}
	for k, v := range settings {
		enforced[k] = v
	}
	wantReason(t, s.do("PUT", ws+"/sso", owner.Token, enforced), http.StatusConflict, "sso_domain_unverified", "enforce before the proof")
	r := s.do("PUT", ws+"/sso", owner.Token, settings)
	st := answer[ssoJSON](t, r, http.StatusOK, "put sso")
	if st.EmailDomain != "sso-acme.com" || st.Verified || !st.ClientSecretSet || st.Verification.Name != "_shortlink-sso.sso-acme.com" ||
		st.Verification.Value == "" || st.CallbackURL != ssoCallback || strings.Contains(string(r.Body), idpClientSecret) {
		t.Fatalf("settings: %s", r.Body)
	}
	r = s.do("GET", ws+"/sso", owner.Token, nil)
	if r.Status != http.StatusOK || strings.Contains(string(r.Body), idpClientSecret) {
		t.Fatalf("get sso: %d %s", r.Status, r.Body)
	}
	var sealed []byte
	if err := d.conn(t).QueryRow(context.Background(), `SELECT client_secret FROM workspace_sso WHERE workspace_id = $1`,
		owner.WorkspaceID).Scan(&sealed); err != nil || len(sealed) == 0 || strings.Contains(string(sealed), idpClientSecret) {
		t.Fatalf("the stored secret is readable (%v): %q", err, sealed)
	}

	// Unproven: nobody signs in through it.
	wantReason(t, s.do("GET", "/api/v1/auth/sso/start?email=ann@sso-acme.com", "", nil), http.StatusNotFound, "sso_not_configured", "start before the proof")
	st = answer[ssoJSON](t, s.do("POST", ws+"/sso/verify", owner.Token, nil), http.StatusOK, "verify without record")
	if st.Verified || st.Verification.ProblemReason != "txt_record_missing" {
		t.Fatalf("verified without the record: %+v", st)
	}
	ns.set(st.Verification.Name, st.Verification.Value)
	if st = answer[ssoJSON](t, s.do("POST", ws+"/sso/verify", owner.Token, nil), http.StatusOK, "verify"); !st.Verified {
		t.Fatalf("not verified: %+v", st)
	}

	// One workspace per domain.
	rival := s.signupOn("rival@example.com", "enterprise")
	wantReason(t, s.do("PUT", fmt.Sprintf("/api/v1/workspaces/%d/sso", rival.WorkspaceID), rival.Token, settings),
		http.StatusConflict, "sso_domain_taken", "a domain another workspace proved")

	// First sign-in: the account is made, verified, without a password, and joins as a member.
	ann := s.ssoBrowser()
	cb := s.ssoSignIn(ann, "ann@sso-acme.com", "ann")
	cookie := stateCookie(ann)
	r = s.ssoFinish(cb, cookie)
	if r.Status != http.StatusFound || r.Header.Get("Location") != "/app/" {
		t.Fatalf("callback: %d %v %s", r.Status, r.Header, r.Body)
	}
	annID, email := s.ssoMe(r)
	if email != "ann@sso-acme.com" {
		t.Fatalf("signed in as %s", email)
	}
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "ann@sso-acme.com", "password": "correct horse battery"}),
		http.StatusUnauthorized, "login_failed", "a password for an account made by sign-on")
	// The same callback again: the state was used.
	wantReason(t, s.ssoFinish(cb, cookie), http.StatusUnauthorized, "sso_state_invalid", "replayed state")

	// The second sign-in finds the same account; it joins once.
	r = s.ssoFinish(s.ssoSignIn(ann, "ann@sso-acme.com", "ann"), stateCookie(ann))
	if id, _ := s.ssoMe(r); id != annID {
		t.Fatalf("second sign-in: user %d, first %d", id, annID)
	}
	members := answer[struct {
		Members []struct {
			UserID int64 `json:"user_id"`
			Role   string
		}
	}](t, s.do("GET", ws+"/members", owner.Token, nil), http.StatusOK, "members")
	joined := 0
	for _, m := range members.Members {
		if m.UserID == annID {
			joined++
			if m.Role != "member" {
				t.Errorf("ann's role %q", m.Role)
			}
		}
	}
	if joined != 1 {
		t.Fatalf("ann is a member %d times: %+v", joined, members)
	}

	// An account that exists with a verified address keeps its password and joins.
	bob := s.signup("bob@sso-acme.com")
	s.verify("bob@sso-acme.com")
	r = s.ssoFinish(s.ssoSignIn(s.ssoBrowser(), "bob@sso-acme.com", "bob"), "")
	wantReason(t, r, http.StatusUnauthorized, "sso_state_invalid", "a callback without the browser's state cookie")
	bb := s.ssoBrowser()
	r = s.ssoFinish(s.ssoSignIn(bb, "bob@sso-acme.com", "bob"), stateCookie(bb))
	if id, _ := s.ssoMe(r); id != bob.UserID {
		t.Fatalf("bob signed in as user %d, not his account %d", id, bob.UserID)
	}
	s.login("bob@sso-acme.com")

	// An account whose address was never verified is taken over: its password and keys end.
	carol := s.signup("carol@sso-acme.com")
	cb2 := s.ssoBrowser()
	r = s.ssoFinish(s.ssoSignIn(cb2, "carol@sso-acme.com", "carol"), stateCookie(cb2))
	if id, _ := s.ssoMe(r); id != carol.UserID {
		t.Fatalf("carol signed in as user %d, not %d", id, carol.UserID)
	}
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "carol@sso-acme.com", "password": "correct horse battery"}),
		http.StatusUnauthorized, "login_failed", "the squatter's password")
	eventually(t, 10*time.Second, "the squatter's key revoked", func() bool {
		return s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", carol.WorkspaceID), carol.Key, nil).Status == http.StatusUnauthorized
	})

	// A state link opened in another browser signs nobody in, and leaves the real one working.
	victim, thief := s.ssoBrowser(), s.ssoBrowser()
	cb = s.ssoSignIn(victim, "ann@sso-acme.com", "ann")
	s.ssoSignIn(thief, "ann@sso-acme.com", "ann")
	wantReason(t, s.ssoFinish(cb, stateCookie(thief)), http.StatusUnauthorized, "sso_state_invalid", "another browser's state cookie")
	if r = s.ssoFinish(cb, stateCookie(victim)); r.Status != http.StatusFound {
		t.Fatalf("the real browser after the thief: %d %s", r.Status, r.Body)
	}

	// An expired code.
	p.store.setCodeTTL(0)
	b := s.ssoBrowser()
	wantReason(t, s.ssoFinish(s.ssoSignIn(b, "ann@sso-acme.com", "ann"), stateCookie(b)), http.StatusUnauthorized, "sso_failed", "expired code")
	p.store.setCodeTTL(time.Minute)

	// The provider vouches for an address outside the domain, or an unverified one.
	b = s.ssoBrowser()
	wantReason(t, s.ssoFinish(s.ssoSignIn(b, "ann@sso-acme.com", "eve"), stateCookie(b)), http.StatusForbidden, "sso_email_domain", "address outside the domain")
	b = s.ssoBrowser()
	wantReason(t, s.ssoFinish(s.ssoSignIn(b, "dan@sso-acme.com", "dan"), stateCookie(b)), http.StatusForbidden, "sso_email_unverified", "email_verified false")
	// Neither made an account.
	for _, e := range []string{"eve@elsewhere.com", "dan@sso-acme.com"} {
		if r := s.do("POST", "/api/v1/auth/password-reset", "", map[string]string{"email": e}); r.Status != http.StatusAccepted {
			t.Errorf("reset for %s: %d", e, r.Status)
		}
	}
	var made int
	if err := d.conn(t).QueryRow(context.Background(), `SELECT count(*) FROM users WHERE email IN ('eve@elsewhere.com', 'dan@sso-acme.com')`).Scan(&made); err != nil || made != 0 {
		t.Errorf("accounts made for refused sign-ins: %d %v", made, err)
	}

	// Enforce: passwords, sign-ups and resets of the domain are refused; sign-on works.
	delete(enforced, "client_secret") // kept
	if st := answer[ssoJSON](t, s.do("PUT", ws+"/sso", owner.Token, enforced), http.StatusOK, "enforce"); !st.Enforce || !st.Verified || !st.ClientSecretSet {
		t.Fatalf("enforce: %+v", st)
	}
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "bob@sso-acme.com", "password": "correct horse battery"}),
		http.StatusForbidden, "sso_required", "password login with enforce")
	wantReason(t, s.do("POST", "/api/v1/auth/signup", "", map[string]string{"email": "new@SSO-ACME.com", "password": "correct horse battery"}),
		http.StatusForbidden, "sso_required", "sign-up with enforce")
	wantReason(t, s.do("POST", "/api/v1/auth/password-reset", "", map[string]string{"email": "bob@sso-acme.com"}),
		http.StatusForbidden, "sso_required", "password reset with enforce")
	s.login("owner@example.com")
	b = s.ssoBrowser()
	if r = s.ssoFinish(s.ssoSignIn(b, "bob@sso-acme.com", "bob"), stateCookie(b)); r.Status != http.StatusFound {
		t.Fatalf("sign-on with enforce: %d %s", r.Status, r.Body)
	}

	// A browser gets errors as a way back to the sign-in page.
	req, _ := http.NewRequest("GET", s.base+"/api/v1/auth/sso/start?email=x@nowhere.example.com", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	if r := s.send(req); r.Status != http.StatusFound || r.Header.Get("Location") != "/app/login?sso_error=sso_not_configured" {
		t.Errorf("a browser's error: %d %v", r.Status, r.Header)
	}
	// The return path stays in the web app.
	for ret, want := range map[string]string{"/app/links?x=1": "/app/links?x=1", "//evil.example/app/": "/app/",
		"https://evil.example/app/": "/app/", "/app/../api/v1/me": "/app/", "/\\evil.example/app/": "/app/"} {
		b = s.ssoBrowser()
		r = s.ssoFinish(s.ssoSignInAt(b, "/api/v1/auth/sso/start?email=bob@sso-acme.com&return_to="+url.QueryEscape(ret), "bob"), stateCookie(b))
		if r.Status != http.StatusFound || r.Header.Get("Location") != want {
			t.Errorf("return_to %q: %d %q, want %q", ret, r.Status, r.Header.Get("Location"), want)
		}
	}

	// Every change is in the audit log, without the secret.
	r = s.do("GET", ws+"/audit", owner.Token, nil)
	if r.Status != http.StatusOK || strings.Count(string(r.Body), `"sso.changed"`) < 3 || !strings.Contains(string(r.Body), `"sso.member_joined"`) ||
		strings.Contains(string(r.Body), idpClientSecret) {
		t.Errorf("audit: %d %s", r.Status, r.Body)
	}

	// Off: the domain's people get their passwords back.
	if r := s.do("DELETE", ws+"/sso", owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	wantReason(t, s.do("GET", "/api/v1/auth/sso/start?email=ann@sso-acme.com", "", nil), http.StatusNotFound, "sso_not_configured", "start after delete")
	s.login("bob@sso-acme.com")
	wantReason(t, s.do("GET", ws+"/sso", owner.Token, nil), http.StatusNotFound, "sso_not_set", "get after delete")
}

// TestSSOWrongIssuer: settings naming a provider whose discovery names another issuer, and a
// provider whose tokens come from another issuer, sign nobody in.
func TestSSOWrongIssuer(t *testing.T) {
	ns := startDNS(t)
	d := newDeployment(t)
	d.logs = &logBuffer{}
	s := d.start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	users := idpUsers{"gil": idpUser("gil", "gil@sso-gamma.com", true)}
	p := startIdP(t, newIdPStorage(users))
	// Wrong issuers. The settings name an address whose discovery document names another
	// issuer: refused before anyone is sent there.
	proxy := reverseProxy(t, p.URL)
	beta := s.signupOn("beta@example.com", "enterprise")
	s.ssoSettings(beta, ns, proxy, "sso-beta.com")
	wantReason(t, s.do("GET", "/api/v1/auth/sso/start?email=x@sso-beta.com", "", nil), http.StatusServiceUnavailable,
		"sso_provider_unavailable", "discovery naming another issuer")
	if !strings.Contains(d.logs.String(), "did not match the issuer URL returned by provider") {
		t.Errorf("refused for another reason than the issuer: %s", d.logs.String())
	}
	// The provider's token endpoint is another provider's, whose ID tokens name that other
	// issuer: refused at the callback.
	shared := newIdPStorage(users)
	other := startIdP(t, shared)
	tricky := startIdP(t, shared, op.WithCustomTokenEndpoint(op.NewEndpointWithURL("/oauth/token", other.URL+"/oauth/token")))
	gamma := s.signupOn("gamma@example.com", "enterprise")
	s.ssoSettings(gamma, ns, tricky.URL, "sso-gamma.com")
	b := s.ssoBrowser()
	wantReason(t, s.ssoFinish(s.ssoSignIn(b, "gil@sso-gamma.com", "gil"), stateCookie(b)), http.StatusUnauthorized, "sso_failed", "an ID token of another issuer")
	if !strings.Contains(d.logs.String(), "sso id token refused") || !strings.Contains(d.logs.String(), "issued by a different provider") {
		t.Errorf("refused for another reason than the issuer: %s", d.logs.String())
	}

}

// reverseProxy is a reverse proxy on a loopback port in front of target: the same provider under
// another address.
func reverseProxy(t *testing.T, target string) string {
	t.Helper()
	u, _ := url.Parse(target)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: httputil.NewSingleHostReverseProxy(u), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}

// TestSSOSettingsAccess: only the workspace's owner reads and changes its single sign-on;
// admins, API keys and other workspaces' people do not, and see nothing of it.
func TestSSOSettingsAccess(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startIdP(t, newIdPStorage(idpUsers{}))
	owner := s.signupOn("owner@example.com", "enterprise")
	s.ssoSettings(owner, ns, p.URL, "sso-access.com")
	admin := s.joined(owner, "admin@example.com", "admin")
	stranger := s.signupOn("stranger@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d/sso", owner.WorkspaceID)
	body := map[string]any{"issuer": "https://evil.example.com", "client_id": "x", "client_secret": "y", "email_domain": "sso-access.com"}
	for _, c := range []struct {
		who, token string
		status     int
	}{
		{"admin", admin.Token, http.StatusForbidden},
		{"api key", owner.Key, http.StatusForbidden},
		{"another workspace's owner", stranger.Token, http.StatusNotFound},
	} {
		for _, m := range []struct {
			method, path string
			body         any
		}{{"GET", ws, nil}, {"PUT", ws, body}, {"POST", ws + "/verify", nil}, {"DELETE", ws, nil}} {
			r := s.do(m.method, m.path, c.token, m.body)
			if r.Status != c.status || strings.Contains(string(r.Body), "sso-access.com") {
				t.Errorf("%s %s %s: %d %s, want %d", c.who, m.method, m.path, r.Status, r.Body, c.status)
			}
		}
	}
	st := answer[ssoJSON](t, s.do("GET", ws, owner.Token, nil), http.StatusOK, "owner's get")
	if st.Issuer != p.URL || !st.Verified {
		t.Fatalf("changed by someone else: %+v", st)
	}
	// The other workspace's own settings are its own.
	wantReason(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/sso", stranger.WorkspaceID), stranger.Token, nil), http.StatusNotFound, "sso_not_set", "stranger's own")
}

// startSSOWithTwoFactor starts a server whose enterprise workspace (owner) signs domain in
// through a provider that knows zoe@domain, an account with two-factor sign-in on (the account
// and its TOTP secret).
func startSSOWithTwoFactor(t *testing.T, domain string) (*server, tenant, tenant, string) {
	t.Helper()
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startIdP(t, newIdPStorage(idpUsers{"zoe": idpUser("zoe", "zoe@"+domain, true)}))
	owner := s.signupOn("owner@example.com", "enterprise")
	s.ssoSettings(owner, ns, p.URL, domain)
	zoe := s.signup("zoe@" + domain)
	s.verify("zoe@" + domain)
	secret, _ := s.enrol2FA(zoe)
	return s, owner, zoe, secret
}

// isMember reports whether the user is a member of the owner's workspace.
func (s *server) isMember(owner tenant, userID int64) bool {
	s.t.Helper()
	members := answer[struct {
		Members []struct {
			UserID int64 `json:"user_id"`
		}
	}](s.t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/members", owner.WorkspaceID), owner.Token, nil), http.StatusOK, "members")
	for _, m := range members.Members {
		if m.UserID == userID {
			return true
		}
	}
	return false
}

// TestSSOWithTwoFactor: single sign-on does not skip a person's second factor; the callback
// opens no session, makes no membership, and hands the app the token of the second step, in
// the fragment; the membership is made when the code passes. A password sign-in whose first
// step passed before the workspace enforced sign-on opens nothing after.
func TestSSOWithTwoFactor(t *testing.T) {
	s, owner, zoe, secret := startSSOWithTwoFactor(t, "sso-mfa.com")
	// A password sign-in waits for its code.
	pwStep := answer[struct {
		MFAToken string `json:"mfa_token"`
	}](t, s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "zoe@sso-mfa.com", "password": signupPassword}), http.StatusOK, "password step")

	b := s.ssoBrowser()
	cb := s.ssoSignIn(b, "zoe@sso-mfa.com", "zoe")
	req, _ := http.NewRequest("GET", s.base+cb.RequestURI()+"&return_to=x", nil)
	req.AddCookie(&http.Cookie{Name: "sl_sso", Value: stateCookie(b)})
	r := s.send(req)
	loc, _ := url.Parse(r.Header.Get("Location"))
	if r.Status != http.StatusFound || loc == nil || loc.Path != "/app/login" || hasCookie(r, "sl_access") || hasCookie(r, "sl_refresh") {
		t.Fatalf("callback with 2FA on: %d %v", r.Status, r.Header)
	}
	frag, _ := url.ParseQuery(loc.Fragment)
	token := frag.Get("mfa_token")
	if token == "" || frag.Get("return_to") != "/app/" || strings.Contains(loc.RawQuery, token) {
		t.Fatalf("second step's token: %q", loc)
	}
	if s.isMember(owner, zoe.UserID) {
		t.Fatal("the callback made zoe a member before her second factor")
	}
	wantReason(t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": token, "code": "000000"}),
		http.StatusUnauthorized, "code_invalid", "a wrong code")
	if s.isMember(owner, zoe.UserID) {
		t.Fatal("a wrong code made zoe a member")
	}
	l := answer[loginJSON](t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]any{"mfa_token": token,
		"code": totpCode(t, secret, 30*time.Second), "token_pair": true}), http.StatusOK, "second step")
	if l.User.ID != zoe.UserID || l.AccessToken == "" {
		t.Fatalf("second step: %+v", l)
	}
	if !s.isMember(owner, zoe.UserID) {
		t.Fatal("zoe is no member after her second factor")
	}
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/audit", owner.WorkspaceID), owner.Token, nil); !strings.Contains(string(r.Body), `"sso.member_joined"`) {
		t.Errorf("audit: %s", r.Body)
	}

	// Enforce: the sign-on session (begun with the code) stays; the password sign-in waiting
	// for its code is refused before the code is looked at.
	r = s.do("PUT", fmt.Sprintf("/api/v1/workspaces/%d/sso", owner.WorkspaceID), owner.Token, map[string]any{"issuer": s.ssoIssuer(owner),
		"client_id": "shortlink", "email_domain": "sso-mfa.com", "enforce": true})
	if r.Status != http.StatusOK {
		t.Fatalf("enforce: %d %s", r.Status, r.Body)
	}
	if r := s.refreshWith(l.RefreshToken); r.Status != http.StatusOK {
		t.Errorf("the sign-on session after enforce: %d %s", r.Status, r.Body)
	}
	wantReason(t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]string{"mfa_token": pwStep.MFAToken, "code": totpCode(t, secret, 60*time.Second)}),
		http.StatusForbidden, "sso_required", "a password's second step after enforce")
}

// ssoIssuer is the issuer the owner's workspace has set.
func (s *server) ssoIssuer(owner tenant) string {
	s.t.Helper()
	return answer[ssoJSON](s.t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/sso", owner.WorkspaceID), owner.Token, nil), http.StatusOK, "get sso").Issuer
}

// TestSSOCheckedInBackground: a pending email domain is proven by the background checks once its
// record is in place, as custom domains are, and the audit log says the service did it.
func TestSSOCheckedInBackground(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true", "DOMAIN_CHECK_INTERVAL", "1s")
	p := startIdP(t, newIdPStorage(idpUsers{}))
	owner := s.signupOn("owner@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	st := answer[ssoJSON](t, s.do("PUT", ws+"/sso", owner.Token, map[string]any{"issuer": p.URL, "client_id": "shortlink",
		"client_secret": idpClientSecret, "email_domain": "sso-background.com"}), http.StatusOK, "put sso")
	// Looked at without the record: a background round asked for it, and finished.
	asked := ns.askedFor(st.Verification.Name)
	eventually(t, 15*time.Second, "the record asked for in the background", func() bool { return ns.askedFor(st.Verification.Name) > asked })
	afterRounds(t, "domain check rounds", s.app.DomainCheckRounds)
	if st := answer[ssoJSON](t, s.do("GET", ws+"/sso", owner.Token, nil), http.StatusOK, "get"); st.Verified {
		t.Fatal("proven without the record")
	}
	ns.set(st.Verification.Name, st.Verification.Value)
	eventually(t, 15*time.Second, "the domain proven in the background", func() bool {
		return answer[ssoJSON](t, s.do("GET", ws+"/sso", owner.Token, nil), http.StatusOK, "get").Verified
	})
	eventually(t, 5*time.Second, "the audit log's event", func() bool {
		r := s.do("GET", ws+"/audit", owner.Token, nil)
		return strings.Contains(string(r.Body), `"type":"system"`) && strings.Contains(string(r.Body), `"sso.changed"`)
	})
}

// TestSSOProviderAddress: an issuer whose name resolves to an address inside a network, or to
// an IPv6 address that carries one (NAT64, 6to4, IPv4-compatible, IPv4-mapped), or to a
// reserved or benchmarking range, is never connected to, and the answer says "not a public
// address" without naming the address.
func TestSSOProviderAddress(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startIdP(t, newIdPStorage(idpUsers{}))
	owner := s.signupOn("owner@example.com", "enterprise")
	s.ssoSettings(owner, ns, p.URL, "sso-guard.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d/sso", owner.WorkspaceID)
	for i, c := range []struct{ what, addr string }{
		{"NAT64 of a private address", "64:ff9b::a00:1"},
		{"NAT64 of the metadata address", "64:ff9b::a9fe:a9fe"},
		{"6to4 of a private address", "2002:c0a8:101::1"},
		{"IPv4-compatible private address", "::10.0.0.1"},
		{"IPv4-mapped private address", "::ffff:10.0.0.1"},
		{"reserved 240/4", "240.0.0.1"},
		{"benchmarking 198.18/15", "198.18.0.1"},
		{"private 10/8", "10.1.2.3"},
	} {
		a := netip.MustParseAddr(c.addr)
		host := fmt.Sprintf("idp-%d.sso-guard.test", i)
		ns.setAddrs(host, a)
		if r := s.do("PUT", ws, owner.Token, map[string]any{"issuer": "https://" + host, "client_id": "shortlink",
			"email_domain": "sso-guard.com"}); r.Status != http.StatusOK {
			t.Fatalf("%s: put: %d %s", c.what, r.Status, r.Body)
		}
		r := s.do("GET", "/api/v1/auth/sso/start?email=x@sso-guard.com", "", nil)
		wantReason(t, r, http.StatusServiceUnavailable, "sso_provider_not_public", c.what)
		body := string(r.Body)
		if !strings.Contains(body, "not a public address") || strings.Contains(body, a.String()) ||
			strings.Contains(body, a.Unmap().String()) || strings.Contains(body, host) {
			t.Errorf("%s: the answer %s", c.what, body)
		}
	}
	// The provider on loopback (allowed in tests) works again: the refusals were the addresses'.
	if r := s.do("PUT", ws, owner.Token, map[string]any{"issuer": p.URL, "client_id": "shortlink", "email_domain": "sso-guard.com"}); r.Status != http.StatusOK {
		t.Fatalf("put back: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/auth/sso/start?email=x@sso-guard.com", "", nil); r.Status != http.StatusFound {
		t.Errorf("a loopback provider with loopback allowed: %d %s", r.Status, r.Body)
	}
}

// ssoCookie is the value of the named cookie the callback's answer r set.
func ssoCookie(t *testing.T, r response, name string) string {
	t.Helper()
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name && c.Value != "" {
			return c.Value
		}
	}
	t.Fatalf("no %s cookie: %d %v %s", name, r.Status, r.Header, r.Body)
	return ""
}

// refreshWith trades a refresh token sent in the body, as a program keeping its own tokens does.
func (s *server) refreshWith(token string) response {
	s.t.Helper()
	return s.do("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": token})
}

// TestSSOEnforceBindsMembers: enforcing single sign-on is a property of the membership. It
// ends the password sessions of the domain's members (refresh 401, access tokens 401) and
// keeps their sign-on sessions; a bound member cannot move the address out of the domain, set
// or change a password, or use links mailed before the enforcement; staff keep their
// passwords; each is an API error with reason sso_required.
func TestSSOEnforceBindsMembers(t *testing.T) {
	ns := startDNS(t)
	d := newDeployment(t)
	s := d.start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startIdP(t, newIdPStorage(idpUsers{"bob": idpUser("bob", "bob@sso-bind.com", true)}))
	owner := s.signupOn("owner@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	s.ssoSettings(owner, ns, p.URL, "sso-bind.com")

	// Bob signed up with a password, then joined through sign-on: two kinds of session.
	bob := s.signup("bob@sso-bind.com")
	s.verify("bob@sso-bind.com")
	pwAccess, pwRefresh := s.loginPair(t, "bob@sso-bind.com", signupPassword)
	b := s.ssoBrowser()
	r := s.ssoFinish(s.ssoSignIn(b, "bob@sso-bind.com", "bob"), stateCookie(b))
	if id, _ := s.ssoMe(r); id != bob.UserID {
		t.Fatalf("bob signed on as %d, not %d", id, bob.UserID)
	}
	ssoAccess, ssoRefresh := ssoCookie(t, r, "sl_access"), ssoCookie(t, r, "sl_refresh")
	// Links mailed before the enforcement: a new address outside the domain, a reset.
	if r := s.do("POST", "/api/v1/me/email", pwAccess, map[string]string{"email": "bob@elsewhere.com", "current_password": signupPassword}); r.Status != http.StatusAccepted {
		t.Fatalf("email change before enforce: %d %s", r.Status, r.Body)
	}
	changeLink := s.mailbox.WaitSubject(t, "bob@elsewhere.com", "Confirm your new email address").Link(t)
	if r := s.do("POST", "/api/v1/auth/password-reset", "", map[string]string{"email": "bob@sso-bind.com"}); r.Status != http.StatusAccepted {
		t.Fatalf("reset before enforce: %d %s", r.Status, r.Body)
	}
	resetLink := s.mailbox.WaitSubject(t, "bob@sso-bind.com", "Reset your Shortlink password").Link(t)
	// Staff with an address of the domain, not members.
	_, modToken := s.moderator("mod@sso-bind.com")

	// Enforce: the audit log says what it ended.
	r = s.do("PUT", ws+"/sso", owner.Token, map[string]any{"issuer": p.URL, "client_id": "shortlink",
		"email_domain": "sso-bind.com", "enforce": true})
	if st := answer[ssoJSON](t, r, http.StatusOK, "enforce"); !st.Enforce {
		t.Fatalf("enforce: %s", r.Body)
	}
	audit := s.do("GET", ws+"/audit", owner.Token, nil)
	if !strings.Contains(string(audit.Body), `"password_sessions_ended":2`) || !strings.Contains(string(audit.Body), `"members_bound":1`) {
		t.Errorf("the audit log of the enforcement: %s", audit.Body)
	}

	// The password sessions (sign-up and login) are over, access and refresh; sign-on's is not.
	wantReason(t, s.refreshWith(pwRefresh), http.StatusUnauthorized, "refresh_invalid", "password session's refresh")
	wantReason(t, s.do("GET", "/api/v1/me", pwAccess, nil), http.StatusUnauthorized, "session_ended", "password session's access token")
	wantReason(t, s.do("GET", "/api/v1/me", bob.Token, nil), http.StatusUnauthorized, "session_ended", "sign-up session's access token")
	if r := s.do("GET", "/api/v1/me", ssoAccess, nil); r.Status != http.StatusOK {
		t.Fatalf("sign-on session's access token: %d %s", r.Status, r.Body)
	}
	r = s.refreshWith(ssoRefresh)
	next := answer[struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}](t, r, http.StatusOK, "sign-on session's refresh")
	// A renewed sign-on session is still one: enforcing again leaves it alone.
	if r := s.do("PUT", ws+"/sso", owner.Token, map[string]any{"issuer": p.URL, "client_id": "shortlink",
		"email_domain": "sso-bind.com", "enforce": true}); r.Status != http.StatusOK {
		t.Fatalf("enforce again: %d %s", r.Status, r.Body)
	}
	if r := s.refreshWith(next.RefreshToken); r.Status != http.StatusOK {
		t.Fatalf("renewed sign-on session after enforcing again: %d %s", r.Status, r.Body)
	}
	bobToken := next.AccessToken

	// Bound: no address outside the domain, no password.
	wantReason(t, s.do("POST", "/api/v1/me/email", bobToken, map[string]string{"email": "bob@elsewhere.com", "current_password": signupPassword}),
		http.StatusForbidden, "sso_required", "moving the address out of the domain")
	wantReason(t, s.do("POST", "/api/v1/me/email", bobToken, map[string]string{"email": "Bob@Elsewhere.com", "current_password": "wrong"}),
		http.StatusForbidden, "sso_required", "moving out, whatever the password")
	wantReason(t, s.do("POST", "/api/v1/me/password", bobToken, map[string]string{"current_password": signupPassword, "new_password": "another long password"}),
		http.StatusForbidden, "sso_required", "changing the password")
	wantReason(t, s.do("POST", "/api/v1/me/password", bobToken, map[string]string{"current_password": "", "new_password": "another long password"}),
		http.StatusForbidden, "sso_required", "setting a password")
	// Bad input is still the input's error.
	wantReason(t, s.do("POST", "/api/v1/me/email", bobToken, map[string]string{"email": "not an address", "current_password": signupPassword}),
		http.StatusBadRequest, "email_invalid", "a malformed address")
	// The links mailed before: refused, and unused.
	u, _ := url.Parse(changeLink)
	wantReason(t, s.do("POST", "/api/v1/auth/verify-email", "", map[string]string{"token": u.Query().Get("token")}),
		http.StatusForbidden, "sso_required", "an email-change link from before the enforcement")
	u, _ = url.Parse(resetLink)
	wantReason(t, s.do("POST", "/api/v1/auth/password-reset/confirm", "", map[string]string{"token": u.Query().Get("token"), "password": "another long password"}),
		http.StatusForbidden, "sso_required", "a reset link from before the enforcement")
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "bob@sso-bind.com", "password": signupPassword}),
		http.StatusForbidden, "sso_required", "bob's password")
	me := answer[struct{ User struct{ Email string } }](t, s.do("GET", "/api/v1/me", bobToken, nil), http.StatusOK, "me")
	if me.User.Email != "bob@sso-bind.com" {
		t.Fatalf("bob's address moved: %s", me.User.Email)
	}
	// Within the domain the address may move.
	if r := s.do("POST", "/api/v1/me/email", bobToken, map[string]string{"email": "robert@sso-bind.com", "current_password": signupPassword}); r.Status != http.StatusAccepted {
		t.Errorf("moving within the domain: %d %s", r.Status, r.Body)
	}

	// Staff keep their password: sign-in and change.
	if r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "mod@sso-bind.com", "password": signupPassword}); r.Status != http.StatusOK {
		t.Errorf("a moderator of the domain signing in with the password: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", "/api/v1/me/password", modToken, map[string]string{"current_password": signupPassword, "new_password": "another long password"}); r.Status != http.StatusNoContent {
		t.Errorf("a moderator of the domain changing the password: %d %s", r.Status, r.Body)
	}

	// Off: bob's password works again.
	if r := s.do("PUT", ws+"/sso", owner.Token, map[string]any{"issuer": p.URL, "client_id": "shortlink", "email_domain": "sso-bind.com"}); r.Status != http.StatusOK {
		t.Fatalf("enforce off: %d %s", r.Status, r.Body)
	}
	s.login("bob@sso-bind.com")
}
