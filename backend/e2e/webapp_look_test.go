package e2e

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/browsertest"
)

// The web app's walks: each one plays a customer through one journey, finding controls by
// their role and visible text, in each look it names. A look is a language at a window size;
// the sweep of every page (TestWebAppEveryPage) runs all four and checks each page with axe-core.

// look is one way a customer sees the app.
type look struct {
	name   string // in subtest and screenshot names: "en-desktop"
	locale string // the browser's language
	size   playwright.Size
}

var (
	wide = playwright.Size{Width: 1440, Height: 900}

	enDesktop = look{"en-desktop", "en-US", wide}
	enPhone   = look{"en-phone", "en-US", phone}
	zhDesktop = look{"zh-desktop", "zh-CN", wide}
	zhPhone   = look{"zh-phone", "zh-CN", phone}

	// twoLooks are the looks of a walk: each language once, each size once.
	twoLooks = []look{enDesktop, zhPhone}
	// allLooks are every language at every size.
	allLooks = []look{enDesktop, enPhone, zhDesktop, zhPhone}
)

// zh reports whether the look is in Chinese.
func (l look) zh() bool { return strings.HasPrefix(l.locale, "zh") }

// phone reports whether the look is a phone's narrow screen.
func (l look) phone() bool { return l.size.Width < 600 }

// tr is the English or the Chinese of a visible text, as the look shows it.
func (l look) tr(en, zh string) string {
	if l.zh() {
		return zh
	}
	return en
}

// eachLook runs walk as a parallel subtest per look it runs in (looksOf).
func eachLook(t *testing.T, looks []look, walk func(t *testing.T, l look)) {
	t.Helper()
	for _, l := range looksOf(t.Name(), looks) {
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			failsHere(t, func() { walk(t, l) })
		})
	}
}

// failsHere runs a subtest's body whose helpers may fail the parent test (a server started by
// the parent fails the parent's t): such a failure ends this goroutine without marking the
// subtest done, which the testing package takes for a panic that stops the whole binary. The
// subtest fails instead, with a line pointing at the parent's message.
func failsHere(t *testing.T, body func()) {
	t.Helper()
	returned := false
	defer func() {
		if !returned && !t.Failed() && !t.Skipped() {
			t.Error("a helper failed the parent test (its message is above)")
			t.FailNow()
		}
	}()
	body()
	returned = true
}

// looksOf are the looks the walk named name runs in. `make test` walks each journey once, in
// one of the looks it names, picked by the walk's name (so that, over the walks, every look is
// walked), and the sweep of every page in two looks, each language once and each size once:
// the server's answers are the same in every look, and the browser is most of the suite's
// time. `make screenshots` (SCREENSHOTS_DIR set) walks every look named, for the pictures.
func looksOf(name string, looks []look) []look {
	switch {
	case screenshotDir() != "" || len(looks) <= 1:
		return looks
	case len(looks) == len(allLooks):
		return twoLooks
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	i := int(h.Sum32() % uint32(len(looks)))
	return looks[i : i+1]
}

// walker is a page of the app in a look whose steps fail the test: controls are found by
// role and name, as a person finds them.
type walker struct {
	t    *testing.T
	l    look
	b    *browsertest.Browser
	p    playwright.Page
	base string // http://sho.rt/app

	mu       sync.Mutex
	inFlight map[playwright.Request]string // the API calls not answered yet, for failures' messages
	answered []string                      // the last API calls answered, with their statuses, likewise
	// refusals are the HTTP statuses of the refusals the walk provokes on purpose (see refused).
	refusals []int
}

// walk opens the app of s in a fresh browser context in look l (after the browser's turn).
// When t ends it fails on console errors or broken policies.
func walk(t *testing.T, s *server, l look) *walker {
	t.Helper()
	b, p, _ := openApp(t, s, l.size, browsertest.Options{Locale: l.locale, UserAgent: browsertest.PersonUserAgent})
	w := &walker{t: t, l: l, b: b, p: p, base: "http://" + shortHost + "/app", inFlight: map[playwright.Request]string{}}
	b.OnRequest(func(r playwright.Request) {
		if strings.Contains(r.URL(), "/api/") {
			w.mu.Lock()
			w.inFlight[r] = r.Method() + " " + r.URL()
			w.mu.Unlock()
		}
	})
	done := func(r playwright.Request) {
		w.mu.Lock()
		delete(w.inFlight, r)
		w.mu.Unlock()
	}
	b.OnRequestFinished(done)
	b.OnRequestFailed(done)
	// Handlers run on the driver's connection: they read what the event carries and never call
	// the driver back (a call from here would wait for this very handler to return).
	b.OnResponse(func(r playwright.Response) {
		if !strings.Contains(r.URL(), "/api/") {
			return
		}
		w.mu.Lock()
		w.answered = append(w.answered, fmt.Sprintf("%s %s %d", r.Request().Method(), r.URL(), r.Status()))
		if len(w.answered) > 12 {
			w.answered = w.answered[len(w.answered)-12:]
		}
		w.mu.Unlock()
	})
	failed := failedRequests(b)
	t.Cleanup(func() {
		if got := w.unexpected(consoleErrors(b)); len(got) != 0 {
			t.Errorf("console errors: %q (failed requests: %q)", got, failed())
		}
	})
	return w
}

// refused says the walk provokes, on purpose, a refusal with this HTTP status (a taken alias):
// the console error the browser logs for it is not a failure.
func (w *walker) refused(status int) { w.refusals = append(w.refusals, status) }

// unexpected are the console errors left once each provoked refusal has excused one of its own.
func (w *walker) unexpected(errs []string) []string {
	left := append([]int(nil), w.refusals...)
	var out []string
	for _, e := range errs {
		excused := slices.IndexFunc(left, func(status int) bool {
			return strings.Contains(e, fmt.Sprintf("the server responded with a status of %d ", status))
		})
		if excused >= 0 {
			left = slices.Delete(left, excused, excused+1)
			continue
		}
		out = append(out, e)
	}
	return out
}

// pending are the API calls of the page not answered yet: what a step that times out waited on.
func (w *walker) pending() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.inFlight))
	for _, c := range w.inFlight {
		out = append(out, c)
	}
	return out
}

