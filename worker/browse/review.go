package browse

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/shortlink/shortlink/backend/moderation"
)

// Settling: after the top frame's document has loaded, a capture waits for the page to be
// quiet (no request for settleQuiet) or for settleLongest, whichever comes first, so that meta
// refreshes and script redirects happen; a navigation meanwhile starts the wait again.
const (
	settleQuiet   = 500 * time.Millisecond
	settleLongest = 1500 * time.Millisecond
	settlePoll    = 50 * time.Millisecond
)

// Review opens the destination as each visitor (moderation.Profiles, side by side) and returns
// their captures in that order. A visitor that fails — refused by the guard, timed out, a
// network error, a download — still has its capture, with Error set and whatever was gathered.
// Each visitor is bounded by Options.Timeout, and the whole review returns at most
// abandonGrace after that time or after ctx ends, whatever Chromium is still doing; the error is ErrClosed,
// a browser that cannot be started, or ctx's error (the captures gathered so far come with it).
func (b *Browser) Review(ctx context.Context, destination string) ([]moderation.Capture, error) {
	release, err := b.reviewSlot(ctx)
	if err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	start := time.Now()
	captures := make([]moderation.Capture, len(moderation.Profiles))

	// The guard's answer for the destination is the same for every visitor: asked once, and
	// a refused destination is never navigated to.
	if err := b.guard.CheckDestination(ctx, destination); err != nil {
		release()
		for i, p := range moderation.Profiles {
			captures[i] = moderation.Capture{Profile: p, URL: destination, Error: failureText(err)}
		}
		b.log.Info("moderation review", "host", hostOf(destination), "refused", err.Error(), "duration", time.Since(start))
		return captures, ctxErr(ctx)
	}

	chromium, visitors, err := b.current()
	if err != nil {
		release()
		return nil, fmt.Errorf("review: %w", err)
	}
	for i, p := range moderation.Profiles {
		captures[i] = unvisited(p, destination) // what a visitor the review stops waiting for is left with
	}
	// Every visitor has Options.Timeout, and the review returns at most abandonGrace after it,
	// however slowly Chromium lets go of the visitors on a loaded machine.
	vctx, cancel := context.WithTimeout(ctx, b.opts.Timeout)
	defer cancel()
	b.gather(vctx, captures, func(i int) moderation.Capture {
		return b.capture(vctx, chromium, visitors[i], destination)
	}, release)
	attrs := []any{"host", hostOf(destination), "duration", time.Since(start)}
	for _, c := range captures {
		if c.Error != "" {
			attrs = append(attrs, string(c.Profile), c.Error)
		}
	}
	b.log.Info("moderation review", attrs...)
	return captures, ctxErr(ctx)
}

// abandonGrace is how long a review whose context has ended still waits for its visitors to
// close their browser contexts; a loaded machine can take seconds, and the caller (a worker
// shutting down, a job out of time) should not.
const abandonGrace = 500 * time.Millisecond

// gather fills captures[i] with capture(i) for every visitor, side by side. It returns when all
// are in, or abandonGrace after ctx ends: the visitors still closing then are left to finish
// in the background, with a capture that says the review ran out of time or was cancelled.
// release is called once every visitor is done, so the review's slot stays taken until
// Chromium has let go of it.
func (b *Browser) gather(ctx context.Context, captures []moderation.Capture, capture func(int) moderation.Capture, release func()) {
	type result struct {
		i int
		c moderation.Capture
	}
	results := make(chan result, len(captures))
	var wg sync.WaitGroup
	for i := range captures {
		wg.Go(func() { results <- result{i, capture(i)} })
	}
	go func() {
		wg.Wait()
		release()
	}()
	got := make([]bool, len(captures))
	start := time.Now()
	done, ended := ctx.Done(), (<-chan time.Time)(nil)
	for n := 0; n < len(captures); {
		select {
		case r := <-results:
			captures[r.i], got[r.i] = r.c, true
			n++
		case <-done:
			done, ended = nil, time.After(abandonGrace)
		case <-ended:
			for i, ok := range got {
				if !ok {
					captures[i] = abandoned(ctx, captures[i])
					captures[i].Duration = time.Since(start) // how long it was waited for
				}
			}
			return
		}
	}
}

// unvisited is a capture before the browser has gone anywhere: it ends where it starts.
func unvisited(p moderation.Profile, destination string) moderation.Capture {
	return moderation.Capture{Profile: p, URL: destination, FinalURL: destination, Redirects: []string{destination}}
}

// abandoned is the capture of a visitor the review stopped waiting for.
func abandoned(ctx context.Context, c moderation.Capture) moderation.Capture {
	c.Error = "timeout"
	if errors.Is(ctx.Err(), context.Canceled) {
		c.Error = "cancelled"
	}
	return c
}

