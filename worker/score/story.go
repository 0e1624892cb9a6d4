package score

import (
	"fmt"
	"strings"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The story signals read what a page asks its reader to do with money or with their device
// when it has no brand's host, and often no field, to hold on to: pay in gift cards, move the
// balance to a "safe account", pay a deposit to a person or a QR code and send the receipt to
// a chat, put money in for returns that cannot be lost, enter a code on a real sign-in page
// for whoever shows it, give a texted code or a card's balance to get a refund, pay a card
// "verification" for a stranger, run an installer past the system's warning to join a call, pay
// a drawn bill, call back about a charge never made, pay a wallet to keep a recording private,
// or pay an account and tell no one (docs/moderation.md, "Heuristics"). Each is the step a kit
// cannot leave out without ceasing to work; honest pages of the same topics pay through a
// checkout of their own, say they never ask for it, or speak of it as a scam.
const (
	weightGiftCardPay     = 0.85 // a fee, a deposit or a donation taken in other brands' gift cards
	weightGiftCardAsk     = 0.5  // gift cards as a means of payment, the purpose unsaid
	weightSafeAccount     = 0.85 // the reader's money to be moved to a "safe account"
	weightOffPlatform     = 0.85 // a deposit paid to a person's account or a QR code, the receipt sent to a chat
	weightOffPlatformWeak = 0.5  // … two of the three
	weightSureReturn      = 0.85 // returns that cannot be lost, and money to put in first
	weightSureReturnWeak  = 0.5  // … the promise alone
	weightDeviceCode      = 0.85 // a live code to enter on a provider's device sign-in page
	weightRefundCode      = 0.6  // money back against a card and a texted code
	weightRefundBalance   = 0.85 // … against a card's balance or PIN
	weightVerifyCharge    = 0.85 // a card charged to "verify" the reader for someone they are to meet
	weightInstallPressure = 0.85 // an installer run past the system's warning, to join a call that waits
	weightDrawnDemand     = 0.85 // a card asked to pay a bill whose words are drawn outside the DOM
	weightChargeCallback  = 0.85 // a charge the reader did not make, a number to call, little else
	weightExtortion       = 0.85 // pay to a wallet before a deadline or be exposed
	weightSecretPayment   = 0.85 // a payment to a person or a wallet, kept from the bank and the family
)

var (
	// Gift cards of a brand named as the means of paying: "we accept Apple gift cards", "pay
	// with Google Play cards", 苹果充值卡, 京东E卡卡密.
	giftCardRE = mustPattern(`(?:apple|itunes|google play|steam|amazon|ebay|razer(?: gold)?|vanilla|target|walmart|sephora|xbox|playstation|nintendo|visa gift|paysafe)[a-z ,/]{0,40}(?:gift ?cards?|cards?|vouchers?)|` +
		`gift ?cards?|礼品卡|充值卡|购物卡|京东e卡|苹果(?:充值)?卡|游戏点卡`)
	// The payment's words in the sentence of the gift cards.
	giftPayRE = mustPattern(`\b(?:accept|pay|paid|donat|deposit|fee|settl|send|sent|photo|code|scratch|read (?:me|us|them) the)|` +
		`支付|缴纳|付款|充值|卡密|拍照|发送`)
	// A brand's gift cards, not the shop's own.
	giftBrandRE = mustPattern(`^(?:apple|itunes|google|steam|amazon|ebay|razer|vanilla|target|walmart|sephora|xbox|playstation|nintendo|visa|paysafe)|京东|苹果|游戏点卡`)
	// The card's codes or a photo of it sent on.
	giftSendRE = mustPattern(`photo|picture|scratch|(?:card|the) (?:numbers?|codes?) (?:and|to|below)|read (?:me|us|them)|卡密|卡号`)
	// The cards' codes or photos sent to a person: to the reader's coordinator, by text, on a chat.
	giftSentOnRE = mustPattern(`\b(?:send|text|email|upload|forward|submit|read)\b[^.]{0,30}\b(?:photos?|pictures?|images?|card numbers?|codes?|pins?)\b[^.]{0,60}(?:\bto (?:me|us|your (?:coordinator|agent|manager|officer|supervisor|handler|case officer)|our (?:agent|team|officer))\b|\bby (?:text|sms|whatsapp|telegram)\b|whatsapp|telegram)|` +
		`(?:拍照|照片|卡密|卡号)[^。]{0,20}(?:发给|发送给|发到|私信)[^。]{0,10}(?:客服|专员|老师|我|微信|qq)`)
	// A page buying the reader's gift cards.
	giftBuyRE = mustPattern(`\bsell (?:your |unused |old )?(?:[a-z]+(?:, | and | or )?){0,4}gift ?cards|\bwe buy (?:[a-z]+ )?gift ?cards|gift ?cards? for cash|(?:卡|卡券|礼品卡|购物卡|e卡)(?:高价)?回收|回收(?:闲置)?(?:[^。]{0,12})(?:卡|卡券)`)
	// A purpose the reader pays for first: a fee, a deposit, a fine, a donation, a bond, a release.
	giftPurposeRE = mustPattern(`\b(?:fees?|deposits?|bond|bail|fines?|tax(?:es)?|donat\w*|relief|releas\w*|unlock\w*|penalt\w*|warrant|unpaid|overdue|arrears|bills?)\b|手续费|押金|保证金|解冻|罚款|税|捐|欠费|账单`)

	// The reader's money moved to an account said to be safe: the police's, the bank's, a
	// "verification" account (an escrow a platform names as its own is not this).
	// (A wallet of one's own is no such account: "move your coins to a secure wallet you control".)
	safeAccountRE = mustPattern(`(?:transfer|move|send|deposit)[^.]{0,60}(?:to|into) (?:a |the |our |your |an )?(?:new )?(?:safe|secure|protected|verification|safety|quarantine)[- ](?:(?:holding|custody|reserve|suspense|trust|safekeeping) )?account|` +
		`(?:safe|secure|protected|verification|safety) account[^.]{0,40}(?:transfer|move|deposit)|` +
		`(?:转入|转到|转至|汇入|存入|转账到|转移到|转账至)[^。]{0,12}(?:安全|核验|验证|保护|清查|审查|避险|司法|公证)(?:核验|验证|监管|托管|保管)?(?:账户|帐户|账号)|` +
		`(?:安全|核验|清查|审查|避险|司法|公证)(?:核验|监管)?(?:账户|帐户)[^。]{0,10}(?:转账|转入|汇款)`)

	// A deposit paid first, for a thing or a service to come: a ticket, a room, a meeting, an
	// order's release.
	depositRE = mustPattern(`定金|订金|押金|诚意金|保证金|解冻金|意向金|占位费|\bdeposit\b|\b(?:holding|reservation|booking) fee\b|\bbond\b`)
	// A person's bank account given as the payee: 收款人, 户名 and an account number.
	payeeRE = mustPattern(`(?:收款人|户名|收款账户|开户行)[:：]?[^。]{0,40}[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4}|` +
		`(?:account name|beneficiary|payee)[: ].{0,60}?(?:account(?: number| no)?|iban|sort code|routing)[: ]+[0-9a-z]{4}|` +
		`sort code[: ]+[0-9]{2}-[0-9]{2}-[0-9]{2}[^.]{0,20}account(?: number| no)?[: ]+[0-9]{6,}|iban[: ]+[a-z]{2}[0-9]{2} ?[0-9a-z]{4}|` +
		// A person's payment app: Zelle to a phone or a mail, a Cash App or Venmo handle.
		`(?:zelle|cash ?app|venmo|paypal (?:friends|f&f))[^.]{0,30}(?:\$[a-z][a-z0-9_-]{2,}|@[a-z][a-z0-9_-]{2,}|[0-9]{3}[ .-]?[0-9]{3}[ .-]?[0-9]{4}|[a-z0-9._-]+@[a-z0-9.-]+)`)
	// Paying by a QR code or to an address shown on the page.
	scanPayRE = mustPattern(`扫码(?:支付|付款|转账)|扫一扫(?:支付|付款)|长按识别二维码.{0,6}(?:支付|付款)|(?:支付宝|微信) ?/? ?(?:微信|支付宝)? ?扫码|scan (?:the |this )?(?:qr )?code to (?:pay|send|deposit)`)
	// The receipt or the payment's screenshot sent to a chat: the payment is off any checkout.
	chatAfterRE = mustPattern(`(?:付款|转账|支付|汇款|打款)(?:成功)?后[^。]{0,20}(?:截图|联系|添加|发送|发给|私信)[^。]{0,16}(?:微信|qq|客服|专员|whatsapp|telegram)|` +
		`(?:send|upload|forward) (?:a |the |your )?(?:screenshot|receipt|photo|proof)[^.]{0,60}(?:whatsapp|telegram|wechat|signal|@[a-z0-9_]{4,})|` +
		`after (?:paying|payment|the (?:payment|transfer)|you pay)[^.]{0,40}(?:whatsapp|telegram|wechat|text me|message me)`)

	// Scarcity and distance: few left, first come, the owner abroad, the deposit before seeing.
	scarceRE = mustPattern(`only (?:one|two|three|four|five|[0-9]+) (?:[a-z]+ )?left|first come|before (?:viewing|you see|the viewing|you visit)|sight unseen|(?:i am|i'm|we are|owner is) (?:abroad|overseas)|` +
		`仅剩|先到先得|咨询的人很多|看房前|见面前|不在国内|在国外|出国`)
	// A firm's licence or regulator named: what an honest lender, insurer or fund shows. Kits
	// copy it too, so it only spares a page the weak signals.
	licensedRE = mustPattern(`licen[cs]ed (?:by|adviser|advisor|lender|insurer)|licen[cs]e (?:no|number|[0-9])|regulated by|authori[sz]ed and regulated|\bfdic\b|\bncua\b|` +
		`营业执照|许可证号|金融许可证|持牌|受.{0,12}监管`)
	// Returns that cannot be lost.
	sureReturnRE = mustPattern(`稳赚|稳赢|包赔|只赚不赔|零风险(?:投资|理财|收益|高收益|赚钱)|保证收益|躺赚|(?:胜率|准确率|中奖率)[^。]{0,6}9[0-9](?:\.[0-9])?%|` +
		`guaranteed [0-9]{2,}% |(?:double|triple) your (?:money|investment|deposit|crypto) in [0-9]+ (?:hours|days|weeks)|` +
		`daily (?:returns?|profits?|interest) of [0-9.]+ ?%|(?:每日|每天|日)(?:收益|返利|分红|返还)[^。]{0,6}[0-9.]+ ?%|` +
		`[0-9]{2,}% (?:daily|weekly|monthly|a day|a week|a month|per day|per week|per month) (?:guaranteed|profits?|returns?)|(?:win|success) rate (?:of )?9[0-9](?:\.[0-9])?%|` +
		`guaranteed (?:daily |weekly |monthly )?(?:profits?|returns?|income|winnings)[^.]{0,80}(?:whatsapp|telegram|account manager|mentor|signals|vip|copies every trade)|` +
		`(?:whatsapp|telegram|account manager|mentor|signals|vip)[^.]{0,80}guaranteed (?:daily |weekly |monthly )?(?:profits?|returns?|income|winnings)`)
	// Money to put in: a top-up, a first deposit, following a mentor's bets.
	putInRE = mustPattern(`充值|首充|入金|跟单|投注|下注|\bdeposit\b|\btop[- ]?up\b|\binvest (?:now|today|\$?[0-9])|minimum investment`)

	// A provider's device sign-in page: the code entered there signs in whoever shows it.
	deviceLoginRE = mustPattern(`microsoft\.com/(?:devicelogin|link)\b|aka\.ms/devicelogin|login\.microsoft(?:online)?\.com/[a-z/]*device(?:auth)?|google\.com/device\b|github\.com/login/device|` +
		`device (?:sign-?in|log-?in|login|code) page|设备登录页|设备代码`)
	// The code to enter there, and that it is live.
	enterCodeRE = mustPattern(`(?:enter|paste|type|input) (?:the |this |your )?code|(?:输入|粘贴)(?:上方|下方|以下)?(?:的)?(?:代码|验证码|设备码)`)
	liveCodeRE  = mustPattern(`(?:code )?expires? in [0-9]{1,2}:[0-9]{2}|[0-9]{1,2}:[0-9]{2} (?:left|remaining)|(?:opens|continues|joins) (?:here )?automatically|有效期[^。]{0,6}[0-9]+ ?分钟|自动(?:进入|跳转|加入)`)

	// Money back in the words refundRE leaves to the refund's kin: a rebate, a tax refund, a subsidy.
	moneyBackRE = mustPattern(`rebate|owed (?:a|an|the)|退税|补贴|补助|返还|退回`)
	// A card's balance asked: no refund needs it.
	balanceHintRE = mustPattern(`余额|balance`)

	// A card charged to verify the reader, for someone they are to meet.
	verifyChargeRE = mustPattern(`(?:verification|verify|safety id|background check|id check|card check|prove (?:you are|you're) (?:real|human|not)|age check)[^.]{0,40}[$£€][0-9]|` +
		`[$£€][0-9][0-9.,]*[^.]{0,30}(?:verification|card check|safety id|background check)|(?:认证|验证|核验)(?:费|金)`)
	// Someone the reader is to meet, who asked for it.
	meetRE = mustPattern(`before (?:meeting|you meet|our date|the date)|meet(?:s|ing)? (?:you |people )?(?:tonight|today|in person)|(?:she|he|your match|they) (?:only )?(?:meets?|asked you)|` +
		`见面前|见面|约会`)
	// A charge that recurs after the small one, in its small print.
	recursRE = mustPattern(`(?:per|a|/) ?month after|billed (?:monthly )?until cancel|auto-?renew|membership at [$£€][0-9]|自动续费|每月自动扣费`)

	// An installer run past the system's warning.
	bypassWarningRE = mustPattern(`run anyway|open anyway|install anyway|keep anyway|ignore (?:the |any )?(?:security )?warning|allow (?:this|the) app|(?:security|smartscreen) warning appears|` +
		`仍要运行|仍然运行|仍然安装|继续安装|忽略(?:风险|警告|提示)|允许安装`)
	// A call that waits for the reader, and a browser that will not do.
	waitingCallRE = mustPattern(`(?:interviewer|host|recruiter|agent|meeting|call) is (?:already )?waiting|(?:browser|web) (?:version )?(?:does not|doesn't|cannot|can't) (?:support|join|connect)|could not connect to the (?:meeting|call)|` +
		`starts in [0-9]+ min|(?:meeting|call|interview) has (?:already )?started|is (?:already )?in the (?:room|meeting|call)|面试官已|会议已开始|(?:浏览器|网页版)(?:不支持|无法)`)

	// A bill's pressure in a drawn page: the sum rising, collections, a clamp, towing.
	drawnDeadlineRE = mustPattern(`after (?:24|48|72|[0-9]+) ?(?:h|hrs|hours|days)\b|rises to|increases to|doubles`)
)

var (
	// A charge, an order or a renewal the reader is told was made.
	chargedRE = mustPattern(`(?:has been|was|will be) (?:charged|debited|billed|renewed|auto-?renewed)|order (?:has been |is )?(?:confirmed|placed)|renewal (?:of|for) [$£€]?[0-9]|` +
		`(?:payment|purchase|subscription) of [$£€][0-9]|已(?:成功)?扣(?:款|费)|扣款成功|自动续费.{0,10}[0-9]|订单已(?:支付|确认)`)
	// To cancel it or dispute it, call.
	callbackRE = mustPattern(`(?:did not|didn't|not) (?:authori[sz]e|make|place|order|request)[^.]{0,60}(?:call|contact|dial|phone)|(?:to|want to) (?:cancel|dispute|stop|refund)[^.]{0,60}(?:call|contact|dial|phone)|` +
		`(?:call|contact|dial)[^.]{0,60}(?:to|within [0-9]+ hours to) (?:cancel|dispute|stop|get a refund)|(?:wasn't you|was not you|not you\?)[^.]{0,40}(?:call|contact|dial)|(?:如非本人|非本人操作|如需取消|如需退款)[^。]{0,30}(?:致电|拨打|联系)`)

	// Exposure threatened: a recording, photos, the reader's contacts.
	exposeRE = mustPattern(`(?:video|recording|photos?|pictures?|footage|chat logs?)[^.]{0,80}(?:contacts|family|friends|colleagues|employer|social media|everyone you know|publish|leak|send (?:it|them) to)|` +
		`(?:contacts|family|friends|colleagues)[^.]{0,60}(?:video|recording|photos?|footage)|(?:视频|录像|照片|聊天记录)[^。]{0,30}(?:通讯录|家人|亲友|同事|朋友圈|曝光|公开)|曝光`)
	// A payment kept secret from the bank, the family, the police.
	secrecyRE = mustPattern(`(?:do not|don't|never) (?:tell|inform|speak to|talk to|contact|call) (?:your |the )?(?:bank|branch|family|spouse|husband|wife|children|police|anyone (?:at|in) (?:the |your )?(?:bank|office|finance|work))|keep (?:this|it|the payment) (?:confidential|secret|between us)|` +
		`(?:do not|don't|never) (?:discuss|mention|talk about) (?:this|it|the (?:assignment|payment|transfer|offer|deal|investment|case|award|claim|win|inheritance|parcel))[^.]{0,30} with (?:anyone|your |the |(?:store|bank|branch) )|` +
		`(?:请勿|不要|切勿|不得|别)(?:告知|告诉|透露给?|联系|让)(?:家人|亲友|银行|他人|任何人|警方|子女|儿女|配偶|老伴|同事|亲戚|朋友)|案件保密|严格保密|` +
		// Secrecy of the deal itself, the clause ending there: not "注意保密您的密码".
		`注意保密(?:[，。,.!！;；]|$)|不对外公开(?:宣传)?(?:[，。,.!！;；]|$)|(?:请勿|不要|切勿)(?:在朋友圈|对外)(?:宣传|外传|声张|透露)|(?:请勿|不要|切勿)(?:宣传|外传|声张)`)
)

// storySignals adds the story signals of one visitor's page.
func storySignals(c moderation.Capture, add func(Signal)) {
	v := readStory(c)
	for _, signal := range []func(moderation.Capture, storyView) (Signal, bool){
		giftCardSignal, safeAccountSignal, offPlatformSignal, sureReturnSignal, deviceCodeSignal,
		refundCodeSignal, verifyChargeSignal, installPressureSignal, drawnDemandSignal,
		chargeCallbackSignal, extortionSignal, secretPaymentSignal, personalPayeeSignal,
		authorityDemandSignal, cardElsewhereSignal, secretFeeSignal, jobDepositSignal, dressedHostSignal,
		cutOffSignal, receiverElsewhereSignal, wornNameSignal, newNumberSignal, handoverSignal, disarmSignal, chatInvestSignal, heldPayoutSignal, lockedArchiveSignal, cryptoLevySignal, viewerInstallSignal,
		payFirstSignal, callToPaySignal, secretMatterSignal, hiddenPayeeSignal, movedAccountSignal, insiderDealSignal, officeArrearsSignal, designatedSupplierSignal,
	} {
		if s, ok := signal(c, v); ok {
			add(s)
		}
	}
}

// storyWords is what the story signals read: the title, description, headings, the visible
// text and the screenshot's text, folded.
func storyWords(c moderation.Capture) string {
	return pageWords(c) + " \n " + foldText(c.Headings)
}

// paysHere says the page gives its reader a way to pay it now: a wallet address, a person's
// bank account, a QR code to pay, a card form, gift cards' codes asked. An advisory or a news
// article quotes a scam's words and collects nothing: one that does is no advisory.
func paysHere(c moderation.Capture, words string) bool {
	if walletAddressRE.MatchString(c.Text+" "+c.OCRText) || payeeRE.MatchString(words) || scanPayRE.MatchString(words) {
		return true
	}
	a := pageAsks(c)
	if a.any(askCard | askCVV | askGift | askBank) {
		return true
	}
	for _, f := range c.Forms {
		if hintsSay(f, giftCodeHintRE) {
			return true
		}
	}
	return false
}

// giftCodeHintRE names a field for gift cards' codes or a payment's transaction.
var giftCodeHintRE = mustPattern(`(?i)card code|gift ?card|卡密|transaction (?:hash|id)|txid|交易哈希`)

// advisory says the page speaks of scams and collects nothing: news and advice quoting a lure.
func advisory(c moderation.Capture, words string) bool {
	return speaksOfLures(words) && !paysHere(c, words)
}

// sentenceAround is the sentence of words holding words[at:end].
// A point between digits ($1,400.00) ends no sentence.
func sentenceAround(words string, at, end int) string {
	start := strings.LastIndexAny(words[:at], ".!?。！？\n")
	for start > 0 && decimalPoint(words, start) {
		start = strings.LastIndexAny(words[:start], ".!?。！？\n")
	}
	stop := -1
	for from := end; from < len(words); {
		i := strings.IndexAny(words[from:], ".!?。！？\n")
		if i < 0 {
			break
		}
		if !decimalPoint(words, from+i) {
			stop = from + i - end
			break
		}
		from += i + 1
	}
	if stop < 0 {
		stop = len(words) - end
	}
	return words[start+1 : end+stop]
}

// decimalPoint says whether words[i] is a point between two digits.
func decimalPoint(words string, i int) bool {
	return words[i] == '.' && i > 0 && i+1 < len(words) && isDigit(words[i-1]) && isDigit(words[i+1])
}

// isDigit says whether b is an ASCII digit.
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// giftCardSignal weighs a page that takes a fee, a deposit, a fine or a donation in gift cards
// of brands that are not its own: a gift card is spent by whoever reads its code, so no lender,
// charity or office takes one. A shop's own gift card at its checkout names no other brand; a
// charity that says it takes none is left alone.
func giftCardSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	// A page that says anywhere it takes no gift cards is denying them, not asking.
	mentions := giftCardRE.FindAllStringIndex(words, -1)
	for _, m := range mentions {
		if negationRE.MatchString(sentenceAround(words, m[0], m[1])) {
			return Signal{}, false
		}
	}
	// A page that buys its reader's gift cards (a resale site, 卡券回收) pays for them: nothing
	// is paid with them.
	if giftBuyRE.MatchString(words) {
		return Signal{}, false
	}
	// The cards' codes or photos sent on to a person, in a sentence of their own ("scratch
	// each card and text photos of the numbers to your coordinator").
	sentOn := giftSentOnRE.MatchString(words)
	for _, m := range mentions {
		sentence := sentenceAround(words, m[0], m[1])
		before := words[strings.LastIndexAny(words[:m[0]], ".!?。！？\n")+1 : m[0]]
		card := words[m[0]:m[1]]
		// The cards are what is paid with — the payment said before them ("must be paid in
		// Target gift cards", "we accept Apple gift cards") or their codes or photos sent on —
		// not what is sold ("buy Steam gift cards … pay with Visa").
		send := sentOn || giftSendRE.MatchString(sentence)
		if !send && !giftPayRE.MatchString(before) {
			continue
		}
		// A gift card that names no brand is the shop's own at its checkout or its balance
		// check, unless its codes or a photo of it are to be sent on to a person.
		if !giftBrandRE.MatchString(card) && !sentOn && !giftSendRE.MatchString(before) {
			continue
		}
		// The card's brand must not be the host's: a shop takes its own gift cards.
		branded := false
		for _, n := range namedBrands(card) {
			if n.brand.owns(host) {
				branded = true
			}
		}
		if branded {
			continue
		}
		if p := giftPurpose(words); p != "" {
			return Signal{"gift-card-pay", weightGiftCardPay, CategoryScam,
				fmt.Sprintf("%s is told to pay in gift cards (%q) for %q, on %s", c.Profile, strings.TrimSpace(card), p, host)}, true
		}
		return Signal{"gift-card-pay", weightGiftCardAsk, CategoryScam,
			fmt.Sprintf("%s is told to pay in gift cards (%q), on %s", c.Profile, strings.TrimSpace(card), host)}, true
	}
	return Signal{}, false
}

