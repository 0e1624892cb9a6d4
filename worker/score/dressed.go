package score

import (
	"fmt"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightDressedHost is a secret asked on a host that wears another site's whole domain at its
// front, listed brand or not (docs/moderation.md, "Moderation scoring").
const weightDressedHost = 0.8

// classicSuffixes are the one-label suffixes read as a domain's end when worn inside a host;
// newer ones (app, dev, shop, blog) are also ordinary words of subdomains.
var classicSuffixes = map[string]bool{"com": true, "net": true, "org": true, "gov": true, "edu": true}

// wornDomain is the whole domain that host's subdomain labels spell before its registrable
// domain ("bendigobank.com.au" of bendigobank.com.au.session-verify-id.net): a name made to be
// read no further than its start. "" when there is none. A library's proxy, which rewrites the
// sites it serves into its own host (www.jstor.org.ezproxy.example.edu), names itself a proxy.
func wornDomain(host string) string {
	rd := registrableDomain(host)
	if rd == "" || rd == host || isUserContent(host) {
		return ""
	}
	sub := strings.Split(strings.TrimSuffix(host, "."+rd), ".")
	for _, l := range sub {
		if strings.Contains(l, "proxy") {
			return ""
		}
	}
	for i := 0; i+1 < len(sub); i++ {
		if len(sub[i]) < 3 || sub[i] == "www" {
			continue
		}
		for j := len(sub) - 1; j > i; j-- { // the longest suffix: com.au before com
			candidate, suffix := strings.Join(sub[i:j+1], "."), strings.Join(sub[i+1:j+1], ".")
			got, icann := publicsuffix.PublicSuffix(candidate)
			if icann && got == suffix && (strings.Contains(suffix, ".") || classicSuffixes[suffix]) {
				return candidate
			}
		}
	}
	return ""
}

// dressedHostSignal weighs a password, a code, a card, a PIN or a recovery phrase asked on a
// host that wears another site's domain at its front: a regional bank's log-on on
// bendigobank.com.au.session-verify-id.net. The look-alike signals know the listed brands'
// domains; this reads any domain, for a bank too small to be listed is phished the same way.
func dressedHostSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned || !pageAsks(c).any(askPassword|askOTP|askCard|askPIN|askSecret) {
		return Signal{}, false
	}
	worn := wornDomain(host)
	if worn == "" || registrableDomain(worn) == registrableDomain(host) {
		return Signal{}, false
	}
	return Signal{"dressed-host", weightDressedHost, CategoryPhishing,
		fmt.Sprintf("%s is asked for a secret on %s, which wears %s at its front", c.Profile, host, worn)}, true
}
