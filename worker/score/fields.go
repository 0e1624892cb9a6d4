package score

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/shortlink/shortlink/backend/moderation"
)

// asks is what a form asks a person for, a bit per kind of field.
type asks uint16

const (
	askLogin    asks = 1 << iota // an account: user name, email, 账号
	askPassword                  // a password to an account
	askPIN                       // a payment or card PIN: 支付密码, 取款密码, ATM PIN
	askCard                      // a payment card's number: 卡号, 银行卡号
	askCVV                       // a card's security code
	askExpiry                    // a card's expiry date
	askID                        // a national ID or social security number: 身份证号
	askOTP                       // a one-time code sent by SMS: 验证码
	askPhone                     // a phone number
	askName                      // a person's name
	askAddress                   // a postal address
	askSecret                    // a wallet's recovery phrase or private key: 助记词, 私钥
	askGift                      // a gift card or voucher: its number and PIN are the shop's own
	askBank                      // a bank account's number, sort code or routing number
)

// has says whether a asks for every kind in k.
func (a asks) has(k asks) bool { return a&k == k }

// any says whether a asks for any kind in k.
func (a asks) any(k asks) bool { return a&k != 0 }

// askNames name the kinds, for a signal's detail.
var askNames = []struct {
	k    asks
	name string
}{
	{askSecret, "a wallet's recovery phrase"}, {askPIN, "a payment PIN"}, {askCard, "a card number"}, {askCVV, "a card's security code"},
	{askExpiry, "a card's expiry"}, {askID, "an ID number"}, {askOTP, "an SMS code"},
	{askPassword, "a password"}, {askLogin, "an account"}, {askPhone, "a phone number"},
	{askName, "a name"}, {askAddress, "an address"}, {askBank, "a bank account"},
}

func (a asks) String() string {
	var out []string
	for _, n := range askNames {
		if a.any(n.k) {
			out = append(out, n.name)
		}
	}
	return strings.Join(out, ", ")
}

// fieldWords tell the kind of a field from its name, split into words ("cardNumber" → card,
// number; "pay_pwd" → pay, pwd) and run together ("cardnumber"), and from its hint. Words of
// Latin letters match a whole word of the name or hint (so "pin" is not read in "shipping"),
// or the whole name run together; Chinese phrases match anywhere. Pinyin names and their
// initials (zfmm for 支付密码, yhk for 银行卡, sfz for 身份证, yzm for 验证码) are how many
// phishing kits name their fields.
var fieldWords = []struct {
	k     asks
	words []string
}{
	{askGift, []string{"礼品卡", "储值卡", "购物卡", "gift card", "giftcard", "gift-card", "voucher", "e-gift"}},
	{askSecret, []string{"助记词", "私钥", "recovery phrase", "seed phrase", "secret phrase", "secret recovery", "mnemonic", "seedphrase", "privatekey", "private key", "keystore"}},
	// A PIN before a password: 支付密码 is both, and a PIN is what it asks.
	{askPIN, []string{"支付密码", "交易密码", "取款密码", "提现密码", "银行卡密码", "卡密码", "查询密码", "六位密码", "6位密码", "atm密码",
		"pin", "pincode", "atmpin", "cardpin", "paypwd", "paypassword", "paypass", "tradepwd", "tradepassword", "zfmm", "jymm", "qkmm", "txmm"}},
	{askCard, []string{"卡号", "银行卡", "信用卡", "储蓄卡", "借记卡", "card number", "cardnumber", "cardno", "cardnum", "ccnumber", "ccnum",
		"cc-number", "creditcard", "debitcard", "bankcard", "pan", "kahao", "yhk", "yhkh", "xyk"}},
	{askCVV, []string{"安全码", "cvv", "cvv2", "cvc", "cvc2", "csc", "ccv", "cvn", "securitycode", "security code", "cc-csc", "背面三位", "后三位",
		"cvn2", "卡背", "code on the back", "digits on the back"}},
	{askExpiry, []string{"有效期", "到期", "exp", "expiry", "expiration", "expdate", "expires", "cc-exp", "cc-exp-month", "cc-exp-year", "mm/yy", "yxq"}},
	{askID, []string{"身份证", "证件号", "idcard", "idno", "idnumber", "id number", "sfz", "sfzh", "ssn", "social security", "national id", "nationalid",
		"national insurance", "nino", "tax id", "taxpayer id", "社保号", "社会保障号",
		// A health insurance number is one too: with a birth date it bills in the holder's name.
		"medicare number", "medicare id", "mbi", "nhs number", "health insurance number", "医保卡号", "社保卡号", "健保卡号"}},
	{askOTP, []string{"验证码", "动态码", "短信码", "校验码", "otp", "smscode", "sms code", "verifycode", "verificationcode", "verification code",
		"one-time-code", "one-time code", "yzm", "dxyzm", "authcode", "2fa", "code from sms", "texted code", "code we texted", "code we sent"}},
	{askPassword, []string{"密码", "口令", "password", "passwd", "pwd", "passcode", "pass", "mima", "current-password",
		// The answers that reset an account are its password too.
		"maiden name", "mmn", "security question", "security answer", "密保"}},
	{askLogin, []string{"账号", "帐号", "账户", "用户名", "邮箱", "email", "e-mail", "username", "user", "userid", "login", "account", "loginid", "zhanghao"}},
	{askPhone, []string{"手机", "电话", "phone", "mobile", "tel", "telephone", "cellphone", "sjh", "shouji"}},
	{askBank, []string{"sort code", "sortcode", "account number", "accountnumber", "accnum", "acctno", "acct number", "iban",
		"routing number", "routingnumber", "aba", "bsb", "银行账号", "收款账号", "开户行", "对公账号"}},
	{askName, []string{"姓名", "真实姓名", "持卡人", "name", "fullname", "realname", "cardholder", "cc-name", "xingming", "xm"}},
	{askAddress, []string{"地址", "收货", "address", "addr", "street", "zip", "postcode", "postal", "shipping address", "dizhi"}},
}