func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("review: %w", err)
	}
	return nil
}

// failureText is a capture's Error for a request that was not made: "refused: …" for the
// guard's refusals, "dns: …" when the host could not be resolved, "navigation: …" otherwise.
func failureText(err error) string {
	msg := err.Error()
	switch {
	case IsRefused(err):
		return msg
	case strings.HasPrefix(msg, "resolve "):
		return "dns: " + msg
	}
	return "navigation: " + firstLine(msg)
}

// capture opens destination as one visitor, within Options.Timeout.
func (b *Browser) capture(ctx context.Context, chromium playwright.Browser, v visitor, destination string) (c moderation.Capture) {
	start := time.Now()
	c = unvisited(v.profile, destination)
	defer func() { c.Duration = time.Since(start) }()
	ctx, cancel := context.WithTimeout(ctx, b.opts.Timeout)
	defer cancel()
	deadline, _ := ctx.Deadline()
	// Recording the page needs time of its own: navigation and settling stop short of it.
	navDeadline := deadline.Add(-min(time.Until(deadline)/4, 3*time.Second))

	rec := newRecorder()
	vet := newVetter(b.guard)
	px, err := startProxy(vet, b.dial, rec.blocked)
	if err != nil {
		c.Error = "browser: " + err.Error()
		return c
	}
	defer px.Close()

	bc, err := b.newContext(chromium, v.contextOptions(px.url(), px.user, px.password))
	if err != nil {
		c.Error = "browser: " + firstLine(err.Error())
		return c
	}
	// The hard limit: when time is up the context closes, and whatever Playwright call is
	// waiting returns.
	stop := context.AfterFunc(ctx, func() { _ = bc.Close() })
	defer func() {
		stop()
		_ = bc.Close()
	}()
	key := watchKey()
	if err := installWatch(bc, key); err != nil {
		c.Error = setupFailure(ctx, err)
		return c
	}
	if err := bc.Route("**/*", func(r playwright.Route) {
		u := r.Request().URL()
		if err := vet.checkRequest(ctx, u); err != nil {
			rec.blocked(u, err)
			code := "blockedbyclient"
			if !IsRefused(err) {
				code = "namenotresolved"
			}
			_ = r.Abort(code)
			return
		}
		_ = r.Continue()
	}); err != nil {
		c.Error = setupFailure(ctx, err)
		return c
	}
	page, err := bc.NewPage()
	if err != nil {
		c.Error = setupFailure(ctx, err)
		return c
	}
	rec.watch(page)
	sends := watchSends(page)
	page.OnPopup(func(p playwright.Page) {
		go func() { _ = p.Close() }() // not on the event goroutine: Close waits for an answer
	})

	navErr := b.navigate(ctx, page, rec, destination, navDeadline)
	pressed := false // the gate's button, once per capture (click.go)
	if navErr == nil {
		b.watch(ctx, page, rec, key, navDeadline)
	}
	for moves := 0; ; moves++ {
		chain, status, navFailed, _, refusedList := rec.result()
		c.Redirects, c.Status, c.Refused = chain, status, refusedList
		c.ClientRedirects = rec.clientRedirects()
		if len(c.Redirects) == 0 {
			c.Redirects = []string{destination}
		}
		c.FinalURL = page.URL()
		if navFailed != "" || !committed(c.FinalURL) {
			// The last navigation failed (the frame shows an error page, or still the page it
			// was leaving), or nothing was committed: the browser ended at the chain's end.
			c.FinalURL = c.Redirects[len(c.Redirects)-1]
		}
		c.Error = navigationFailure(ctx, rec, navErr)
		if !committed(page.URL()) || ctx.Err() != nil {
			break
		}
		err := errNavigatedAway
		if !rec.navigating() || navErr != nil || moves >= maxLateMoves {
			// Unless a script or timer that fired as the watch ended started a navigation that
			// has not committed yet: reading now would record the page it is leaving. (One that
			// never commits leaves the page it left to be read once settling gives up on it.)
			err = b.record(ctx, page, rec, &c, key, sends, &pressed, deadline)
		}
		if errors.Is(err, errNavigatedAway) && navErr == nil && moves < maxLateMoves {
			// A late meta refresh or script on a busy machine: the page moved on while it
			// was read. Settle on where it went, and read that instead.
			navErr = b.settle(ctx, rec, deadline)
			if navErr == nil {
				b.watch(ctx, page, rec, key, navDeadline)
			}
			continue
		}
		if err != nil && c.Error == "" {
			c.Error = err.Error()
			if ctx.Err() != nil {
				c.Error = "timeout"
			}
		}
		break
	}
	if ctx.Err() != nil && c.Error == "" {
		c.Error = "timeout"
	}
	for _, d := range rec.startedDownloads() {
		if len(c.Downloads) < moderation.MaxDownloads && !slices.Contains(c.Downloads, d) {
			c.Downloads = append(c.Downloads, d)
		}
	}
	return c
}

