package score

import (
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The origin signals read whose page a page says it is and where it sends what it is given,
// from the page's own claims rather than a list of brands (docs/moderation.md, "Heuristics"):
// an organisation's page stands on a domain of its name and sends a card, an ID number or a
// bank account to itself or to a processor it names. A page that names an organisation, wears
// that name in its host beside words of a task (`acme-rebate-claim.com`) and sends what it
// asks to a site of no name of the page's is a copy of the organisation made for one campaign.
const (
	weightReceiverElsewhere = 0.7  // a card, an ID, a bank account or a PIN sent to a site the page does not name
	weightWornName          = 0.35 // the page's own name worn in its host beside other words, on a page that asks or sends
)

var (
	// The separators of a title's parts: "Acme – Pay your bill", "Pay | Acme".
	titleSepRE = mustPattern(`\s+[–—|·:-]\s+|\s*[|·–—]\s*`)
	// A copyright line's holder: "© 2026 Acme Ltd", "Copyright Acme".
	copyrightRE = mustPattern(`(?:©|\(c\)|copyright)\s*(?:[0-9]{4}(?:\s*[-–]\s*[0-9]{4})?)?\s*([A-Za-z][A-Za-z0-9&.' ]{2,40})`)
	// Words of a company's form that are no part of its name.
	legalFormRE = mustPattern(`(?i)\b(?:ltd|limited|llc|inc|plc|gmbh|co|corp|all rights reserved)\b\.?`)
)

// selfNames are the names a page gives itself, in host form (ASCII letters and digits, lower
// case): its title's parts, its logo's alternative text, its copyright's holder. Chinese names
// have no host form and give none; names that are only words of what a site does (sign in,
// secure portal) name no one.
func selfNames(c moderation.Capture) []string {
	var out []string
	seen := map[string]bool{}
	for _, words := range selfNameParts(c) {
		name := strings.Join(words, "")
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// selfNameParts are selfNames as their words.
func selfNameParts(c moderation.Capture) [][]string {
	var raw []string
	for _, part := range titleSepRE.Split(c.Title, -1) {
		if n := len(strings.Fields(part)); n >= 1 && n <= 4 {
			raw = append(raw, part)
		}
	}
	for _, im := range c.Images {
		if im.Alt != "" && (strings.Contains(strings.ToLower(im.Alt+" "+im.Name), "logo") || len(raw) == 0) {
			raw = append(raw, strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(im.Alt, " logo"), " Logo")))
		}
	}
	if m := copyrightRE.FindStringSubmatch(c.Text); m != nil {
		raw = append(raw, legalFormRE.ReplaceAllString(m[1], ""))
	}
	return nameWords(raw)
}

// nameWords are the names among raw as their words in host form: a name has a word of three
// letters or more that is no word of what a site does, and four letters in all.
func nameWords(raw []string) [][]string {
	var out [][]string
	for _, r := range raw {
		words := strings.FieldsFunc(strings.ToLower(r), func(r rune) bool { return !isASCIIAlnum(r) })
		named := false
		for _, w := range words {
			named = named || (len(w) >= 3 && !hostWords[w] && !orgWords[w] && !genericTitleWords[w])
		}
		if named && len(strings.Join(words, "")) >= 4 {
			out = append(out, words)
		}
	}
	return out
}

// genericTitleWords are a title's words that name what a page is for, not whose it is.
var genericTitleWords = map[string]bool{"pay": true, "payment": true, "payments": true, "home": true, "welcome": true,
	"sign": true, "log": true, "in": true, "your": true, "bill": true, "checkout": true, "order": true, "apply": true,
	"application": true, "form": true, "step": true, "page": true, "new": true, "official": true, "site": true}

func isASCIIAlnum(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// hostLabel is host's registrable domain without its public suffix, hyphens left out.
func hostLabel(host string) string {
	rd := registrableDomain(host)
	suffix, _ := publicsuffix.PublicSuffix(rd)
	return strings.ReplaceAll(strings.TrimSuffix(rd, "."+suffix), "-", "")
}

// wornName is the page's own name that its host wears beside other words: "ofgem" in
// ofgem-rebate-claim.co.uk, "acmebank" in acmebank-payee-alert.com. An organisation's own
// domain is its name (acme.com, acme-bank.co.uk); a name with a task glued on is a domain
// registered for a campaign. "" when the host is the name, or does not wear it.
func wornName(c moderation.Capture, host string) string {
	label := hostLabel(host)
	for _, name := range selfNames(c) {
		if label == name || !strings.Contains(label, name) {
			continue
		}
		rest := strings.Replace(label, name, "", 1)
		if len(strings.Trim(rest, "0123456789")) >= 4 && !strings.Contains(name, rest) {
			return name
		}
	}
	return ""
}

// carriesName says whether a registrable domain carries one of the page's own names, or the
// first word of one that the page's own host wears too (acme-id.com for "Acme Health" on
// acme-health.com). A word of the title's task ("rebate", "payee") is no name.
func carriesName(c moderation.Capture, host, domain string) bool {
	label, own := hostLabel(domain), hostLabel(host)
	for _, raw := range selfNameParts(c) {
		name := strings.Join(raw, "")
		if strings.Contains(label, name) {
			return true
		}
		if first := raw[0]; len(first) >= 4 && strings.Contains(own, name) && strings.Contains(label, first) {
			return true
		}
	}
	return false
}

// foreignReceiver is where c sends target when that is a site of no name of the page's: another
// registrable domain, no listed brand's, not named on the page and, when the page wears its own
// name in its host, not carrying that name (sharing a word of the campaign, "rebate", is no
// kinship); otherwise of no word in common with the page's host. "" when target is not such a
// site.
func foreignReceiver(c moderation.Capture, host, target string) string {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") {
		return ""
	}
	to := normalizeHost(u.Hostname())
	if to == "" || registrableDomain(to) == registrableDomain(host) || ownedByBrand(to) || disclosed(c, to) {
		return ""
	}
	if carriesName(c, host, to) || namesReceiver(c, to) {
		return ""
	}
	if wornName(c, host) == "" && sameOrganisation(registrableDomain(host), registrableDomain(to)) {
		return ""
	}
	return to
}

// namesReceiver says whether the page names the receiver by its domain's name in its words
// ("card payments are processed by Northpay" for checkout.northpay.com): a checkout tells its
// reader who takes the card.
func namesReceiver(c moderation.Capture, to string) bool {
	label := hostLabel(to)
	if len(label) < 4 {
		return false
	}
	squashed := strings.Map(func(r rune) rune {
		if isASCIIAlnum(r) {
			return r
		}
		return -1
	}, strings.ToLower(c.Title+" "+c.Text))
	return strings.Contains(squashed, label)
}

// receiverElsewhereSignal weighs a page that sends a card, its security code, an ID number, a
// bank account or a PIN to a site of no name of its own (foreignReceiver), on any host: the
// card-elsewhere signal bans it on an odd host; here it flags alone and bans beside the page's
// name worn in its host. A page with no field at all, wearing its own name beside a task in its
// host, whose scripts are wired to send to such a site, and to a script there, counts too: its
// form comes behind a click ("No, cancel this payee") that the capture did not press.
func receiverElsewhereSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	inputs := 0
	for _, f := range c.Forms {
		inputs += max(f.Inputs, len(f.Fields))
		a := formAsks(f)
		if !a.any(askCard | askCVV | askID | askBank | askPIN | askSecret) {
			continue
		}
		for _, target := range formTargets(c, f, host) {
			if to := foreignReceiver(c, host, target); to != "" {
				return Signal{"receiver-elsewhere", weightReceiverElsewhere, CategoryPhishing,
					fmt.Sprintf("%s's form on %s sends %s to %s, a site the page does not name", c.Profile, host, a, to)}, true
			}
		}
	}
	if inputs > 0 || wornName(c, host) == "" {
		// Scripts that send with no field to fill are also a page's counters and beacons: the
		// wiring counts only on a page that wears its own name beside a task in its host.
		return Signal{}, false
	}
	for _, target := range remoteSends(c) {
		u, err := url.Parse(target)
		if err != nil || !scriptPathRE.MatchString(u.Path) {
			continue
		}
		if to := foreignReceiver(c, host, target); to != "" {
			return Signal{"receiver-elsewhere", weightReceiverElsewhere, CategoryPhishing,
				fmt.Sprintf("%s's page on %s shows no field yet its scripts send to %s%s, a site the page does not name", c.Profile, host, to, u.Path)}, true
		}
	}
	return Signal{}, false
}

// wornNameSignal weighs a page wearing its own name in its host beside other words (wornName)
// when it asks for a password, a code, a card, an ID, a bank account or a secret, or sends to
// another site: alone it only adds weight (an honest firm may own acme-online.com), beside a
// receiver the page does not name it bans.
func wornNameSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	asks := pageAsks(c).any(askPassword | askOTP | askCard | askCVV | askID | askBank | askPIN | askSecret)
	if !asks && len(c.Sends) == 0 {
		return Signal{}, false
	}
	name := wornName(c, host)
	if name == "" {
		return Signal{}, false
	}
	return Signal{"worn-name", weightWornName, CategoryPhishing,
		fmt.Sprintf("%s's page names itself %q and stands on %s, that name with other words", c.Profile, name, host)}, true
}
