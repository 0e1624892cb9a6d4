// Package httpsec holds the security headers of Shortlink's answers: a Content-Security-Policy
// for each kind of answer (web app, visitor pages, API), the framing, referrer and sniffing
// rules that go with it, and Strict-Transport-Security on https.
package httpsec

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"

	"golang.org/x/net/html"
)

// hsts asks browsers to use https for the host for a year. Without includeSubDomains: the
// short domain's or the app's parent may serve other sites that are not ours to decide for.
var hsts = []string{"max-age=31536000"}

// Headers are the security headers of one kind of answer, prepared once: setting them costs
// a few map writes and no allocation.
type Headers struct {
	fixed []field
	https bool
}

// field is one header, its name canonical and its value ready to share.
type field struct {
	name  string
	value []string
}

// New prepares headers with the Content-Security-Policy csp and the Referrer-Policy
// referrer. https says the deployment is served over https (PUBLIC_URL): every answer then
// carries HSTS; otherwise only answers to requests that came over TLS do.
func New(csp, referrer string, https bool) *Headers {
	return &Headers{https: https, fixed: []field{
		{"Content-Security-Policy", []string{csp}},
		{"X-Frame-Options", []string{"DENY"}},
		{"Referrer-Policy", []string{referrer}},
		{"X-Content-Type-Options", []string{"nosniff"}},
	}}
}

// Set writes the headers into h, the header of the answer to r. The values are shared
// between answers: they are replaced, never changed in place.
func (p *Headers) Set(h http.Header, r *http.Request) {
	for _, f := range p.fixed {
		h[f.name] = f.value
	}
	if p.https || r.TLS != nil {
		h["Strict-Transport-Security"] = hsts
	}
}

// Middleware sets the headers on every answer of next.
func (p *Headers) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.Set(w.Header(), r)
		next.ServeHTTP(w, r)
	})
}

// InlineHashes are the CSP sources ('sha256-…') that allow the inline elements named tag
// ("script" or "style") of an HTML document, in document order; scripts with a src are
// not inline and are left out. Hashing lets a policy allow exactly these and no injected
// ones, where 'unsafe-inline' would allow any.
func InlineHashes(doc []byte, tag string) []string {
	var out []string
	z := html.NewTokenizer(bytes.NewReader(doc))
	inside := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			inside = string(name) == tag && !(tag == "script" && hasSrc(z, hasAttr))
		case html.TextToken:
			if inside {
				sum := sha256.Sum256(z.Raw())
				out = append(out, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
			}
			inside = false
		default:
			inside = false
		}
	}
}

func hasSrc(z *html.Tokenizer, more bool) bool {
	for more {
		var key []byte
		key, _, more = z.TagAttr()
		if strings.EqualFold(string(key), "src") {
			return true
		}
	}
	return false
}
