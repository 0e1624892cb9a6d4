package browse

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// proxyFixture is a proxy whose guard maps a few names to a loopback origin, with loopback
// allowed, and counts what it dials.
type proxyFixture struct {
	proxy  *proxy
	origin *httptest.Server
	tls    *httptest.Server
	dials  atomic.Int32
	mu     sync.Mutex
	failed []string
}

func newProxyFixture(t *testing.T) *proxyFixture {
	t.Helper()
	f := &proxyFixture{}
	f.origin = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprintf(w, "host=%s path=%s xff=%q auth=%q", r.Host, r.URL.Path, r.Header.Get("X-Forwarded-For"), r.Header.Get("Proxy-Authorization"))
	}))
	t.Cleanup(f.origin.Close)
	f.tls = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprintf(w, "tls host=%s", r.Host)
	}))
	t.Cleanup(f.tls.Close)
	_, port, _ := net.SplitHostPort(f.origin.Listener.Addr().String())
	_, tlsPort, _ := net.SplitHostPort(f.tls.Listener.Addr().String())
	rules, err := ParseHostRules("MAP shop.test 127.0.0.1:" + port + ", MAP secure.test 127.0.0.1:" + tlsPort + ", MAP evil.test 10.0.0.9")
	if err != nil {
		t.Fatal(err)
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		f.dials.Add(1)
		return (&net.Dialer{Timeout: 2 * time.Second}).DialContext(ctx, network, addr)
	}
	dns := &fakeResolver{names: map[string][]string{"metadata.example": {"169.254.169.254"}, "intranet.example": {"10.1.2.3"}}}
	f.proxy, err = startProxy(newVetter(NewGuard(rules, dns, true)), dial, func(target string, err error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.failed = append(f.failed, target+" "+err.Error())
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.proxy.Close)
	return f
}

func (f *proxyFixture) client(withPassword bool) *http.Client {
	u, _ := url.Parse(f.proxy.url())
	if withPassword {
		u.User = url.UserPassword(f.proxy.user, f.proxy.password)
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:           http.ProxyURL(u),
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       5 * time.Second,
	}
}

func get(t *testing.T, c *http.Client, u string) (int, string, error) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), nil
}

func TestProxyConnectsOnlyWhereTheGuardAllows(t *testing.T) {
	f := newProxyFixture(t)
	c := f.client(true)

	// A mapped name goes to its mapping, the request as the browser sent it.
	status, body, err := get(t, c, "http://shop.test/cart")
	if err != nil || status != 200 || body != `host=shop.test path=/cart xff="" auth=""` {
		t.Errorf("shop.test: %d %q %v", status, body, err)
	}
	// HTTPS goes through a tunnel to the mapped address.
	status, body, err = get(t, c, "https://secure.test/")
	if err != nil || status != 200 || body != "tls host=secure.test" {
		t.Errorf("secure.test: %d %q %v", status, body, err)
	}
	dialsBefore := f.dials.Load()

	// Refused or unresolvable: no connection made, the browser gets a network error, the
	// failure is heard.
	for _, u := range []string{"http://10.0.0.1/", "http://evil.test/", "http://metadata.example/latest/", "https://169.254.169.254/", "https://intranet.example/", "http://nowhere.example/"} {
		if status, body, err := get(t, c, u); err == nil {
			t.Errorf("%s: %d %q, want a failure", u, status, body)
		}
	}
	if d := f.dials.Load() - dialsBefore; d != 0 {
		t.Errorf("%d connections dialled for refused destinations", d)
	}
	f.mu.Lock()
	failed := strings.Join(f.failed, "\n")
	f.mu.Unlock()
	for _, want := range []string{
		"http://10.0.0.1/ refused: private address 10.0.0.1",
		"http://evil.test/ refused: private address 10.0.0.9 (evil.test mapped to 10.0.0.9:80)",
		"http://metadata.example/latest/ refused: link-local address 169.254.169.254 (metadata.example)",
		"169.254.169.254:443 refused: link-local address 169.254.169.254",
		"intranet.example:443 refused: private address 10.1.2.3 (intranet.example)",
		"http://nowhere.example/ resolve nowhere.example: host not found",
	} {
		if !strings.Contains(failed, want) {
			t.Errorf("failure %q not heard; heard:\n%s", want, failed)
		}
	}

	// An unreachable destination is a network error too, not a page of the proxy's.
	if status, body, err := get(t, c, "http://127.0.0.1:1/"); err == nil {
		t.Errorf("port 1: %d %q, want a failure", status, body)
	}
}

func TestProxyWantsItsPassword(t *testing.T) {
	f := newProxyFixture(t)
	status, _, err := get(t, f.client(false), "http://shop.test/")
	if err != nil || status != http.StatusProxyAuthRequired {
		t.Errorf("without the password: %d, %v", status, err)
	}
	// A tunnel without it is refused too.
	conn, err := net.Dial("tcp", f.proxy.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_, _ = fmt.Fprint(conn, "CONNECT secure.test:443 HTTP/1.1\r\nHost: secure.test:443\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusProxyAuthRequired {
		t.Errorf("CONNECT without the password: %v, %v", resp, err)
	}
	if f.dials.Load() != 0 {
		t.Errorf("%d connections dialled without the password", f.dials.Load())
	}
}

func TestProxyCloseCutsTunnels(t *testing.T) {
	f := newProxyFixture(t)
	conn, err := net.Dial("tcp", f.proxy.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	auth := "Basic " + basicAuth(f.proxy.user, f.proxy.password)
	_, port, _ := net.SplitHostPort(f.origin.Listener.Addr().String())
	_, _ = fmt.Fprintf(conn, "CONNECT shop.test:%s HTTP/1.1\r\nHost: shop.test\r\nProxy-Authorization: %s\r\n\r\n", port, auth)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v, %v", resp, err)
	}
	f.proxy.Close()
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := br.ReadByte(); err == nil || strings.Contains(err.Error(), "timeout") {
		t.Errorf("tunnel still open after Close: %v", err)
	}
}

func basicAuth(user, pass string) string {
	r, _ := http.NewRequest("GET", "/", nil)
	r.SetBasicAuth(user, pass)
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}