// giftPurpose is the first purpose in words that no "no fees" sentence denies: "" when none is.
func giftPurpose(words string) string {
	for _, m := range giftPurposeRE.FindAllStringIndex(words, -1) {
		if !noFeeRE.MatchString(sentenceAround(words, m[0], m[1])) {
			return words[m[0]:m[1]]
		}
	}
	return ""
}

// safeAccountSignal weighs a page that tells its reader to move their money to a "safe
// account": no bank, police force or insurer moves a customer's balance to keep it safe. Pages
// that say they never ask it, and advisories, are left alone.
func safeAccountSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	for _, m := range safeAccountRE.FindAllStringIndex(words, -1) {
		if negated(words, m[0]) {
			continue
		}
		return Signal{"safe-account", weightSafeAccount, CategoryScam,
			fmt.Sprintf("%s is told to move its money to a safe account (%q), on %s", c.Profile, truncate(words[m[0]:m[1]], 60), host)}, true
	}
	return Signal{}, false
}

// offPlatformSignal weighs a deposit asked before a thing or a service (a ticket, a room, a
// meeting, an order's release) and paid off any checkout: to a person's bank account, or by a
// QR code with the receipt sent to a chat. A platform's own order takes its money through its
// checkout and says it takes none to a person's account.
func offPlatformSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	deposit := ""
	for _, m := range depositRE.FindAllStringIndex(words, -1) {
		if !negated(words, m[0]) && !noFeeRE.MatchString(sentenceAround(words, m[0], m[1])) {
			deposit = words[m[0]:m[1]]
			break
		}
	}
	payee, scan, chat := firstUnnegated(payeeRE, words), firstUnnegated(scanPayRE, words), chatAfterRE.FindString(words)
	n := 0
	for _, s := range []string{deposit, payee, scan, chat} {
		if s != "" {
			n++
		}
	}
	pressed := chat != "" || urgentRE.MatchString(words) || scarceRE.MatchString(words)
	switch {
	case deposit != "" && payee != "" && pressed:
		return Signal{"off-platform-pay", weightOffPlatform, CategoryScam,
			fmt.Sprintf("%s is asked a %q paid to a person's account (%q), on %s", c.Profile, deposit, truncate(payee, 40), host)}, true
	case deposit != "" && scan != "" && chat != "":
		return Signal{"off-platform-pay", weightOffPlatform, CategoryScam,
			fmt.Sprintf("%s is asked a %q paid by %q, the receipt to a chat (%q), on %s", c.Profile, deposit, scan, truncate(chat, 40), host)}, true
	case deposit != "" && n >= 3:
		return Signal{"off-platform-pay", weightOffPlatformWeak, CategoryScam,
			fmt.Sprintf("%s is asked a %q paid off a checkout, on %s", c.Profile, deposit, host)}, true
	}
	return Signal{}, false
}

