package score

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/unicode/norm"
)

// hostOf returns the host of a URL in lower-case ASCII (punycode), "" when it has none.
func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return normalizeHost(u.Hostname())
}

// normalizeHost lower-cases host, drops a trailing dot and turns an IDN into punycode.
func normalizeHost(host string) string {
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if !isASCII(host) {
		if a, err := idna.Lookup.ToASCII(host); err == nil {
			host = a
		}
	}
	return host
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// registrableDomain is host's eTLD+1 ("paypal.com" for "www.paypal.com"; private suffixes count,
// so "me.github.io" stays whole), or host itself when it has none (IP addresses, single labels).
func registrableDomain(host string) string {
	if host == "" || isIPLiteral(host) {
		return host
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}

// isIPLiteral says whether host is an IP address, including the numeric forms browsers accept
// ("3232235777", "0x7f.1"): a host whose last label is a number is no domain name.
func isIPLiteral(host string) bool {
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	digits := last
	if h, ok := strings.CutPrefix(last, "0x"); ok {
		digits = h
		if digits == "" {
			return true
		}
		for _, r := range digits {
			if !unicode.Is(unicode.ASCII_Hex_Digit, r) {
				return false
			}
		}
		return true
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// underDomain says whether host is domain or one of its subdomains.
func underDomain(host, domain string) bool {
	n := len(host) - len(domain)
	return strings.HasSuffix(host, domain) && (n == 0 || n > 0 && host[n-1] == '.')
}

// parents lists host and the domains above it, down to the last label: "a.b.c", "b.c", "c".
func parents(host string) []string {
	if isIPLiteral(host) {
		return []string{host}
	}
	var out []string
	for h := host; h != ""; {
		out = append(out, h)
		i := strings.IndexByte(h, '.')
		if i < 0 {
			break
		}
		h = h[i+1:]
	}
	return out
}

// defaultBlocklist is the list every deployment starts with: hosts kept for testing
// browsers' and filters' phishing and malware warnings, never real victims.
//
//go:embed blocklist.txt
var defaultBlocklist string

// blocklist maps blocked hosts to the category of their abuse.
type blocklist map[string]string

// match returns the listed host that host is or lies under, and its category.
func (b blocklist) match(host string) (listed, category string, ok bool) {
	for _, h := range parents(host) {
		if c, found := b[h]; found {
			return h, c, true
		}
	}
	return "", "", false
}

// parseBlocklist adds the hosts of a list to b. A line holds a host and, optionally, its
// category (phishing when left out); "#" starts a comment. Lines in the form of a hosts file
// ("0.0.0.0 evil.example") and wildcards ("*.evil.example") are read as the host.
func parseBlocklist(r io.Reader, name string, b blocklist) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) >= 2 && isIPLiteral(fields[0]) { // hosts-file form
			fields = fields[1:]
			if isIPLiteral(fields[0]) || !strings.Contains(fields[0], ".") { // "localhost", "broadcasthost"
				continue
			}
		}
		if len(fields) > 2 {
			return fmt.Errorf("blocklist %s:%d: more than a host and a category", name, n)
		}
		host := normalizeHost(strings.TrimPrefix(fields[0], "*."))
		if host == "" || strings.ContainsAny(host, "/:@ ") {
			return fmt.Errorf("blocklist %s:%d: %q is not a host", name, n, fields[0])
		}
		category := CategoryPhishing
		if len(fields) == 2 {
			category = strings.ToLower(fields[1])
			if !knownCategory(category) || category == CategoryBenign {
				return fmt.Errorf("blocklist %s:%d: unknown category %q", name, n, fields[1])
			}
		}
		b[host] = category
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("blocklist %s: %w", name, err)
	}
	return nil
}

// owns says whether host is the brand's: under one of its domains, or a registrable domain that
// is the brand's name under a country's suffix ("amazon.de", "google.co.jp") — brands hold
// those widely, and listing them all would make the list long without making it right.
func (b *brand) owns(host string) bool {
	return !isUserContent(host) && b.ownsUnder(host, registrableDomain(host))
}

// ownsUnder is owns for a host that is no user content, whose registrable domain is rd.
func (b *brand) ownsUnder(host, rd string) bool {
	for _, d := range b.domains {
		if underDomain(host, d) {
			return true
		}
	}
	label, suffix, ok := strings.Cut(rd, ".")
	if !ok || label != b.keys[0] {
		return false
	}
	cc := suffix[strings.LastIndexByte(suffix, '.')+1:]
	return len(cc) == 2
}

// userContent are hosts under a brand's domain where anyone publishes pages, forms or files:
// what stands there is its author's, not the brand's.
var userContent = []string{"sites.google.com", "docs.google.com", "storage.googleapis.com",
	"firebasestorage.googleapis.com", "googleusercontent.com", "forms.office.com", "forms.microsoft.com",
	"blob.core.windows.net", "web.core.windows.net", "amazonaws.com", "sharepoint.com"}

// isUserContent says whether host is where a brand lets anyone publish (userContent).
func isUserContent(host string) bool {
	for _, u := range userContent {
		if underDomain(host, u) {
			return true
		}
	}
	return false
}

// neighbours are others' domains that look like a brand's, by the brand's name: PayPay is not
// PayPal.
var neighbours = map[string][]string{
	"paypal": {"paypay.ne.jp"},
}

// neighbour says whether host is under a domain that looks like the brand's but is another's.
func (b *brand) neighbour(host string) bool {
	for _, d := range neighbours[b.keys[0]] {
		if underDomain(host, d) {
			return true
		}
	}
	return false
}

// The weights of the look-alike signals.
const (
	weightDressed    = 0.75 // the brand's own domain worn at the front: icbc.com.cn.verify-id.top
	weightConfusable = 0.75 // the brand spelled with look-alike characters: paypa1, pаypal
	weightContains   = 0.6  // the brand as a word of a host it does not own: paypal-secure-login.com
	weightNear       = 0.55 // one letter away from the brand (two for long names): paypak
)

// lookAlike is the closest imitation of a brand by host: the brand, the weight of the match and
// what it is. ok is false when host imitates none (or is the brand's own).
func lookAlike(host string) (b *brand, weight float64, detail string, ok bool) {
	if host == "" || isIPLiteral(host) || ownedByBrand(host) || isUserContent(host) {
		return nil, 0, "", false // a listed brand's own host imitates no one (citibank.com, citicbank.com), nor do its users' pages
	}
	labels := strings.Split(host, ".")
	// The public suffix names no one: "com" of paypal.com.
	if suffix, _ := publicsuffix.PublicSuffix(host); suffix != host {
		labels = labels[:len(labels)-strings.Count(suffix, ".")-1]
	}
	labels = withoutPublicBodyName(host, labels)
	var words []string // labels in Unicode, and their hyphenated parts
	var joined []bool  // which words are two parts joined
	for _, l := range labels {
		if u, err := idna.ToUnicode(l); err == nil {
			l = u
		}
		words, joined = append(words, l), append(joined, false)
		if parts := strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' }); len(parts) > 1 {
			words = append(words, parts...)
			joined = append(joined, make([]bool, len(parts))...)
			// A brand split by a hyphen is still the brand: e-zpass, gov-uk, pay-pal.
			for i := 0; i+1 < len(parts); i++ {
				words, joined = append(words, parts[i]+parts[i+1]), append(joined, true)
			}
		}
	}
	skeletons := make([]string, len(words))
	for i, w := range words {
		skeletons[i] = skeleton(w)
	}
	userContent, rd := isUserContent(host), registrableDomain(host)
	for i := range brands {
		br := &brands[i]
		if !userContent && br.ownsUnder(host, rd) || br.neighbour(host) {
			continue
		}
		if d, dressed := br.dressed(host); dressed && weightDressed >= weight {
			b, weight, detail, ok = br, weightDressed, fmt.Sprintf("%s wears %s's domain %s at its front", host, br.keys[0], d), true
		}
		for k, key := range br.keys {
			ks := br.skeletons[k]
			for i, w := range words {
				wt, what := keyInWord(host, w, skeletons[i], key, ks)
				if wt == weightNear && joined[i] {
					continue // a typo is of a word as written, not of two words joined: yunshan-edu is no yunshanfu
				}
				if wt > 0 && wt >= weight {
					b, weight, detail, ok = br, wt, what, true
				}
			}
		}
		if what, named := br.namedWeakly(host, words); named && weightContains >= weight {
			b, weight, detail, ok = br, weightContains, what, true
		}
		if what, named := br.namedInScript(host, words); named && weightDressed >= weight {
			b, weight, detail, ok = br, weightDressed, what, true
		}
	}
	return b, weight, detail, ok
}

