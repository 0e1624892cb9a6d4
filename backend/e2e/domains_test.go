package e2e

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// dnsServer is a real DNS server on a loopback UDP port that answers the TXT, A and AAAA
// records a test sets, and NXDOMAIN for every other name.
type dnsServer struct {
	Addr  string
	mu    sync.Mutex
	txt   map[string][]string     // fully qualified name, lower case → values
	addrs map[string][]netip.Addr // fully qualified name, lower case → A and AAAA records
	asked map[string]int          // fully qualified name, lower case → TXT questions
}

func startDNS(t *testing.T) *dnsServer {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &dnsServer{Addr: pc.LocalAddr().String(), txt: map[string][]string{}, addrs: map[string][]netip.Addr{},
		asked: map[string]int{}}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(d.serve), NotifyStartedFunc: func() { close(started) }}
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	return d
}

// set makes name's TXT records values (none removes them).
func (d *dnsServer) set(name string, values ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.txt[dns.Fqdn(strings.ToLower(name))] = values
}

// askedFor is how many times name's TXT records were asked for.
func (d *dnsServer) askedFor(name string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.asked[dns.Fqdn(strings.ToLower(name))]
}

// setAddrs makes name's A and AAAA records addrs (an IPv4-mapped address is an AAAA record).
func (d *dnsServer) setAddrs(name string, addrs ...netip.Addr) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.addrs[dns.Fqdn(strings.ToLower(name))] = addrs
}

func (d *dnsServer) serve(w dns.ResponseWriter, req *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, q := range req.Question {
		name := strings.ToLower(q.Name)
		if q.Qtype == dns.TypeTXT {
			d.asked[name]++
		}
		if addrs := d.addrs[name]; len(addrs) > 0 {
			hdr := func(t uint16) dns.RR_Header {
				return dns.RR_Header{Name: q.Name, Rrtype: t, Class: dns.ClassINET, Ttl: 0}
			}
			for _, a := range addrs {
				switch {
				case q.Qtype == dns.TypeA && a.Is4():
					m.Answer = append(m.Answer, &dns.A{Hdr: hdr(dns.TypeA), A: a.AsSlice()})
				case q.Qtype == dns.TypeAAAA && !a.Is4():
					m.Answer = append(m.Answer, &dns.AAAA{Hdr: hdr(dns.TypeAAAA), AAAA: a.AsSlice()})
				}
			}
			continue
		}
		values, ok := d.txt[name]
		if !ok || len(values) == 0 {
			m.Rcode = dns.RcodeNameError
			continue
		}
		if q.Qtype != dns.TypeTXT {
			continue // the name exists, with no record of that type
		}
		for _, v := range values {
			m.Answer = append(m.Answer, &dns.TXT{
				Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 0},
				Txt: []string{v},
			})
		}
	}
	_ = w.WriteMsg(m)
}

// domainJSON is a custom domain as the API shows it.
type domainJSON struct {
	ID           int64  `json:"id"`
	Hostname     string `json:"hostname"`
	Verified     bool   `json:"verified"`
	RootURL      string `json:"root_url"`
	Verification struct {
		Type, Name, Value string
		Problem           string `json:"problem"`
	} `json:"verification"`
	Routing []struct{ Type, Name, Value string } `json:"routing"`
}

// addDomain adds hostname to the tenant's workspace (201 expected).
func (s *server) addDomain(tn tenant, hostname string) domainJSON {
	s.t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/domains", tn.WorkspaceID), tn.Token, map[string]any{"hostname": hostname})
	return answer[domainJSON](s.t, r, http.StatusCreated, "add domain "+hostname)
}

// verifyDomain asks for a look at the domain's record now.
func (s *server) verifyDomain(tn tenant, id int64) domainJSON {
	s.t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/domains/%d/verify", tn.WorkspaceID, id), tn.Token, nil)
	return answer[domainJSON](s.t, r, http.StatusOK, fmt.Sprintf("verify domain %d", id))
}

// visitHost requests path with the given Host header, as a visitor of that host would.
func (s *server) visitHost(host, method, path string) response {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Host = host
	// Not s.send: on a custom domain /api/ paths are a visitor's, not the API's.
	res, err := noRedirect.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s%s: %v", method, host, path, err)
	}
	defer func() { _ = res.Body.Close() }()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// TestCustomDomains walks a custom domain's life against a real DNS server: pending until the
