package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightCutOff is a payment asked of a reader who is told to keep it from whoever would stop it
// (docs/moderation.md, "Heuristics").
const weightCutOff = 0.85

var (
	// The reader cut off from whoever would protect the payment: the platform the deal began
	// on, the pension or bank that holds the money, the creditor, the group where colleagues
	// would ask, the phone on which a voice could be checked, the card that could be charged
	// back. Every social-engineering story has this step: a payee the reader could check
	// with is a payee that gets stopped.
	cutOffRE = mustPattern(`(?:do not|don't|please don't|never) (?:mention|discuss|raise|report|bring up|say anything about)\b[^.]{0,60}\b(?:on|in|to|with) (?:the |your )?(?:[a-z]+ )?(?:listing|booking|platform|marketplace|site|app|provider|bank|lender|adviser|advisor|old group|group|chat)|` +
		`(?:do not|don't) let (?:your |the |any )?(?:pension )?(?:provider|bank|adviser|advisor|lender|broker|family|trustees?|employer)[^.]{0,30}(?:talk you out|stop you|change your mind|delay)|` +
		`(?:do not|don't|stop) (?:answer(?:ing)?|tak(?:e|ing)|return(?:ing)?) (?:any )?(?:calls?|messages?) (?:from )?(?:the |your )?(?:bank|lender|creditors?|collectors?|collection agenc(?:y|ies))|` +
		`(?:do not|don't|stop) (?:making )?(?:repay(?:ing|ments?)?|pay(?:ing|ments?)?) (?:to )?(?:the |your )?(?:bank|lender|creditors?) (?:yourself|directly)|` +
		`(?:do not|don't) (?:use|pay by|pay with) (?:a )?(?:credit |debit )?cards?\b[^.]{0,40}\bnot (?:protected|covered)|` +
		`(?:不要|别|请勿|切勿)(?:再)?(?:接听|理会|回复)[^。，,]{0,8}(?:银行|催收|平台|网贷)[^。，,]{0,6}(?:电话|短信|信息|来电)?|` +
		`(?:不要|别|请勿|切勿)(?:再)?自行(?:还款|还钱|联系银行)|` +
		`(?:不要|别|请勿|切勿)(?:在|到|跟|向)[^。，,]{0,8}(?:群|平台|客服|app|聊天|银行)[^。，,]{0,6}(?:讨论|说|提|透露|声张|问)|` +
		`(?:不要|别|请勿|切勿)(?:通过|在)平台(?:内)?(?:付款|支付|交易|沟通)|绕(?:过|开)平台`)
	// A payment straight to a person, past the platform the matter stands on (its fees, its
	// review, its hold given as the reason): 平台提现要审核…直接扫码转到我个人的收款码, "the
	// marketplace holds the money, so send it directly to my PayPal". It is a payment itself.
	pastPlatformRE = mustPattern(`(?:平台|提现|手续费|服务费|抽成|扣点|审核|佣金)[^。]{0,40}(?:直接|私下|单独)[^。，,]{0,8}(?:扫码|转账|转|汇|打款|打|付款|支付)(?:[^。，,]|,[0-9]{3}){0,30}(?:个人|私人|自己)的?(?:收款码|账户|帐户|账号|微信|支付宝|银行卡)|` +
		`(?:直接|私下|单独)[^。，,]{0,8}(?:扫码|转账|转|汇|打款|打|付款|支付)(?:[^。，,]|,[0-9]{3}){0,30}(?:个人|私人|自己)的?(?:收款码|账户|帐户|账号|微信|支付宝|银行卡)[^。]{0,30}(?:平台|提现|手续费|服务费|抽成|扣点|审核|佣金)|` +
		`(?:platform|marketplace|site|app|listing|fees?|commission|hold|keeps|a cut)[^.]{0,80}\b(?:pay|send|transfer|wire|donate|zelle|venmo|e-?transfer)\b[^.]{0,30}(?:\b(?:directly|straight) to (?:me|my (?:personal |own )?(?:account|paypal|bank|wallet|venmo|zelle|cash ?app))|\bme (?:directly|straight)\b)|` +
		`\b(?:pay|send|transfer|wire|donate|zelle|venmo|e-?transfer)\b[^.]{0,30}(?:\b(?:directly|straight) to (?:me|my (?:personal |own )?(?:account|paypal|bank|wallet|venmo|zelle|cash ?app))|\bme (?:directly|straight)\b)[^.]{0,80}(?:platform|marketplace|site|app|listing|fees?|commission|hold|keeps|a cut)`)
	// A warning of someone else asking it: "if a seller asks you to pay directly", 如有人要求.
	// The seller's own "it's cheaper if you wire it" asks it.
	askedByOthersRE = mustPattern(`\bif (?:anyone|anybody|someone|somebody|a |an |the (?:seller|buyer|landlord|host|owner)|they|he|she)\b[^.]{0,30}\b(?:asks?|tells?|requests?|wants?|insists?)\b|\banyone who\b|\bwill never\b|\bwould never\b|\breport\b|如果?有人|若有人|凡是|任何(?:人|自称)|举报|诈骗`)
	// The one who asks for a transfer cannot be heard: "I can't take calls, message me",
	// 我开会不方便接电话. A tutor who cannot take calls and takes a deposit is common; one who
	// has money transferred, not to an organisation's own account, is the impersonated boss.
	unreachableRE = mustPattern(`\b(?:i|i'm|i am)\b[^.]{0,40}\b(?:can't|cannot|unable to|not able to) (?:take|answer) (?:calls|the phone|phone calls)[^.]{0,40}(?:message|text|chat|whatsapp|telegram)|` +
		`我[^。]{0,16}不方便(?:接|打|回)电话`)
	// A transfer of money, not a payment at a checkout.
	transferRE = mustPattern(`\b(?:transfer|wire)\b|转账|汇款|打款|转[^。，,]{0,6}[0-9][0-9,.]* ?(?:元|万|块)`)
	// An organisation's own account: 对公账户, "our company account".
	ownAccountRE = mustPattern(`对公账户|公司账户|学校账户|单位账户|\b(?:our|the) (?:company|business|school|firm)'?s? (?:bank )?account\b`)
	// A payment the page asks for: a sum to transfer or pay, a fee first, an account, a QR code.
	cutOffPayRE = mustPattern(`\b(?:transfer|wire|pay|deposit|send|fund)\b[^.]{0,60}(?:[$£€¥][0-9]|\b[0-9][0-9,.]* ?(?:usd|gbp|eur|usdt|btc)\b|amount|fee|account|pension|savings|funds|balance|money|cash)|` +
		`(?:[$£€¥][0-9][0-9,.]*)[^.]{0,40}\b(?:fee|deposit|transfer|payment)\b|\b(?:fee|deposit|charge|payment) of [$£€¥][0-9]|` +
		`转账|汇款|打款|付款|(?:先|需|须)?支付[^。]{0,10}(?:费|款|金)|服务费|手续费|定金|订金|押金|保证金`)
	// A supposition, or a warning about others: "if anyone tells you not to…".
	cutOffWarnRE = mustPattern(`\bif\b|\banyone who\b|\bwill never\b|\bwould never\b|如果|若有|凡是|任何(?:人|自称)`)
)

