package browse

import (
	"errors"
	"mime"
	"net"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/moderation"
)

// maxRedirects and maxRefused bound what a capture keeps of a page that navigates or requests
// without end.
const (
	maxRedirects = 50
	maxRefused   = 20
)

// recorder follows one page's top frame through its navigations, from the events Playwright
// sends: the URLs it went through, the status of its document, whether it is still loading,
// and the requests that were refused or could not be made. Its handlers run on
// playwright-go's single dispatching goroutine, so they only record: they never call back
// into Playwright.
type recorder struct {
	page playwright.Page

	mu        sync.Mutex
	chain     []string
	client    []string           // URLs of chain the frame moved to by itself (meta refresh, script)
	committed bool               // a document of the link's has committed in the top frame
	lastNav   playwright.Request // the top frame's latest navigation request (or redirect hop)
	status    int
	navFailed string // the top frame's last navigation failed with this ("net::ERR_…"), if it did
	pending   bool   // a navigation of the top frame is under way and has not committed
	loaded    bool   // the top frame's current document has fired load
	loadedAt  time.Time
	activity  time.Time // of the last request or navigation event
	inflight  map[playwright.Request]struct{}
	download  string             // suggested file name of the download the link's navigation turned into
	started   []string           // downloads started once a document had committed (startedDownload)
	toFile    playwright.Request // a navigation of the shown page that turned out to be a file
	document  string             // the address of the document the top frame shows
	refused   []string
	failedBy  map[string]string // host:port → why a request there was not made (a capture's Error)
}

func newRecorder() *recorder {
	return &recorder{inflight: map[playwright.Request]struct{}{}, failedBy: map[string]string{}, activity: time.Now()}
}

// watch starts following page; call it before the first navigation.
func (r *recorder) watch(page playwright.Page) {
	r.page = page
	page.OnRequest(r.onRequest)
	page.OnResponse(r.onResponse)
	page.OnRequestFinished(func(req playwright.Request) { r.onRequestDone(req, "") })
	page.OnRequestFailed(func(req playwright.Request) {
		failure := "failed"
		if err := req.Failure(); err != nil {
			failure = err.Error()
		}
		r.onRequestDone(req, failure)
	})
	page.OnFrameNavigated(r.onFrameNavigated)
	page.OnLoad(func(playwright.Page) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.loaded, r.loadedAt, r.activity = true, time.Now(), time.Now()
	})
	page.OnDownload(func(d playwright.Download) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.pending = false
		if !r.committed {
			r.download = d.SuggestedFilename() // the link itself is a file: nothing to read
			return
		}
		// The page, shown, started a file by script or by a press: the page is still read,
		// and the file is one of the things it offers.
		if len(r.started) < moderation.MaxDownloads {
			if u := startedDownload(d.URL(), d.SuggestedFilename(), r.document); u != "" && !slices.Contains(r.started, u) {
				r.started = append(r.started, u)
			}
		}
	})
}

// topNavigation says req is a navigation of the page's top frame (a redirect's next hop
// included: Playwright sends each hop as a request of its own).
func (r *recorder) topNavigation(req playwright.Request) bool {
	return req.IsNavigationRequest() && req.Frame() == r.page.MainFrame()
}

func (r *recorder) onRequest(req playwright.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.activity = time.Now()
	r.inflight[req] = struct{}{}
	if prev := req.RedirectedFrom(); prev != nil {
		delete(r.inflight, prev)
	}
	if r.topNavigation(req) {
		// A navigation that is no redirect's next hop, once a document has committed, is the
		// page moving on by itself: a meta refresh or a script (nobody clicks here).
		if req.RedirectedFrom() == nil && r.committed && len(r.client) < maxRedirects {
			if u := req.URL(); !strings.HasPrefix(u, "about:") && (len(r.chain) == 0 || r.chain[len(r.chain)-1] != u) {
				r.client = append(r.client, u)
			}
		}
		r.addURL(req.URL())
		r.lastNav, r.pending, r.navFailed = req, true, ""
	}
}

func (r *recorder) onResponse(resp playwright.Response) {
	req := resp.Request()
	if !r.topNavigation(req) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.activity = time.Now()
	status := resp.Status()
	if status >= 300 && status < 400 && resp.Headers()["location"] != "" {
		return // a redirect: its next hop comes as a request of its own
	}
	if r.committed && isFile(resp.Headers()) {
		// The shown page moved to a file (a script's location, a press): Chromium downloads
		// it and keeps the page, and the download event names the file. It is no hop of the
		// chain, and its end is no failed navigation.
		r.toFile = req
		if n := len(r.chain); n > 0 && r.chain[n-1] == req.URL() {
			r.chain = r.chain[:n-1]
		}
		if n := len(r.client); n > 0 && r.client[n-1] == req.URL() {
			r.client = r.client[:n-1]
		}
		return
	}
	r.status, r.navFailed = status, ""
	if status == 204 || status == 205 {
		r.pending = false // nothing to commit: the frame stays where it was
	}
	// A download is refused, and Playwright's download event may come after the navigation
	// has failed: the header says it first.
	if kind, params, err := mime.ParseMediaType(resp.Headers()["content-disposition"]); err == nil && kind == "attachment" && !r.committed {
		r.download = params["filename"]
		if r.download == "" {
			r.download = "attachment"
		}
	}
}

