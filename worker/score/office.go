package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightOfficeArrears is the weight of a public office's arrears taken on a host that is no
// government's (docs/moderation.md, "Heuristics").
const weightOfficeArrears = 0.85

var (
	// The page speaks as a public office that levies fees or fines: the traffic police, a
	// vehicle registry, the tax office, a toll or a hospital authority.
	officeRE = mustPattern(`交通管理|交管|车管所|交警|公安交通|监理(?:站|所|处)|税务(?:局|机关)|国家税务|社保(?:局|中心)|医院管理局|医管局|卫生署|海关|运输署|` +
		`\b(?:dmv|department of motor vehicles|motor vehicles? (?:division|office|department|agency)|tax (?:office|authority|department)|revenue (?:service|agency)|` +
		`hospital authority|toll (?:authority|agency)|transport(?:ation)? (?:department|authority)|road (?:traffic )?authority|traffic (?:police|court))\b`)
	// A charge said to be overdue or unpaid: 逾期, 未缴, 欠费, "past due", "unpaid toll".
	arrearsRE = mustPattern(`逾期|未缴|尚未缴|未按期|欠费|欠缴|滞纳金|` +
		`\b(?:overdue|unpaid|past due|late (?:fee|payment|charge))\b|\boutstanding (?:balance|fee|toll|fine|amount|charge)`)
	// A payment asked now: 立即缴费, "pay now".
	payNowRE = mustPattern(`(?:立即|马上|立刻|现在)\s?(?:缴费|缴纳|缴清|支付|付款)|\bpay (?:now|today|immediately|(?:the |your )?(?:fee|fine|toll|balance|amount) (?:now|today))\b`)
)

// officeArrearsSignal weighs a page that speaks as a public office (the traffic police, a
// vehicle registry, a tax office, a toll or hospital authority), says a charge of its reader's
// is overdue, and takes the payment now — a card, a bank account or an ID number asked, or a
// "pay now" — on a host that is no government's: the fine, toll and fee messages sent by SMS.
// Such offices collect on their government's domain or their own listed one; their own pages
// say they send no such links, and advisories quote them.
func officeArrearsSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok || governmentHost(host) {
		return Signal{}, false
	}
	office := officeRE.FindString(words)
	owed := firstUnnegated(arrearsRE, words)
	if office == "" || owed == "" {
		return Signal{}, false
	}
	pay := ""
	if pageAsks(c).any(askCard | askCVV | askBank | askID) {
		pay = "a card, an account or an ID number"
	} else {
		pay = firstUnnegated(payNowRE, words)
	}
	if pay == "" {
		return Signal{}, false
	}
	return Signal{"office-arrears", weightOfficeArrears, CategoryScam,
		fmt.Sprintf("%s is told by %q of %q and asked %q, on %s, no government's host", c.Profile, office, owed, truncate(pay, 40), host)}, true
}
