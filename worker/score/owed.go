package score

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The weights of the seventh round's signals (docs/moderation.md, "Heuristics").
const (
	weightPayFirst     = 0.85 // a sum paid apart, first, before a larger one owed to the reader
	weightCallToPay    = 0.85 // a notice of little else: call a number, pay by phone, or the pitch drawn
	weightSecretMatter = 0.85 // the reader's money matter kept from everyone, lest it be delayed
)

var (
	// A sum of money: $3,950, £640, NT$3,000, ¥138,420, 46 万, 299 元, 500 usdt.
	sumRE = mustPattern(`(?:nt|us|hk|a|c)?[$£€¥] ?([0-9][0-9,]*(?:\.[0-9]+)?)(?: ?(万|千|k\b))?|` +
		`\b([0-9][0-9,]*(?:\.[0-9]+)?) ?(万元|万|元|块|usdt|usd|gbp|eur|dollars|pounds|euros)`)

	// The reader is to pay: a sum wired, transferred, sent, deposited, paid.
	payVerbRE = mustPattern(`\b(?:pay|paid|wire[sd]?|transfer(?:s|red)?|send|sent|deposit(?:s|ed)?|remit(?:ted)?|settle[sd]?|post(?:ed)?|zelle|cover(?:ed)?)\b|` +
		`转账|转入|汇款|汇入|支付|缴纳|交纳|缴|付款|预付|打款|充值|扫码|垫付|先转|转(?:到|给|至)`)
	// … or a charge named as what the sum is: "its insurance of $620 before the truck leaves".
	chargeRE = mustPattern(`\b(?:fee|fees|charge|charges|insurance|tax|taxes|duty|deposit|bond|premium|costs?|costing|levy|certificate|surcharge)\b|手续费|(?:验证|认证|激活|解冻|审核|保证|预约|诚意|风险)金|押金|定金|订金|税|费`)
	// The reader is to receive: a sum paid to them, released, credited, refunded, awarded.
	receiveVerbRE = mustPattern(`\b(?:receive|receives|get|be paid|paid to you|(?:pay|send|wire|transfer|give)s? you|credited|released to you|payout|payment to you|offer|award(?:ed)?|refund(?:ed)?|settlement|compensation|restitution|reimburse\w*|rebate|grant|eligible|entitled|owed|earned|royalt\w*|dividends?|proceeds|funds|inheritance|estate|prize|winnings|jackpot|withdrawal|bid|sold for|release (?:the|your) (?:full )?(?:amount|funds|payment|money))\b|` +
		`到账|领取|发放|退还|返还|赔付|赔偿|拨付|打到您|转给您|可得|获得|理赔款|补贴款|货款|佣金|奖金|成交价|报价|出价|遗产|提现|提领|中奖|赎回|分红|核发`)
	// A payment to the reader, not by them: "will pay you $18,500 up front".
	paysReaderRE = mustPattern(`\b(?:pay|send|wire|transfer|give)s? you\b|\bpaid to you\b|(?:付|转|打|汇)给您`)
	// To the reader: "you", "your", or an order ("Receive $25,350 by wire").
	// Chinese drops the pronoun: a clause that opens on the receipt (领取…前) is the reader's.
	toReaderRE = mustPattern(`\byou\b|\byour\b|^\s*(?:receive|get|collect)\b|您|你|恭喜|\bcongratulations\b|(?:^|[，, ])(?:领取|获得|收到)`)
	// The payment is asked first, apart from what is owed: in advance, before, to release, within
	// a deadline.
	firstRE = mustPattern(`\b(?:in advance|advance|upfront|up-front|up front|first|before|prior to|ahead of|beforehand|(?:once|until|after) [^.]{0,40}(?:is|are|has been|have been) (?:paid|cleared|settled|received)|to (?:release|open|unlock|receive|process|claim|free)|within [0-9]+ ?(?:hours|hrs|days|business days)|or (?:the|your) (?:buyer|offer|payout|claim|payment|funds)\b)|` +
		`先|预付|提前|之前|(?:24|48|72|[0-9]+) ?小时内|才能|方可|后即可|后才|解冻`)
	// What is owed deducted from itself: an honest payer nets its fees off the payout.
	deductedRE = mustPattern(`\bdeducted\b|\btaken (?:out of|from)\b|\bwithheld from\b|\bnetted\b|\bsubtracted\b|从[^。]{0,12}(?:中)?扣除|直接扣除|抵扣`)
	// A return on the payment itself (interest, a deposit's maturity) or a voucher, said where
	// the payment is: an investment or a shop's offer, not a sum owed (sure-return weighs the
	// promises).
	returnOnRE = mustPattern(`\binterest\b|\bmaturity\b|\bapy\b|\baer\b|\byield\b|\bvoucher|\bcoupon|\bcredit (?:to|on) your (?:account|bill)|\bpoints\b|\bcashback\b|利息|到期|年化|收益率|优惠券|代金券|积分|返现`)
	// A way to pay that bypasses any checkout: bank details, a payment app, gift cards, a
	// wallet, a collection code.
	payChannelRE = mustPattern(`\b(?:routing|aba|sort code|iban|swift|bic|account (?:number|no)|acct)\b[^.]{0,12}[0-9]{4}|\baccount\b[ :#]*[0-9]{6,}|\b(?:bank|wire) (?:wire|transfer)\b|\bdesignated account\b|` +
		`(?:转|汇|打|存)[^。，,]{0,16}(?:到|至|入)[^。，,]{0,8}(?:账户|帐户|账号|卡)|指定(?:的)?(?:账户|帐户|账号)|(?:账户|帐户|账号)[:：][^。]{0,12}[0-9]{3}[ -]?[0-9]{4}|\b(?:zelle|cash ?app|venmo|western union|moneygram|gift ?cards?|usdt|bitcoin|btc|crypto wallet)\b|` +
		`收款码|二维码|(?:账号|卡号)[:：]? ?[0-9]{4}[ -]?[0-9]{2}|开户行|户名|收款人|银行卡|对私账户|个人账户`)
)