func (r *recorder) onRequestDone(req playwright.Request, failure string) {
	top := r.topNavigation(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.activity = time.Now()
	delete(r.inflight, req)
	// Only the latest navigation counts: one that a newer navigation cut short fails too
	// (net::ERR_ABORTED), and means nothing.
	if top && req == r.toFile {
		r.pending = false
		return
	}
	if top && failure != "" && req == r.lastNav {
		r.pending = false
		r.navFailed = failure
		r.status = 0
	}
}

func (r *recorder) onFrameNavigated(f playwright.Frame) {
	if f != r.page.MainFrame() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.activity = time.Now()
	r.addURL(f.URL())
	if u := f.URL(); u != "" && !strings.HasPrefix(u, "about:") && !strings.HasPrefix(u, "chrome-error:") {
		r.committed, r.document = true, u
	}
	if r.pending {
		// The navigation committed a new document, which has yet to load. (A navigation
		// within the document — history.pushState, a fragment — has no request before it.)
		r.pending, r.loaded = false, false
	}
}

// addURL appends u to the chain unless it repeats the last one; the browser's own pages
// (about:blank, error pages) are not where the link leads.
func (r *recorder) addURL(u string) {
	if u == "" || strings.HasPrefix(u, "about:") || strings.HasPrefix(u, "chrome-error:") {
		return
	}
	if n := len(r.chain); n > 0 && r.chain[n-1] == u {
		return
	}
	if len(r.chain) < maxRedirects {
		r.chain = append(r.chain, u)
	}
}

// clientRedirects are the URLs the top frame moved to by itself, in order.
func (r *recorder) clientRedirects() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.client...)
}

// blocked records a request that was not made: refused by the guard, or stopped by the
// capture's route or proxy for want of an address or a connection. target is a URL, or
// host:port for a tunnel.
func (r *recorder) blocked(target string, err error) {
	key := target
	if u, perr := url.Parse(target); perr == nil && u.Host != "" {
		key = hostPortOf(u)
	} else if host, port, perr := net.SplitHostPort(target); perr == nil {
		key = strings.ToLower(net.JoinHostPort(host, port)) // a tunnel's host:port
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.failedBy[key]; !ok {
		r.failedBy[key] = failureText(err)
	}
	var re *RefusedError
	if !errors.As(err, &re) {
		return
	}
	entry := target + " (" + re.Reason + ")"
	if len(r.refused) < maxRefused && !slices.Contains(r.refused, entry) {
		r.refused = append(r.refused, entry)
	}
}

// hostPortOf is a URL's host:port with the scheme's port filled in, as the proxy sees it.
func hostPortOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" || u.Scheme == "wss" {
			port = "443"
		}
	}
	return strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

// navigating says a navigation of the top frame is under way and has not committed.
func (r *recorder) navigating() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pending
}

// settled says the top frame has loaded and the page has been quiet for quiet, or loaded for
// longest, with no navigation under way.
func (r *recorder) settled(now time.Time, quiet, longest time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending || !r.loaded {
		return false
	}
	idle := len(r.inflight) == 0 && now.Sub(r.activity) >= quiet
	return idle || now.Sub(r.loadedAt) >= longest
}

// topFailure is why the top frame's last navigation failed, when the guard refused where it
// led or the route or proxy could not reach it ("refused: …", "dns: …"); "" otherwise.
func (r *recorder) topFailure() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.navFailed == "" || len(r.chain) == 0 {
		return ""
	}
	u, err := url.Parse(r.chain[len(r.chain)-1])
	if err != nil {
		return ""
	}
	return r.failedBy[hostPortOf(u)]
}

// isFile says an answer to a navigation is a file Chromium saves rather than a document it
// shows: sent as an attachment, or of a type no tab displays (an archive, an installer, a
// package; text, images, media, XML, JSON, JavaScript and PDF are shown or sniffed).
func isFile(h map[string]string) bool {
	if kind, _, err := mime.ParseMediaType(h["content-disposition"]); err == nil && kind == "attachment" {
		return true
	}
	kind, _, err := mime.ParseMediaType(h["content-type"])
	if err != nil {
		return false
	}
	sub, ok := strings.CutPrefix(kind, "application/")
	if !ok {
		return false
	}
	switch sub {
	case "xhtml+xml", "xml", "json", "javascript", "ecmascript", "pdf":
		return false
	}
	return !strings.HasSuffix(sub, "+xml") && !strings.HasSuffix(sub, "+json")
}

// startedDownloads are the downloads the page started once shown, as startedDownload writes
// them.
func (r *recorder) startedDownloads() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.started)
}

// startedDownload is how a capture's Downloads name a file the page started: its address, or,
// for a file the page made itself (blob:, data:), its suggested name under the page's address
// (pageURL), so that its kind shows as a link's would. "" when neither reads as a URL.
func startedDownload(fileURL, name, pageURL string) string {
	if u, err := url.Parse(fileURL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		return cut(u.String(), 300)
	}
	base, err := url.Parse(pageURL)
	if err != nil || name == "" {
		return ""
	}
	return cut(base.ResolveReference(&url.URL{Path: path.Base(name)}).String(), 300)
}

// result is what the recorder saw: the chain, the status, the last navigation's failure, a
// download's name and the refused requests.
func (r *recorder) result() (chain []string, status int, navFailed, download string, refusedList []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.chain...), r.status, r.navFailed, r.download, append([]string(nil), r.refused...)
}
