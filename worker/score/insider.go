package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightInsiderDeal is the weight of an insider's deal paid by transfer alone, with no receipt
// (docs/moderation.md, "Heuristics").
const weightInsiderDeal = 0.85

var (
	// A price said to come from inside: 内部价, 内部渠道, 员工内部折扣, 团票转让, "staff price".
	insiderRE = mustPattern(`内\s?部\s?(?:价|价格|渠道|名额|折扣|票|优惠)|员\s?工\s?(?:内部|价|票)|团\s?票\s?转\s?让|公司\s?团\s?票|` +
		`\b(?:internal|insider|staff|employee) (?:price|pricing|rate|allocation|discount|tickets?)\b`)
	// Paid by transfer alone: 只收转账, 仅限汇款, "Zelle only", "bank transfer only".
	transferOnlyRE = mustPattern(`(?:只|仅)\s?(?:收|接受|限|能)\s?(?:银\s?行\s?)?(?:转\s?账|汇\s?款)|` +
		`\b(?:bank transfer|wire|zelle|cash app|venmo|paypal friends and family) only\b|\bonly (?:accepts?|takes?|by) (?:a )?(?:bank transfer|wire|zelle|cash app|venmo)\b`)
	// … with no receipt: 不开收据, 不开发票, "no receipts".
	noReceiptRE = mustPattern(`不\s?(?:开|给|提供)\s?(?:收\s?据|发\s?票)|\bno (?:receipts?|invoices?)\b|\bwithout (?:a )?(?:receipt|invoice)\b`)
)

// insiderDealSignal weighs a sale at a price said to come from inside (a company's group
// tickets, a staff discount on fuel cards) paid by transfer alone and with no receipt: the
// ticket and voucher scams of messaging groups. A shop sells at its own price, takes cards or
// its own account and gives a receipt; advisories quote the offer and sell nothing.
func insiderDealSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	inside := firstUnnegated(insiderRE, words)
	only := firstUnnegated(transferOnlyRE, words)
	if inside == "" || only == "" {
		return Signal{}, false
	}
	none := noReceiptRE.FindString(words)
	if none == "" {
		return Signal{}, false
	}
	return Signal{"insider-deal", weightInsiderDeal, CategoryScam,
		fmt.Sprintf("%s is offered %q, paid %q, %q, on %s", c.Profile, truncate(inside, 30), truncate(only, 30), truncate(none, 20), host)}, true
}