// nearReceipt is how far, in bytes, a sum may stand from the words that give it to the reader
// ("you will receive", 到账) to be the one given: a long run of an invoice's lines is one
// "sentence" whose "you may receive letters" gives none of its sums.
const nearReceipt = 100

// receivedSums are the sums of a sentence that stand near a word of receiving (receiveVerbRE).
func receivedSums(sentence string) []float64 {
	verbs := receiveVerbRE.FindAllStringIndex(sentence, -1)
	if len(verbs) == 0 {
		return nil
	}
	var sums []float64
	for _, m := range sumRE.FindAllStringIndex(sentence, -1) {
		for _, v := range verbs {
			if m[0] < v[1]+nearReceipt && v[0] < m[1]+nearReceipt {
				sums = append(sums, owedSums(sentence[m[0]:m[1]])...)
				break
			}
		}
	}
	return sums
}

// owedSums are the sums of money a sentence names, in their currency's units (万 multiplied out).
func owedSums(sentence string) []float64 {
	var sums []float64
	for _, m := range sumRE.FindAllStringSubmatch(sentence, -1) {
		num, unit := m[1], m[2]
		if num == "" {
			num, unit = m[3], m[4]
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
		if err != nil {
			continue
		}
		switch unit {
		case "万", "万元":
			v *= 10000
		case "k", "千":
			v *= 1000
		}
		sums = append(sums, v)
	}
	return sums
}

// payFirstSignal weighs a page that tells its reader a sum is theirs — a buyer's offer, a
// settlement's payout, a refund, an award, a release of funds — and asks them first to pay a
// smaller one apart (a closing deposit, a release fee, a tax, a bond) through a channel that no
// checkout stands behind (bank details, a payment app, gift cards, a wallet, a collection code).
// Whoever owes money deducts its costs from what it pays; the one who asks them paid first and
// apart owes nothing (the timeshare buyer, the class action's "release fee", the lottery's tax,
// the frozen payout). A payment of the same sum returned (a refundable deposit), a return on
// the payment (interest), a fee deducted from the payout, advisories and pages denying any fee
// are left alone.
func payFirstSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok || noFeeRE.MatchString(words) || deductedRE.MatchString(words) {
		return Signal{}, false
	}
	channel := firstUnnegated(payChannelRE, words)
	if channel == "" && !paysHere(c, words) {
		return Signal{}, false
	}
	owed, owedAt := 0.0, ""
	type payment struct {
		sum      float64
		sentence string
	}
	var pays []payment
	for _, s := range splitSentences(words) {
		sums := owedSums(s)
		if len(sums) == 0 {
			continue
		}
		asked := (payVerbRE.MatchString(s) || chargeRE.MatchString(s)) && firstRE.MatchString(s) && !paysReaderRE.MatchString(s)
		if asked && returnOnRE.MatchString(s) {
			continue // a sum put in to earn interest: a deposit's own page
		}
		if toReaderRE.MatchString(s) && !negationRE.MatchString(s) {
			for _, v := range receivedSums(s) {
				if v > owed {
					owed, owedAt = v, s
				}
			}
		}
		if asked && !negationRE.MatchString(s) && !suppositionRE.MatchString(s) {
			// The smallest sum of its sentence is the one asked: "to receive your $2,300, first
			// pay a $49 fee" says both.
			least := sums[0]
			for _, v := range sums {
				least = min(least, v)
			}
			pays = append(pays, payment{least, s})
		}
	}
	for _, p := range pays {
		if p.sum > 0 && p.sum < owed {
			return Signal{"pay-first", weightPayFirst, CategoryScam,
				fmt.Sprintf("%s is owed %.0f (%q) and asked to pay %.0f first (%q), on %s", c.Profile, owed, truncate(strings.TrimSpace(owedAt), 50), p.sum, truncate(strings.TrimSpace(p.sentence), 60), host)}, true
		}
	}
	return Signal{}, false
}