// quiet waits, for at most three seconds, until the page has had no API call unanswered for
// 300 ms: a page that has just been reached asks for its data from its own code, after its
// address changed, and draws again when the answers come (a menu opened before may close). The calls the
// walker sees are not all of them (a call can end without an event it hears), so a call still
// unanswered at the end is no failure here.
func (w *walker) quiet() {
	end := time.Now().Add(3 * time.Second)
	for calm := time.Now(); time.Since(calm) < 300*time.Millisecond && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if len(w.pending()) > 0 {
			calm = time.Now()
		}
	}
}

// lastAnswered are the last API calls answered, oldest first, with their statuses.
func (w *walker) lastAnswered() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.answered)
}

// tr is the look's wording of a text.
func (w *walker) tr(en, zh string) string { return w.l.tr(en, zh) }

// open goes to a path of the app ("/links") and waits for the heading named heading, if any.
func (w *walker) open(path, heading string) {
	w.t.Helper()
	if _, err := w.p.Goto(w.base + path); err != nil {
		w.t.Fatalf("open %s: %v", path, err)
	}
	if heading != "" {
		w.see(w.heading(heading))
	}
}

// heading, button, link, textbox… are the page's controls by role and accessible name.
func (w *walker) role(role playwright.AriaRole, name string) playwright.Locator {
	return w.p.GetByRole(role, playwright.PageGetByRoleOptions{Name: name})
}
func (w *walker) heading(name string) playwright.Locator { return w.role("heading", name) }
func (w *walker) button(name string) playwright.Locator  { return w.role("button", name) }
func (w *walker) link(name string) playwright.Locator    { return w.role("link", name) }
func (w *walker) textbox(name string) playwright.Locator { return w.role("textbox", name) }
func (w *walker) text(s string) playwright.Locator       { return w.p.GetByText(s).First() }

// see waits until l is visible.
func (w *walker) see(l playwright.Locator) {
	w.t.Helper()
	if err := expectLocator(l).ToBeVisible(); err != nil {
		w.t.Fatalf("[%s] at %s: %v", w.l.name, w.p.URL(), err)
	}
}

// click clicks l once it is visible.
func (w *walker) click(l playwright.Locator) {
	w.t.Helper()
	if err := l.Click(); err != nil {
		w.t.Fatalf("[%s] click at %s: %v", w.l.name, w.p.URL(), err)
	}
}

// fill types value into l.
func (w *walker) fill(l playwright.Locator, value string) {
	w.t.Helper()
	if err := l.Fill(value); err != nil {
		w.t.Fatalf("[%s] fill at %s: %v", w.l.name, w.p.URL(), err)
	}
}