// TXT record holds the token, one workspace per host name, links and aliases per domain,
// routing by Host whatever the path, the root URL, the TLS ask, and removal.
func TestCustomDomains(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	alice := s.signup("alice@example.com")
	bob := s.signup("bob@example.com")
	s.setPlan(alice, "enterprise")
	s.setPlan(bob, "enterprise")
	wsA := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	wsB := fmt.Sprintf("/api/v1/workspaces/%d", bob.WorkspaceID)

	d := s.addDomain(alice, "Go.Example.COM.")
	if d.Hostname != "go.example.com" || d.Verified || d.Verification.Type != "TXT" ||
		d.Verification.Name != "_shortlink-verify.go.example.com" || d.Verification.Value == "" {
		t.Fatalf("added: %+v", d)
	}
	// Pending: no record, then a wrong one.
	if got := s.verifyDomain(alice, d.ID); got.Verified || got.Verification.Problem == "" {
		t.Fatalf("verified without a record: %+v", got)
	}
	ns.set(d.Verification.Name, "sl-verify-not-the-token")
	if got := s.verifyDomain(alice, d.ID); got.Verified {
		t.Fatalf("verified with a wrong token: %+v", got)
	}
	// A pending domain answers nothing and gets no certificate.
	if r := s.visitHost("go.example.com", "GET", "/anything"); r.Status != http.StatusNotFound {
		t.Fatalf("pending domain answered: %d", r.Status)
	}
	if r := s.visit("GET", "/tls/ask?domain=go.example.com"); r.Status != http.StatusNotFound {
		t.Fatalf("ask for a pending domain: %d", r.Status)
	}
	// No link may be made on it yet.
	if r := s.do("POST", wsA+"/links", alice.Key, map[string]any{"url": "https://a.example/", "domain": "go.example.com"}); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Fatalf("link on a pending domain: %d %s", r.Status, r.Body)
	}
	ns.set(d.Verification.Name, "unrelated=1", d.Verification.Value)
	if got := s.verifyDomain(alice, d.ID); !got.Verified || got.Verification.Problem != "" {
		t.Fatalf("not verified with the token: %+v", got)
	}

	// One workspace per host name: Bob cannot take it, in any spelling.
	for _, h := range []string{"go.example.com", "GO.EXAMPLE.COM"} {
		r := s.do("POST", wsB+"/domains", bob.Token, map[string]any{"hostname": h})
		if r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
			t.Fatalf("bob adds %s: %d %s", h, r.Status, r.Body)
		}
	}
	// Nor may Alice add it twice.
	if r := s.do("POST", wsA+"/domains", alice.Token, map[string]any{"hostname": "go.example.com"}); r.Status != http.StatusConflict {
		t.Fatalf("alice adds it again: %d %s", r.Status, r.Body)
	}
	// Two workspaces may wait on one name; the first to verify it holds it.
	ab := s.addDomain(alice, "both.example.com")
	bb := s.addDomain(bob, "both.example.com")
	if ab.Verification.Value == bb.Verification.Value {
		t.Fatal("two workspaces got one token")
	}
	ns.set(ab.Verification.Name, ab.Verification.Value, bb.Verification.Value)
	if got := s.verifyDomain(bob, bb.ID); !got.Verified {
		t.Fatalf("bob's verification: %+v", got)
	}
	if r := s.do("POST", fmt.Sprintf("%s/domains/%d/verify", wsA, ab.ID), alice.Token, nil); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Fatalf("alice verifies a name bob holds: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/domains/%d", wsA, ab.ID), alice.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("alice gives up: %d %s", r.Status, r.Body)
	}
	// Bob cannot make links on it.
	if r := s.do("POST", wsB+"/links", bob.Key, map[string]any{"url": "https://b.example/", "domain": "go.example.com"}); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Fatalf("bob's link on alice's domain: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", wsA+"/links", alice.Key, map[string]any{"url": "https://a.example/", "domain": "nope.example.net"}); r.Status != http.StatusBadRequest {
		t.Fatalf("link on an unknown domain: %d %s", r.Status, r.Body)
	}
	// Nobody may point a link at a verified domain: a loop through this service.
	if r := s.do("POST", wsB+"/links", bob.Key, map[string]any{"url": "https://GO.example.com/x"}); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Fatalf("link to a custom domain: %d %s", r.Status, r.Body)
	}
	for field, rule := range map[string]any{
		"variants":       []any{map[string]any{"url": "https://a.example/a", "weight": 50}, map[string]any{"url": "https://go.example.com/b", "weight": 50}},
		"device_targets": map[string]any{"ios": "https://go.example.com/app"},
	} {
		r := s.do("POST", wsA+"/links", alice.Key, map[string]any{"url": "https://a.example/rules", field: rule})
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Fatalf("%s to a custom domain: %d %s", field, r.Status, r.Body)
		}
	}

	// Links on the domain: a generated code and an alias, the same alias on the short domain.
	onDomain := s.createLink(alice, map[string]any{"url": "https://a.example/generated", "domain": "go.example.com"})
	if onDomain.ShortURL != "http://go.example.com/"+onDomain.Code {
		t.Fatalf("short_url %q", onDomain.ShortURL)
	}
	promo := s.createLink(alice, map[string]any{"url": "https://a.example/promo", "domain": "go.example.com", "alias": "promo"})
	short := s.createLink(bob, map[string]any{"url": "https://b.example/promo", "alias": "promo"})
	bobs := s.createLink(bob, map[string]any{"url": "https://b.example/generated"})
	if promo.ShortURL != "http://go.example.com/promo" || short.ShortURL != "http://"+shortHost+"/promo" {
		t.Fatalf("short urls %q %q", promo.ShortURL, short.ShortURL)
	}
	if r := s.do("POST", wsA+"/links", alice.Key, map[string]any{"url": "https://a.example/x", "domain": "go.example.com", "alias": "promo"}); r.Status != http.StatusConflict {
		t.Fatalf("alias taken on the domain: %d %s", r.Status, r.Body)
	}
	var got struct {
		Domain   string `json:"domain"`
		ShortURL string `json:"short_url"`
	}
	s.do("GET", fmt.Sprintf("%s/links/%d", wsA, promo.ID), alice.Key, nil).json(t, &got)
	if got.Domain != "go.example.com" || got.ShortURL != promo.ShortURL {
		t.Fatalf("link answer: %+v", got)
	}
	r := s.do("GET", wsA+"/links/lookup?short_url=http://go.example.com/promo", alice.Key, nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"id":`+fmt.Sprint(promo.ID)) {
		t.Fatalf("lookup by the domain's short url: %d %s", r.Status, r.Body)
	}

	// Routing by Host: each host answers its own keys.
	for _, c := range []struct{ host, path, want string }{
		{"go.example.com", "/promo", "https://a.example/promo"},
		{"GO.example.com:443", "/promo", "https://a.example/promo"},
		{shortHost, "/promo", "https://b.example/promo"},
		{"go.example.com", "/" + onDomain.Code, "https://a.example/generated"},
	} {
		r := s.visitHost(c.host, "GET", c.path)
		if r.Status != http.StatusFound || r.Header.Get("Location") != c.want {
			t.Errorf("%s%s: %d %q, want 302 %s", c.host, c.path, r.Status, r.Header.Get("Location"), c.want)
		}
	}
	if r := s.visit("GET", "/"+onDomain.Code); r.Status != http.StatusNotFound {
		t.Errorf("the domain's code on the short domain: %d", r.Status)
	}
	// The service's own paths are a visitor's on the custom domain: a bare 404, no branding.
	for _, p := range []string{"/", "/app", "/app/links", "/api/v1/openapi.json", "/healthz", "/nosuchkey", "/" + bobs.Code, "/tls/ask?domain=go.example.com"} {
		r := s.visitHost("go.example.com", "GET", p)
		if r.Status != http.StatusNotFound || strings.Contains(strings.ToLower(string(r.Body)), "short") {
			t.Errorf("go.example.com%s: %d %.200s, want a bare 404", p, r.Status, r.Body)
		}
	}
	// The root URL.
	r = s.do("PATCH", fmt.Sprintf("%s/domains/%d", wsA, d.ID), alice.Token, map[string]any{"root_url": "https://www.example.com/home"})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"root_url":"https://www.example.com/home"`) {
		t.Fatalf("set root url: %d %s", r.Status, r.Body)
	}
	if r := s.visitHost("go.example.com", "GET", "/"); r.Status != http.StatusFound || r.Header.Get("Location") != "https://www.example.com/home" {
		t.Errorf("root: %d %q", r.Status, r.Header.Get("Location"))
	}
	for _, bad := range []any{"javascript:alert(1)", "https://go.example.com/loop", "http://" + shortHost + "/x", "", 5} {
		r := s.do("PATCH", fmt.Sprintf("%s/domains/%d", wsA, d.ID), alice.Token, map[string]any{"root_url": bad})
		if r.Status != http.StatusBadRequest {
			t.Errorf("root_url %v: %d %s", bad, r.Status, r.Body)
		}
	}

	// The TLS ask: verified domains and the service's own hosts only.
	for host, want := range map[string]int{
		"go.example.com": 200, shortHost: 200, "GO.EXAMPLE.COM": 200, "other.example.com": 404,
		"example.com": 404, "": 404, "127.0.0.1": 404, "go.example.com:443": 404,
		// One trailing dot names the same host (its absolute form); more name none.
		"go.example.com.": 200, "go.example.com..": 404, "go.example.com...": 404, shortHost + "..": 404, ".": 404, "..": 404,
	} {
		if r := s.visit("GET", "/tls/ask?domain="+host); r.Status != want {
			t.Errorf("tls ask %q: %d, want %d", host, r.Status, want)
		}
	}

	// The list.
	var list struct{ Domains []domainJSON }
	s.do("GET", wsA+"/domains", alice.Key, nil).json(t, &list)
	if len(list.Domains) != 1 || !list.Domains[0].Verified || list.Domains[0].RootURL != "https://www.example.com/home" {
		t.Fatalf("list: %+v", list)
	}

	// Removal: the links stop answering and stay in the workspace, saying why.
	if r := s.do("DELETE", fmt.Sprintf("%s/domains/%d", wsA, d.ID), alice.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove: %d %s", r.Status, r.Body)
	}
	for _, p := range []string{"/promo", "/" + onDomain.Code, "/", "/app", "/api/v1/openapi.json"} {
		if r := s.visitHost("go.example.com", "GET", p); r.Status != http.StatusNotFound {
			t.Errorf("removed domain %s: %d", p, r.Status)
		}
	}
	if r := s.visit("GET", "/tls/ask?domain=go.example.com"); r.Status != http.StatusNotFound {
		t.Errorf("ask for a removed domain: %d", r.Status)
	}
	var kept struct {
		Domain        string `json:"domain"`
		ShortURL      string `json:"short_url"`
		DomainRemoved bool   `json:"domain_removed"`
	}
	r = s.do("GET", fmt.Sprintf("%s/links/%d", wsA, promo.ID), alice.Key, nil)
	r.json(t, &kept)
	if r.Status != http.StatusOK || kept.Domain != "go.example.com" || kept.ShortURL != "" || !kept.DomainRemoved {
		t.Fatalf("link of the removed domain: %d %s", r.Status, r.Body)
	}
	// The name is free again: Bob can add and verify it, and Alice's old links stay dead.
	bd := s.addDomain(bob, "go.example.com")
	ns.set(bd.Verification.Name, bd.Verification.Value)
	if got := s.verifyDomain(bob, bd.ID); !got.Verified {
		t.Fatalf("bob's verification: %+v", got)
	}
	if r := s.visitHost("go.example.com", "GET", "/promo"); r.Status != http.StatusNotFound {
		t.Errorf("alice's old alias on bob's domain: %d %s", r.Status, r.Header.Get("Location"))
	}
}