// splitSentences cuts words at the ends of its sentences (a point between digits ends none).
func splitSentences(words string) []string {
	var out []string
	start := 0
	for i := 0; i < len(words); {
		r, size := utf8.DecodeRuneInString(words[i:])
		end := false
		switch r {
		case '!', '?', '。', '！', '？', '\n', ';', '；':
			end = true
		case '.':
			end = !decimalPoint(words, i)
		}
		i += size
		if end {
			out = append(out, words[start:i])
			start = i
		}
	}
	if start < len(words) {
		out = append(out, words[start:])
	}
	return out
}

var (
	// An end set to the reader's cover or account: a final notice, a last chance, expired.
	finalNoticeRE = mustPattern(`\bfinal (?:notice|reminder|warning)\b|\blast (?:chance|notice|attempt|opportunity)\b|\b(?:has|have) expired\b|\babout to (?:expire|lapse|end)\b|\bexpires? (?:today|tomorrow|tonight|soon|on)\b|\blaps(?:es|ed|ing)\b|\b(?:ends|end|cancell?ed|suspended|cut off) (?:today|tomorrow|tonight|at midnight)\b|\bdisconnect\w*\b|\bshut ?off\b|\bin [0-9]+ (?:minutes|mins|hours)\b|停电|停水|断网|停机|\b(?:file|case|account|policy|coverage) (?:will be |is being )?(?:closed|cancelled|canceled|terminated)\b|` +
		`最后通知|最后一次|最终通知|已(?:经)?过期|即将(?:到期|过期|失效)|逾期|今日内|(?:档案|案件|账户|保单)[^。]{0,6}(?:关闭|注销|失效)|异常|误设|错误设定`)
	// A number with its area code between dashes: 02-2555-0187, 0161-555-0144.
	areaPhoneRE = mustPattern(`\b0[0-9]{1,3}-[0-9]{3,4}-[0-9]{4}\b`)
	// Payment by phone: the card ready for the call, a down payment, the ATM.
	payByPhoneRE = mustPattern(`\b(?:payment|credit|debit|bank) card (?:ready|at hand|handy)\b|\bcard ready\b|\bpay(?:ment)? (?:by|over the) phone\b|\bdown payment\b|\bpay (?:it )?(?:today|now) by card\b|\b(?:cards?|payments?)\b[^.]{0,20}\b(?:by|over the) phone\b|\batm\b|` +
		`(?:准备|备好)[^。]{0,6}(?:银行卡|信用卡|卡)|电话(?:缴费|支付|付款)|(?:到|去|前往)[^。]{0,6}(?:atm|提款机|取款机)|网银|网路银行`)
)

