// Package browsertest gives tests a headless Chromium driven by Playwright: one driver and one
// browser per test binary, started on first use, and a fresh browser context per test.
//
// `make test` installs what it needs (deploy/local/browser.sh): Debian's Chromium and the
// Playwright driver, whose folder it passes in PLAYWRIGHT_DRIVER_PATH. Nothing is ever
// downloaded from here. A test that cannot get a browser fails; it is never skipped.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// DriverVersion is the Playwright driver the playwright-go module in go.mod speaks to;
// deploy/local/browser.sh installs the same version.
const DriverVersion = "1.52.0"

// Timeout bounds each browser action and navigation; the test machines are small and shared
// (a phone's fill waited 20 s for a page beside two test suites and a busy core). It is the
// tests' patience, not a claim: an action that can run runs at once.
const Timeout = 45 * time.Second

// chromiumArgs keep a headless Chromium quiet and working on a closed network, as root and in
// containers with a small /dev/shm.
var chromiumArgs = []string{
	"--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run",
}

// shared is the test binary's driver and browser, started once.
var shared struct {
	once    sync.Once
	mu      sync.Mutex
	pw      *playwright.Playwright
	browser playwright.Browser
	err     error
}

// Close stops the shared browser and driver, if they were started. Call it from TestMain
// after m.Run; without it the driver stops them when the test binary exits.
func Close() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.browser != nil {
		_ = shared.browser.Close()
		shared.browser = nil
	}
	if shared.pw != nil {
		_ = shared.pw.Stop()
		shared.pw = nil
	}
	if shared.err == nil {
		shared.err = errors.New("browsertest: Close was called")
	}
}

// DriverDir is where the Playwright driver is: PLAYWRIGHT_DRIVER_PATH, else the cache folder
// deploy/local/browser.sh fills.
func DriverDir() string {
	if d := os.Getenv("PLAYWRIGHT_DRIVER_PATH"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "shortlink", "playwright-"+DriverVersion)
}

// ChromiumPath is the full Chromium, as the moderation worker runs it: CHROMIUM_PATH, else
// Debian's /usr/bin/chromium.
func ChromiumPath() string {
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// headlessShell is Debian's chromium-headless-shell: the same Blink and V8 build without the
// browser's window and compositor around it, a quarter less CPU for the web app's pages and a
// sixth of the full Chromium's for a moderation review of three visitors (docs/development.md).
const headlessShell = "/usr/bin/chromium-headless-shell"

// PagesChromiumPath is the browser New opens pages in, and the one the moderation browser's
// tests review pages in (the tests that kill, time or run the worker as production does launch
// ChromiumPath): BROWSERTEST_CHROMIUM, else the headless shell when it is installed, else
// ChromiumPath.
func PagesChromiumPath() string {
	if p := os.Getenv("BROWSERTEST_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat(headlessShell); err == nil {
		return headlessShell
	}
	return ChromiumPath()
}

func start() (playwright.Browser, error) {
	shared.once.Do(func() {
		dir, chromium := DriverDir(), PagesChromiumPath()
		hint := "run the tests with `make test`, or deploy/local/browser.sh once"
		if _, err := os.Stat(filepath.Join(dir, "package", "cli.js")); err != nil {
			shared.err = fmt.Errorf("no Playwright driver in %s (%v): %s", dir, err, hint)
			return
		}
		if _, err := os.Stat(chromium); err != nil {
			shared.err = fmt.Errorf("no Chromium at %s (%v): %s", chromium, err, hint)
			return
		}
		// Run only starts the driver that is there: it never downloads (Install would).
		pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: dir, SkipInstallBrowsers: true, Verbose: false})
		if err != nil {
			shared.err = fmt.Errorf("start the Playwright driver in %s: %w (%s)", dir, err, hint)
			return
		}
		b, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
			ExecutablePath: playwright.String(chromium),
			Headless:       playwright.Bool(true),
			Args:           chromiumArgs,
			Timeout:        playwright.Float(float64((60 * time.Second).Milliseconds())),
		})
		if err != nil {
			_ = pw.Stop()
			shared.err = fmt.Errorf("launch %s: %w", chromium, err)
			return
		}
		shared.mu.Lock()
		shared.pw, shared.browser = pw, b
		shared.mu.Unlock()
	})
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.err != nil {
		return nil, shared.err
	}
	return shared.browser, nil
}

// Browser is one test's own browser context (cookies, storage and pages of its own) in the
// test binary's shared Chromium. It is closed when the test ends.
type Browser struct {
	playwright.BrowserContext
	// Chromium is the shared browser; close nothing of it.
	Chromium playwright.Browser

	t        testing.TB
	mu       sync.Mutex
	console  []string
	problems []string
}

