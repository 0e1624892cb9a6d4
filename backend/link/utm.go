package link

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
)

// MaxUTMValueLength bounds each UTM value, in characters.
const MaxUTMValueLength = 200

// UTM holds the campaign parameters a link adds to its destination's query on redirect; an
// empty field adds nothing (and leaves any utm_* of that name in the URL as it is).
type UTM struct {
	Source   string `json:"source,omitempty"`
	Medium   string `json:"medium,omitempty"`
	Campaign string `json:"campaign,omitempty"`
	Term     string `json:"term,omitempty"`
	Content  string `json:"content,omitempty"`
}

// IsZero reports whether u adds nothing.
func (u UTM) IsZero() bool { return u == UTM{} }

// params are u's fields with their query names, in the order they are appended.
func (u *UTM) params() [5]struct{ name, value string } {
	return [5]struct{ name, value string }{
		{"utm_source", u.Source}, {"utm_medium", u.Medium}, {"utm_campaign", u.Campaign},
		{"utm_term", u.Term}, {"utm_content", u.Content},
	}
}

// Validate checks each value: at most MaxUTMValueLength characters of valid UTF-8, no control
// characters. field names the body's field ("utm") for the error.
func (u *UTM) Validate(field string) error {
	for _, p := range u.params() {
		name := field + "." + strings.TrimPrefix(p.name, "utm_")
		if utf8.RuneCountInString(p.value) > MaxUTMValueLength {
			return apperr.Errorf(apperr.Invalid, "%s is longer than %d characters", name, MaxUTMValueLength).For("utm_too_long", name)
		}
		if !utf8.ValidString(p.value) {
			return apperr.Errorf(apperr.Invalid, "%s is not valid UTF-8", name).For("utm_invalid", name)
		}
		for _, r := range p.value {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				return apperr.Errorf(apperr.Invalid, "%s contains control characters", name).For("utm_invalid", name)
			}
		}
	}
	return nil
}

// Trim removes surrounding spaces of each value.
func (u *UTM) Trim() {
	u.Source, u.Medium, u.Campaign = strings.TrimSpace(u.Source), strings.TrimSpace(u.Medium), strings.TrimSpace(u.Campaign)
	u.Term, u.Content = strings.TrimSpace(u.Term), strings.TrimSpace(u.Content)
}

// Merge returns target with u's parameters in its query: a utm_* parameter u sets replaces the
// URL's own (in its place; later repeats of it dropped), the others are appended in the order
// source, medium, campaign, term, content. Every other parameter, its order and spelling, and
// the fragment stay as they were. A zero u returns target itself.
func (u *UTM) Merge(target string) string {
	if u.IsZero() {
		return target
	}
	frag := ""
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target, frag = target[:i], target[i:]
	}
	base, query, _ := strings.Cut(target, "?")
	params := u.params()
	var done [5]bool
	var b strings.Builder
	b.Grow(len(target) + 80)
	b.WriteString(base)
	n := 0
	write := func(s string) {
		if n == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(s)
		n++
	}
	for query != "" {
		var part string
		part, query, _ = strings.Cut(query, "&")
		if part == "" {
			continue
		}
		name, _, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(name); err == nil {
			name = k
		}
		i := paramIndex(&params, name)
		switch {
		case i < 0:
			write(part)
		case !done[i]:
			done[i] = true
			write(params[i].name + "=" + url.QueryEscape(params[i].value))
		}
		// a repeat of a parameter u sets is dropped
	}
	for i, p := range params {
		if p.value != "" && !done[i] {
			write(p.name + "=" + url.QueryEscape(p.value))
		}
	}
	b.WriteString(frag)
	return b.String()
}

// paramIndex is the index of the parameter called name that u sets, or -1.
func paramIndex(params *[5]struct{ name, value string }, name string) int {
	if !strings.HasPrefix(name, "utm_") {
		return -1
	}
	for i, p := range params {
		if p.value != "" && p.name == name {
			return i
		}
	}
	return -1
}

// Destination is where the link sends a visitor before rules and forwarded query: its URL with
// its UTM merged (computed once, when the link is read or saved, never per visit).
func (l *Link) Destination() string {
	if l.Dest != "" {
		return l.Dest
	}
	return l.URL
}

// Finish derives what a link read or made carries besides its columns: its destination with
// UTM merged.
func (l *Link) Finish() *Link {
	l.Dest = ""
	if !l.UTM.IsZero() {
		l.Dest = l.UTM.Merge(l.URL)
	}
	return l
}