// keyInWord weighs how the word w of host (ws as it looks) imitates a brand's key (ks as it
// looks): 0 when it does not.
func keyInWord(host, w, ws, key, ks string) (float64, string) {
	switch {
	case w == key:
		return weightContains, fmt.Sprintf("%s names %s on a domain it does not own", host, key)
	case ws == ks:
		return weightConfusable, fmt.Sprintf("%s spells %s with look-alike characters", host, key)
	case len(key) >= 6 && strings.Contains(w, key) && gluedOn(w, key):
		return weightContains, fmt.Sprintf("%s contains %s on a domain it does not own", host, key)
	case len(key) >= 6 && strings.Contains(ws, ks) && gluedOn(ws, ks):
		return weightConfusable, fmt.Sprintf("%s contains %s spelled with look-alike characters", host, key)
	case near(w, key):
		return weightNear, fmt.Sprintf("%s is a letter or two away from %s", host, key)
	case affixed(w, key):
		return weightContains, fmt.Sprintf("%s dresses %s up as %s", host, key, w)
	}
	return 0, ""
}

// namedWeakly says whether the words of host name the brand by one of its weak keys, an
// ordinary word that is also its name, beside phishing's words: "steam-trade-gift".
func (b *brand) namedWeakly(host string, words []string) (string, bool) {
	for _, key := range b.weak {
		if !containsString(words, key) {
			continue
		}
		for _, w := range words {
			if w != key && (hostWords[w] || weakCompanions[w]) {
				return fmt.Sprintf("%s names %s beside %s", host, key, w), true
			}
		}
	}
	return "", false
}