// firstUnnegated is the first match of re in words that no negation stands before.
func firstUnnegated(re *pattern, words string) string {
	for _, m := range re.FindAllStringIndex(words, -1) {
		if !negated(words, m[0]) {
			return words[m[0]:m[1]]
		}
	}
	return ""
}

// sureReturnSignal weighs a page promising returns that cannot be lost (稳赚, 包赔, "guaranteed
// profit", a win rate of 98%) and asking money put in first: no honest investment, bet or
// lottery promises it, and regulators forbid it. The promise alone flags.
func sureReturnSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	m := firstUnnegated(sureReturnRE, words)
	if m == "" {
		// A high rate fixed in advance with the principal promised back says the money is put
		// in (returns.go).
		if p := principalReturn(words); p != "" {
			return Signal{"sure-return", weightSureReturn, CategoryScam,
				fmt.Sprintf("%s is promised %q, the principal back, on %s", c.Profile, p, host)}, true
		}
		return Signal{}, false
	}
	if in := putInRE.FindString(words); in != "" {
		return Signal{"sure-return", weightSureReturn, CategoryScam,
			fmt.Sprintf("%s is promised %q and asked to put money in (%q), on %s", c.Profile, m, in, host)}, true
	}
	return Signal{"sure-return", weightSureReturnWeak, CategoryScam,
		fmt.Sprintf("%s is promised %q, on %s", c.Profile, m, host)}, true
}

