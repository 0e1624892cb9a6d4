package score

import (
	"fmt"
	"regexp"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightCryptoLevy is a tax, a fine or a bail demanded in cryptocurrency or gift cards under a
// threat (docs/moderation.md, "Heuristics").
const weightCryptoLevy = 0.85

var (
	// What is owed to an authority: a tax, a penalty, a fine, a duty, a bail or a bond.
	levyRE = regexp.MustCompile(`\b(?:back )?tax(?:es)?\b|\bpenalt(?:y|ies)\b|\bfines?\b|\bduty\b|\bduties\b|\bbail\b|\bbond\b|\barrears\b|\bsurcharge\b|` +
		`税款|补税|欠税|税费|罚款|罚金|滞纳金|关税|保证金|保释金`)
	// Paid in cryptocurrency or gift cards: "must be settled in virtual currency", "send the
	// amount in Bitcoin", 以 USDT 缴纳.
	cryptoPayRE = regexp.MustCompile(`\b(?:pay|paid|payable|settle|settled|remit|remitted|send|sent|transfer|deposit)\b[^.]{0,60}\b(?:in|with|via|by|to)\b[^.]{0,20}\b(?:bitcoin|btc|usdt|tether|ethereum|crypto(?:currency)?|virtual currency|digital currency|gift cards?)\b|` +
		`\b(?:bitcoin|btc|usdt|crypto(?:currency)?|virtual currency)\b[^.]{0,30}\b(?:wallet|address)\b[^.]{0,40}\b(?:pay|settle|send|deposit)|` +
		`(?:以|用|通过)(?:比特币|泰达币|usdt|虚拟货币|数字货币|加密货币|礼品卡|购物卡)(?:支付|缴纳|缴付|转账|结算)|(?:比特币|泰达币|usdt|虚拟货币|数字货币)钱包`)
	// The threat that comes with it.
	levyThreatRE = regexp.MustCompile(`\bfreez|\bseiz|\barrest|\bwarrant|\benforcement\b|\bprosecut|\blevy on\b|\bgarnish|` +
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
	for _, m := range cryptoPayRE.FindAllStringIndex(words, -1) {
		if negated(words, m[0]) {
			continue
		}
		near := words[max(0, m[0]-120):min(len(words), m[1]+120)]
		levy := levyRE.FindString(near)
		threat := firstUnnegated(levyThreatRE, words)
		if levy == "" || threat == "" {
			continue
		}
		return Signal{"crypto-levy", weightCryptoLevy, CategoryScam,
			fmt.Sprintf("%s is asked a %s in %q under a threat (%q), on %s", c.Profile, levy, truncate(words[m[0]:m[1]], 60), threat, host)}, true
	}
	return Signal{}, false
}

// weightViewerInstall is a document said shared with the reader that opens only in a reader,
// a viewer, an extension or a font the page has them install (docs/moderation.md, "Heuristics").
const weightViewerInstall = 0.85

var (
	// A document of the reader's own, or said protected: "was shared with you", "this document
	// is protected", 文件已加密.
	ownDocumentRE = regexp.MustCompile(`(?:was|were|has been|have been) shared with you|shared (?:a |an |the )?(?:document|file|pdf|folder)s? with you|sent you (?:a |an )?(?:document|file|pdf|invoice|fax|voicemail)|` +
		`(?:this|the|your) (?:document|file|pdf|attachment|invoice|fax|video|voicemail) (?:is|was) (?:protected|encrypted|secured|locked)|protected (?:document|file|pdf)|` +
		`(?:文件|文档|附件)(?:已|被)?(?:加密|保护)|(?:分享|共享|发送)(?:给)?(?:您|你)的(?:文件|文档|附件)`)
	// To open it, something is to be installed first: an extension, a plug-in, a reader, a
	// viewer, a player, a codec or a font.
	installViewerRE = regexp.MustCompile(`\b(?:add|install|download|enable|update)\b[^.]{0,50}\b(?:extension|add-on|plug-?in|reader|viewer|player|codec|font)\b[^.]{0,30}(?:to (?:your )?browser|to (?:open|view|read|play|see)|first)|` +
		`\bto (?:open|view|read|play|see) (?:it|this|the (?:document|file|pdf|video))\b[^.]{0,40}\b(?:add|install|download|enable|update)\b[^.]{0,40}\b(?:extension|add-on|plug-?in|reader|viewer|player|codec|font)\b|` +
		`(?:安装|下载|添加|更新)[^。]{0,12}(?:插件|扩展|阅读器|查看器|播放器|字体|控件)`)
)

// viewerInstallSignal weighs a page telling its reader that a document shared with them, or
// protected, opens only once they install an extension, a reader, a player or a font — the
// "secure viewer" and "missing plug-in" lures that deliver an extension or a program. A
// vendor's download page offers its reader for everyone's documents, a library its extension
// for its databases: neither speaks of the reader's own document.
func viewerInstallSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	doc := firstUnnegated(ownDocumentRE, words)
	if doc == "" {
		return Signal{}, false
	}
	install := firstUnnegated(installViewerRE, words)
	if install == "" {
		return Signal{}, false
	}
	return Signal{"viewer-install", weightViewerInstall, CategoryMalware,
		fmt.Sprintf("%s is told a document is its own (%q) and to install something to open it (%q), on %s", c.Profile, truncate(doc, 40), truncate(install, 60), host)}, true
}
