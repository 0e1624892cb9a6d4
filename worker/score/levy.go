package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightCryptoLevy is a tax, a fine or a bail demanded in cryptocurrency or gift cards under a
// threat (docs/moderation.md, "Heuristics").
const weightCryptoLevy = 0.85

var (
	// What is owed to an authority: a tax, a penalty, a fine, a duty, a bail or a bond.
	levyRE = mustPattern(`\b(?:back )?tax(?:es)?\b|\bpenalt(?:y|ies)\b|\bfines?\b|\bduty\b|\bduties\b|\bbail\b|\bbond\b|\barrears\b|\bsurcharge\b|` +
		`税款|补税|欠税|税费|罚款|罚金|滞纳金|关税|保证金|保释金`)
	// Paid in cryptocurrency or gift cards: "must be settled in virtual currency", "send the
	// amount in Bitcoin", 以 USDT 缴纳.
	cryptoPayRE = mustPattern(`\b(?:pay|paid|payable|settle|settled|remit|remitted|send|sent|transfer|deposit)\b[^.]{0,60}\b(?:in|with|via|by|to)\b[^.]{0,20}\b(?:bitcoin|btc|usdt|tether|ethereum|crypto(?:currency)?|virtual currency|digital currency|gift cards?)\b|` +
		`\b(?:bitcoin|btc|usdt|crypto(?:currency)?|virtual currency)\b[^.]{0,30}\b(?:wallet|address)\b[^.]{0,40}\b(?:pay|settle|send|deposit)|` +
		`(?:以|用|通过)(?:比特币|泰达币|usdt|虚拟货币|数字货币|加密货币|礼品卡|购物卡)(?:支付|缴纳|缴付|转账|结算)|(?:比特币|泰达币|usdt|虚拟货币|数字货币)钱包`)
	// The threat that comes with it.
	levyThreatRE = mustPattern(`\bfreez|\bseiz|\barrest|\bwarrant|\benforcement\b|\bprosecut|\blevy on\b|\bgarnish|` +
		`冻结|查封|扣押|逮捕|拘留|起诉|强制执行|通缉|追究`)
)

// cryptoLevySignal weighs a page demanding a tax, a fine, a penalty or a bail in
// cryptocurrency or gift cards, with a threat (accounts frozen, assets seized, a warrant): no
// tax office, court or police force takes its dues in Bitcoin or gift cards. The payment must
// be said of the levy (within one stretch of 120 characters), so that an accountant taking its
// own fee in Bitcoin is not this, nor an advisory quoting the trick.
func cryptoLevySignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	threat := firstUnnegated(levyThreatRE, words)
	if threat == "" {
		return Signal{}, false
	}
	for _, m := range cryptoPayRE.FindAllStringIndex(words, -1) {
		if negated(words, m[0]) {
			continue
		}
		levy := levyRE.FindString(words[max(0, m[0]-120):min(len(words), m[1]+120)])
		if levy == "" {
			continue
		}
		return Signal{"crypto-levy", weightCryptoLevy, CategoryScam,
			fmt.Sprintf("%s is asked a %s in %q under a threat (%q), on %s", c.Profile, levy, truncate(words[m[0]:m[1]], 60), threat, host)}, true
	}
	return Signal{}, false
}