// TestDomainPlansAndInput: the plan gates domains and counts them; bad host names are refused.
func TestDomainPlansAndInput(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	tn := s.signup("plan@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d/domains", tn.WorkspaceID)
	if r := s.do("POST", ws, tn.Token, map[string]any{"hostname": "go.example.com"}); r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
		t.Fatalf("free plan: %d %s", r.Status, r.Body)
	}
	s.setPlan(tn, "trial")
	s.addDomain(tn, "go.example.com")
	if r := s.do("POST", ws, tn.Token, map[string]any{"hostname": "two.example.com"}); r.Status != http.StatusForbidden || r.errorCode(t) != "quota_exceeded" {
		t.Fatalf("trial's second domain: %d %s", r.Status, r.Body)
	}
	s.setPlan(tn, "enterprise")
	d := s.addDomain(tn, "bücher.example.de")
	if d.Hostname != "xn--bcher-kva.example.de" || d.Verification.Name != "_shortlink-verify.xn--bcher-kva.example.de" {
		t.Fatalf("IDN: %+v", d)
	}
	// An API key may read the domains, never change them.
	if r := s.do("POST", ws, tn.Key, map[string]any{"hostname": "key.example.com"}); r.Status != http.StatusForbidden {
		t.Fatalf("api key adds a domain: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", ws, tn.Key, nil); r.Status != http.StatusOK {
		t.Fatalf("api key lists domains: %d %s", r.Status, r.Body)
	}
}