// at waits until the page's address is the app's path (a pattern playwright accepts).
func (w *walker) at(path string) {
	w.t.Helper()
	if err := reachURL(w.p, w.base+path); err != nil {
		w.t.Fatalf("[%s] waiting for %s: %v (at %s, API calls unanswered: %q, answered: %q)", w.l.name, path, err, w.p.URL(), w.pending(), w.lastAnswered())
	}
}

// signIn logs email in through the login page and waits for the links page.
func (w *walker) signIn(email, password string) {
	w.t.Helper()
	w.open("/login", "")
	w.fill(w.p.GetByTestId("email"), email)
	w.fill(w.p.GetByTestId("password"), password)
	w.click(w.p.GetByTestId("submit"))
	w.at("/links")
}

// shoot waits for the page to settle and, asked to, saves a full-page screenshot as
// name-<look>.png (see screenshotDir).
func (w *walker) shoot(name string) { shoot(w.t, w.p, name+"-"+w.l.name) }

// accessible runs axe-core's WCAG 2 A and AA rules on the page as it is and fails the test on
// any serious or critical violation, naming the page.
func (w *walker) accessible(page string) {
	w.t.Helper()
	for _, v := range axeViolations(w.t, w.p) {
		w.t.Errorf("[%s] %s: %s", w.l.name, page, v)
	}
}

// axe is axe-core's script, read once from the web app's node_modules (a devDependency).
var axe struct {
	once   sync.Once
	script string
	err    error
}

// axeViolations are the page's serious and critical WCAG 2 A/AA violations, one line each:
// the rule, its help and the elements it found.
func axeViolations(t *testing.T, p playwright.Page) []string {
	t.Helper()
	axe.once.Do(func() {
		path, err := filepath.Abs(filepath.Join("..", "..", "frontend", "node_modules", "axe-core", "axe.min.js"))
		if err != nil {
			axe.err = err
			return
		}
		b, err := os.ReadFile(path)
		axe.script, axe.err = string(b), err
	})
	if axe.err != nil {
		t.Fatalf("axe-core (npm ci in frontend/): %v", axe.err)
	}
	_ = p.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateNetworkidle})
	// A function's source is compiled by the browser's debugger, which the page's
	// Content-Security-Policy (no eval) does not govern.
	if _, err := p.Evaluate("() => { if (window.axe) return; " + axe.script + "\n}"); err != nil {
		t.Fatalf("load axe-core: %v", err)
	}
	// The page as it stands once its transitions end (a dialog fading in reads, mid-way, its
	// button's label blended with the backdrop: a contrast it never shows at rest); endless
	// animations, a spinner's, are not waited for.
	raw, err := p.Evaluate(`async () => {
		await Promise.all(document.getAnimations()
			.filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
			.map((a) => a.finished.catch(() => {})));
		const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] });
		return JSON.stringify(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
			.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 8).map((n) => n.target.join(" ") + (n.failureSummary ? " — " + n.failureSummary.split("\n").slice(1).join(" ").trim() : "")) })));
	}`)
	if err != nil {
		t.Fatalf("run axe-core: %v", err)
	}
	var found []struct {
		ID, Impact, Help string
		Nodes            []string
	}
	if err := json.Unmarshal([]byte(raw.(string)), &found); err != nil {
		t.Fatalf("axe-core's answer: %v", err)
	}
	out := make([]string, 0, len(found))
	for _, v := range found {
		out = append(out, fmt.Sprintf("%s (%s): %s on %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "; ")))
	}
	return out
}

// download clicks control, which must start a download, and answers the file's suggested name
// and its contents.
func (w *walker) download(control playwright.Locator) (string, []byte) {
	w.t.Helper()
	dl, err := w.p.ExpectDownload(func() error { return control.Click() })
	if err != nil {
		w.t.Fatalf("[%s] download: %v", w.l.name, err)
	}
	path, err := dl.Path()
	if err != nil {
		w.t.Fatalf("[%s] download: %v", w.l.name, err)
	}
	body, err := os.ReadFile(path)
	if err != nil {
		w.t.Fatal(err)
	}
	return dl.SuggestedFilename(), body
}

// boxOf is where l's element stands in the page's viewport.
func boxOf(t *testing.T, l playwright.Locator) playwright.Rect {
	t.Helper()
	box, err := l.BoundingBox()
	if err != nil || box == nil {
		t.Fatalf("no box: %v", err)
	}
	return *box
}
