package e2e

import (
	"bytes"
	"compress/flate"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"
	"github.com/crewjam/saml/samlidp"
)

// samlIdP is a real SAML identity provider (crewjam/saml's samlidp) on a loopback port, whose
// assertions a test may alter before they are signed, or send unsigned.
type samlIdP struct {
	URL string // where it serves /metadata, /sso, /services/, /users/
	srv *samlidp.Server

	mu       sync.Mutex
	alter    func(*saml.IdpAuthnRequest)
	unsigned bool
}

// MakeAssertion makes samlidp's usual assertion, then alters it (before it is signed).
func (p *samlIdP) MakeAssertion(req *saml.IdpAuthnRequest, session *saml.Session) error {
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, session); err != nil {
		return err
	}
	p.mu.Lock()
	alter := p.alter
	p.mu.Unlock()
	if alter != nil {
		alter(req)
	}
	return nil
}

// WriteResponse sends the usual signed response, or the assertion in a response signed by
// nobody.
func (p *samlIdP) WriteResponse(w http.ResponseWriter, req *saml.IdpAuthnRequest) error {
	p.mu.Lock()
	unsigned := p.unsigned
	p.mu.Unlock()
	if unsigned {
		req.AssertionEl = req.Assertion.Element()
		resp := &saml.Response{Destination: req.ACSEndpoint.Location, ID: "id-unsigned-" + req.Request.ID,
			InResponseTo: req.Request.ID, IssueInstant: req.Now, Version: "2.0",
			Issuer: &saml.Issuer{Format: "urn:oasis:names:tc:SAML:2.0:nameid-format:entity", Value: req.IDP.MetadataURL.String()},
			Status: saml.Status{StatusCode: saml.StatusCode{Value: saml.StatusSuccess}}}
		el := resp.Element()
		el.AddChild(req.AssertionEl)
		req.ResponseEl = el
	}
	return req.WriteResponse(w)
}

// set makes the next assertions altered by alter (nil: as made) and signed or not.
func (p *samlIdP) set(alter func(*saml.IdpAuthnRequest), unsigned bool) {
	p.mu.Lock()
	p.alter, p.unsigned = alter, unsigned
	p.mu.Unlock()
}

func startSAMLIdP(t *testing.T) *samlIdP {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test idp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("http://" + l.Addr().String())
	srv, err := samlidp.New(samlidp.Options{URL: *u, Key: key, Certificate: cert, Store: &samlidp.MemoryStore{}})
	if err != nil {
		t.Fatal(err)
	}
	p := &samlIdP{URL: u.String(), srv: srv}
	srv.IDP.AssertionMaker = p
	srv.IDP.ResponseWriter = p
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(l) }()
	t.Cleanup(func() { _ = hs.Close() })
	return p
}

// admin sends a request to the provider's administrative API.
func (p *samlIdP) admin(t *testing.T, path string, body []byte) {
	t.Helper()
	req, _ := http.NewRequest("PUT", p.URL+path, strings.NewReader(string(body)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("idp PUT %s: %d %s", path, res.StatusCode, b)
	}
}

// addUser gives the provider a person; their password is "pw-" + name.
func (p *samlIdP) addUser(t *testing.T, name, email string) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"name": name, "email": email, "password": "pw-" + name})
	p.admin(t, "/users/"+name, b)
}

// metadata is the provider's metadata XML.
func (p *samlIdP) metadata(t *testing.T) string {
	t.Helper()
	res, err := http.Get(p.URL + "/metadata")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	return string(b)
}

// register gives the provider workspace ws's service provider, from the service's metadata.
func (s *server) samlRegister(p *samlIdP, ws int64) {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/auth/saml/%d/metadata", ws), "", nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), fmt.Sprintf("/api/v1/auth/saml/%d/acs", ws)) {
		s.t.Fatalf("sp metadata: %d %s", r.Status, r.Body)
	}
	p.admin(s.t, fmt.Sprintf("/services/ws%d", ws), r.Body)
}

