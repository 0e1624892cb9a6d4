package redirect

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"

	"github.com/shortlink/shortlink/backend/httpsec"
	"github.com/shortlink/shortlink/backend/link"
)

// The visitor pages are small and self-contained: no scripts, no external assets.
const layout = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>{{.Title}}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:12vh auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem}code,.url{word-break:break-all;background:#f6f8fa;padding:.1rem .3rem;border-radius:4px}
a.button{display:inline-block;margin-top:1rem;padding:.5rem 1rem;background:#0969da;color:#fff;border-radius:6px;text-decoration:none}</style>
</head><body><h1>{{.Title}}</h1>{{.Body}}</body></html>`

const (
	notFoundBody    = `<p>This short link does not exist. Check the address for typos.</p>`
	goneBody        = `<p>This short link has expired and no longer leads anywhere.</p>`
	unavailableBody = `<p>This short link cannot be opened right now. Please try again in a moment.</p>`
	previewBody     = `<p>This short link leads to:</p><p class="url">{{.Target}}</p>{{if .Link.Title}}<p>{{.Link.Title}}</p>{{end}}<a class="button" href="{{.Target}}" rel="noopener noreferrer nofollow">Continue</a>`
	blockedBody     = `{{if eq .Link.Status "banned"}}<p>This link was blocked because its destination was found to be harmful (spam, phishing or malware). Do not enter passwords or personal data on the page it pointed to.</p>{{else}}<p>This link has been disabled by its owner.</p>{{end}}`
)

type pages struct {
	headers                         *httpsec.Headers
	layout                          *template.Template
	notFoundHTML, goneHTML, unavail []byte
	previewT, blockedT              *template.Template
}

// pageCSP is the policy of the visitor pages: nothing loads or runs but the layout's own
// style (allowed by its hash), nothing frames them, and forms post only to the page's host.
func pageCSP() string {
	return "default-src 'none'; style-src " + strings.Join(httpsec.InlineHashes([]byte(layout), "style"), " ") +
		"; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// newPages renders the fixed pages; https says the deployment is served over https.
func newPages(https bool) *pages {
	p := &pages{
		headers:  httpsec.New(pageCSP(), "no-referrer", https),
		layout:   template.Must(template.New("layout").Parse(layout)),
		previewT: template.Must(template.New("preview").Parse(previewBody)),
		blockedT: template.Must(template.New("blocked").Parse(blockedBody)),
	}
	p.notFoundHTML = p.render("Link not found", template.HTML(notFoundBody))
	p.goneHTML = p.render("Link expired", template.HTML(goneBody))
	p.unavail = p.render("Temporarily unavailable", template.HTML(unavailableBody))
	return p
}

func (p *pages) render(title string, body template.HTML) []byte {
	var b bytes.Buffer
	_ = p.layout.Execute(&b, struct {
		Title string
		Body  template.HTML
	}{title, body})
	return b.Bytes()
}

func (p *pages) renderBody(t *template.Template, title string, data any) []byte {
	var b bytes.Buffer
	_ = t.Execute(&b, data)
	return p.render(title, template.HTML(b.String()))
}

// write answers a page, with the security headers of visitor pages.
func (p *pages) write(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "private, max-age=0")
	p.headers.Set(h, r)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func (p *pages) notFound(w http.ResponseWriter, r *http.Request) {
	p.write(w, r, http.StatusNotFound, p.notFoundHTML)
}

func (p *pages) gone(w http.ResponseWriter, r *http.Request) {
	p.write(w, r, http.StatusGone, p.goneHTML)
}

func (p *pages) unavailable(w http.ResponseWriter, r *http.Request) {
	p.write(w, r, http.StatusServiceUnavailable, p.unavail)
}

func (p *pages) blocked(w http.ResponseWriter, r *http.Request, l *link.Link) {
	title := "Link disabled"
	if l.Status == link.StatusBanned {
		title = "Warning: blocked link"
	}
	p.write(w, r, http.StatusForbidden, p.renderBody(p.blockedT, title, struct{ Link *link.Link }{l}))
}

func (p *pages) preview(w http.ResponseWriter, r *http.Request, l *link.Link, target string) {
	p.write(w, r, http.StatusOK, p.renderBody(p.previewT, "Link preview", struct {
		Link   *link.Link
		Target string
	}{l, target}))
}