// callToPaySignal weighs a notice of little else — no link to a site of its own, no form, a
// few lines — that sets an end to the reader's cover, account or order (a final notice, a last
// chance, an error in an order) and gives a number to call, where the reader pays by phone or
// at an ATM, or whose words are drawn so that no filter reads them (the screenshot reads
// twice the DOM's text and the number is only there): the warranty's "final notice", the
// instalment "set by mistake". A business's own reminder stands on its site, with links to it.
func callToPaySignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok || speaksOfLures(words) || len(c.Forms) > 0 || ownLinks(c) > 0 {
		return Signal{}, false
	}
	dom := utf8.RuneCountInString(c.Text)
	if dom >= littleText {
		return Signal{}, false
	}
	phone := phoneRE.FindString(words)
	if phone == "" {
		phone = areaPhoneRE.FindString(words)
	}
	final := finalNoticeRE.FindString(words)
	if phone == "" || final == "" || !callRE.MatchString(words) && !channelRE.MatchString(words) {
		return Signal{}, false
	}
	ocr := utf8.RuneCountInString(c.OCRText)
	drawn := ocr >= 2*dom && ocr >= 80 && !phoneRE.MatchString(foldText(c.Text))
	pay := firstUnnegated(payByPhoneRE, words)
	if pay == "" && !drawn {
		return Signal{}, false
	}
	how := fmt.Sprintf("to pay (%q)", truncate(pay, 30))
	if pay == "" {
		how = "its words drawn, not in the page's text"
	}
	return Signal{"call-to-pay", weightCallToPay, CategoryScam,
		fmt.Sprintf("%s reads %q and is given %s to call, %s, on a page of little else on %s", c.Profile, final, strings.TrimSpace(phone), how, host)}, true
}

var (
	// The matter itself kept from everyone: 请勿将此事告知他人, "do not discuss this with anyone",
	// or the people who would stop it (the family, the bank). Not a code or a password kept.
	secretMatterRE = mustPattern(`(?:请勿|不要|切勿|不得|别|勿)(?:将|把)?(?:此事|这件事|此案|本案|本通知|此通知|相关情况|案情|详情)[^。，,]{0,8}(?:告知|告诉|透露|外传|声张|讲|说|提起)|` +
		`(?:请勿|不要|切勿|不得|别|勿)(?:向|跟|对|和|告知|告诉|让)[^。，,]{0,4}(?:他人|任何人|家人|家里|家属|亲友|银行|邻居|同事|别人|其他人|父母|子女|孩子|老公|老婆)|` +
		`(?:请勿|不要|切勿|不得|别|勿)(?:向[^。，,]{0,8})?(?:透露|外传|声张|提起)|` +
		`(?:do not|don't|never|must not|should not|shouldn't) (?:tell|inform|discuss|mention|share|disclose|reveal|talk about|speak about|speak to|talk to|contact)\b[^.]{0,40}\b(?:anyone|anybody|others|other people|family|relatives|neighbou?rs|bank|staff|friends|colleagues)\b|` +
		`keep (?:this|it|the matter|this matter) (?:confidential|private|secret|to yourself|between us)|\btell no one\b|\blet (?:no one|nobody) know\b|\bwithout telling anyone\b`)
	// A credential kept: honest advice never to tell a code or a password.
	credentialRE = mustPattern(`验证码|密码|口令|信息|资料|卡号|身份证|账号|\bcodes?\b|\bpasswords?\b|\bpins?\b|\botp\b|passcode|\bdetails\b|\binformation\b|\bnumbers?\b|\blogin\b`)
	// The secrecy's reason: a harm to the reader's own matter if they speak.
	lestRE = mustPattern(`以免|否则|不然|避免影响|影响(?:处理|办理|进度|结果|释放|退款|放款)|\b(?:as|because) (?:this|it|that) (?:may|might|could|will|would)\b|\b(?:may|might|could|would|will) (?:delay|freeze|affect|block|cancel|void|stop|jeopardi[sz]e|lead to|result in)\b|\bor (?:it|this|the \w+) (?:will|may|could)\b|\botherwise\b|\bto avoid (?:delay|affecting|cancell)`)
	// The reader's money: an order, an account, a payment, a refund, a bail. Not a case or a
	// claim alone: an employer's or an insurer's investigation asks discretion of its own.
	moneyMatterRE = mustPattern(`订单|账户|帐户|扣款|分期|退款|付款|转账|汇款|银行|存款|保释|保证金|款项|资金|\b(?:orders?|accounts?|payments?|refunds?|charges?|transfers?|bank|bail|bond|funds|money|cash|savings|deposit)\b`)
)