var (
	samlFormField = regexp.MustCompile(`name="(SAMLRequest|SAMLResponse|RelayState)" value="([^"]*)"`)
	samlFormURL   = regexp.MustCompile(`<form method="post" action="([^"]*)"`)
)

// formOf reads the hidden fields and the action of a provider's HTML form.
func formOf(page []byte) (action string, v url.Values) {
	v = url.Values{}
	for _, m := range samlFormField.FindAllSubmatch(page, -1) {
		v.Set(string(m[1]), html.UnescapeString(string(m[2])))
	}
	if m := samlFormURL.FindSubmatch(page); m != nil {
		action = html.UnescapeString(string(m[1]))
	}
	return action, v
}

// samlPost is what a provider answered: the form the browser posts to the service.
type samlPost struct {
	ACS  string // the form's action
	Form url.Values
}

// samlSignIn starts a sign-in of email in browser b (/auth/sso/start, which sends it to the
// provider), signs in at the provider's login form as user, and returns the provider's post
// to the service, not yet sent.
func (s *server) samlSignIn(b *http.Client, email, user string) samlPost {
	s.t.Helper()
	res, err := b.Get("http://" + shortHost + "/api/v1/auth/sso/start?email=" + url.QueryEscape(email))
	if err != nil {
		s.t.Fatalf("start: %v", err)
	}
	return s.samlLogin(b, res, user)
}

// samlLogin signs in as user at the provider's login form that res holds.
func (s *server) samlLogin(b *http.Client, res *http.Response, user string) samlPost {
	s.t.Helper()
	page, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	action, login := formOf(page)
	if res.StatusCode == http.StatusOK && login.Get("SAMLResponse") != "" {
		return samlPost{ACS: action, Form: login} // signed in at the provider already
	}
	if res.StatusCode != http.StatusOK || login.Get("SAMLRequest") == "" {
		s.t.Fatalf("the provider's login page: %d %s %.300s", res.StatusCode, res.Request.URL, page)
	}
	login.Set("user", user)
	login.Set("password", "pw-"+user)
	sso := res.Request.URL.ResolveReference(&url.URL{Path: "/sso"})
	res, err := b.PostForm(sso.String(), login)
	if err != nil {
		s.t.Fatalf("login at the provider: %v", err)
	}
	page, _ = io.ReadAll(res.Body)
	_ = res.Body.Close()
	action, form := formOf(page)
	if res.StatusCode != http.StatusOK || form.Get("SAMLResponse") == "" {
		s.t.Fatalf("the provider's answer: %d %.500s", res.StatusCode, page)
	}
	return samlPost{ACS: action, Form: form}
}

// redirectTo is the query of an HTTP-Redirect AuthnRequest u, readdressed from one provider's
// SSO URL to another's (the request is not signed: anyone in the browser's path may do it).
func redirectTo(t *testing.T, u *url.URL, from, to string) string {
	t.Helper()
	q := u.Query()
	raw, err := base64.StdEncoding.DecodeString(q.Get("SAMLRequest"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	x = bytes.Replace(x, []byte(`Destination="`+from+`"`), []byte(`Destination="`+to+`"`), 1)
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
	_, _ = w.Write(x)
	_ = w.Close()
	q.Set("SAMLRequest", base64.StdEncoding.EncodeToString(buf.Bytes()))
	return q.Encode()
}

// samlCookie is the sl_saml cookie browser b holds.
func samlCookie(b *http.Client) string {
	u, _ := url.Parse("http://" + shortHost + "/api/v1/auth/saml/1/acs")
	for _, c := range b.Jar.Cookies(u) {
		if c.Name == "sl_saml" {
			return c.Value
		}
	}
	return ""
}

// samlFinish posts the provider's answer to acs (the form's own when ""), with the state
// cookie given ("" for none), as the browser would.
func (s *server) samlFinish(p samlPost, acs, cookie string) response {
	s.t.Helper()
	if acs == "" {
		acs = p.ACS
	}
	u, err := url.Parse(acs)
	if err != nil || u.Host != shortHost {
		s.t.Fatalf("the form posts to %q", acs)
	}
	req, err := http.NewRequest("POST", s.base+u.RequestURI(), strings.NewReader(p.Form.Encode()))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Host = shortHost
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "sl_saml", Value: cookie})
	}
	return s.send(req)
}