// cutOffSignal weighs a page that asks for a payment and tells its reader to keep it from
// whoever could stop it: not to mention it on the platform it began on, not to let the pension
// provider talk them out of it, to stop answering the bank, to pay no card that could be
// charged back, not to phone the "manager" who asks. Honest sellers want their reader to check
// with anyone; advisories quote these orders and collect nothing, and a sentence that supposes
// the order ("if anyone tells you not to tell your bank") is a warning.
func cutOffSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	cut, pay := "", ""
	for _, m := range pastPlatformRE.FindAllStringIndex(words, -1) {
		sentence := sentenceAround(words, m[0], m[1])
		if askedByOthersRE.MatchString(sentence) || negationRE.MatchString(sentence) {
			continue
		}
		cut = words[m[0]:m[1]]
		pay = cut
		break
	}
	for _, m := range cutOffRE.FindAllStringIndex(words, -1) {
		if cut != "" {
			break
		}
		sentence := sentenceAround(words, m[0], m[1])
		if cutOffWarnRE.MatchString(sentence) || noFeeRE.MatchString(sentence) {
			continue
		}
		cut = words[m[0]:m[1]]
		break
	}
	if cut == "" && !ownAccountRE.MatchString(words) && transferRE.MatchString(words) {
		cut = firstUnnegated(unreachableRE, words)
	}
	if cut == "" {
		return Signal{}, false
	}
	for _, m := range cutOffPayRE.FindAllStringIndex(words, -1) {
		if pay != "" {
			break
		}
		if negated(words, m[0]) {
			continue
		}
		pay = words[m[0]:m[1]]
		break
	}
	if pay == "" {
		return Signal{}, false
	}
	return Signal{"cut-off", weightCutOff, CategoryScam,
		fmt.Sprintf("%s is asked to pay (%q) and told %q, on %s", c.Profile, truncate(pay, 40), truncate(cut, 60), host)}, true
}