// giftSecretRE is a prepaid or gift card's code, 卡密 — not a bank card's 卡密码.
var giftSecretRE = mustPattern(`卡密(?:[^码]|$)`)

// formAsks is what f asks for: the browser's own judgement (a password field, a card field)
// and what its fields' names and hints say.
func formAsks(f moderation.Form) asks {
	var a asks
	if f.Password {
		a |= askPassword
	}
	if f.Card {
		a |= askCard
	}
	for i, name := range f.Fields {
		hint := ""
		if i < len(f.Hints) {
			hint = f.Hints[i]
		}
		a |= fieldAsks(name, hint)
		if giftSecretRE.MatchString(hint) {
			a |= askGift
		}
	}
	if a.any(askGift) {
		// A gift card's number and PIN (a balance check, paying with one) are the shop's own
		// card, not a bank's.
		a &^= askCard | askPIN
	}
	return a
}

// fieldAsks is what one field asks for, by its name and hint. A password field whose name or
// hint says PIN asks for a PIN only.
func fieldAsks(name, hint string) asks {
	var a asks
	for _, s := range []string{name, hint} {
		raw := width.Fold.String(strings.TrimSpace(s))
		if raw == "" {
			continue
		}
		lower := strings.ToLower(raw)
		a |= fieldWordAsks(lower, tokens(raw))
		a |= shapeAsks(lower)
	}
	if a.any(askPIN) {
		a &^= askPassword
	}
	if a.any(askCVV | askCard) {
		a &^= askPassword // "card password" and the like: the card is what it asks
	}
	return a
}

// fieldPhrase is a field word matched anywhere in a name or hint: a Chinese phrase, or one with
// a space, hyphen or slash.
type fieldPhrase struct {
	word string
	k    asks
}

// fieldWordIndex is fieldWords arranged for their rule (above): the phrases matched anywhere,
// and the Latin words by the kinds they tell, looked up by each word of a name, each two
// neighbouring words run together and the whole name run together.
var fieldWordIndex = sync.OnceValue(func() (x struct {
	anywhere []fieldPhrase
	latin    map[string]asks
}) {
	x.latin = map[string]asks{}
	for _, fw := range fieldWords {
		for _, w := range fw.words {
			if r, _ := utf8.DecodeRuneInString(w); r >= 0x2E80 || strings.ContainsAny(w, " -/") {
				x.anywhere = append(x.anywhere, fieldPhrase{w, fw.k})
			} else {
				x.latin[w] |= fw.k
			}
		}
	}
	return x
})

// fieldWordAsks is what the fieldWords in s (lower-cased), whose words are toks, tell, each of
// the name's words looked up once.
func fieldWordAsks(s string, toks []string) asks {
	x := fieldWordIndex()
	var a asks
	for _, w := range x.anywhere {
		if strings.Contains(s, w.word) {
			a |= w.k
		}
	}
	a |= x.latin[strings.Join(toks, "")]
	for i, t := range toks {
		a |= x.latin[t]
		if i+1 < len(toks) {
			a |= x.latin[t+toks[i+1]]
		}
	}
	return a
}

// tokens splits a field name or hint into words: at anything not a letter or digit, at a
// change from lower to upper case ("cardNumber"), and between digits and letters ("cvv2" stays:
// digits after letters join them).
func tokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range s {
		switch {
		case r < 0x2E80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			cur = append(cur, unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// pageAsks is what all of a capture's forms ask for together: a page that splits its questions
// across forms (one per step, or inputs outside any form) asks for them all the same.
func pageAsks(c moderation.Capture) asks {
	var a asks
	for _, f := range c.Forms {
		a |= formAsks(f)
	}
	return a
}
