package browse

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/browsertest"
	"github.com/shortlink/shortlink/backend/testenv"
)

// The tests' network: one loopback server for every test host (told apart by the Host header),
// its twin speaking TLS for the hosts Chromium only opens over HTTPS, and a trap standing in for
// every address that is not loopback. The browsers of the tests
// connect through dialLoopback, which sends any connection to a non-loopback address to the
// trap and counts it: had the guard let a request for 10.0.0.1 or 169.254.169.254 through,
// the trap would show it.
type testNetwork struct {
	site    *httptest.Server
	siteTLS *httptest.Server // the same hosts over TLS, with httptest's certificate
	trap    *httptest.Server

	mu    sync.Mutex
	hosts map[string]http.Handler
	hits  map[string]*atomic.Int32 // host → requests served

	trapDials    atomic.Int32
	trapRequests atomic.Int32
	trapSeen     sync.Map // "host:port" dialled → true
}

func newTestNetwork() *testNetwork {
	n := &testNetwork{hosts: map[string]http.Handler{}, hits: map[string]*atomic.Int32{}}
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		n.mu.Lock()
		h, ok := n.hosts[host]
		hits := n.hits[host]
		n.mu.Unlock()
		if !ok {
			http.Error(w, "no such test host: "+host, http.StatusNotFound)
			return
		}
		hits.Add(1)
		h.ServeHTTP(w, r)
	})
	n.site = httptest.NewServer(serve)
	n.siteTLS = httptest.NewTLSServer(serve)
	n.trap = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.trapRequests.Add(1)
		_, _ = fmt.Fprint(w, "<title>reached a private address</title>secret metadata")
	}))
	return n
}

// port is the site server's port, for host rules.
func (n *testNetwork) port() string {
	_, p, _ := net.SplitHostPort(n.site.Listener.Addr().String())
	return p
}

// tlsPort is the TLS twin's port. Chromium upgrades a request for a host whose top-level
// domain it preloads as HTTPS-only (.app, .dev, .page, …) to https before sending it; the
// browser's visitors ignore certificate errors (profiles.go), so httptest's certificate does.
func (n *testNetwork) tlsPort() string {
	_, p, _ := net.SplitHostPort(n.siteTLS.Listener.Addr().String())
	return p
}

// handle serves host with h; each test uses host names of its own.
func (n *testNetwork) handle(host string, h http.Handler) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.hosts[host] = h
	n.hits[host] = &atomic.Int32{}
}

// handleHTML serves a fixed page at every path of host.
func (n *testNetwork) handleHTML(host, html string) {
	n.handle(host, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, html)
	}))
}

// requests is how many requests host has served.
func (n *testNetwork) requests(host string) int32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if c, ok := n.hits[host]; ok {
		return c.Load()
	}
	return 0
}

// dialLoopback connects to loopback addresses as they are and to anything else at the trap.
func (n *testNetwork) dialLoopback(ctx context.Context, network, addr string) (net.Conn, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, fmt.Errorf("test network: %q is not an address", addr)
	}
	d := &net.Dialer{Timeout: 5 * time.Second}
	if ap.Addr().IsLoopback() {
		return d.DialContext(ctx, network, addr)
	}
	n.trapDials.Add(1)
	n.trapSeen.Store(addr, true)
	return d.DialContext(ctx, network, n.trap.Listener.Addr().String())
}

// assertTrapUntouched fails t when anything reached past the guard to a non-loopback address.
func (n *testNetwork) assertTrapUntouched(t *testing.T) {
	t.Helper()
	if d, r := n.trapDials.Load(), n.trapRequests.Load(); d != 0 || r != 0 {
		var seen []string
		n.trapSeen.Range(func(k, _ any) bool { seen = append(seen, k.(string)); return true })
		t.Errorf("%d connections (%d requests) got past the guard to %v", d, r, seen)
	}
}

// testResolver is the tests' DNS: a few public-looking names of private addresses; every
// other name is not found (the tests' hosts are mapped by host rules, never looked up).
func testResolver() *fakeResolver {
	return &fakeResolver{names: map[string][]string{
		"metadata.example":  {"169.254.169.254"},
		"intranet.example":  {"10.1.2.3"},
		"dual.example":      {"93.184.215.14", "192.168.0.10"},
		"router.example":    {"fd00::1"},
		"public-ip.example": {"93.184.215.14"},
	}}
}

// driverDir is the Playwright driver `make test` installs; without it a test fails under make
// test and is skipped elsewhere, as backend/browsertest's are.
func driverDir(t testing.TB) string {
	t.Helper()
	return testenv.NeedEnv(t, "PLAYWRIGHT_DRIVER_PATH", "the Playwright driver", "run the tests with `make test`, or "+
		"driver=$(deploy/local/browser.sh) && PLAYWRIGHT_DRIVER_PATH=$driver go test ./worker/browse/")
}

// chromiumPath is the full Chromium the worker runs in production (CHROMIUM_PATH): the tests
// that kill it, time a review or record the held-out sets launch it.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		return p
	}
	return DefaultChromiumPath
}

// reviewChromiumPath is the Chromium the other tests review pages in: Debian's headless shell,
// the same Blink and V8 build, at a sixth of the full Chromium's CPU a review
// (browsertest.PagesChromiumPath; docs/development.md).
func reviewChromiumPath() string { return browsertest.PagesChromiumPath() }

// netw is the package tests' network; shared is the browser most tests share (loopback
// allowed, every *.test host mapped to the site server), started on first use.
var (
	netw   = newTestNetwork()
	shared struct {
		once sync.Once
		b    *Browser
		err  error
	}
)

// Every test that drives Chromium first takes a turn (browsertest.Turn), shared with the other
// test binaries of the run. Tests that check what a review records run in parallel (reviews wait
// for a slot of the shared browser before their time limit starts); those that time a review,
// count reviews at once or kill the browser run alone, before them.

// sharedTimeout is the shared browser's Timeout: generous, the machine is small and busy.
const sharedTimeout = 20 * time.Second

func sharedBrowser(t *testing.T) *Browser {
	t.Helper()
	browsertest.Turn(t)
	shared.once.Do(func() {
		rules := fmt.Sprintf("MAP bank-login.test 127.0.0.1:%[1]s, MAP *.shop.test 127.0.0.1:%[1]s, MAP *.test 127.0.0.1:%[1]s", netw.port())
		shared.b, shared.err = newBrowser(Options{
			DriverDir:     driverDir(t),
			ChromiumPath:  reviewChromiumPath(),
			HostRules:     rules,
			AllowLoopback: true,
			Timeout:       sharedTimeout,
			Resolver:      testResolver(),
			Log:           testLog(),
		}, netw.dialLoopback)
	})
	if shared.err != nil {
		t.Fatalf("shared browser: %v", shared.err)
	}
	return shared.b
}

// newTestBrowser is a browser of t's own, closed when t ends.
func newTestBrowser(t *testing.T, opts Options) *Browser {
	t.Helper()
	browsertest.Turn(t)
	opts.DriverDir = driverDir(t)
	if opts.ChromiumPath == "" {
		opts.ChromiumPath = reviewChromiumPath()
	}
	if opts.Resolver == nil {
		opts.Resolver = testResolver()
	}
	opts.Log = testLog()
	b, err := newBrowser(opts, netw.dialLoopback)
	if err != nil {
		t.Fatalf("new browser: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return b
}

// testLog shows the browser's log with -v.
func testLog() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.b != nil {
		_ = shared.b.Close()
	}
	netw.site.Close()
	netw.siteTLS.Close()
	netw.trap.Close()
	os.Exit(code)
}
