package score

import (
	"github.com/shortlink/shortlink/backend/moderation"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// publicBodyLabels are the labels of public suffixes that only public bodies register under:
// the governments' (governmentLabels) and the schools' and universities' (edu.cn, ac.uk,
// edu.au, ac.jp).
var publicBodyLabels = map[string]bool{"edu": true, "ac": true}

// publicBodyHost says whether host stands under a suffix that only a government, a school or a
// university may register under.
func publicBodyHost(host string) bool {
	if governmentHost(host) {
		return true
	}
	suffix, _ := publicsuffix.PublicSuffix(host)
	labels := strings.Split(suffix, ".")
	return len(labels) > 1 && publicBodyLabels[labels[0]]
}

// withoutPublicBodyName drops from labels (host's, its public suffix removed) the registrable
// label of a public body's host: yunshan of rsj.yunshan.gov.cn is the name a registry checked
// the town holds, whatever brand it resembles. The labels before it are the body's own to give
// and are still read: a brand dressed in a subdomain of a school's host is still a look-alike.
// See docs/moderation.md, "Moderation scoring".
func withoutPublicBodyName(host string, labels []string) []string {
	if len(labels) == 0 || !publicBodyHost(host) {
		return labels
	}
	return labels[:len(labels)-1]
}

// truncates says whether w is key with its ending cut off by two letters or more: a word of its
// own that starts like a brand (yunshan, a town, of yunshanfu), where a typo keeps the brand's
// length or its ending.
func truncates(w, key string) bool {
	return len(key)-len(w) >= 2 && strings.HasPrefix(key, w)
}

// typoOfOwnName says whether a host read as a brand's typo only (weightNear: xiaomei of xiaomi)
// is the page's own name rather than an imitation: the page names the brand nowhere — title,
// description, headings, text or screenshot — and links to its own site. A typosquat wears the
// brand it misspells, or stands alone; a town's school that happens to be spelled a letter away
// from a brand does neither. The host's look-alike signal still flags it for a moderator.
func typoOfOwnName(c moderation.Capture, b *brand, weight float64) bool {
	if weight != weightNear || ownLinks(c) == 0 {
		return false
	}
	for _, n := range namedBrands(c.Title + " \n " + c.Description + " \n " + c.Headings + " \n " + c.Text + " \n " + c.OCRText) {
		if n.brand == b {
			return false
		}
	}
	return true
}
