package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// A page that sells in an organisation's name — a company, a centre, a channel, a platform —
// and has the price, a fee or a deposit paid to a person: a staff member's own payment app,
// collection code or account, or one it calls personal. An organisation takes its money into
// its own account, through a checkout; a payment to a person is the one step a kit selling
// what does not exist cannot leave out, since it is how the money leaves the reach of any
// refund (docs/moderation.md, "Heuristics").
const (
	weightPersonalPayee     = 0.85 // an organisation's price paid to a person, under pressure
	weightPersonalPayeeWeak = 0.5  // … under no pressure
)

var (
	// A payment sent to a person: a "personal" account, code or app, or one of a member of staff.
	personalPayRE = mustPattern(`(?:转账|转入|转款|汇款|打款|付款?|支付|缴纳?|交|(?:转|汇|打)(?:到|给|至))[^。，,；;]{0,16}(?:个人(?:账户|帐户|账号|银行卡|收款码|微信|支付宝)|` +
		`(?:负责人|老师|客服|经理|专员|顾问|师傅|业务员|工作人员|教练|主管|经办人)(?:提供的|指定的?|本人)?的?(?:个人)?(?:微信|支付宝|收款码|账户|帐户|账号|银行卡))|` +
		`个人(?:收款码|微信|支付宝|账户|帐户)[^。，,；;]{0,10}(?:转账|付款|支付)|` +
		`\b(?:pay|paid|send|sent|transfer(?:red)?|wire[sd]?|deposit(?:ed)?|zelle)\b[^.]{0,40}\b(?:(?:my|his|her) |(?:the |our |your )?(?:agent|coordinator|manager|teacher|officer|representative|advisor|adviser|recruiter|supervisor|director|coach)'s )(?:personal )?(?:bank )?(?:account|cash ?app|venmo|zelle|paypal|wallet)|` +
		`\b(?:pay|paid|send|sent|transfer(?:red)?|wire[sd]?|deposit(?:ed)?)\b[^.]{0,40}\b(?:(?:my|his|her|the|a|our|their)|[a-z]+'s) personal (?:bank )?(?:account|cash ?app|venmo|zelle|paypal)`)
	// The page speaks for an organisation, not for one person selling their own things.
	organisationRE = mustPattern(`公司|集团|中心|平台|渠道|官方|商城|工厂|机构|协会|学校|学院|驾校|银行|厂家|供应链|内部|幼儿园|班级|俱乐部|协会|` +
		`\b(?:company|center|centre|office|platform|group|agency|firm|ltd|inc|llc|corporation|institute|academy|store|outlet|department|club|school|nursery|kindergarten|league|association)\b`)
	// Pressure on the payment: few left, a limit, no cancelling, the place given to the next.
	payPressureRE = mustPattern(`剩余 ?[0-9]+|限购|额度有限|名额有限|不支持(?:撤单|退款|退货)|不能(?:撤单|退款)|概不退|让给(?:下一位|他人|别人)|` +
		`only [0-9]+ (?:[a-z]+ )?left|non-?refundable|no refunds|given to the next`)
)

// readersOwnRE says the personal account is the reader's own: a refund or a salary paid into it.
var readersOwnRE = mustPattern(`您|你|本人|员工|职工|自己|学生|\byour (?:own )?personal\b`)

// personalPayee is the first payment in words sent to a person that no negation stands before
// or within, and that is not the reader's own account: "" when there is none.
func personalPayee(words string) string {
	for _, m := range personalPayRE.FindAllStringIndex(words, -1) {
		p := words[m[0]:m[1]]
		if negated(words, m[0]) || negationRE.MatchString(p) || readersOwnRE.MatchString(p) || suppositionRE.MatchString(sentenceAround(words, m[0], m[1])) {
			continue
		}
		return p
	}
	return ""
}

// personalPayeeSignal weighs a page speaking for an organisation that has its reader pay a
// person: a teacher's "designated account", the manager's WeChat, customer service's personal
// collection code. Under pressure (a deadline, few left, no cancelling, secrecy) it bans; under
// none it flags. A page telling its reader never to pay a person's account, and advisories,
// are left alone; one person selling their own things names no organisation.
func personalPayeeSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host := v.host
	if host == "" || v.owned {
		return Signal{}, false
	}
	words := v.words
	payee := personalPayee(words)
	if payee == "" || !v.ok || !organisationRE.MatchString(words) {
		return Signal{}, false
	}
	pressure := payPressureRE.FindString(words)
	for _, re := range []*pattern{urgentRE, scarceRE, deadlineRE, secrecyRE} {
		if pressure == "" {
			pressure = re.FindString(words)
		}
	}
	if pressure == "" {
		return Signal{"personal-payee", weightPersonalPayeeWeak, CategoryScam,
			fmt.Sprintf("%s is told to pay a person (%q), on %s", c.Profile, truncate(payee, 40), host)}, true
	}
	return Signal{"personal-payee", weightPersonalPayee, CategoryScam,
		fmt.Sprintf("%s is told to pay a person (%q) under pressure (%q), on %s", c.Profile, truncate(payee, 40), pressure, host)}, true
}
