package score

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/width"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The weights of the signals read from what a page asks for and what it says (calibrated on
// testdata/calibration; see docs/moderation.md).
const (
	weightCardPIN     = 0.85 // a card number and its PIN: no honest page asks for both
	weightPIN         = 0.6  // a payment PIN in a web page: the bank's and wallet's own apps ask for it
	weightCardID      = 0.5  // a card number with a national ID number
	weightScamPay     = 0.85 // a win, a held parcel or a frozen account, a fee, and a card or PIN to pay it
	weightScamFee     = 0.6  // … the pretext and the fee, asking nothing yet
	weightScamAsk     = 0.6  // … the pretext, and a card, PIN or ID asked for
	weightScamDetails = 0.5  // a win, and a name, phone and address asked for to "deliver" it
	weightScamUrgent  = 0.3  // a win, and a clock running
	weightThreat      = 0.5  // an account frozen, a mailbox full or an ETC card lapsed, and a password or code asked for
	weightHop         = 0.3  // the page sends visitors on to another site by itself
	weightHostWords   = 0.3  // a host named of phishing's words (secure, verify, account…) asking for something
)

// scanText is how much of a page's visible text is read for a scam's words.
const scanText = 3000

// The words of scams, in English and Chinese, read in the folded text (lower case, full-width
// letters and digits as ASCII). They are what consumer-protection and anti-fraud advisories
// quote from such pages; each asks the reader, in the second person, to act.
var (
	// A win or a gift the reader is told is theirs.
	prizeRE = mustPattern(`you(?:'ve| have)? (?:just )?(?:won|been selected|been chosen)|you are (?:our|the|a|today's) (?:lucky )?winner|` +
		`claim (?:your|the) (?:prize|reward|gift|bonus|iphone|voucher)|congratulations[!,.]* *(?:you(?:'ve| have)? won|you are|dear|lucky)|` +
		`lucky (?:winner|visitor|customer|user)|your (?:prize|reward|gift) (?:is|has been) (?:waiting|reserved|ready)|spin (?:the wheel|to win)|` +
		`恭喜(?:您|你)(?:已|已经)?(?:中奖|被抽中|成为.{0,6}(?:幸运|中奖|获奖)|获得.{0,8}(?:奖|iphone|手机|现金|大礼))|` +
		`(?:您|你)(?:已|已经)?(?:中奖|被抽中)|中奖(?:了|通知|用户|名额)|领取(?:您的|你的)?(?:奖品|奖励|礼品|大奖|奖金|红包|补贴)|幸运(?:用户|客户|观众|儿)`)
	// Money the reader is told they must pay first.
	feeRE = mustPattern(`(?:shipping|delivery|postage|handling|processing|customs|release|redelivery|activation|unlock|small|service|verification|issuance|clearance|correction) (?:and [a-z]+ (?:[a-z]+ )?)?(?:fee|charge|cost)s?|` +
		`(?:pay|cover) (?:only |just )?(?:the )?(?:shipping|postage|a small fee)|only pay (?:for )?(?:the )?shipping|` +
		`手续费|保证金|邮费|运费|税费|激活费|解冻(?:费|金)|认证费|服务费|押金|工本费|` +
		`(?:只需|仅需|只要|需支付|需缴纳|需要支付)[0-9.]+ ?元`)
	// A parcel held, an account frozen, a refund or subsidy waiting: the other pretexts for a fee.
	pretextRE = mustPattern(`(?:package|parcel|shipment) (?:is |has been )?(?:on hold|held|suspended|returned|could not be delivered|undeliverable)|` +
		`(?:could not|unable to|failed to) deliver (?:your )?(?:package|parcel|shipment)|delivery (?:attempt )?(?:has )?failed|` +
		`(?:account|card) (?:has been |is |will be )?(?:suspended|frozen|locked|limited)|tax refund|` +
		`mailbox (?:is )?(?:full|over (?:its )?quota)|verify your (?:account|identity|mailbox) (?:within|now|to avoid)|` +
		`(?:包裹|快递|快件)(?:已|被)?(?:滞留|异常|无法派送|被退回|地址不详|丢失)|(?:账户|账号|帐号)(?:被|已被|已)?(?:冻结|锁定|异常|限制)|解冻|退税|理赔|` +
		`etc.{0,4}(?:认证|失效|过期|冻结|禁用)|(?:认证|实名)(?:已)?(?:失效|过期)`)
	// Being sent elsewhere to talk: a scam moves its mark to a chat it controls.
	contactRE = mustPattern(`(?:contact|message|text|add|chat with) (?:our |the |an? )?(?:agent|manager|support|us|customer service)? ?(?:on|via|at) (?:whatsapp|telegram|wechat|signal)|` +
		`(?:添加|加|联系)(?:客服|导师|老师|专员|管理员)?(?:的)?(?:微信|qq|客服|导师|老师)`)
	// Send cryptocurrency and get double back: the giveaway scam.
	doublingRE = mustPattern(`send (?:between |from )?[0-9.,]+ (?:to|and|-) ?[0-9.,]+ ?(?:btc|eth|usdt|bitcoin|ether)[^.]{0,80}(?:double|2x|x2|twice)|` +
		`(?:double|2x|x2|twice) (?:the amount|your (?:btc|eth|usdt|bitcoin|crypto))[^.]{0,60}send|转账.{0,20}(?:双倍|翻倍)返还`)
	// Pay for tasks: like, follow, "brush orders", and earn by the day.
	taskRE = mustPattern(`日赚|日入[0-9]|刷单|垫付|做任务.{0,6}(?:佣金|返现)|点赞.{0,8}(?:赚钱|佣金)|earn \$?[0-9]+ (?:a|per) day (?:by|from) (?:liking|rating|reviewing)`)
	// A page warning of scams quotes their words: advisories and news are no scam.
	warningRE = mustPattern(`\b(?:scams?|scammers?|fraud(?:sters?)?|phishing|smishing)\b|诈骗|骗局|骗子|钓鱼|反诈`)
	// A clock the reader is told is running.
	urgentRE = mustPattern(`within (?:24|48|72) hours|expires? (?:in|today|soon)|only today|limited time|last chance|` +
		`[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})? (?:left|remaining)|立即领取|限时|倒计时|(?:24|48|72) ?小时内|逾期|过期作废|名额有限|仅剩`)
)

