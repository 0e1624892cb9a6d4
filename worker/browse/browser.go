// Package browse is the moderation worker's browser (docs/moderation.md#moderation-the-browser): it opens a link's destination
// in headless Chromium, driven by playwright-go, as each visitor of a review — a desktop
// browser, an iPhone and WeChat's in-app browser — and records what each saw
// (moderation.Capture).
//
// Every connection the browser makes goes through the SSRF guard (guard.go): requests are
// routed through Playwright and refused when their host is, resolves to or is mapped to an
// address that is not global unicast, and Chromium connects only through a proxy of the
// capture's own (proxy.go) that checks the same rule, which is what stops a redirect to a
// private address.
package browse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The defaults of Options.
const (
	DefaultChromiumPath = "/usr/bin/chromium"
	DefaultConcurrency  = 2
	DefaultTimeout      = 15 * time.Second
)

// launchTimeout bounds starting Chromium; a small shared machine can be slow at it.
const launchTimeout = 60 * time.Second

// Options configure a Browser.
type Options struct {
	// DriverDir is the Playwright driver's folder (PLAYWRIGHT_DRIVER_PATH; deploy/local/browser.sh
	// prints it): package/cli.js and a node to run it. Required: nothing is ever downloaded.
	DriverDir string
	// ChromiumPath is the Chromium launched (CHROMIUM_PATH), DefaultChromiumPath when empty.
	ChromiumPath string
	// HostRules map host names the way Chromium's --host-resolver-rules do (BROWSER_HOST_RULES;
	// see HostRules); the guard judges a mapped host by the address it is mapped to.
	HostRules string
	// AllowLoopback lets the guard pass loopback addresses, 127/8 and ::1, and nothing else
	// (MODERATION_ALLOW_LOOPBACK; tests only).
	AllowLoopback bool
	// Concurrency is how many reviews run at once (DefaultConcurrency when 0); each opens its
	// three visitors side by side.
	Concurrency int
	// Timeout bounds each visitor of a review (DefaultTimeout when 0): navigation, settling
	// and recording together.
	Timeout time.Duration
	// Resolver is the guard's DNS, net.DefaultResolver when nil.
	Resolver Resolver
	// Log receives the browser's events; nil discards them.
	Log *slog.Logger
	// OCR reads the text of a page's screenshot when its DOM holds little text or it asks for
	// a password, a card or a grid of words (worker/ocr); nil reads none.
	OCR ScreenshotReader
}

// ScreenshotReader reads the text of a PNG screenshot. A reader that cannot read (Tesseract
// missing) answers an error every time; the capture goes on without the text.
type ScreenshotReader interface {
	Read(ctx context.Context, png []byte) (string, error)
}

// chromiumArgs keep a headless Chromium quiet and working on a closed network, as root and in
// containers with a small /dev/shm (as backend/browsertest launches it). The last three keep
// UDP from going around the proxy: no QUIC (nor WebTransport over it), and WebRTC may use UDP
// only through the proxy, which carries none.
var chromiumArgs = []string{
	"--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run",
	"--disable-quic", "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
	"--webrtc-ip-handling-policy=disable_non_proxied_udp",
}

// chromiumHostRules make Chromium unable to resolve any name but the proxies' address: all its
// connections go through a capture's proxy, which applies Options.HostRules itself, and
// anything that tried to connect around the proxy would find no address.
const chromiumHostRules = "--host-resolver-rules=MAP * ^NOTFOUND, EXCLUDE 127.0.0.1"

// ErrClosed is returned by Review after Close.
var ErrClosed = errors.New("browse: browser closed")

// Browser is one Playwright driver and one Chromium serving reviews, at most
// Options.Concurrency at once. A Chromium that crashed or disconnected is replaced before the
// next capture. Safe for concurrent use.
type Browser struct {
	opts      Options
	guard     *Guard
	log       *slog.Logger
	slots     chan struct{}
	dial      dialFunc
	downloads string // the folder Chromium would save downloads in; downloads are refused

	closing atomic.Bool // Close has begun: a disconnection is expected

	mu       sync.Mutex
	pw       *playwright.Playwright
	chromium playwright.Browser
	visitors []visitor
	closed   bool
}

