package browse

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/moderation"
)

// Bounds of what is kept of a page besides its text (moderation.MaxText).
const (
	maxTitle        = 500
	maxDescription  = 1000
	maxForms        = 20
	maxFields       = 20
	maxHint         = 60 // characters of a field's hint
	maxFrames       = 10 // child frames whose forms are read
	maxHost         = 253
	maxImageAttr    = 80 // characters of an image's file name or alternative text
	maxShadowRoots  = 100
	maxInlineScript = 64 << 10 // characters of a frame's inline scripts read for where they send
	maxStyled       = 5000     // elements whose computed style is read for text drawn backwards
)

// factsScript reads, in a frame, what a capture records of it: title, description, visible
// text (cut well above MaxText before it crosses to Go), forms, with their actions resolved
// against the document's base URL, their methods and their inputs' types, and the hosts of its
// links and scripts. Values typed into fields are never read.
const factsScript = `(limits) => {
  // Read through the prototypes: a page's own elements can shadow document.title, form.action
  // and the like (DOM clobbering).
  const get = (proto, name, obj) => Object.getOwnPropertyDescriptor(proto, name).get.call(obj);
  // The document and its shadow roots: open ones found by their hosts, closed ones as the
  // capture's watch saw them attached (watch.go).
  const roots = [document];
  const addRoot = (r) => { if (r && roots.length < limits.roots && !roots.includes(r)) roots.push(r); };
  const watched = limits.key ? window[limits.key] : null;
  if (watched && watched.roots) for (const r of watched.roots) { try { if (r.host && r.host.isConnected) addRoot(r); } catch (e) {} }
  const within = (root, sel) => Array.from(root === document ? Document.prototype.querySelectorAll.call(document, sel) : DocumentFragment.prototype.querySelectorAll.call(root, sel));
  for (let i = 0; i < roots.length && roots.length < limits.roots; i++) {
    for (const el of within(roots[i], "*")) { if (el.shadowRoot) addRoot(el.shadowRoot); }
  }
  const query = (sel) => roots.flatMap((r) => within(r, sel));
  const meta = (sel) => { const m = query(sel)[0]; return m ? (Element.prototype.getAttribute.call(m, "content") || "") : ""; };
  const attr = (el, name) => Element.prototype.getAttribute.call(el, name) || "";
  const baseURI = get(Node.prototype, "baseURI", document);
  const absolute = (u) => { try { return new URL(u, baseURI).href; } catch (e) { return ""; } };
  const skip = new Set(["hidden", "submit", "button", "reset", "image"]);
  const cardName = /card|cvv|cvc|csc|ccv|卡号|银行卡|信用卡/i;
  const cardAutocomplete = /(^|\s)cc-(number|csc)(\s|$)/i;
  const text = (el) => el ? String(el.innerText || el.textContent || "").replace(/\s+/g, " ").trim() : "";
  const editable = (el) => el.localName !== "input" && el.localName !== "textarea" && el.localName !== "select" && el.isContentEditable === true;
  // What a person is told the input is for: its label, aria-label, placeholder and
  // autocomplete, or failing those the text just before it.
  const hint = (el) => {
    const parts = [];
    const add = (h) => { h = String(h || "").replace(/\s+/g, " ").trim(); if (h && !parts.includes(h)) parts.push(h); };
    let labels = null;
    try { labels = el.labels; } catch (e) { labels = null; }
    if (labels && labels.length > 0) add(text(labels[0]));
    add(attr(el, "aria-label"));
    add(attr(el, "placeholder"));
    add(attr(el, "data-placeholder"));
    const ac = attr(el, "autocomplete");
    if (ac && ac !== "on" && ac !== "off") add(ac);
    if (parts.length === 0) {
      // The words just before it: an element's, or bare text (名稱<input>, as kits write).
      let prev = el.previousSibling;
      while (prev && prev.nodeType === Node.TEXT_NODE && !prev.textContent.trim()) prev = prev.previousSibling;
      if (prev && prev.nodeType === Node.TEXT_NODE) add(prev.textContent.replace(/\s+/g, " ").trim().slice(-limits.hint));
      else if (prev && prev.nodeType === Node.ELEMENT_NODE && !["input", "select", "textarea", "button"].includes(prev.localName)) add(text(prev).slice(0, limits.hint));
    }
    return parts.join(" / ").slice(0, limits.hint);
  };
  const describe = (inputs, action, method) => {
    const f = { action, method, password: false, card: false, fields: [], hints: [], types: [], inputs: 0 };
    for (const el of inputs) {
      const type = editable(el) ? "text" : (attr(el, "type") || (el.localName === "input" ? "text" : el.localName)).toLowerCase();
      if (skip.has(type)) continue;
      f.inputs++;
      if (type === "password") f.password = true;
      const name = attr(el, "name") || attr(el, "id");
      if (cardAutocomplete.test(attr(el, "autocomplete")) || cardName.test(name) || cardName.test(attr(el, "placeholder"))) f.card = true;
      if (f.fields.length < limits.fields) {
        f.fields.push(name || type);
        f.hints.push(hint(el));
        f.types.push(type);
      }
    }
    return f;
  };
  // Inputs go with their form, wherever they stand (form="id" included); inputs of no form
  // (pages that post with script) make one more form, without an action.
  const groups = new Map();
  for (const form of query("form")) groups.set(form, []);
  const loose = [];
  for (const el of query("input, select, textarea")) {
    const form = el.form;
    if (form && groups.has(form)) groups.get(form).push(el); else loose.push(el);
  }
  // Editable elements that stand in for inputs (a div with contenteditable, its words sent by
  // script): fields all the same, with the form they stand in if any. An editor's own nested
  // editable parts count once.
  for (const el of query('[contenteditable]:not([contenteditable="false" i])')) {
    if (!editable(el) || (el.parentElement && el.parentElement.closest('[contenteditable]:not([contenteditable="false" i])'))) continue;
    const form = el.closest("form");
    if (form && groups.has(form)) groups.get(form).push(el); else loose.push(el);
  }
  const forms = [];
  for (const [form, inputs] of groups) {
    if (forms.length >= limits.forms) break;
    forms.push(describe(inputs, absolute(attr(form, "action")), (attr(form, "method") || "get").toLowerCase()));
  }
  if (loose.length > 0 && forms.length < limits.forms) {
    const f = describe(loose, "", "");
    if (f.fields.length > 0) forms.push(f);
  }
  // Where the page's links lead and where its scripts come from: a copy of a brand's page
  // keeps the brand's links.
  const hostOf = (u) => { try { const x = new URL(u, baseURI); return (x.protocol === "http:" || x.protocol === "https:") ? x.hostname : ""; } catch (e) { return ""; } };
  const links = [];
  for (const a of query("a[href]")) {
    if (links.length >= limits.links) break;
    const h = hostOf(attr(a, "href"));
    if (h) links.push(h);
  }
  // App packages and installers the page offers (an APK, an iOS profile, an executable): a
  // page that asks its reader to install something off the stores.
  const packageRE = /\.(apk|xapk|apks|ipa|mobileconfig|exe|msi|msix|dmg|pkg|scr|bat|cmd|ps1|hta|vbs|jar)$/i;
  const downloads = [];
  for (const a of query("a[href]")) {
    if (downloads.length >= limits.downloads) break;
    const href = attr(a, "href");
    let u = null;
    try { u = new URL(href, baseURI); } catch (e) { continue; }
    const pkg = u.protocol === "itms-services:" || ((u.protocol === "http:" || u.protocol === "https:") && (packageRE.test(u.pathname) || a.hasAttribute("download")));
    if (pkg && !downloads.includes(u.href)) downloads.push(u.href.slice(0, 300));
  }
  const scripts = [];
  for (const el of query("script[src]")) {
    if (scripts.length >= limits.scripts) break;
    const h = hostOf(attr(el, "src"));
    if (h && !scripts.includes(h)) scripts.push(h);
  }
  // Whose page it says it is, beside its title: its headings, its first images (their file
  // names and alternative texts: a logo) and its icon.
  const headings = [];
  let headingChars = 0;
  for (const el of query("h1, h2, h3, [role=heading]")) {
    if (headingChars >= limits.headings) break;
    const t = text(el).slice(0, limits.headings);
    if (t) { headings.push(t); headingChars += t.length; }
  }
  const image = (u, alt, icon) => {
    try {
      const x = new URL(u, baseURI);
      if (x.protocol !== "http:" && x.protocol !== "https:") return null;
      const name = decodeURIComponent(x.pathname.split("/").pop() || "");
      return { host: x.hostname, name: name.slice(0, limits.attr), alt: String(alt || "").replace(/\s+/g, " ").trim().slice(0, limits.attr), icon };
    } catch (e) { return null; }
  };
  const images = [];
  for (const el of query('link[rel~="icon" i]')) {
    const i = image(attr(el, "href"), "", true);
    if (i) { images.push(i); break; }
  }
  for (const el of query("img[src], input[type=image][src]")) {
    if (images.length >= limits.images) break;
    const i = image(attr(el, "src"), attr(el, "alt") || attr(el, "title"), false);
    if (i) images.push(i);
  }
  // How much of the viewport the page draws rather than writes (canvases, images, SVG): a
  // page whose words are pictures has its screenshot read.
  let drawn = 0;
  const vw = window.innerWidth || 1, vh = window.innerHeight || 1;
  for (const el of query("canvas, img, svg, picture, object, embed").slice(0, 200)) {
    const r = el.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)), h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    drawn += w * h;
  }
  drawn = Math.min(1, drawn / (vw * vh));
  const body = get(Document.prototype, "body", document);
  // innerText stops at a shadow root: each root's words are added after the document's.
  let words = body ? String(body.innerText || "") : "";
  for (const r of roots.slice(1)) {
    if (words.length >= limits.text) break;
    for (const el of Array.from(r.children)) { const t = text(el); if (t) words += " " + t; }
  }
  // Text stored backwards and shown the right way by a forced right-to-left override
  // (unicode-bidi: bidi-override; direction: rtl) reads backwards in the DOM: a left-to-right
  // script's words so drawn are added as a person reads them. Right-to-left scripts are left
  // alone; so are an override's descendants, read with it.
  const rtlScript = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
  const overridden = [];
  for (const el of query("body *").slice(0, limits.styled)) {
    if (overridden.some((o) => o.contains(el))) continue;
    const cs = getComputedStyle(el);
    if (cs.direction !== "rtl" || !/override/.test(cs.unicodeBidi)) continue;
    const t = text(el);
    if (t && !rtlScript.test(t)) overridden.push(el);
  }
  for (const el of overridden) {
    if (words.length >= limits.text) break;
    words += " " + Array.from(text(el)).reverse().join("");
  }
  // What the page's own scripts say where they send (sends.go reads them): inline scripts,
  // up to limits.inline characters in all.
  const inline = [];
  let inlineChars = 0;
  for (const el of query("script:not([src])")) {
    if (inlineChars >= limits.inline) break;
    const s = String(el.textContent || "").slice(0, limits.inline - inlineChars);
    if (s.trim()) { inline.push(s); inlineChars += s.length; }
  }
  return {
    title: String(get(Document.prototype, "title", document) || ""),
    description: meta('meta[name="description" i]') || meta('meta[property="og:description" i]') || meta('meta[name="og:description" i]'),
    text: words.slice(0, limits.text),
    inline,
    base: baseURI,
    downloads,
    drawn,
    forms,
    links,
    scripts,
    headings: headings.join(" / "),
    images,
    clipboard: watched && watched.clip ? watched.clip.slice() : [],
  };
}`

