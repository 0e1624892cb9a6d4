package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightDesignatedSupplier is the weight of an order a shop is to fill by paying the buyer's
// designated supplier first (docs/moderation.md, "Heuristics").
const weightDesignatedSupplier = 0.85

var (
	// An order placed with the reader's shop: 采购订单, 采购清单, 订货, "purchase order".
	supplyOrderRE = mustPattern(`采\s?购|订\s?货|订\s?单|备\s?货|\b(?:purchase|bulk|supply) orders?\b|\b(?:quote|quotation) request\b|\border (?:list|sheet)\b`)
	// Part of it only the buyer's own supplier may deliver: 指定供应商, 定点配发, 只能由…供货,
	// "our approved vendor", "must be sourced from".
	designatedRE = mustPattern(`指\s?定\s?(?:的\s?)?(?:合\s?格\s?)?(?:供\s?应\s?商|厂\s?家|商\s?家|渠\s?道|供\s?货\s?商)|定\s?点\s?(?:配\s?发|供\s?应|供\s?货)|只\s?能\s?由[^。]{0,16}供\s?货|` +
		`\b(?:designated|approved|authori[sz]ed|nominated|certified) (?:supplier|vendor|distributor|manufacturer)s?\b|\bmust be (?:sourced|purchased|bought|procured) (?:only )?from\b`)
	// … paid by the shop first, settled by the buyer afterwards: 先行付款, 垫付, 对接付款,
	// "pay the supplier first", "advance the cost", "reimbursed after delivery".
	advanceRE = mustPattern(`先\s?行?\s?(?:与[^。]{0,10})?(?:对\s?接\s?)?(?:付\s?款|垫\s?付|打\s?款|转\s?账|付\s?清)|垫\s?付|垫\s?资|对\s?接\s?付\s?款|` +
		`\b(?:pay|prepay|advance|front) (?:the |our |this )?(?:supplier|vendor|cost|costs|amount|payment)\b[^.]{0,30}\b(?:first|upfront|up front|in advance|directly)\b|` +
		`\b(?:reimbursed|refunded|settled|paid back) (?:in full )?(?:after|on|upon) (?:delivery|receipt|acceptance)\b`)
)

// designatedSupplierSignal weighs a bulk order to a shop in which part of the goods may only
// come from the buyer's designated supplier, and the shop is to pay that supplier first, the
// buyer settling everything after delivery: the purchase order fraud played on small shops by
// callers posing as an army unit, a school or a company, where the "supplier" is the
// fraudster. A real buyer pays its own suppliers; a shop's page about orders says nothing of
// paying someone else's; an advisory quoting the ploy is read as one.
func designatedSupplierSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	order := supplyOrderRE.FindString(words)
	if order == "" {
		return Signal{}, false
	}
	designated := firstUnnegated(designatedRE, words)
	advance := firstUnnegated(advanceRE, words)
	if designated == "" || advance == "" {
		return Signal{}, false
	}
	return Signal{"designated-supplier", weightDesignatedSupplier, CategoryScam,
		fmt.Sprintf("%s reads an order (%q) whose goods come from %q, paid %q, on %s", c.Profile, truncate(order, 20), truncate(designated, 30), truncate(advance, 30), host)}, true
}