// New starts the driver and Chromium; it fails when either cannot start or the host rules
// cannot be read.
func New(opts Options) (*Browser, error) {
	return newBrowser(opts, (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext)
}

// newBrowser is New with the proxies' way of connecting (tests count connections with it).
func newBrowser(opts Options, dial dialFunc) (*Browser, error) {
	if opts.DriverDir == "" {
		return nil, errors.New("browse: no Playwright driver folder (PLAYWRIGHT_DRIVER_PATH; deploy/local/browser.sh installs one)")
	}
	if _, err := os.Stat(filepath.Join(opts.DriverDir, "package", "cli.js")); err != nil {
		return nil, fmt.Errorf("browse: no Playwright driver in %s: %w", opts.DriverDir, err)
	}
	if opts.ChromiumPath == "" {
		opts.ChromiumPath = DefaultChromiumPath
	}
	if _, err := os.Stat(opts.ChromiumPath); err != nil {
		return nil, fmt.Errorf("browse: no Chromium at %s: %w", opts.ChromiumPath, err)
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	rules, err := ParseHostRules(opts.HostRules)
	if err != nil {
		return nil, fmt.Errorf("browse: BROWSER_HOST_RULES: %w", err)
	}
	downloads, err := os.MkdirTemp("", "shortlink-browse-downloads-")
	if err != nil {
		return nil, fmt.Errorf("browse: downloads folder: %w", err)
	}
	b := &Browser{
		opts:      opts,
		guard:     NewGuard(rules, opts.Resolver, opts.AllowLoopback),
		log:       opts.Log,
		slots:     make(chan struct{}, opts.Concurrency),
		dial:      dial,
		downloads: downloads,
	}
	b.mu.Lock()
	err = b.launch()
	b.mu.Unlock()
	if err != nil {
		_ = b.Close() // the driver may have started
		return nil, err
	}
	return b, nil
}

// Close stops Chromium and the driver. Reviews under way fail.
func (b *Browser) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	b.closing.Store(true)
	var errs []error
	if b.chromium != nil {
		if err := b.chromium.Close(); err != nil && b.chromium.IsConnected() {
			errs = append(errs, fmt.Errorf("close chromium: %w", err))
		}
		b.chromium = nil
	}
	if b.pw != nil {
		if err := b.pw.Stop(); err != nil {
			errs = append(errs, fmt.Errorf("stop the Playwright driver: %w", err))
		}
		b.pw = nil
	}
	_ = os.RemoveAll(b.downloads)
	return errors.Join(errs...)
}

// current is the running Chromium and its visitors, relaunched first if it is gone.
func (b *Browser) current() (playwright.Browser, []visitor, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, nil, ErrClosed
	}
	if b.chromium == nil || !b.chromium.IsConnected() {
		b.log.Warn("moderation browser: relaunching chromium", "reason", "disconnected")
		if err := b.launch(); err != nil {
			return nil, nil, err
		}
	}
	return b.chromium, b.visitors, nil
}

// replace relaunches Chromium if failed is still the current one (a capture found it unusable);
// captures that found the same failure at once relaunch it once.
func (b *Browser) replace(failed playwright.Browser, cause error) (playwright.Browser, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, ErrClosed
	}
	if b.chromium == failed || b.chromium == nil {
		b.log.Warn("moderation browser: relaunching chromium", "reason", cause.Error())
		if err := b.launch(); err != nil {
			return nil, err
		}
	}
	return b.chromium, nil
}

// launch starts Chromium, and the driver first when it is not running or no longer answers.
// b.mu must be held.
func (b *Browser) launch() error {
	if b.chromium != nil {
		_ = b.chromium.Close() // gone already, or unusable: make sure
		b.chromium = nil
	}
	chromium, err := b.launchChromium()
	if err != nil && b.pw != nil {
		// The driver itself may be what failed: start a new one and try once more.
		_ = b.pw.Stop()
		b.pw = nil
		chromium, err = b.launchChromium()
	}
	if err != nil {
		return err
	}
	b.chromium = chromium
	b.visitors = visitors(chromium.Version())
	// On playwright-go's event goroutine: only log (b.mu may be held by a Close waiting on
	// that goroutine).
	chromium.OnDisconnected(func(playwright.Browser) {
		if !b.closing.Load() {
			b.log.Warn("moderation browser: chromium disconnected")
		}
	})
	return nil
}

func (b *Browser) launchChromium() (playwright.Browser, error) {
	if b.pw == nil {
		// Run only starts the driver that is there: it never downloads (Install would).
		pw, err := playwright.Run(&playwright.RunOptions{
			DriverDirectory: b.opts.DriverDir, SkipInstallBrowsers: true, Verbose: false,
			Stdout: io.Discard, Stderr: os.Stderr,
		})
		if err != nil {
			return nil, fmt.Errorf("browse: start the Playwright driver in %s: %w", b.opts.DriverDir, err)
		}
		b.pw = pw
	}
	chromium, err := b.pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(b.opts.ChromiumPath),
		Headless:       playwright.Bool(true),
		Args:           append(append([]string(nil), chromiumArgs...), chromiumHostRules),
		// Chromium's pop-up blocker stays on: a page may open no window without a click, and
		// no click ever happens here. (Pop-ups that get through are closed at once.)
		IgnoreDefaultArgs: []string{"--disable-popup-blocking"},
		DownloadsPath:     playwright.String(b.downloads),
		Timeout:           playwright.Float(float64(launchTimeout.Milliseconds())),
		// The worker stops the browser itself when it shuts down.
		HandleSIGINT:  playwright.Bool(false),
		HandleSIGTERM: playwright.Bool(false),
		HandleSIGHUP:  playwright.Bool(false),
	})
	if err != nil {
		return nil, fmt.Errorf("browse: launch %s: %w", b.opts.ChromiumPath, err)
	}
	return chromium, nil
}

// reviewSlot waits for one of the Concurrency slots; release gives it back.
func (b *Browser) reviewSlot(ctx context.Context) (release func(), err error) {
	select {
	case b.slots <- struct{}{}:
		return func() { <-b.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
