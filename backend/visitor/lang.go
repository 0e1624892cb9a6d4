package visitor

import (
	"strconv"
	"strings"
)

// Lang is the language of the visitor pages.
type Lang string

// The languages of the visitor pages.
const (
	English Lang = "en"
	Chinese Lang = "zh" // Simplified Chinese
)

// PreferredLang is Chinese when the Accept-Language header prefers zh (any region or script:
// Chinese is closer than English to every reader of it), otherwise English. The preference is
// the entry with the highest q, the first among equals; q=0 entries are refused ones.
func PreferredLang(acceptLanguage string) Lang {
	best, bestQ := "", 0.0
	rest := acceptLanguage
	for rest != "" {
		entry := rest
		if i := strings.IndexByte(rest, ','); i >= 0 {
			entry, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		tag, params, _ := strings.Cut(entry, ";")
		tag = strings.TrimSpace(tag)
		if tag == "" {
			continue
		}
		q := 1.0
		if p := strings.TrimSpace(params); p != "" {
			v, ok := strings.CutPrefix(p, "q=")
			if !ok {
				v, ok = strings.CutPrefix(p, "Q=")
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if !ok || err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		if q > bestQ {
			best, bestQ = tag, q
		}
	}
	primary := best
	if i := strings.IndexAny(best, "-_"); i >= 0 {
		primary = best[:i] // zh-CN, and zh_CN as some apps write it
	}
	if strings.EqualFold(primary, "zh") {
		return Chinese
	}
	return English
}