// newContext opens a browser context in chromium; a Chromium that crashed is noticed here
// first, replaced, and asked once more.
func (b *Browser) newContext(chromium playwright.Browser, opts playwright.BrowserNewContextOptions) (playwright.BrowserContext, error) {
	bc, err := chromium.NewContext(opts)
	if err == nil {
		return bc, nil
	}
	if chromium, err = b.replace(chromium, err); err != nil {
		return nil, err
	}
	return chromium.NewContext(opts)
}

// navigationFailure is a capture's Error after navigating: why the top frame did not get where
// it was going, "" when it did.
func navigationFailure(ctx context.Context, rec *recorder, navErr error) string {
	_, _, navFailed, download, _ := rec.result()
	switch {
	case rec.topFailure() != "":
		return rec.topFailure() // refused, unresolvable or unreachable, said by the route or proxy
	case download != "" || (navErr != nil && strings.Contains(navErr.Error(), "Download is starting")):
		if download != "" {
			return "download blocked: " + cut(download, 100)
		}
		return "download blocked"
	case errors.Is(ctx.Err(), context.Canceled):
		return "cancelled"
	case ctx.Err() != nil || errors.Is(navErr, playwright.ErrTimeout) || errors.Is(navErr, context.DeadlineExceeded):
		return "timeout"
	case navErr != nil:
		return "navigation: " + navigationError(navErr, navFailed)
	case navFailed != "":
		return "navigation: " + navFailed // a later navigation (meta refresh, script) failed
	}
	return ""
}

// setupFailure is a capture's Error when its browser context could not be readied: "timeout"
// or "cancelled" when the time limit or the review's end closed the context meanwhile (a busy
// machine can take that long), the browser's error otherwise.
func setupFailure(ctx context.Context, err error) string {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return "cancelled"
	case ctx.Err() != nil:
		return "timeout"
	}
	return "browser: " + firstLine(err.Error())
}

// committed says the page shows a document of the destination's, not the browser's own.
func committed(pageURL string) bool {
	return strings.HasPrefix(pageURL, "http://") || strings.HasPrefix(pageURL, "https://")
}

// navigate opens destination and waits until the top frame has settled (see settleQuiet), or
// until navDeadline.
func (b *Browser) navigate(ctx context.Context, page playwright.Page, rec *recorder, destination string, navDeadline time.Time) error {
	left := time.Until(navDeadline)
	if left <= 0 {
		return context.DeadlineExceeded
	}
	// Waiting only for the commit: load and whatever follows is the settling below, which
	// also follows the navigations that come after (meta refresh, script).
	if _, err := page.Goto(destination, playwright.PageGotoOptions{
		WaitUntil: playwright.WaitUntilStateCommit,
		Timeout:   playwright.Float(float64(left.Milliseconds())),
	}); err != nil {
		return err
	}
	return b.settle(ctx, rec, navDeadline)
}

// settle waits until the top frame has settled (see settleQuiet), or until navDeadline.
func (b *Browser) settle(ctx context.Context, rec *recorder, navDeadline time.Time) error {
	for {
		now := time.Now()
		if rec.settled(now, settleQuiet, settleLongest) {
			return nil
		}
		if !now.Before(navDeadline) {
			return context.DeadlineExceeded
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(settlePoll, time.Until(navDeadline))):
		}
	}
}

// errNavigatedAway: the page navigated while its facts were read.
var errNavigatedAway = errors.New("record: the page navigated while it was read")

// maxLateMoves is how many times a capture settles again on a page that navigated while it
// was read or was about to be (each move a meta refresh or a script's redirect that came after
// settling: on a busy machine every hop of a chain of them can). The capture's time limit
// bounds them too.
const maxLateMoves = 6