// TestDomainPendingCheckedPeriodically: a pending domain is verified in the background once its
// record holds the token, with nobody asking.
func TestDomainPendingCheckedPeriodically(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "DOMAIN_CHECK_INTERVAL", "1s")
	tn := s.signupOn("later@example.com", "enterprise")
	d := s.addDomain(tn, "later.example.com")
	other := s.addDomain(tn, "never.example.com")
	ns.set(d.Verification.Name, d.Verification.Value)
	ns.set(other.Verification.Name, "someone else's token")
	l := s.createLink(tn, map[string]any{"url": "https://a.example/x"})
	eventually(t, 10*time.Second, "the pending domain is verified in the background", func() bool {
		return s.visit("GET", "/tls/ask?domain=later.example.com").Status == http.StatusOK
	})
	// The other is looked at too (in this round or the next), and stays pending.
	var list struct{ Domains []domainJSON }
	eventually(t, 10*time.Second, "the other domain is checked", func() bool {
		s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/domains", tn.WorkspaceID), tn.Key, nil).json(t, &list)
		return len(list.Domains) == 2 && list.Domains[1].Verification.Problem != ""
	})
	if !list.Domains[0].Verified || list.Domains[1].Verified {
		t.Fatalf("after the checks: %+v", list)
	}
	// A code of the short domain is no key of the custom domain.
	if r := s.visitHost("later.example.com", "GET", "/"+l.Code); r.Status != http.StatusNotFound {
		t.Fatalf("short domain's code on the custom domain: %d", r.Status)
	}
}

