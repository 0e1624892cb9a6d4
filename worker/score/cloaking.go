package score

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/shortlink/shortlink/backend/moderation"
)

// Cloaking thresholds: pages of fewer words are not compared (a blank or tiny page says too
// little), and pages sharing less than minSimilarity of their words are different pages.
const (
	minWords      = 8
	minSimilarity = 0.2
)

// Cloaking compares what the visitors saw, pair by pair, among the captures that completed. It
// reports a signal of category cloaking when two of them were shown materially different
// pages: a different final site (weighing reviewScore + 0.1; an app store for one of them is
// no difference), or a password or card form for one and none for the other, an HTTP error for
// one and a page for the other, or pages sharing under a fifth of their words (each weighing
// reviewScore). The strongest difference gives the weight.
func Cloaking(captures []moderation.Capture, reviewScore float64) (Signal, bool) {
	type page struct {
		c      moderation.Capture
		site   string
		asks   bool
		words  map[string]bool
		failed bool
	}
	var pages []page
	for _, c := range captures {
		if c.Error != "" || c.FinalURL == "" {
			continue
		}
		p := page{c: c, site: registrableDomain(hostOf(c.FinalURL)), failed: c.Status >= 400}
		for _, f := range c.Forms {
			p.asks = p.asks || f.Password || f.Card
		}
		p.words = words(c.Title + " " + c.Description + " " + c.Text)
		pages = append(pages, p)
	}
	var s Signal
	var details []string
	note := func(w float64, detail string) {
		details = append(details, detail)
		s.Weight = max(s.Weight, w)
	}
	for i := range pages {
		for j := i + 1; j < len(pages); j++ {
			a, b := pages[i], pages[j]
			if a.site != b.site && !appStore(a.c.FinalURL) && !appStore(b.c.FinalURL) {
				note(min(0.95, reviewScore+0.1), fmt.Sprintf("%s ends on %s, %s on %s", a.c.Profile, a.site, b.c.Profile, b.site))
			}
			if a.asks != b.asks {
				asked, other := a, b
				if b.asks {
					asked, other = b, a
				}
				note(reviewScore, fmt.Sprintf("%s is asked for a password or a card, %s is not", asked.c.Profile, other.c.Profile))
			}
			switch {
			case a.site != b.site:
				// Different sites differ in their words too: said already.
			case a.failed != b.failed && (len(a.words) >= minWords || len(b.words) >= minWords):
				bad, good := a, b
				if b.failed {
					bad, good = b, a
				}
				note(reviewScore, fmt.Sprintf("%s gets HTTP %d, %s a page", bad.c.Profile, bad.c.Status, good.c.Profile))
			case len(a.words) >= minWords && len(b.words) >= minWords:
				if sim := jaccard(a.words, b.words); sim < minSimilarity {
					note(reviewScore, fmt.Sprintf("%s and %s see different pages (%.0f%% of words shared)", a.c.Profile, b.c.Profile, 100*sim))
				}
			}
		}
	}
	if len(details) == 0 {
		return Signal{}, false
	}
	if len(details) > 3 {
		details = append(details[:3], "…")
	}
	s.Kind, s.Category = "cloaking", CategoryCloaking
	s.Detail = strings.Join(details, "; ")
	return s, true
}

// appStore says whether url is in an app store: links to an app send phones to their store and
// computers to a web page, honestly.
func appStore(url string) bool {
	host := hostOf(url)
	for _, d := range []string{"apps.apple.com", "itunes.apple.com", "play.google.com", "appgallery.huawei.com", "apps.microsoft.com"} {
		if underDomain(host, d) {
			return true
		}
	}
	return false
}

// words are the distinct words of s, lower-cased; in scripts written without spaces (Chinese,
// Japanese, Korean), each pair of neighbouring characters counts as a word.
func words(s string) map[string]bool {
	out := map[string]bool{}
	var word []rune
	var prevCJK rune
	flush := func() {
		if len(word) > 1 {
			out[string(word)] = true
		}
		word = word[:0]
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case isCJK(r):
			flush()
			if prevCJK != 0 {
				out[string([]rune{prevCJK, r})] = true
			}
			prevCJK = r
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word = append(word, r)
		default:
			flush()
		}
		prevCJK = 0
	}
	flush()
	return out
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// jaccard is the share of words two pages have in common: |a ∩ b| / |a ∪ b|.
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	return float64(common) / float64(len(a)+len(b)-common)
}