// factsLimits are factsScript's argument.
var factsLimits = map[string]any{"forms": maxForms, "fields": maxFields, "hint": maxHint, "text": 4 * moderation.MaxText,
	"links": moderation.MaxLinks, "scripts": moderation.MaxScripts, "headings": moderation.MaxHeadings,
	"images": moderation.MaxImages, "attr": maxImageAttr, "roots": maxShadowRoots, "inline": maxInlineScript,
	"downloads": moderation.MaxDownloads, "styled": maxStyled}

// limitsFor are factsLimits with the capture's watch key, through which factsScript finds the
// closed shadow roots.
func limitsFor(key string) map[string]any {
	l := make(map[string]any, len(factsLimits)+1)
	for k, v := range factsLimits {
		l[k] = v
	}
	l["key"] = key
	return l
}

// pageFacts are what factsScript returns.
type pageFacts struct {
	Title       string             `json:"title"`
	Description string             `json:"description"`
	Text        string             `json:"text"`
	Forms       []moderation.Form  `json:"forms"`
	Links       []string           `json:"links"`
	Scripts     []string           `json:"scripts"`
	Headings    string             `json:"headings"`
	Images      []moderation.Image `json:"images"`
	Downloads   []string           `json:"downloads"`
	Drawn       float64            `json:"drawn"`  // the share of the viewport drawn by canvases, images and SVG
	Inline      []string           `json:"inline"` // the text of inline scripts
	Base        string             `json:"base"`   // the document's base URL
	Clipboard   []string           `json:"clipboard"`
}