// deviceCodeSignal weighs a page that shows a live code (it expires, or the page goes on by
// itself once it is entered) and tells its reader to enter it on a provider's device sign-in
// page: the code signs the reader's account in on the page's owner's device. A guide to a
// command line's sign-in shows no clock and waits for nothing; the provider's own pages are
// left to themselves.
func deviceCodeSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	words := v.words
	device := deviceLoginRE.FindString(words)
	if device == "" || !enterCodeRE.MatchString(words) || !v.ok {
		return Signal{}, false
	}
	// A help page's scripts send too: only the page's own words say the code is live.
	if liveCodeRE.FindString(words) == "" {
		return Signal{}, false
	}
	return Signal{"device-code", weightDeviceCode, CategoryPhishing,
		fmt.Sprintf("%s is told to enter a live code on %q, on %s", c.Profile, device, host)}, true
}

// refundCodeSignal weighs money back (a refund, a compensation, a claim) asked against a card
// and a texted code, or a card's balance: a refund is paid into an account, and the code or
// the balance only serves a payment out. A refund of one's own order on the seller's site needs
// neither.
func refundCodeSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	a := pageAsks(c)
	if !a.any(askCard|askBank) || !a.any(askOTP|askPIN) && !asksBalance(c) {
		return Signal{}, false
	}
	words := v.words
	r := refundRE.FindString(words)
	if r == "" {
		r = moneyBackRE.FindString(words)
	}
	if r == "" || !v.ok {
		return Signal{}, false
	}
	if asksBalance(c) || a.has(askPIN) {
		return Signal{"refund-code", weightRefundBalance, CategoryPhishing,
			fmt.Sprintf("%s is offered money back (%q) against a card and its balance or PIN, on %s", c.Profile, r, host)}, true
	}
	return Signal{"refund-code", weightRefundCode, CategoryPhishing,
		fmt.Sprintf("%s is offered money back (%q) against a card and a texted code, on %s", c.Profile, r, host)}, true
}

