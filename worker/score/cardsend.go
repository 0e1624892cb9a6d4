package score

import (
	"fmt"
	"net/url"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightCardElsewhere is a card number sent by a page to a site of another name on an odd host
// (a cheap suffix, a free host, a name of phishing's words): a shop's checkout sends the card
// to itself or to its payment processor, and no processor keeps its gateway on such a host
// (docs/moderation.md, "Heuristics").
const weightCardElsewhere = 0.8

// cardElsewhereSignal weighs a form asking for a card number or its security code that sends it
// (its action, or the page's scripts for inputs no form posts) to another registrable domain,
// neither a listed brand's (processors are listed) nor named on the page nor of the page's
// name, standing on an odd host.
func cardElsewhereSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	page := registrableDomain(host)
	for _, f := range c.Forms {
		if !formAsks(f).any(askCard | askCVV) {
			continue
		}
		for _, target := range formTargets(c, f, host) {
			u, err := url.Parse(target)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") {
				continue
			}
			to := normalizeHost(u.Hostname())
			if to == "" || registrableDomain(to) == page || ownedByBrand(to) || disclosed(c, to) || sameOrganisation(page, registrableDomain(to)) {
				continue
			}
			if odd := oddHost(to); odd != "" {
				return Signal{"card-elsewhere", weightCardElsewhere, CategoryPhishing,
					fmt.Sprintf("%s's card form on %s sends the card to %s, %s", c.Profile, host, to, odd)}, true
			}
		}
	}
	return Signal{}, false
}