// Options are a test's settings of its context.
type Options struct {
	// Hosts maps host names to the loopback address ("127.0.0.1:port") that serves them, so
	// that the browser can open http://sho.rt/… with that Host header. Requests to other
	// names fail: only loopback addresses and these hosts are reachable.
	Hosts map[string]string
	// Locale is the browser's language (navigator.language and Accept-Language), such as
	// "zh-CN"; empty keeps Chromium's default, en-US.
	Locale string
	// UserAgent replaces Chromium's, whose "HeadlessChrome" marks it as a robot to the
	// service: a test playing a person sets a person's browser (PersonUserAgent).
	UserAgent string
}

// PersonUserAgent is the user agent of a desktop Chrome, counted as a person's.
const PersonUserAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 Safari/537.36"

// New gives t a fresh context of the shared browser (after waiting for its Turn), starting the
// driver and Chromium on first use; t fails when the browser cannot start. When t ends, the context is closed, and t fails
// if a page broke the Content-Security-Policy or threw an uncaught error (see Problems).
func New(t testing.TB, opts Options) *Browser {
	t.Helper()
	Turn(t)
	b := open(t, opts)
	t.Cleanup(func() {
		for _, p := range b.Problems() {
			t.Errorf("browser: %s", p)
		}
	})
	return b
}

// open is New without the final check of problems.
func open(t testing.TB, opts Options) *Browser {
	t.Helper()
	chromium, err := start()
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	proxy := newProxy(opts.Hosts)
	t.Cleanup(proxy.Close)
	ctxOpts := playwright.BrowserNewContextOptions{Proxy: &playwright.Proxy{Server: proxy.URL}}
	if opts.Locale != "" {
		ctxOpts.Locale = playwright.String(opts.Locale)
	}
	if opts.UserAgent != "" {
		ctxOpts.UserAgent = playwright.String(opts.UserAgent)
	}
	ctx, err := chromium.NewContext(ctxOpts)
	if err != nil {
		t.Fatalf("browser: new context: %v", err)
	}
	b := &Browser{BrowserContext: ctx, Chromium: chromium, t: t}
	// Cleanups run last-in first-out: the context closes before its proxy.
	t.Cleanup(func() { _ = ctx.Close() })
	ctx.SetDefaultTimeout(float64(Timeout.Milliseconds()))
	ctx.SetDefaultNavigationTimeout(float64(Timeout.Milliseconds()))
	// Chromium also logs "Refused to …" for a violation; the event names the directive.
	if err := ctx.AddInitScript(playwright.Script{Content: playwright.String(
		`document.addEventListener("securitypolicyviolation", (e) => console.error(` +
			"`Content-Security-Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || \"inline code\"} in ${e.documentURI}`));",
	)}); err != nil {
		t.Fatalf("browser: init script: %v", err)
	}
	ctx.OnConsole(func(m playwright.ConsoleMessage) {
		line := m.Type() + ": " + m.Text()
		b.mu.Lock()
		defer b.mu.Unlock()
		b.console = append(b.console, line)
		if m.Type() == "error" && (strings.Contains(m.Text(), "Content-Security-Policy") || strings.Contains(m.Text(), "Content Security Policy")) {
			b.problems = append(b.problems, line)
		}
	})
	ctx.OnWebError(func(e playwright.WebError) {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.problems = append(b.problems, "uncaught error: "+e.Error().Error())
	})
	return b
}

// Page opens a new tab in the test's context.
func (b *Browser) Page() playwright.Page {
	b.t.Helper()
	p, err := b.NewPage()
	if err != nil {
		b.t.Fatalf("browser: new page: %v", err)
	}
	return p
}

// Console is every console message of the context's pages so far, as "type: text".
func (b *Browser) Console() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.console...)
}

// Problems are the Content-Security-Policy violations and uncaught errors of the context's
// pages so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// newProxy is the context's HTTP proxy: it sends a request for a host of hosts to that host's
// address, keeping the Host header, any other request to a loopback address as it is, and
// refuses the rest, so a test never reaches outside the machine.
func newProxy(hosts map[string]string) *httptest.Server {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			if to, ok := hosts[host]; ok {
				return dialer.DialContext(ctx, network, to)
			}
			if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
				return dialer.DialContext(ctx, network, addr)
			}
			return nil, fmt.Errorf("browsertest: %s is neither loopback nor one of the test's hosts", host)
		},
		DisableCompression: true,
	}
	rp := &httputil.ReverseProxy{
		// The request goes on as the browser sent it: same URL, same Host header.
		Rewrite:   func(*httputil.ProxyRequest) {},
		Transport: transport,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, err.Error(), http.StatusBadGateway)
		},
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodConnect || !r.URL.IsAbs() {
			http.Error(w, "browsertest: only plain http:// requests are proxied", http.StatusMethodNotAllowed)
			return
		}
		rp.ServeHTTP(w, r)
	}))
}