// asksBalance says whether a form of c asks for an account's or a card's balance.
func asksBalance(c moderation.Capture) bool {
	for _, f := range c.Forms {
		if hintsSay(f, balanceHintRE) {
			return true
		}
	}
	return false
}

// verifyChargeSignal weighs a card asked to pay a small "verification" of the reader for
// someone they are to meet, with a charge recurring in its small print: the dating match's
// "safety ID". A site's own verification is free and takes no card.
func verifyChargeSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned || !pageAsks(c).any(askCard|askCVV) {
		return Signal{}, false
	}
	words := v.words
	charge := verifyChargeRE.FindString(words)
	if charge == "" || !v.ok {
		return Signal{}, false
	}
	meet, recurs := meetRE.FindString(words), recursRE.FindString(words)
	if meet == "" || recurs == "" {
		return Signal{}, false
	}
	return Signal{"verify-charge", weightVerifyCharge, CategoryScam,
		fmt.Sprintf("%s is charged a card to verify itself (%q) for a meeting (%q), renewed after (%q), on %s", c.Profile, charge, meet, recurs, host)}, true
}

// installPressureSignal weighs an installer offered with a call that waits for the reader and
// the words to run it past the system's warning: the "meeting app" of a fake interview. An
// app's own download page lets its meetings open in a browser and signs its installers; an
// open-source project explaining an unsigned build presses no one.
func installPressureSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned || len(c.Downloads) == 0 {
		return Signal{}, false
	}
	words := v.words
	bypass, waiting := bypassWarningRE.FindString(words), waitingCallRE.FindString(words)
	if bypass == "" || waiting == "" || !v.ok {
		return Signal{}, false
	}
	return Signal{"install-pressure", weightInstallPressure, CategoryMalware,
		fmt.Sprintf("%s is offered an installer to run past the warning (%q) while %q, on %s", c.Profile, bypass, waiting, host)}, true
}