type samlSSOJSON struct {
	ssoJSON
	Protocol       string `json:"protocol"`
	IdPMetadataURL string `json:"idp_metadata_url"`
	SAML           struct {
		EntityID    string `json:"entity_id"`
		ACSURL      string `json:"acs_url"`
		MetadataURL string `json:"metadata_url"`
	} `json:"saml"`
}

// samlSettings sets up SAML sign-on of tn's workspace through settings and proves the domain.
func (s *server) samlSettings(tn tenant, ns *dnsServer, settings map[string]any) samlSSOJSON {
	s.t.Helper()
	ws := fmt.Sprintf("/api/v1/workspaces/%d/sso", tn.WorkspaceID)
	st := answer[samlSSOJSON](s.t, s.do("PUT", ws, tn.Token, settings), http.StatusOK, fmt.Sprintf("put saml %v", settings["email_domain"]))
	ns.set(st.Verification.Name, st.Verification.Value)
	st = answer[samlSSOJSON](s.t, s.do("POST", ws+"/verify", tn.Token, nil), http.StatusOK, "verify")
	if !st.Verified {
		s.t.Fatalf("not verified: %+v", st)
	}
	return st
}

// TestSAML signs people in through real SAML providers: the settings (metadata uploaded or
// fetched), SP-initiated sign-in end to end, and the refusals: unsigned, replayed, wrong
// audience, wrong recipient, expired, an address outside the domain, a downgraded workspace,
// and one workspace's provider signing in to another.
func TestSAML(t *testing.T) {
	ns := startDNS(t)
	d := newDeployment(t)
	d.logs = &logBuffer{}
	s := d.start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	// refusedFor fails unless the service logged why it refused a response since mark.
	refusedFor := func(mark int, why, what string) {
		t.Helper()
		if logged := strings.ToLower(d.logs.String()[mark:]); !strings.Contains(logged, "saml response refused") || !strings.Contains(logged, why) {
			t.Errorf("%s: refused for another reason than %q: %s", what, why, logged)
		}
	}
	pa, pb := startSAMLIdP(t), startSAMLIdP(t)
	pa.addUser(t, "ann", "ann@saml-acme.com")
	pa.addUser(t, "eve", "eve@elsewhere.com")
	pb.addUser(t, "bea", "bea@saml-beta.com")

	a := s.signupOn("saml-a@example.com", "enterprise")
	b := s.signupOn("saml-b@example.com", "enterprise")
	wsA := fmt.Sprintf("/api/v1/workspaces/%d/sso", a.WorkspaceID)

	// Bad input and plans without sso.
	free := s.signup("saml-free@example.com")
	wantReason(t, s.do("PUT", fmt.Sprintf("/api/v1/workspaces/%d/sso", free.WorkspaceID), free.Token,
		map[string]any{"protocol": "saml", "idp_metadata_url": pa.URL + "/metadata", "email_domain": "saml-free.com"}),
		http.StatusForbidden, "plan_required", "free plan")
	for _, c := range []struct {
		body   map[string]any
		reason string
	}{
		{map[string]any{"protocol": "ldap", "email_domain": "saml-acme.com"}, "sso_protocol_invalid"},
		{map[string]any{"protocol": "saml", "email_domain": "saml-acme.com"}, "sso_idp_metadata_required"},
		{map[string]any{"protocol": "saml", "email_domain": "saml-acme.com", "idp_metadata_xml": "<html/>"}, "sso_idp_metadata_invalid"},
		{map[string]any{"protocol": "saml", "email_domain": "saml-acme.com", "idp_metadata_xml": pa.metadata(t),
			"idp_metadata_url": pa.URL + "/metadata"}, "sso_idp_metadata_invalid"},
		{map[string]any{"protocol": "saml", "email_domain": "saml-acme.com", "idp_metadata_url": "ftp://x.example/m"}, "sso_idp_metadata_url_invalid"},
	} {
		wantReason(t, s.do("PUT", wsA, a.Token, c.body), http.StatusBadRequest, c.reason, fmt.Sprint(c.body))
	}
	// The address guard: a private address is refused (the test allows loopback only).
	wantReason(t, s.do("PUT", wsA, a.Token, map[string]any{"protocol": "saml", "email_domain": "saml-acme.com",
		"idp_metadata_url": "https://10.1.2.3/metadata"}), http.StatusServiceUnavailable, "sso_provider_not_public", "a private metadata address")

	// A's metadata fetched from its URL; B's uploaded.
	s.samlRegister(pa, a.WorkspaceID)
	s.samlRegister(pb, b.WorkspaceID)
	stA := s.samlSettings(a, ns, map[string]any{"protocol": "saml", "idp_metadata_url": pa.URL + "/metadata", "email_domain": "saml-acme.com"})
	if stA.Protocol != "saml" || stA.Issuer != pa.URL+"/metadata" || stA.IdPMetadataURL != pa.URL+"/metadata" ||
		stA.SAML.ACSURL != fmt.Sprintf("http://%s/api/v1/auth/saml/%d/acs", shortHost, a.WorkspaceID) ||
		stA.SAML.EntityID != fmt.Sprintf("http://%s/api/v1/auth/saml/%d/metadata", shortHost, a.WorkspaceID) {
		t.Fatalf("settings: %+v", stA)
	}
	s.samlSettings(b, ns, map[string]any{"protocol": "saml", "idp_metadata_xml": pb.metadata(t), "email_domain": "saml-beta.com"})

	// Sign-in end to end: the account is made, verified, and joins A as a member.
	ann := s.ssoBrowser()
	post := s.samlSignIn(ann, "ann@saml-acme.com", "ann")
	if post.ACS != stA.SAML.ACSURL {
		t.Fatalf("the provider posts to %q", post.ACS)
	}
	cookie := samlCookie(ann)
	r := s.samlFinish(post, "", cookie)
	if r.Status != http.StatusFound || r.Header.Get("Location") != "/app/" {
		t.Fatalf("acs: %d %v %s", r.Status, r.Header, r.Body)
	}
	annID, email := s.ssoMe(r)
	if email != "ann@saml-acme.com" {
		t.Fatalf("signed in as %s", email)
	}
	members := answer[struct {
		Members []struct {
			UserID int64 `json:"user_id"`
			Role   string
		}
	}](t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/members", a.WorkspaceID), a.Token, nil), http.StatusOK, "members")
	joined := false
	for _, m := range members.Members {
		joined = joined || (m.UserID == annID && m.Role == "member")
	}
	if !joined {
		t.Fatalf("ann is not a member of A: %+v", members)
	}

	// Replayed: the same post again, and the same assertion under a new sign-in's state.
	wantReason(t, s.samlFinish(post, "", cookie), http.StatusUnauthorized, "sso_state_invalid", "the same post again")
	var kept int
	if err := d.conn(t).QueryRow(context.Background(), `SELECT count(*) FROM saml_assertions WHERE workspace_id = $1 AND expires_at > now()`,
		a.WorkspaceID).Scan(&kept); err != nil || kept != 1 {
		t.Fatalf("assertions kept against replay: %d %v", kept, err)
	}
	again := s.samlSignIn(ann, "ann@saml-acme.com", "ann")
	old := samlPost{ACS: post.ACS, Form: url.Values{"SAMLResponse": post.Form["SAMLResponse"], "RelayState": again.Form["RelayState"]}}
	mark := len(d.logs.String())
	wantReason(t, s.samlFinish(old, "", samlCookie(ann)), http.StatusUnauthorized, "sso_failed", "an assertion replayed under a new state")
	refusedFor(mark, "inresponseto", "an assertion replayed under a new state")
	// Without the browser's cookie.
	wantReason(t, s.samlFinish(s.samlSignIn(s.ssoBrowser(), "ann@saml-acme.com", "ann"), "", ""),
		http.StatusUnauthorized, "sso_state_invalid", "no state cookie")

	// Refusals the provider's assertion brings.
	now := time.Now()
	for _, c := range []struct {
		what     string
		alter    func(*saml.IdpAuthnRequest)
		unsigned bool
		why      string // what the log says
	}{
		{"unsigned", nil, true, "signature element not present"},
		{"wrong audience", func(req *saml.IdpAuthnRequest) {
			req.Assertion.Conditions.AudienceRestrictions[0].Audience.Value = "https://elsewhere.example/saml/metadata"
		}, false, "audience"},
		{"wrong recipient", func(req *saml.IdpAuthnRequest) {
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.Recipient = stA.SAML.ACSURL + "x"
		}, false, "recipient is not"},
		{"expired", func(req *saml.IdpAuthnRequest) {
			past := now.Add(-time.Hour)
			req.Assertion.IssueInstant = past
			req.Assertion.Conditions.NotBefore, req.Assertion.Conditions.NotOnOrAfter = past, past.Add(5*time.Minute)
			req.Assertion.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = past.Add(5 * time.Minute)
			req.Assertion.AuthnStatements[0].AuthnInstant = past
		}, false, "expired"},
	} {
		pa.set(c.alter, c.unsigned)
		br := s.ssoBrowser()
		post := s.samlSignIn(br, "ann@saml-acme.com", "ann")
		mark := len(d.logs.String())
		wantReason(t, s.samlFinish(post, "", samlCookie(br)), http.StatusUnauthorized, "sso_failed", c.what)
		refusedFor(mark, c.why, c.what)
	}
	pa.set(nil, false)

	// An address outside the domain.
	br := s.ssoBrowser()
	wantReason(t, s.samlFinish(s.samlSignIn(br, "ann@saml-acme.com", "eve"), "", samlCookie(br)), http.StatusForbidden, "sso_email_domain", "outside the domain")
	var made int
	if err := d.conn(t).QueryRow(context.Background(), `SELECT count(*) FROM users WHERE email = 'eve@elsewhere.com'`).Scan(&made); err != nil || made != 0 {
		t.Errorf("an account made for a refused sign-in: %d %v", made, err)
	}

	// Tenant isolation. A's post sent to B's service: A's state is not B's.
	br = s.ssoBrowser()
	post = s.samlSignIn(br, "ann@saml-acme.com", "ann")
	acsB := fmt.Sprintf("http://%s/api/v1/auth/saml/%d/acs", shortHost, b.WorkspaceID)
	wantReason(t, s.samlFinish(post, acsB, samlCookie(br)), http.StatusUnauthorized, "sso_state_invalid", "A's post at B")
	// B's request answered by A's provider (which knows B's service too): not B's provider's
	// signature.
	s.samlRegister(pa, b.WorkspaceID)
	pa.addUser(t, "mallory", "bea@saml-beta.com")
	br = s.ssoBrowser()
	br.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := br.Get("http://" + shortHost + "/api/v1/auth/sso/start?email=bea@saml-beta.com")
	if err != nil || res.StatusCode != http.StatusFound {
		t.Fatalf("start at B: %v", err)
	}
	_ = res.Body.Close()
	toB, _ := url.Parse(res.Header.Get("Location"))
	if !strings.HasPrefix(toB.String(), pb.URL) {
		t.Fatalf("B's sign-in goes to %s", toB)
	}
	br.CheckRedirect = nil
	res, err = br.Get(pa.URL + "/sso?" + redirectTo(t, toB, pb.URL+"/sso", pa.URL+"/sso"))
	if err != nil {
		t.Fatal(err)
	}
	forged := s.samlLogin(br, res, "mallory")
	mark = len(d.logs.String())
	wantReason(t, s.samlFinish(forged, "", samlCookie(br)), http.StatusUnauthorized, "sso_failed", "A's provider signing in to B")
	refusedFor(mark, "could not verify certificate against trusted certs", "A's provider signing in to B")
	// B's own provider still signs bea in.
	br = s.ssoBrowser()
	if r := s.samlFinish(s.samlSignIn(br, "bea@saml-beta.com", "bea"), "", samlCookie(br)); r.Status != http.StatusFound {
		t.Fatalf("bea at B: %d %s", r.Status, r.Body)
	}

	// A downgraded workspace signs nobody in, a sign-in under way included.
	br = s.ssoBrowser()
	post = s.samlSignIn(br, "ann@saml-acme.com", "ann")
	s.setPlan(a, "personal")
	wantReason(t, s.samlFinish(post, "", samlCookie(br)), http.StatusForbidden, "sso_plan_required", "a sign-in under way after the downgrade")
	wantReason(t, s.do("GET", "/api/v1/auth/sso/start?email=ann@saml-acme.com", "", nil), http.StatusForbidden, "sso_plan_required", "start after the downgrade")
	s.setPlan(a, "enterprise")
	br = s.ssoBrowser()
	if r := s.samlFinish(s.samlSignIn(br, "ann@saml-acme.com", "ann"), "", samlCookie(br)); r.Status != http.StatusFound {
		t.Fatalf("after the upgrade: %d %s", r.Status, r.Body)
	}
}

// TestSAMLWithTwoFactor: a SAML sign-in does not skip a person's second factor either: the
// ACS opens no session and makes no membership, and hands the app the second step's token;
// the membership is made when the code passes.
func TestSAMLWithTwoFactor(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startSAMLIdP(t)
	p.addUser(t, "zoe", "zoe@saml-mfa.com")
	owner := s.signupOn("saml-mfa-owner@example.com", "enterprise")
	s.samlRegister(p, owner.WorkspaceID)
	s.samlSettings(owner, ns, map[string]any{"protocol": "saml", "idp_metadata_url": p.URL + "/metadata", "email_domain": "saml-mfa.com"})
	zoe := s.signup("zoe@saml-mfa.com")
	s.verify("zoe@saml-mfa.com")
	secret, _ := s.enrol2FA(zoe)

	b := s.ssoBrowser()
	r := s.samlFinish(s.samlSignIn(b, "zoe@saml-mfa.com", "zoe"), "", samlCookie(b))
	loc, _ := url.Parse(r.Header.Get("Location"))
	if r.Status != http.StatusFound || loc == nil || loc.Path != "/app/login" || hasCookie(r, "sl_access") || hasCookie(r, "sl_refresh") {
		t.Fatalf("acs with 2FA on: %d %v", r.Status, r.Header)
	}
	frag, _ := url.ParseQuery(loc.Fragment)
	token := frag.Get("mfa_token")
	if token == "" {
		t.Fatalf("second step's token: %q", loc)
	}
	if s.isMember(owner, zoe.UserID) {
		t.Fatal("the ACS made zoe a member before her second factor")
	}
	l := answer[loginJSON](t, s.do("POST", "/api/v1/auth/login/2fa", "", map[string]any{"mfa_token": token,
		"code": totpCode(t, secret, 30*time.Second), "token_pair": true}), http.StatusOK, "second step")
	if l.User.ID != zoe.UserID || !s.isMember(owner, zoe.UserID) {
		t.Fatalf("after the second step: user %d, member %v", l.User.ID, s.isMember(owner, zoe.UserID))
	}
}
