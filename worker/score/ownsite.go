package score

import (
	"net/url"

	"github.com/shortlink/shortlink/backend/moderation"
)

// payingPINRE names a PIN that pays or withdraws, which no sign-in asks.
var payingPINRE = mustPattern(`(?i)支付|交易|取款|提现|atm|payment|transaction|withdraw|zfmm|jymm|qkmm|txmm`)

// signsInToOwnSite says whether every form of c that asks a password or a PIN is a sign-in of
// the page's own site: it sends to the page's registrable domain (its action, and its scripts
// when they send its inputs), the page links to its own site, and the form asks no card
// security code, expiry, ID number, bank account or recovery phrase, and no PIN named for
// paying. A card issuer's online service signs in with the card number and a query password; a
// court's portal with a juror's number and a PIN. A kit asks what pays: the security code, the
// ID number, the payment PIN — or sends elsewhere. A public body's host (publicBodyHost: a
// suffix only governments, schools and universities register under) is its own without links
// to itself: a county's one-page transit card query stands alone.
func signsInToOwnSite(c moderation.Capture) bool {
	host := captureHost(c)
	if host == "" || ownLinks(c) == 0 && !publicBodyHost(host) {
		return false
	}
	page, any := registrableDomain(host), false
	for _, f := range c.Forms {
		a := formAsks(f)
		if !a.any(askPassword | askPIN) {
			continue
		}
		any = true
		if a.any(askCVV | askExpiry | askID | askBank | askSecret) {
			return false
		}
		for _, s := range append(append([]string{}, f.Fields...), f.Hints...) {
			if payingPINRE.MatchString(s) {
				return false
			}
		}
		for _, target := range formTargets(c, f, host) {
			if target == "" {
				continue
			}
			u, err := url.Parse(target)
			if err != nil || registrableDomain(normalizeHost(u.Hostname())) != page {
				return false
			}
		}
	}
	return any
}

// storedValueRE names a shop's stored-value card or its scratched code: 购物卡, 储值卡, 刮开涂层,
// "gift card", "scratch".
var storedValueRE = mustPattern(`(?i)\bgift ?cards?\b|\bstore cards?\b|\bprepaid cards?\b|\bscratch|购物卡|購物卡|储值卡|儲值卡|礼品卡|禮品卡|提货卡|提貨卡|刮开|刮開|涂层|塗層`)

// ownStoredValueCard says whether every form of c that asks a PIN or a password asks it of a
// shop's stored-value card (its hints, title or headings say so) and sends it to the
// page's own registrable domain: a supermarket's balance check or a game's redemption. A
// bank card's PIN is never typed into a web page; a gift card's code is how it is spent, on
// its issuer's site. One that sends it elsewhere is a "buy-back" harvest.
func ownStoredValueCard(c moderation.Capture) bool {
	host := captureHost(c)
	if host == "" || !storedValueRE.MatchString(c.Title+" "+c.Headings+" "+truncate(c.Text, 400)) {
		return false
	}
	page, any := registrableDomain(host), false
	for _, f := range c.Forms {
		a := formAsks(f)
		if !a.any(askPassword | askPIN) {
			continue
		}
		if a.any(askID | askBank | askSecret) {
			return false // a gift card's code pays with nothing of its holder's
		}
		any = true
		for _, target := range formTargets(c, f, host) {
			if target == "" {
				continue
			}
			u, err := url.Parse(target)
			if err != nil || registrableDomain(normalizeHost(u.Hostname())) != page {
				return false
			}
		}
		for _, s := range c.SendHosts {
			if registrableDomain(normalizeHost(s)) != page {
				return false
			}
		}
	}
	return any
}