// drawnDemandSignal weighs a card asked to pay a bill — a sum, a deadline and a loss — whose
// words are drawn outside the DOM (the screenshot reads four times what the DOM holds, and the
// DOM under 200 characters): an honest bill keeps its words in the page.
func drawnDemandSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned || !pageAsks(c).any(askCard|askCVV) {
		return Signal{}, false
	}
	dom := len([]rune(strings.TrimSpace(c.Text)))
	if dom >= brandTextPrefix/5 || textWeight(c.OCRText) < 4*max(dom, minDOMText) {
		return Signal{}, false
	}
	words := foldText(c.OCRText)
	amount, loss := amountRE.FindString(words), payLossRE.FindString(words)
	deadline := deadlineRE.FindString(words)
	if deadline == "" {
		deadline = urgentRE.FindString(words)
	}
	if deadline == "" {
		deadline = drawnDeadlineRE.FindString(words)
	}
	if amount == "" || loss == "" || deadline == "" || advisory(c, words) {
		return Signal{}, false
	}
	return Signal{"drawn-demand", weightDrawnDemand, CategoryScam,
		fmt.Sprintf("%s is asked for a card to pay %s, told %q and %q in words drawn outside the page's text, on %s", c.Profile, amount, deadline, loss, host)}, true
}

