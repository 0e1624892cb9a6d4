package score

import (
	"fmt"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightAuthorityDemand is a page speaking as a court, a sheriff, the police or a prosecutor,
// telling its reader a warrant, an arrest or a case stands against them, and taking a payment
// before a deadline — on a host that is no government's. A court's or a police force's pages
// stand on its government's domain (.gov, gov.cn, gov.uk, a .us locality); a bail bondsman or a
// lawyer speaks of warrants but accuses no one (docs/moderation.md, "Heuristics").
const weightAuthorityDemand = 0.85

var (
	// The page speaks as an authority that arrests or prosecutes.
	authorityRE = mustPattern(`\b(?:sheriff|marshals?|magistrate|district attorney|prosecutor|police (?:department|service|force)|department of justice|county court|superior court|circuit court|federal court|clerk of (?:the )?court|court clerk|bureau of investigation|customs (?:and|&) border)\b|` +
		`法院|检察院|公安(?:局|部|厅|机关)|派出所|刑侦|经侦|司法局|监察委|海关缉私`)
	// A criminal proceeding against the reader: a warrant in their name, an arrest to avoid, a
	// failure to appear. A debt collector may name a court ("to avoid a county court judgment")
	// but threatens no arrest.
	accusedRE = mustPattern(`(?:warrant|summons|criminal case|charges?)[^.]{0,40}(?:issued|filed|pending|outstanding)[^.]{0,20}(?:in|under|against) your name|` +
		`(?:in|under|against) your name[^.]{0,40}(?:warrant|criminal case|charges?)|you (?:did not|failed to|have failed to) (?:appear|report for)|failure to appear|` +
		`(?:avoid|prevent|face) (?:your )?(?:immediate )?arrest|be arrested|warrant for your arrest|` +
		`您(?:已)?涉嫌|你(?:已)?涉嫌|您名下|你名下|对您(?:发出|签发|立案|采取)|(?:逮捕|拘留|通缉)(?:令|证)|将(?:被)?(?:依法)?(?:逮捕|拘留|传唤)`)
	// A condition just before an accusation: the case is a supposition.
	conditionalRE = mustPattern(`(?:\b(?:if|whether|when|in case|once)\b|如果|假如|若|一旦)[^.。]{0,40}$`)
	// A payment the page takes: a bond, a bail, a fine, a fee or a deposit paid now.
	authorityPayRE = mustPattern(`\b(?:post|pay|paid|settle)\b[^.]{0,40}\b(?:bond|bail|fine|fee|deposit|penalty)|\b(?:bond|bail|fine|penalty) of [$£€]|` +
		`缴纳|保证金|罚款|罚金|取保|转入`)
)

// authorityDemandSignal weighs a page that speaks as an authority, accuses its reader, and
// takes a payment (a card asked, or a bond, a fine, a deposit to pay) before a deadline, on a
// host that is no government's. Advisories quoting the threat collect nothing and are left
// alone; so are the brands' own hosts (a listed government service's).
func authorityDemandSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned || governmentHost(host) {
		return Signal{}, false
	}
	words := v.words
	authority := authorityRE.FindString(words)
	if authority == "" {
		return Signal{}, false
	}
	accused := ""
	for _, m := range accusedRE.FindAllStringIndex(words, -1) {
		// "If you failed to appear, a warrant may be issued": a bail agent's or a lawyer's
		// explanation, not an accusation.
		if !conditionalRE.MatchString(words[max(0, m[0]-60):m[0]]) {
			accused = words[m[0]:m[1]]
			break
		}
	}
	if accused == "" || !v.ok {
		return Signal{}, false
	}
	pay := ""
	if pageAsks(c).any(askCard | askCVV | askBank) {
		pay = "a card"
	} else if m := firstUnnegated(authorityPayRE, words); m != "" && amountRE.MatchString(words) {
		pay = m
	}
	deadline := deadlineRE.FindString(words)
	if deadline == "" {
		deadline = urgentRE.FindString(words)
	}
	if pay == "" || deadline == "" {
		return Signal{}, false
	}
	return Signal{"authority-demand", weightAuthorityDemand, CategoryScam,
		fmt.Sprintf("%s is told %q by %q and asked to pay (%q, %q), on %s, no government's host", c.Profile, truncate(accused, 40), authority, pay, deadline, host)}, true
}

// governmentLabels are the labels of public suffixes that only governments register under:
// gov, gov.cn, gov.uk, gouv.fr, gob.mx, govt.nz, gc.ca, go.jp, mil.
var governmentLabels = map[string]bool{"gov": true, "mil": true, "gouv": true, "gob": true, "govt": true, "gc": true, "go": true, "gv": true}

// governmentHost says whether host stands under a government's public suffix, or in the .us
// locality namespace (co.wexford.mi.us), which only states, counties, towns and their courts
// and schools may hold.
func governmentHost(host string) bool {
	suffix, _ := publicsuffix.PublicSuffix(host)
	for _, l := range strings.Split(suffix, ".") {
		if governmentLabels[l] {
			return true
		}
	}
	if s, ok := strings.CutSuffix(suffix, ".us"); ok && len(s) == 2 {
		return true
	}
	return false
}
