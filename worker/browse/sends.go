package browse

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/playwright-community/playwright-go"
	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/moderation"
)

// Where a page sends what it is given when it has no form to post: inputs outside any form,
// or a form its script intercepts, send by fetch, XMLHttpRequest, sendBeacon or a WebSocket. A
// capture reads it from the page's scripts (inline, and those loaded from the page's own site)
// and from the requests the page made (moderation.Capture.Sends and SendHosts).
const (
	maxScriptBodies = 8         // scripts of a page whose text is read
	maxScriptBody   = 512 << 10 // bytes of a script read, at most
	maxSends        = moderation.MaxSends
)

// sendLog keeps, for one capture, the requests the page made that send something (any method
// but GET, HEAD and OPTIONS, and WebSockets) and the first scripts it loaded. Its handlers run
// on playwright-go's dispatching goroutine: they only record.
type sendLog struct {
	mu      sync.Mutex
	posted  []string
	scripts []playwright.Response
}

// watchSends starts following page's requests; call it before the first navigation.
func watchSends(page playwright.Page) *sendLog {
	l := &sendLog{}
	page.OnRequest(func(req playwright.Request) {
		switch req.Method() {
		case "GET", "HEAD", "OPTIONS":
			return
		}
		if req.IsNavigationRequest() {
			return
		}
		l.add(req.URL())
	})
	page.OnWebSocket(func(ws playwright.WebSocket) { l.add(ws.URL()) })
	page.OnResponse(func(resp playwright.Response) {
		if resp.Request().ResourceType() != "script" {
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.scripts) < maxScriptBodies {
			l.scripts = append(l.scripts, resp)
		}
	})
	return l
}

func (l *sendLog) add(u string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.posted) < maxSends && !slices.Contains(l.posted, u) {
		l.posted = append(l.posted, u)
	}
}

// read fills c.Sends and c.SendHosts from the frames' inline scripts (with each frame's base
// URL), the scripts the page loaded and the requests it made.
func (l *sendLog) read(c *moderation.Capture, inline []frameScripts) {
	var t sendTargets
	own := registrable(hostOf(c.FinalURL))
	for _, f := range inline {
		for _, s := range f.texts {
			t.scan(s, f.base, true)
		}
	}
	l.mu.Lock()
	scripts := slices.Clone(l.scripts)
	posted := slices.Clone(l.posted)
	l.mu.Unlock()
	for _, resp := range scripts {
		if n := resp.Headers()["content-length"]; len(n) > 7 {
			continue // ten megabytes or more
		}
		body, err := resp.Body()
		if err != nil || len(body) > maxScriptBody {
			continue
		}
		// A script of another site (a library, an analytics tag) names where it reports, not
		// where the page sends what it asks: only the page's own scripts say that.
		t.scan(string(body), resp.URL(), own != "" && registrable(hostOf(resp.URL())) == own)
	}
	for _, u := range posted {
		t.host(u)
	}
	c.Sends, c.SendHosts = t.urls, t.hosts
}

// frameScripts are one frame's inline scripts and its base URL.
type frameScripts struct {
	base  string
	texts []string
}

// sendTargets gathers where scripts send: the URLs passed to a sending call (urls), and the
// hosts of every absolute URL written in a script that sends at all (hosts), which is where a
// script that builds its address ("https://api.telegram.org/bot" + token) sends.
type sendTargets struct {
	urls, hosts []string
}

// sendCallRE finds a sending call's literal address: fetch("…"), navigator.sendBeacon("…"),
// new WebSocket("…"), xhr.open("POST", "…"), $.post("…"), $.ajax({url: "…"}), axios.post("…").
var sendCallRE = regexp.MustCompile("(?:\\bfetch|\\bsendBeacon|\\bWebSocket|\\bEventSource|\\baxios\\.(?:post|put|get|request)|\\$\\.(?:post|get|ajax|getJSON)|\\bjQuery\\.(?:post|ajax))\\s*\\(\\s*[\"'`]([^\"'`\\s]{1,300})[\"'`]|" +
	"\\.open\\(\\s*[\"'`](?i:post|get|put)[\"'`]\\s*,\\s*[\"'`]([^\"'`\\s]{1,300})[\"'`]|" +
	"\\bajax\\(\\s*\\{[^}]{0,200}?\\burl\\s*:\\s*[\"'`]([^\"'`\\s]{1,300})[\"'`]")

// sendsRE says a script sends at all.
var sendsRE = regexp.MustCompile(`\bfetch\s*\(|XMLHttpRequest|sendBeacon|\bWebSocket\s*\(|\bajax\s*\(|\$\.post\s*\(|\baxios\b`)

// absoluteRE finds absolute URLs written in a script; base64RE the base64 strings it decodes
// (atob("aHR0cHM6Ly9…")), where kits hide their addresses.
var (
	absoluteRE = regexp.MustCompile("[\"'`]((?:https?|wss?)://[^\"'`\\s<>]{1,300})")
	base64RE   = regexp.MustCompile(`\batob\(\s*["']([A-Za-z0-9+/=]{16,1000})["']`)
)

// scan reads one script, whose URL (or its frame's base) is base. direct says its sending
// calls' addresses count as the page's own (a script of the page's site, or inline).
func (t *sendTargets) scan(script, base string, direct bool) {
	if !sendsRE.MatchString(script) {
		return
	}
	b, _ := url.Parse(base)
	if direct {
		for _, m := range sendCallRE.FindAllStringSubmatch(script, 50) {
			raw := m[1] + m[2] + m[3]
			if strings.Contains(raw, "${") || b == nil {
				continue
			}
			u, err := b.Parse(raw)
			if err != nil || !sendScheme(u.Scheme) || u.Hostname() == "" {
				continue
			}
			if s := u.String(); len(t.urls) < maxSends && !slices.Contains(t.urls, s) {
				t.urls = append(t.urls, cut(s, 300))
			}
		}
	}
	for _, m := range absoluteRE.FindAllStringSubmatch(script, 200) {
		t.host(m[1])
	}
	for _, m := range base64RE.FindAllStringSubmatch(script, 20) {
		if dec, err := base64.StdEncoding.DecodeString(m[1]); err == nil {
			for _, u := range absoluteRE.FindAllStringSubmatch(`"`+string(dec), 20) {
				t.host(u[1])
			}
		}
	}
}

// host adds the host of an absolute URL to t.hosts.
func (t *sendTargets) host(raw string) {
	u, err := url.Parse(raw)
	if err != nil || !sendScheme(u.Scheme) {
		return
	}
	h := strings.ToLower(u.Hostname())
	if h != "" && len(t.hosts) < maxSends && !slices.Contains(t.hosts, h) {
		t.hosts = append(t.hosts, cut(h, maxHost))
	}
}

func sendScheme(s string) bool { return s == "http" || s == "https" || s == "ws" || s == "wss" }

// registrable is a host's registrable domain by the public suffix list, the host itself when it
// has none.
func registrable(host string) string {
	if host == "" {
		return ""
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}

// addFrameWords adds a frame's words and headings to c's, within their bounds: a sign-in
// page whose form and words stand in a frame says them there.
func addFrameWords(c *moderation.Capture, f pageFacts) {
	join := func(a, b, sep string, n int) string {
		if b == "" {
			return a
		}
		if a == "" {
			return cut(b, n)
		}
		return cut(a+sep+b, n)
	}
	c.Text = join(c.Text, f.Text, " ", moderation.MaxText)
	c.Headings = join(c.Headings, f.Headings, " / ", moderation.MaxHeadings)
}