// callbackText is the visible text under which a page that reports a charge has no content of
// its own: a shop's order page has its site around it, an invoice lure is the charge and a
// number.
const callbackText = 1200

// chargeCallbackSignal weighs a page that tells its reader they were charged for an order or a
// renewal they did not make and gives a number to call to cancel it, with little else and no
// link to its own site: the call is the lure (a "refund" taken over a remote session). A shop's
// own order page, with its site around it, is left alone, and so are advisories.
func chargeCallbackSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned || len(c.Forms) > 0 {
		return Signal{}, false
	}
	words := v.words
	charged, callback, phone := chargedRE.FindString(words), callbackRE.FindString(words), phoneRE.FindString(words)
	if charged == "" || callback == "" || phone == "" || !v.ok {
		return Signal{}, false
	}
	if len([]rune(c.Text)) >= callbackText || ownLinks(c) > 0 {
		return Signal{}, false
	}
	return Signal{"charge-callback", weightChargeCallback, CategoryScam,
		fmt.Sprintf("%s is told %q and to call %s (%q), on a page of little else, on %s", c.Profile, charged, strings.TrimSpace(phone), truncate(callback, 40), host)}, true
}

// extortionSignal weighs a page that shows a wallet address and threatens to expose a recording
// or photos to the reader's contacts unless they pay before a deadline: sextortion and its kin.
// An advisory quotes the threat and shows no address.
func extortionSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	addr := walletAddressRE.FindString(c.Text + " " + c.OCRText)
	if addr == "" {
		return Signal{}, false
	}
	words := v.words
	expose := exposeRE.FindString(words)
	deadline := deadlineRE.FindString(words)
	if deadline == "" {
		deadline = urgentRE.FindString(words)
	}
	if expose == "" || deadline == "" {
		return Signal{}, false
	}
	return Signal{"extortion", weightExtortion, CategoryScam,
		fmt.Sprintf("%s is threatened (%q) unless it pays %s (%q), on %s", c.Profile, truncate(expose, 40), addr, deadline, host)}, true
}