// weakCompanions are words that, beside an ordinary word that is a brand's name, make a host
// about the brand: steam-trade, ledger-connect.
var weakCompanions = map[string]bool{"trade": true, "trading": true, "offer": true, "market": true, "skins": true,
	"connect": true, "live": true, "login": true, "signin": true, "free": true, "giveaway": true, "drop": true,
	"app": true, "apps": true, "id": true, "pay": true, "support": true, "help": true, "secure": true, "verify": true}

// gluedOn says whether key, found inside the word w, is glued to a brand's usual companions
// rather than part of another word: what is left of w is digits, a country's two letters,
// or holds an affix or a word of phishing's ("paypalsecure", "binanceus", "metamask2fa"),
// where "xiaomiao" is a word of its own that starts like xiaomi.
func gluedOn(w, key string) bool {
	i := strings.Index(w, key)
	rest := w[:i] + w[i+len(key):]
	if rest == "" || strings.Trim(rest, "0123456789-") == "" || countryCodes[rest] {
		return true
	}
	for _, a := range phishAffixes {
		if len(a) >= 3 && strings.Contains(rest, a) {
			return true
		}
	}
	for hw := range hostWords {
		if strings.Contains(rest, hw) {
			return true
		}
	}
	for cw := range weakCompanions {
		if len(cw) >= 3 && strings.Contains(rest, cw) {
			return true
		}
	}
	return false
}

// countryCodes are the two letters brands' sites and their imitations append for a country.
var countryCodes = map[string]bool{"us": true, "uk": true, "cn": true, "hk": true, "eu": true, "au": true, "ca": true,
	"de": true, "fr": true, "jp": true, "sg": true, "my": true, "ph": true, "in": true, "id": true, "br": true, "mx": true,
	"tw": true, "kr": true, "nz": true, "za": true, "ng": true, "ae": true, "it": true, "es": true, "nl": true, "th": true, "vn": true}

// dressed says whether host wears one of the brand's own domains as its first labels, before
// a dot or a hyphen ("icbc.com.cn.verify-id.top", "paypal.com-login.example"): a name made to
// be read no further than its start.
func (b *brand) dressed(host string) (string, bool) {
	for _, d := range b.domains {
		for _, at := range []string{d + ".", d + "-"} {
			if strings.HasPrefix(host, at) || strings.Contains(host, "."+at) {
				return d, true
			}
		}
	}
	return "", false
}

// phishAffixes are what phishing hosts glue to a brand's short name: wwwicbc, icbcvip,
// ccbebank, boc95566.
var phishAffixes = []string{"www", "wap", "m", "e", "vip", "login", "logon", "signin", "secure", "verify",
	"online", "safe", "service", "support", "update", "help", "bank", "ebank", "pay", "card", "kf", "app", "cn", "hk", "id"}

// affixed says whether w is key (a short one: longer keys are found inside any word) with a
// usual phishing affix or a run of digits glued to it, in front or behind.
func affixed(w, key string) bool {
	if len(key) >= 6 || len(w) <= len(key) {
		return false
	}
	var rest string
	switch {
	case strings.HasPrefix(w, key):
		rest = w[len(key):]
	case strings.HasSuffix(w, key):
		rest = w[:len(w)-len(key)]
	default:
		return false
	}
	if strings.Trim(rest, "0123456789") == "" {
		return true
	}
	for _, a := range phishAffixes {
		if rest == a {
			return true
		}
	}
	return false
}

// near says whether w is a typo of key: key has 6 letters or more, w starts with the same letter
// (typosquats keep it; "finance" is no typo of "binance", nor "cloud" of "icloud") and is one
// edit away, two for keys of 9 letters or more.
func near(w, key string) bool {
	if len(key) < 6 || !isASCII(w) || w == "" || w[0] != key[0] || strings.ContainsAny(w, "-_") {
		return false
	}
	edits := 1
	if len(key) >= 9 {
		edits = 2
	}
	if d := len(w) - len(key); d > edits || -d > edits {
		return false
	}
	if truncates(w, key) {
		return false
	}
	return editDistance(w, key) <= edits
}