// TestDomainsAcrossProcesses runs two server processes of one deployment: a domain verified
// and a link made through one redirects by Host on the other, and a removal through one stops
// the other answering within moments (the bus), and one without the bus at its next sync round.
func TestDomainsAcrossProcesses(t *testing.T) {
	ns := startDNS(t)
	d := newDeployment(t)
	p1 := d.startProcess(t, "one", "DNS_RESOLVER", ns.Addr)
	p2 := d.startProcess(t, "two", "DNS_RESOLVER", ns.Addr)
	// A third process on a Redis namespace of its own never hears the others' bus: it learns of
	// domain changes from PostgreSQL alone, as every node does when a bus message is lost.
	p3 := d.startProcess(t, "deaf", "DNS_RESOLVER", ns.Addr, "REDIS_PREFIX", d.env["REDIS_PREFIX"]+"deaf:")
	a, b, c := p1.api(d), p2.api(d), p3.api(d)
	tn := a.signupOn("two@example.com", "enterprise")
	dom := a.addDomain(tn, "links.example.org")
	ns.set(dom.Verification.Name, dom.Verification.Value)
	// Verified through the second process, the first sees it at once for link creates.
	if got := b.verifyDomain(tn, dom.ID); !got.Verified {
		t.Fatalf("verify: %+v", got)
	}
	l := a.createLink(tn, map[string]any{"url": "https://a.example/across", "domain": "links.example.org", "alias": "x"})
	if l.ShortURL != "http://links.example.org/x" {
		t.Fatalf("short_url %q", l.ShortURL)
	}
	for _, s := range []*server{a, b, c} {
		eventually(t, 2*time.Second, "the link redirects by Host on "+s.base, func() bool {
			r := s.visitHost("links.example.org", "GET", "/x")
			return r.Status == http.StatusFound && r.Header.Get("Location") == "https://a.example/across"
		})
	}
	// With the bus a removal reaches the others in milliseconds (the log says how long);
	// without it, at the next sync round (each second). The bounds allow for a busy machine:
	// with two cores shared with the parallel tests, a second went by before the other
	// process answered one of the checks.
	removed := time.Now()
	if r := a.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/domains/%d", tn.WorkspaceID, dom.ID), tn.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove: %d %s", r.Status, r.Body)
	}
	eventually(t, 2*time.Second, "the other process stops answering on the removed domain", func() bool {
		return b.visitHost("links.example.org", "GET", "/x").Status == http.StatusNotFound
	})
	t.Logf("removal reached the other process in %v", time.Since(removed))
	eventually(t, 2*time.Second, "the process without the bus stops answering on the removed domain", func() bool {
		return c.visitHost("links.example.org", "GET", "/x").Status == http.StatusNotFound
	})
	t.Logf("removal reached the process without the bus in %v", time.Since(removed))
	if r := a.visitHost("links.example.org", "GET", "/x"); r.Status != http.StatusNotFound {
		t.Fatalf("the removing process still answers: %d", r.Status)
	}
}
