// Package locale names the languages Shortlink speaks to people in — the web app's and the
// mails' — and picks one from what a browser asks for (docs/web-app.md#language-errors-and-confirmations).
package locale

import (
	"strings"

	"golang.org/x/text/language"
)

// Tag is a language an account reads its mails in.
type Tag string

// The languages there are texts in.
const (
	English Tag = "en"
	Chinese Tag = "zh"
)

// Tags are the languages there are texts in, the first the default.
var Tags = []Tag{English, Chinese}

// Parse reads a language as the API takes it ("en", "zh"; any case); ok is false for any other.
func Parse(s string) (t Tag, ok bool) {
	switch Tag(strings.ToLower(strings.TrimSpace(s))) {
	case English:
		return English, true
	case Chinese:
		return Chinese, true
	}
	return English, false
}

// Of is the stored language t, or English when t is none of Tags.
func Of(t string) Tag {
	tag, _ := Parse(t)
	return tag
}

var matcher = language.NewMatcher([]language.Tag{language.English, language.Chinese})

// FromAcceptLanguage is the language of Tags that best answers a browser's Accept-Language
// header ("zh-CN,zh;q=0.9,en;q=0.8" → Chinese), English when none does or the header is bad.
func FromAcceptLanguage(header string) Tag {
	wanted, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(wanted) == 0 {
		return English
	}
	_, index, confidence := matcher.Match(wanted...)
	if confidence == language.No || index != 1 {
		return English
	}
	return Chinese
}

// Pick is en or zh, whichever t reads.
func (t Tag) Pick(en, zh string) string {
	if t == Chinese {
		return zh
	}
	return en
}

// Recipient is an address a mail goes to and the language its reader reads.
type Recipient struct {
	Email    string
	Language Tag
}
