package score

import (
	"fmt"
	"strings"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The weights of the cover story, the fee kept from the bank and the job's deposit
// (docs/moderation.md, "Moderation scoring").
const (
	weightSecretFee  = 0.85 // a fee the reader must pay, kept from their bank
	weightJobDeposit = 0.85 // a deposit or bond paid before the job starts
)

var (
	// The reader told what to answer their bank about a payment: the cover story that gets a
	// transfer past the bank's questions. No honest payee writes one.
	coverStoryRE = mustPattern(`\bif (?:your |the )?(?:bank(?:'s)?(?: staff| teller| branch| adviser)?|teller|cashier|bank clerk|clerk) (?:calls?|asks?|questions?|queries|phones?)\b[^.]{0,60}\b(?:say|tell (?:them|it)|choose|select|answer|reply)\b|` +
		`\b(?:tell|say to) (?:your|the) bank (?:that )?(?:it is|it's|this is|the (?:payment|transfer) is)\b|` +
		`(?:银行|柜台|柜员|工作人员|民警|警察)[^。，,]{0,12}(?:询问|问起|问|核实|打电话|来电)[^。]{0,20}(?:就说|只说|请说|回答说|谎称)|(?:对|向)银行(?:说|称|谎称)是`)

	// A payment the reader must make: "must be paid", payable, 需先缴纳.
	feeDueRE = mustPattern(`\b(?:fee|charge|certificate|tax|levy|duty|bond|deposit)s?\b[^.]{0,40}\b(?:must|has to|needs to) be paid\b|\bpayable by (?:you|the (?:beneficiary|winner|recipient|claimant))\b|\byou must (?:first )?pay\b|` +
		`需先?(?:缴纳|支付|交纳)|先(?:缴纳|支付|交纳)`)

	// Money taken out of the bank to hand over: a withdrawal in cash, a bond posted in cash.
	cashOutRE = mustPattern(`\bwithdraw(?:s|ing|al)?\b[^.]{0,30}\bcash\b|\b(?:collected|paid|posted|handed over) in cash\b|取(?:出)?现金|取款|提取现金|领钱|取钱|(?:备好|准备好?|凑齐)[^。]{0,6}现金|现金[^。]{0,8}(?:交给|上门)`)

	// Secrecy from the bank or the police, the two who would stop the payment.
	fromBankRE = mustPattern(`\bbank|branch|police|银行|警方|民警|警察`)

	// A deposit or a bond the worker pays.
	jobDepositRE = mustPattern(`\b(?:deposit|bond|security fee)\b|押金|保证金|风险金`)
	// Before the work starts: departure, boarding, the first day.
	beforeWorkRE = mustPattern(`\bbefore (?:departure|boarding|you (?:start|travel|fly|depart|board)|your (?:first (?:day|shift)|start date|departure|deployment)|joining|deployment)\b|` +
		`(?:出发|入职|上岗|到岗|报到|出境|登船)前`)
	// The sentence speaks of the job: a post, the crew, the staff.
	jobRE = mustPattern(`\b(?:crew|staff|employee|worker|job|position|role|hire|hired|recruit\w*|applicant|candidate)s?\b|到岗|入职|上岗|员工|船员|工人|工作|普工|岗位|应聘|求职|招聘|月薪`)
	// A supposition or a rule about others: "如有企业要求…", "if an employer asks".
	suppositionRE = mustPattern(`\bif\b|\bwhether\b|如有|如果|若|凡是|一旦`)
	// A rule that forbids it: "不得收取押金", "employers are prohibited from".
	forbidRE = mustPattern(`\b(?:forbid\w*|prohibit\w*|illegal|unlawful|not allowed)\b|不得|禁止|严禁|不允许|违法`)
)

// coverStory is the first cover story for the bank in words that no negation stands before:
// "" when there is none.
func coverStory(words string) string {
	return firstUnnegated(coverStoryRE, words)
}

// secretFeeSignal weighs a fee the reader must pay that the page tells them to keep from their
// bank or the police, the account to pay given later by a "claims officer" or an "agent": the
// inheritance's certificate, the lottery's insurance, the parcel's clearance. secret-payment
// weighs the same secrecy when the account is on the page. No honest payee asks to be hidden
// from the reader's bank. Advisories collect nothing and are left alone.
func secretFeeSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	secret := ""
	for _, m := range secrecyRE.FindAllStringIndex(words, -1) {
		if fromBankRE.MatchString(sentenceAround(words, m[0], m[1])) && !negated(words, m[0]) {
			secret = words[m[0]:m[1]]
			break
		}
	}
	if secret == "" {
		secret = coverStory(words)
	}
	fee := firstUnnegated(feeDueRE, words)
	if fee == "" && coverStory(words) != "" {
		// A cover story for the bank is told only of money that leaves it: any payment or
		// withdrawal the page asks is the one it hides (the bail "for home repairs").
		fee = firstUnnegated(cashOutRE, words)
		if fee == "" {
			fee = firstUnnegated(cutOffPayRE, words)
		}
	}
	if secret == "" || fee == "" || noFeeRE.MatchString(words) {
		return Signal{}, false
	}
	return Signal{"secret-fee", weightSecretFee, CategoryScam,
		fmt.Sprintf("%s must pay (%q) and is told %q, on %s", c.Profile, fee, secret, host)}, true
}

// jobDepositSignal weighs a job that takes a deposit or a bond from its worker before the work
// starts (before departure, boarding, the first day): the overseas job's "visa bond", the
// factory's uniform deposit, the cruise crew's security bond. Employers pay to hire; labour law
// forbids them to take a deposit (China's Labour Contract Law, art. 9), and an honest travel or
// study deposit buys a place, not a post. A sentence that supposes it ("如有企业要求…") or
// forbids it is a rule about others; advisories are left alone.
func jobDepositSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	for _, m := range jobDepositRE.FindAllStringIndex(words, -1) {
		sentence := sentenceAround(words, m[0], m[1])
		before := beforeWorkRE.FindString(sentence)
		if before == "" || !jobRE.MatchString(sentence) || negated(words, m[0]) ||
			negationRE.MatchString(sentence) || forbidRE.MatchString(sentence) || suppositionRE.MatchString(sentence) || noFeeRE.MatchString(sentence) {
			continue
		}
		return Signal{"job-deposit", weightJobDeposit, CategoryScam,
			fmt.Sprintf("%s is asked a %q %q, on %s", c.Profile, words[m[0]:m[1]], strings.TrimSpace(before), host)}, true
	}
	return Signal{}, false
}

// buysPlaceRE says a deposit buys the reader a place, a booking or a seat: a price, not a fee
// that holds a reward.
var buysPlaceRE = mustPattern(`\b(?:secures?|reserves?|confirms?|holds?|guarantees?) (?:your|the|a) (?:place|booking|seat|room|spot|reservation|table|pitch|order|stay)\b|(?:预订|订座|订房|锁定名额)`)