// secretPaymentSignal weighs a payment to a person's account or a wallet that the page tells
// its reader to keep from their bank, their family or the police: no honest payee asks it, and
// the secrecy is what keeps the bank from stopping the transfer. An advisory quotes the
// secrecy and gives no account to pay.
func secretPaymentSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	words := v.words
	secret := secrecyRE.FindString(words)
	if secret == "" {
		secret = coverStory(words) // coverstory.go
	}
	if secret == "" {
		return Signal{}, false
	}
	dest := firstUnnegated(payeeRE, words)
	if dest == "" {
		dest = walletAddressRE.FindString(c.Text + " " + c.OCRText)
	}
	if dest == "" {
		dest = firstUnnegated(scanPayRE, words)
	}
	if dest == "" {
		dest = personalPayee(words) // payee.go
	}
	if dest == "" {
		return Signal{}, false
	}
	return Signal{"secret-payment", weightSecretPayment, CategoryScam,
		fmt.Sprintf("%s is asked to pay %q and told %q, on %s", c.Profile, truncate(dest, 40), secret, host)}, true
}

// storyView is what the story signals read of a page, read once for all of them: its host,
// whether a listed brand owns it, and its words, which a story signal reads (ok) unless there
// is no host, a brand owns it, or the page is an advisory quoting the words it warns of.
type storyView struct {
	host, words string
	owned, ok   bool
}

// readStory is c's storyView.
func readStory(c moderation.Capture) storyView {
	v := storyView{host: captureHost(c)}
	if v.host == "" {
		return v
	}
	if v.owned = ownedByBrand(v.host); v.owned {
		return v
	}
	v.words = storyWords(c)
	v.ok = !advisory(c, v.words)
	return v
}
