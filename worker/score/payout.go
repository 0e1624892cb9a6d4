package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightHeldPayout is a buyer's payment held until the seller verifies with a card or online
// banking (docs/moderation.md, "Heuristics").
const weightHeldPayout = 0.85

// verifyWithin is how far after "until you verify" the card or the online banking is named, in
// bytes: the next sentence or so (a Chinese character is three).
const verifyWithin = 160

var (
	// The money is waiting for the reader: the buyer has paid, or cannot pay, and it is held.
	heldPayRE = mustPattern(`\b(?:buyer|customer|purchaser)\b[^.]{0,40}\b(?:has paid|have paid|paid|cannot pay|can't pay|is unable to pay|could not pay)\b|` +
		`(?:买家|买方|客户)[^。]{0,24}(?:无法|不能|未能)(?:下单|付款|购买|支付)|(?:买家|买方)[^。]{0,10}已(?:付款|支付|下单)|(?:货款|款项)[^。]{0,10}(?:冻结|暂扣|待释放)`)
	// Released only once the reader verifies or confirms: "until you confirm where to receive
	// it", 须先完成金流验证, 才会开放.
	untilVerifyRE = mustPattern(`\b(?:until|before|once) you (?:confirm|verify|activate|enable|upgrade|link)\b|\bto (?:receive|release|unlock) (?:the |your )?(?:funds|payment|money)\b[^.]{0,30}\b(?:verify|confirm|enter)\b|` +
		`(?:须|需|必须)先?(?:完成|进行|通过)[^。]{0,10}(?:验证|认证|签署|升级|激活)|(?:验证|认证|签署|激活)(?:后|之后)[^。]{0,10}(?:才|方可)`)
	// With the reader's card or online banking: what only pays out, never receives.
	verifyWithRE = mustPattern(`\b(?:online banking|banking app|debit card|credit card|card number|available balance|card'?s? balance)\b|\b(?:enter|confirm) (?:the |your )?card\b|` +
		`网路银行|网上银行|网银|手机银行|银行卡|信用卡|余额`)
)

// heldPayoutSignal weighs a page telling a seller that a buyer's payment waits until they verify
// with their card, its balance or their online banking: the marketplace's "receive it to your
// card", the "cash-flow agreement". Money is received into an account; a platform that pays its
// sellers never holds a payment for the seller's card or bank sign-in. Off the brands' hosts,
// not on advisories.
func heldPayoutSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	held := firstUnnegated(heldPayRE, words)
	if held == "" {
		return Signal{}, false
	}
	// The card or the bank's sign-in is what the release waits on: said right after it.
	until, with := "", ""
	for _, m := range untilVerifyRE.FindAllStringIndex(words, -1) {
		if negated(words, m[0]) {
			continue
		}
		if w := verifyWithRE.FindString(words[m[0]:min(len(words), m[1]+verifyWithin)]); w != "" {
			until, with = words[m[0]:m[1]], w
			break
		}
	}
	if until == "" {
		return Signal{}, false
	}
	return Signal{"held-payout", weightHeldPayout, CategoryPhishing,
		fmt.Sprintf("%s is told %q, %q, with %q, on %s", c.Profile, truncate(held, 40), truncate(until, 40), with, host)}, true
}
