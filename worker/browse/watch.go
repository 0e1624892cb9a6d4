package browse

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/playwright-community/playwright-go"
)

// Watching: a page that writes its form or its words by script a few seconds after it loaded
// (a kit's "loading…" screen, a form shown after a timer) is read when it has finished, not
// when the network went quiet. After settling, a capture keeps watching the top frame until it
// has been still for watchQuiet — no element added or removed, no form, input or frame shown
// or hidden, no text of 20 characters or more written, no request under way, and no timer of
// the page's due before the bound — or until watchLongest after its document loaded, whichever
// comes first, and never past the time kept for recording (docs/moderation.md, "Moderation:
// the browser").
const (
	watchQuiet   = 500 * time.Millisecond
	watchLongest = 5 * time.Second
	watchPoll    = 100 * time.Millisecond
)

// watchScript runs in every frame before the page's own scripts (an init script) and keeps,
// under a property whose name is the capture's own (key), when the frame's DOM last changed in
// a way that matters, which of the page's timers (setTimeout, up to watchLongest) are pending,
// the shadow roots its elements attach, closed ones included, so that their forms and words can
// be read, and what its scripts put on the clipboard (writeText, a copy command's selection, a
// copy event's data; at most maxClipboard texts of maxClipboardText characters). A page served
// without TLS, which has no navigator.clipboard, is given one that keeps what it is handed:
// a kit that pastes a command through the reader's hands writes it there whatever it shows.
const watchScript = `((key, horizon, clipMax, clipChars) => {
  if (Object.prototype.hasOwnProperty.call(window, key)) return;
  const now = () => performance.now();
  const state = { changed: now(), timers: new Map(), roots: [], clip: [] };
  Object.defineProperty(window, key, { value: state, enumerable: false });
  const clip = (t) => { t = t == null ? "" : String(t); if (t.trim() && state.clip.length < clipMax) state.clip.push(t.slice(0, clipChars)); };
  try {
    if (window.Clipboard && Clipboard.prototype.writeText) {
      const write = Clipboard.prototype.writeText;
      Clipboard.prototype.writeText = function (t) { clip(t); return write.call(this, t); };
    } else if (!navigator.clipboard) {
      Object.defineProperty(navigator, "clipboard", { value: { writeText: (t) => { clip(t); return Promise.resolve(); } }, configurable: true });
    }
  } catch (e) {}
  try {
    const exec = Document.prototype.execCommand;
    Document.prototype.execCommand = function (cmd, ...rest) {
      if (String(cmd).toLowerCase() === "copy") {
        try {
          const a = document.activeElement;
          clip(String(window.getSelection() || "") || (a && typeof a.value === "string" ? a.value.slice(a.selectionStart || 0, a.selectionEnd || a.value.length) : ""));
        } catch (e) {}
      }
      return exec.call(this, cmd, ...rest);
    };
    const setData = DataTransfer.prototype.setData;
    DataTransfer.prototype.setData = function (type, data) { if (/text/i.test(String(type))) clip(data); return setData.call(this, type, data); };
  } catch (e) {}
  const controls = "form, input, select, textarea, iframe, [contenteditable]";
  const matters = (m) => {
    if (m.type === "childList") {
      for (const n of m.addedNodes) {
        if (n.nodeType === 1) return true;
        if (n.nodeType === 3 && String(n.textContent || "").trim().length >= 20) return true;
      }
      for (const n of m.removedNodes) if (n.nodeType === 1) return true;
      return false;
    }
    const el = m.target;
    try { return el.nodeType === 1 && (el.matches(controls) || el.querySelector(controls) !== null); } catch (e) { return false; }
  };
  const seen = (ms) => { for (const m of ms) if (matters(m)) { state.changed = now(); return; } };
  const watch = (node) => {
    try {
      new MutationObserver(seen).observe(node, { childList: true, subtree: true, characterData: false,
        attributes: true, attributeFilter: ["style", "class", "hidden", "type", "open"] });
    } catch (e) {}
  };
  watch(document);
  const setT = window.setTimeout, clearT = window.clearTimeout;
  window.setTimeout = function (fn, delay, ...args) {
    const d = Number(delay) || 0;
    if (typeof fn !== "function" || d < 50 || d > horizon) return setT.call(window, fn, delay, ...args);
    let id = 0;
    id = setT.call(window, function () { state.timers.delete(id); return fn.apply(this, arguments); }, delay, ...args);
    state.timers.set(id, now() + d);
    return id;
  };
  window.clearTimeout = function (id) { state.timers.delete(id); return clearT.call(window, id); };
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    if (state.roots.length < 100) state.roots.push(root);
    watch(root);
    return root;
  };
})`

// Bounds of what a capture keeps of the clipboard (moderation.Capture.Clipboard).
const (
	maxClipboard     = 3
	maxClipboardText = 1000
)

// stillScript answers, in the top frame, how long ago its DOM last changed and how long until
// its next pending timer (-1 for none), in milliseconds; null when the watch is not there.
const stillScript = `(key) => {
  const s = window[key];
  if (!s) return null;
  const t = performance.now();
  let next = -1;
  for (const due of s.timers.values()) if (next < 0 || due - t < next) next = Math.max(0, due - t);
  return { since: t - s.changed, next };
}`

// watchKey is a capture's own name for its watch: a page cannot guess it.
func watchKey() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "__w" + hex.EncodeToString(b)
}

// installWatch adds the watch to every frame the browser context opens.
func installWatch(bc playwright.BrowserContext, key string) error {
	k, _ := json.Marshal(key)
	js := watchScript + "(" + string(k) + ", " + itoa(int(watchLongest/time.Millisecond)) + ", " +
		itoa(maxClipboard) + ", " + itoa(maxClipboardText) + ");"
	return bc.AddInitScript(playwright.Script{Content: playwright.String(js)})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// stillness is what stillScript answers.
type stillness struct {
	Since float64 `json:"since"`
	Next  float64 `json:"next"`
}

// watch waits, after settling, until the page is still (see watchQuiet) or until watchLongest
// after its document loaded, never past until. A page that navigates meanwhile is left to the
// caller, which reads where it went.
func (b *Browser) watch(ctx context.Context, page playwright.Page, rec *recorder, key string, until time.Time) {
	loaded := rec.loadTime()
	if loaded.IsZero() {
		return
	}
	limit := loaded.Add(watchLongest)
	if until.Before(limit) {
		limit = until
	}
	for {
		now := time.Now()
		if !now.Before(limit) {
			return
		}
		raw, err := page.Evaluate(stillScript, key)
		if err != nil || raw == nil {
			return // navigated away, or a document the watch did not reach
		}
		var s stillness
		if j, err := json.Marshal(raw); err != nil || json.Unmarshal(j, &s) != nil {
			return
		}
		timerDue := s.Next >= 0 && now.Add(time.Duration(s.Next)*time.Millisecond).Before(limit)
		if time.Duration(s.Since)*time.Millisecond >= watchQuiet && !timerDue && rec.idle(now, watchQuiet) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(min(watchPoll, time.Until(limit))):
		}
	}
}

// loadTime is when the top frame's current document fired load; zero while it has not.
func (r *recorder) loadTime() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending || !r.loaded {
		return time.Time{}
	}
	return r.loadedAt
}

// idle says the top frame has loaded, no navigation or request is under way, and none was for
// quiet.
func (r *recorder) idle(now time.Time, quiet time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.loaded && !r.pending && len(r.inflight) == 0 && now.Sub(r.activity) >= quiet
}