// foldText is s as the scam words are read: lower case, full-width letters and digits as
// ASCII, traditional Chinese characters as simplified ones (traditional.go), runs of white
// space as one space.
func foldText(s string) string {
	return joinHan(strings.Join(strings.Fields(strings.ToLower(traditionalFold.Replace(width.Fold.String(s)))), " "))
}

// joinHan removes the single spaces between two Chinese characters: Chinese is written without
// them, and those a page has are a screenshot's reading (Tesseract spaces every character) or a
// kit's way past word filters (内部 名额, 付 款): read without them, a rule written once reads all.
func joinHan(s string) string {
	if !strings.Contains(s, " ") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var prev rune
	for i, r := range s {
		if r == ' ' && unicode.Is(unicode.Han, prev) {
			if next, _ := utf8.DecodeRuneInString(s[i+1:]); unicode.Is(unicode.Han, next) {
				continue
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// pageWords is what a capture says: title, description and the start of its visible text,
// and of its screenshot's where that says more than the DOM (drawnWords).
func pageWords(c moderation.Capture) string {
	return foldText(c.Title + " \n " + c.Description + " \n " + truncate(c.Text, scanText) + " \n " + truncate(drawnWords(c), scanText))
}

// drawnWords is the screenshot's reading of a page whose words are not all in its DOM (drawn
// in an image, a canvas, by CSS): "" when seven in ten of the reading's pairs of letters are
// the DOM's own. A screenshot of the DOM's own words adds only its misreadings — 请勿 read as
// 请：匆 turns "never pay a person's account" into "pay a person's account".
func drawnWords(c moderation.Capture) string {
	if c.OCRText == "" {
		return ""
	}
	ocr := letterPairs(c.OCRText)
	if len(ocr) == 0 {
		return ""
	}
	dom := letterPairs(c.Title + " " + c.Text)
	shared := 0
	for p := range ocr {
		if dom[p] {
			shared++
		}
	}
	if shared*10 >= len(ocr)*7 {
		return ""
	}
	return c.OCRText
}

// letterPairs are the pairs of neighbouring letters or digits of s, folded, white space and
// marks left out: what a reading of the same words shares with them whatever its spacing.
func letterPairs(s string) map[[2]rune]bool {
	out := map[[2]rune]bool{}
	var prev rune
	for _, r := range foldText(truncate(s, scanText)) {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if r != ' ' {
				prev = 0
			}
			continue
		}
		if prev != 0 {
			out[[2]rune{prev, r}] = true
		}
		prev = r
	}
	return out
}

// ownedByBrand says whether host is one of the listed brands' own: a bank asks for its
// customers' cards and PINs on its own pages.
func ownedByBrand(host string) bool {
	if isUserContent(host) {
		return false
	}
	rd := registrableDomain(host)
	for i := range brands {
		if brands[i].ownsUnder(host, rd) {
			return true
		}
	}
	return false
}

// captureHost is where the visitor ended: the final URL's host, or the one opened.
func captureHost(c moderation.Capture) string {
	if h := hostOf(c.FinalURL); h != "" {
		return h
	}
	return hostOf(c.URL)
}

// paymentSignal weighs what a page asks for whatever brand it wears: a card with its PIN, a
// payment PIN alone, a card with an ID number. A shop's checkout (card number, expiry, security
// code, name, address) asks for none of these. The brands' own sites are left to themselves, and
// so is a sign-in of the page's own site (ownsite.go: a card number and a query password posted
// to the issuer's own domain, asking nothing that pays).
func paymentSignal(c moderation.Capture) (Signal, bool) {
	a := pageAsks(c)
	host := captureHost(c)
	if a == 0 || host == "" || ownedByBrand(host) || signsInToOwnSite(c) {
		return Signal{}, false
	}
	card := a.any(askCard | askCVV | askExpiry)
	// A password beside a card number, with no account to sign in to, is the card's PIN.
	pin := a.has(askPIN) || (card && a.has(askPassword) && !a.any(askLogin))
	if pin && ownStoredValueCard(c) {
		// A shop's gift card is spent and checked with its code, on the shop's own site.
		return Signal{}, false
	}
	var w float64
	var what string
	switch {
	case card && pin:
		w, what = weightCardPIN, "a card and its PIN"
	case pin:
		w, what = weightPIN, "a payment PIN"
	case card && a.has(askID):
		w, what = weightCardID, "a card and an ID number"
	default:
		return Signal{}, false
	}
	return Signal{"payment-form", w, CategoryPhishing,
		fmt.Sprintf("%s is asked for %s on %s (%s)", c.Profile, what, host, a)}, true
}

// scamSignal weighs a page that tells the reader they won something, or that a parcel or an
// account waits for them, and asks for a fee, a card, a PIN or their details.
func scamSignal(c moderation.Capture) (Signal, bool) {
	text := pageWords(c)
	if m := doublingRE.FindString(text); m != "" && !warningRE.MatchString(text) {
		return Signal{"scam", weightScamPay, CategoryScam, fmt.Sprintf("%s reads %q: send money to get double back", c.Profile, m)}, true
	}
	if task := taskRE.FindString(text); task != "" && contactRE.MatchString(text) && !warningRE.MatchString(text) {
		return Signal{"scam", weightScamFee, CategoryScam, fmt.Sprintf("%s reads %q and %q: a paid-task scam", c.Profile, task, contactRE.FindString(text))}, true
	}
	prize := prizeRE.FindString(text)
	pretext := prize
	if pretext == "" {
		pretext = pretextRE.FindString(text)
	}
	if pretext == "" {
		return Signal{}, false
	}
	fee := feeRE.FindString(text)
	a := pageAsks(c)
	pays := a.any(askCard | askCVV | askPIN)
	if !pays && warningRE.MatchString(text) {
		return Signal{}, false // an advisory quoting a scam, asking for nothing to pay with
	}
	var w float64
	var detail string
	switch {
	case fee != "" && pays:
		w, detail = weightScamPay, fmt.Sprintf("%q, %q and a card asked for", pretext, fee)
	case prize != "" && fee != "" && !noFeeRE.MatchString(text):
		// A lottery's own results page says it charges no fee: the fee is named to deny it.
		w, detail = weightScamFee, fmt.Sprintf("%q and %q", prize, fee)
	case prize != "" && contactRE.MatchString(text):
		w, detail = weightScamFee, fmt.Sprintf("%q and %q", prize, contactRE.FindString(text))
	case prize != "" && a.any(askCard|askCVV|askPIN|askID|askOTP|askPassword):
		w, detail = weightScamAsk, fmt.Sprintf("%q and %s asked for", prize, a)
	case prize != "" && a.has(askName|askPhone) && a.has(askAddress):
		w, detail = weightScamDetails, fmt.Sprintf("%q and %s asked for", prize, a)
	case prize == "" && a.any(askPassword|askOTP) && !ownedByBrand(captureHost(c)) && !neverAskRE.MatchString(text) && !changesPassword(c):
		// A claim form that warns the code is never to be told to anyone is the service's own.
		w, detail = weightThreat, fmt.Sprintf("%q and %s asked for", pretext, a)
	case prize != "" && urgentRE.MatchString(text):
		w, detail = weightScamUrgent, fmt.Sprintf("%q with %q", prize, urgentRE.FindString(text))
	default:
		return Signal{}, false
	}
	return Signal{"scam", w, CategoryScam, fmt.Sprintf("%s reads %s", c.Profile, detail)}, true
}

// hopSignal finds a page that moved visitors on to another site by itself (meta refresh,
// script): a bridge that hides where the link leads from whoever checks its first page.
// Platforms' link wrappers that do so honestly (t.co, l.facebook.com) are left out.
func hopSignal(captures []moderation.Capture) (Signal, bool) {
	for _, c := range captures {
		for _, u := range c.ClientRedirects {
			from := previousHop(c.Redirects, u)
			fh, th := hostOf(from), hostOf(u)
			if fh == "" || th == "" || registrableDomain(fh) == registrableDomain(th) || linkWrapper(fh) {
				continue
			}
			return Signal{"hop", weightHop, CategorySpam,
				fmt.Sprintf("%s is sent on from %s to %s by the page itself", c.Profile, fh, th)}, true
		}
	}
	return Signal{}, false
}

// previousHop is the URL of chain before u's last occurrence, "" when none.
func previousHop(chain []string, u string) string {
	for i := len(chain) - 1; i > 0; i-- {
		if chain[i] == u {
			return chain[i-1]
		}
	}
	return ""
}

// linkWrappers carry links posted on their own platform, and some of them move on with a meta
// refresh or a script.
var linkWrappers = []string{"t.co", "lnkd.in", "l.facebook.com", "lm.facebook.com", "l.instagram.com", "out.reddit.com",
	"l.messenger.com", "href.li", "weixin110.qq.com", "link.zhihu.com", "link.csdn.net", "t.cn"}

func linkWrapper(host string) bool {
	for _, w := range linkWrappers {
		if underDomain(host, w) {
			return true
		}
	}
	return false
}

// hostWords are the words phishing and scam hosts are made of, in English and pinyin: a host
// of two of them or more ("secure-docs-share", "account-verify") names what it wants done
// rather than who it is.
var hostWords = map[string]bool{
	"secure": true, "security": true, "verify": true, "verification": true, "validate": true, "validation": true,
	"confirm": true, "account": true, "accounts": true, "login": true, "logon": true, "signin": true, "auth": true,
	"update": true, "upgrade": true, "billing": true, "support": true, "service": true, "services": true,
	"recovery": true, "unlock": true, "restore": true, "suspend": true, "suspended": true, "limited": true,
	"alert": true, "notice": true, "review": true, "docs": true, "document": true, "share": true, "file": true,
	"portal": true, "wallet": true, "sync": true, "claim": true, "reward": true, "rewards": true, "refund": true,
	"redelivery": true, "parcel": true, "release": true, "webmail": true, "mailbox": true, "helpdesk": true,
	"winner": true, "prize": true, "gift": true, "lucky": true, "bonus": true, "safe": true, "check": true,
	"center": true, "centre": true, "online": true, "kefu": true, "renzheng": true, "jiedong": true,
	"tuikuan": true, "lipei": true, "lingqu": true, "zhongjiang": true, "choujiang": true, "hongbao": true,
	"xingyun": true, "anquan": true, "yanzheng": true, "tuishui": true, "butie": true, "shengji": true,
	"jiance": true, "notification": true, "renew": true, "deactivation": true, "storage": true, "quota": true,
}

// hostWordsSignal weighs a host made of phishing's words, on a page that asks for something.
func hostWordsSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" || isIPLiteral(host) || pageAsks(c) == 0 || ownedByBrand(host) {
		return Signal{}, false
	}
	labels := strings.Split(host, ".")
	if suffix, _ := publicsuffix.PublicSuffix(host); suffix != host {
		labels = labels[:len(labels)-strings.Count(suffix, ".")-1]
	}
	var found []string
	for _, l := range labels {
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' }) {
			if hostWords[w] && !slices.Contains(found, w) {
				found = append(found, w)
			}
		}
	}
	if len(found) < 2 {
		return Signal{}, false
	}
	return Signal{"host-words", weightHostWords, CategoryPhishing,
		fmt.Sprintf("%s is made of %s and asks %s for something", host, strings.Join(found, ", "), c.Profile)}, true
}
