package e2e

import (
	"encoding/json"

	"github.com/playwright-community/playwright-go"
)

// fitsAcross fails the test for each element under selector that is shown but reaches past the
// window's left or right edge, and each element whose content is cut sideways: a panel that
// scrolls up and down inside itself (a dialog's body) may run past the window's bottom.
func (w *walker) fitsAcross(what, selector string) {
	w.t.Helper()
	w.see(w.p.Locator(selector).First())
	raw, err := w.p.Evaluate(`(sel) => {
		const vw = document.documentElement.clientWidth;
		const describe = (el) => el.tagName.toLowerCase() + (el.dataset.testid ? "[data-testid=" + el.dataset.testid + "]" : "") +
			' "' + (el.textContent || "").trim().slice(0, 30) + '"';
		const out = [];
		for (const root of document.querySelectorAll(sel)) {
			for (const el of [root, ...root.querySelectorAll("*")]) {
				if (el.getClientRects().length === 0 || el.closest("svg") !== null && el.tagName.toLowerCase() !== "svg") continue;
				const cs = getComputedStyle(el);
				if (cs.visibility === "hidden") continue;
				const r = el.getBoundingClientRect();
				if (r.left < -0.5 || r.right > vw + 0.5) {
					out.push(describe(el) + " past the window's side: " + [r.left, r.right].map(Math.round).join(","));
				}
				if (cs.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1) {
					out.push(describe(el) + " cut: " + el.scrollWidth + " in " + el.clientWidth);
				}
			}
		}
		return JSON.stringify(out);
	}`, selector)
	w.problems(what, raw, err)
}

// wholeTitles fails the test for each column title of the page's tables that wraps onto a
// second line: a phone's narrow table breaks a Chinese title inside its word ("两步验" over "证").
func (w *walker) wholeTitles(what string) {
	w.t.Helper()
	w.see(w.p.Locator(".table-wrap th").First())
	raw, err := w.p.Evaluate(`() => {
		const out = [];
		for (const th of document.querySelectorAll(".table-wrap th")) {
			const r = document.createRange();
			r.selectNodeContents(th);
			const lines = new Set([...r.getClientRects()].map((q) => Math.round(q.top)));
			if (lines.size > 1) out.push('"' + th.textContent + '" wraps');
		}
		return JSON.stringify(out);
	}`)
	w.problems(what, raw, err)
}

// breaksAtSpaces fails the test when the text of l runs onto a new line anywhere but at a space:
// a date in a narrow cell reads "2026年12月7日" over "13:05", never "2026年12" over "月7日".
func (w *walker) breaksAtSpaces(what string, l playwright.Locator) {
	w.t.Helper()
	w.see(l)
	raw, err := l.Evaluate(`(el) => {
		const out = [];
		const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			const text = node.textContent;
			let top = null;
			for (let i = 0; i < text.length; i++) {
				const r = document.createRange();
				r.setStart(node, i);
				r.setEnd(node, i + 1);
				const rect = r.getClientRects()[0];
				if (!rect || text[i] === " ") continue;
				if (top !== null && Math.abs(rect.top - top) > 2 && text[i - 1] !== " ") {
					out.push('"' + text + '" breaks between "' + text.slice(0, i) + '" and "' + text.slice(i) + '"');
				}
				top = rect.top;
			}
		}
		return JSON.stringify(out);
	}`, nil)
	w.problems(what, raw, err)
}

// gone waits until l is hidden or detached, and fails the test otherwise.
func (w *walker) gone(l playwright.Locator) {
	w.t.Helper()
	if err := l.WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateHidden}); err != nil {
		w.t.Fatalf("[%s] still shown: %v", w.l.name, err)
	}
}

// transitionsDone waits until no element of the page is in a CSS transition or animation (a
// dialog sliding in), so that what is measured next is where it stays.
func (w *walker) transitionsDone() {
	w.t.Helper()
	if _, err := w.p.Evaluate(`() => new Promise((done) => {
		const check = () => document.getAnimations().every((a) => a.playState !== "running") ? done(true) : requestAnimationFrame(check);
		check();
	})`); err != nil {
		w.t.Fatalf("[%s] transitions: %v", w.l.name, err)
	}
}

// problems fails the walk with each problem a page check found: raw is the JSON list of them
// that its script answered, err the script's failure.
func (w *walker) problems(what string, raw any, err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatalf("[%s] %s: %v", w.l.name, what, err)
	}
	var problems []string
	if err := json.Unmarshal([]byte(raw.(string)), &problems); err != nil {
		w.t.Fatal(err)
	}
	for _, p := range problems {
		w.t.Errorf("[%s] %s: %s", w.l.name, what, p)
	}
}