// record reads the page's facts, the forms of its frames and a screenshot of its viewport
// into c, before deadline, once the page's gate button, if it has one, was pressed (click.go).
func (b *Browser) record(ctx context.Context, page playwright.Page, rec *recorder, c *moderation.Capture, key string, sends *sendLog, pressed *bool, deadline time.Time) error {
	if !*pressed {
		*pressed = true
		b.pressGate(ctx, page, rec, key, deadline.Add(-min(time.Until(deadline)/4, 3*time.Second)))
	}
	raw, err := page.Evaluate(factsScript, limitsFor(key))
	if err != nil {
		if strings.Contains(err.Error(), "Execution context was destroyed") {
			return errNavigatedAway
		}
		return fmt.Errorf("record: page facts: %s", firstLine(err.Error()))
	}
	facts, err := decodeFacts(raw)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	c.Title, c.Description, c.Text, c.Forms = facts.Title, facts.Description, facts.Text, facts.Forms
	c.Links, c.Scripts, c.Headings, c.Images = facts.Links, facts.Scripts, facts.Headings, facts.Images
	c.Downloads, c.Clipboard = facts.Downloads, facts.Clipboard
	scripts := []frameScripts{{facts.Base, facts.Inline}}
	// Login forms often sit in a frame, of the page's site or another: their forms count
	// too, and so do the words and headings of a frame that has inputs, and its scripts.
	for i, f := range page.Frames() {
		if i > maxFrames || len(c.Forms) >= maxForms || ctx.Err() != nil {
			break
		}
		if f == page.MainFrame() {
			continue
		}
		raw, err := f.Evaluate(factsScript, limitsFor(key))
		if err != nil {
			continue // a frame that went away or never loaded
		}
		if ff, err := decodeFacts(raw); err == nil {
			c.Forms = append(c.Forms, ff.Forms...)
			scripts = append(scripts, frameScripts{ff.Base, ff.Inline})
			if len(ff.Forms) > 0 {
				addFrameWords(c, ff)
			}
		}
	}
	sends.read(c, scripts)
	if len(c.Forms) > maxForms {
		c.Forms = c.Forms[:maxForms]
	}
	left := time.Until(deadline)
	if left <= 0 {
		return errors.New("timeout")
	}
	shot, err := page.Screenshot(playwright.PageScreenshotOptions{
		Type:    playwright.ScreenshotTypePng,
		Scale:   playwright.ScreenshotScaleCss, // the viewport's size in CSS pixels, whatever the device's scale
		Timeout: playwright.Float(float64(left.Milliseconds())),
	})
	if err != nil {
		return fmt.Errorf("record: screenshot: %s", firstLine(err.Error()))
	}
	c.Screenshot, c.Rendered = shot, true
	b.readScreenshot(ctx, c, facts.Drawn, deadline)
	return nil
}

// ocrBelowText is the visible text under which a page's screenshot is read: its words may be
// drawn rather than written.
const ocrBelowText = 200

// ocrDrawnShare is the share of the viewport drawn by canvases, images and SVG from which a
// page's screenshot is read whatever its text: its words may be pictures.
const ocrDrawnShare = 0.5

// readScreenshot reads the text of c's screenshot into c.OCRText, when Options.OCR is set and
// the page shows little text in its DOM, asks for a password, a card or a grid of words, or draws half
// its viewport or more (worthReading).
// Reading takes what is left of the visitor's time at most; a failed reading leaves OCRText
// empty, and a missing Tesseract is said once, by the reader.
func (b *Browser) readScreenshot(ctx context.Context, c *moderation.Capture, drawn float64, deadline time.Time) {
	if b.opts.OCR == nil || len(c.Screenshot) == 0 || !worthReading(c, drawn) {
		return
	}
	rctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	text, err := b.opts.OCR.Read(rctx, c.Screenshot)
	if err != nil {
		b.log.Debug("moderation ocr", "host", hostOf(c.FinalURL), "err", err.Error())
		return
	}
	c.OCRText = cut(collapse(text), moderation.MaxText)
}

// worthReading says whether c's screenshot may say what its DOM does not: little text, a
// secret asked, or half the viewport or more drawn (canvases, images, SVG).
func worthReading(c *moderation.Capture, drawn float64) bool {
	if len([]rune(c.Text)) < ocrBelowText || drawn >= ocrDrawnShare {
		return true
	}
	for _, f := range c.Forms {
		if f.Password || f.Card || f.Inputs >= 12 {
			return true
		}
	}
	return false
}

// navigationError is the network error of a failed navigation ("net::ERR_CONNECTION_REFUSED"),
// else the first line of Playwright's message.
func navigationError(err error, navFailed string) string {
	if navFailed != "" {
		return navFailed
	}
	msg := err.Error()
	if i := strings.Index(msg, "net::ERR_"); i >= 0 {
		end := strings.IndexAny(msg[i:], " \n")
		if end < 0 {
			return msg[i:]
		}
		return msg[i : i+end]
	}
	return firstLine(msg)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return cut(strings.TrimSpace(s), 300)
}

// hostOf is a URL's host for the log (never the full URL: it may carry tokens).
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