// secretMatterSignal weighs a page about the reader's money (an order, an account, a refund, a
// bail) that tells them to keep the matter from everyone, lest it be delayed or harmed:
// the isolation every social-engineering story needs, said even where the page asks nothing
// yet ("for your protection, do not tell anyone of this, lest the processing be delayed"). An
// honest business asks its customers to keep a code secret, not the matter; a sentence that
// supposes it ("if anyone tells you…") is a warning, and advisories are left alone.
func secretMatterSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok || !moneyMatterRE.MatchString(words) {
		return Signal{}, false
	}
	for _, m := range secretMatterRE.FindAllStringIndex(words, -1) {
		sentence := sentenceAround(words, m[0], m[1])
		if credentialRE.MatchString(sentence) || cutOffWarnRE.MatchString(sentence) || suppositionRE.MatchString(sentence) || negated(words, m[0]) {
			continue
		}
		lest := lestRE.FindString(sentence)
		if lest == "" {
			continue
		}
		return Signal{"secret-matter", weightSecretMatter, CategoryScam,
			fmt.Sprintf("%s is told %q (%q) of a matter of its money, on %s", c.Profile, truncate(words[m[0]:m[1]], 50), lest, host)}, true
	}
	return Signal{}, false
}

// weightHiddenPayee is a deposit due within hours whose payee only shows behind a button.
const weightHiddenPayee = 0.85

var (
	// A deadline of hours, or a place given away when it passes: 24 小时内, 名额将释出, "or the
	// slot is released".
	hoursRE = mustPattern(`within (?:24|48|72|[0-9]{1,2}) ?(?:hours|hrs|h)\b|\bin (?:24|48|72) hours\b|\btoday\b|\btonight\b|(?:24|48|72|[0-9]{1,2}) ?小时内|今日内|今天内|今日|今天|当天|` +
		`名额[^。]{0,6}(?:释出|释放|让给|取消|顺延)|\b(?:place|slot|booking|reservation|spot|room|appointment|seat)s? (?:will be |is |are )?(?:released|given|cancell?ed|offered|passed) (?:to|if|unless|after)\b`)
	// The payee behind a button: 查看汇款资讯, "View payment details".
	// The account, not a way to pay: "payment method" may be a checkout.
	revealPayeeRE = mustPattern(`(?:查看|显示|获取|索取|取得|点击查看|点此查看)(?:汇款|转账|收款)(?:资讯|信息|资料|账户|账号|帐号|帐户)|` +
		`\b(?:view|show|see|get|reveal|display) (?:the |our )?(?:bank|bank transfer|transfer|remittance|wire) (?:details|info|information|instructions|account)\b`)
)

// hiddenPayeeSignal weighs a page of no form and no link to a site of its own that asks a
// deposit or a fee of a sum, due within hours or the place given away, and keeps its payee
// behind a button ("View payment details", 查看匯款資訊): the appointment's or the room's
// deposit to a person's account, shown only to the one who clicks, where no filter reads it.
// A business asks its deposit through its checkout or shows its own account on its site.
func hiddenPayeeSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok || len(c.Forms) > 0 || ownLinks(c) > 0 || noFeeRE.MatchString(words) {
		return Signal{}, false
	}
	reveal := revealPayeeRE.FindString(words)
	if reveal == "" || payChannelRE.MatchString(strings.Replace(words, reveal, "", 1)) {
		return Signal{}, false
	}
	for _, s := range splitSentences(words) {
		if len(owedSums(s)) == 0 || !depositRE.MatchString(s) && !chargeRE.MatchString(s) && !transferRE.MatchString(s) || negationRE.MatchString(s) {
			continue
		}
		due := hoursRE.FindString(s)
		if due == "" {
			continue
		}
		return Signal{"hidden-payee", weightHiddenPayee, CategoryScam,
			fmt.Sprintf("%s is asked %q (%q) and its payee is behind %q, on %s", c.Profile, truncate(strings.TrimSpace(s), 50), due, reveal, host)}, true
	}
	return Signal{}, false
}