// decodeFacts reads factsScript's answer, as playwright-go hands it over (maps and slices).
func decodeFacts(v any) (pageFacts, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return pageFacts{}, fmt.Errorf("page facts: %w", err)
	}
	var f pageFacts
	if err := json.Unmarshal(raw, &f); err != nil {
		return pageFacts{}, fmt.Errorf("page facts: %w", err)
	}
	f.Title = cut(collapse(f.Title), maxTitle)
	f.Description = cut(collapse(f.Description), maxDescription)
	f.Text = cut(collapse(f.Text), moderation.MaxText)
	f.Links = hosts(f.Links, moderation.MaxLinks)
	f.Scripts = hosts(f.Scripts, moderation.MaxScripts)
	f.Headings = cut(collapse(f.Headings), moderation.MaxHeadings)
	f.Images = images(f.Images)
	if len(f.Downloads) > moderation.MaxDownloads {
		f.Downloads = f.Downloads[:moderation.MaxDownloads]
	}
	if len(f.Clipboard) > maxClipboard {
		f.Clipboard = f.Clipboard[:maxClipboard]
	}
	for i, t := range f.Clipboard {
		f.Clipboard[i] = cut(t, maxClipboardText)
	}
	for i := range f.Forms {
		if f.Forms[i].Fields == nil {
			f.Forms[i].Fields = []string{}
		}
		f.Forms[i].Method = cut(f.Forms[i].Method, 10)
		if len(f.Forms[i].Types) > len(f.Forms[i].Fields) {
			f.Forms[i].Types = f.Forms[i].Types[:len(f.Forms[i].Fields)]
		}
		for j, t := range f.Forms[i].Types {
			f.Forms[i].Types[j] = cut(t, 20)
		}
		// Hints are kept only when there is one, each with the field it describes.
		hints := f.Forms[i].Hints
		f.Forms[i].Hints = nil
		if n := min(len(hints), len(f.Forms[i].Fields)); n > 0 {
			kept, some := make([]string, n), false
			for j := range kept {
				kept[j] = cut(collapse(hints[j]), maxHint)
				some = some || kept[j] != ""
			}
			if some {
				f.Forms[i].Hints = kept
			}
		}
	}
	return f, nil
}

// hosts keeps at most n of a page's hosts, each bounded; nil when there are none.
func hosts(hs []string, n int) []string {
	var out []string
	for _, h := range hs {
		if len(out) == n {
			break
		}
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			out = append(out, cut(h, maxHost))
		}
	}
	return out
}

// collapse turns every run of white space into one space and trims the ends.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut keeps at most n characters of s.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

// images bounds a page's images: at most MaxImages, each with a host, its file name and
// alternative text cut.
func images(is []moderation.Image) []moderation.Image {
	var out []moderation.Image
	for _, i := range is {
		if len(out) == moderation.MaxImages {
			break
		}
		host := strings.ToLower(strings.TrimSpace(i.Host))
		if host == "" {
			continue
		}
		out = append(out, moderation.Image{Host: cut(host, maxHost), Name: cut(i.Name, maxImageAttr),
			Alt: cut(collapse(i.Alt), maxImageAttr), Icon: i.Icon})
	}
	return out
}