// confusables map characters that pass for Latin letters in a host to those letters. Digits and
// i/l/1 fold the same way on both sides of a comparison, so "paypa1" meets "paypal".
var confusables = map[rune]string{
	'0': "o", '1': "l", 'i': "l", '|': "l", '3': "e", '4': "a", '5': "s", '7': "t", '9': "g",
	'ı': "l", 'ł': "l",
	// Cyrillic
	'а': "a", 'в': "b", 'е': "e", 'ё': "e", 'к': "k", 'м': "m", 'н': "h", 'о': "o", 'р': "p",
	'с': "c", 'т': "t", 'у': "y", 'х': "x", 'ѕ': "s", 'і': "l", 'ї': "l", 'ј': "j", 'ԁ': "d",
	'ӏ': "l", 'ԛ': "q", 'ԝ': "w", 'һ': "h", 'ɡ': "g", 'ո': "n", 'ս': "u", 'օ': "o",
	// Greek
	'α': "a", 'β': "b", 'ε': "e", 'η': "n", 'ι': "l", 'κ': "k", 'ν': "v", 'ο': "o", 'ρ': "p",
	'τ': "t", 'υ': "u", 'χ': "x", 'ω': "w",
}

// skeleton is how a word looks rather than how it is spelled: marks dropped, confusable
// characters folded, "rn" read as "m" and "vv" as "w".
func skeleton(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if c, ok := confusables[r]; ok {
			b.WriteString(c)
			continue
		}
		b.WriteRune(r)
	}
	return lookAlikePairs.Replace(b.String())
}

// lookAlikePairs are pairs of letters read as one: "rn" as "m", "vv" as "w".
var lookAlikePairs = strings.NewReplacer("rn", "m", "vv", "w")

// editDistance is the optimal string alignment distance of a and b (insertions, deletions,
// substitutions, and swaps of neighbours), over bytes: both are ASCII here.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// namedBrand is a brand a text names, and the name it uses.
type namedBrand struct {
	brand *brand
	name  string
}

// namedBrands are the brands text names, as words.
func namedBrands(text string) []namedBrand {
	if text == "" {
		return nil
	}
	lower := strings.ToLower(text)
	var out []namedBrand
	for i := range brands {
		for _, name := range brands[i].names {
			if containsWord(lower, strings.ToLower(name)) {
				out = append(out, namedBrand{&brands[i], name})
				break
			}
		}
	}
	return out
}

// containsWord says whether word occurs in s not inside a longer word; words in scripts written
// without spaces match anywhere.
func containsWord(s, word string) bool {
	first, _ := utf8.DecodeRuneInString(word)
	if first >= 0x2E80 { // CJK and after
		return strings.Contains(s, word)
	}
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		// Chinese text runs a Latin name into its words without a space ("QQ邮箱", "PayPal账户"):
		// a CJK character ends a Latin word as a space would.
		if !isWordRune(before) && !isWordRune(after) || !isLatinWordRune(before) && !isLatinWordRune(after) {
			return true
		}
		i = start + 1
	}
}

// isLatinWordRune says whether r continues a word of a script written with spaces.
func isLatinWordRune(r rune) bool { return r < 0x2E80 && isWordRune(r) }

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// shorteners are public URL shorteners: anyone can make them point anywhere, so a chain through
// one hides a destination. Left out on purpose are wrappers that only carry links posted on
// their own platform and check them there (t.co, lnkd.in, fb.me, youtu.be, amzn.to, g.co):
// passing through them is the ordinary way a shared link travels.
var shorteners = map[string]bool{
	"bit.ly": true, "bitly.com": true, "j.mp": true, "tinyurl.com": true, "is.gd": true,
	"v.gd": true, "goo.gl": true, "goo.su": true, "cutt.ly": true, "ow.ly": true, "buff.ly": true,
	"rebrand.ly": true, "rb.gy": true, "t.ly": true, "tiny.cc": true, "tiny.one": true,
	"shorturl.at": true, "s.id": true, "bl.ink": true, "short.gy": true, "dub.sh": true,
	"clck.ru": true, "u.to": true, "x.gd": true, "urlz.fr": true, "adf.ly": true,
	"shorte.st": true, "ouo.io": true, "bc.vc": true, "qrco.de": true,
}

// shortener returns the shortener host is on, "" when none.
func shortener(host string) string {
	for _, h := range parents(host) {
		if shorteners[h] {
			return h
		}
	}
	return ""
}
