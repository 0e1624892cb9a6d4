package score

import (
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// TestConductSignals: each conduct signal's edges — a denial, a person selling their own
// things, a government's own host, a deposit's rate, a card sent to the shop's processor, a
// sign-in of the page's own site.
func TestConductSignals(t *testing.T) {
	card := moderation.Form{Card: true, Fields: []string{"cc", "exp", "cvc"}, Hints: []string{"Card number", "Expiry", "CVC"},
		Types: []string{"text", "text", "text"}, Inputs: 3}
	cardLogin := func(action string) moderation.Form {
		return moderation.Form{Action: action, Method: "post", Password: true, Card: true, Fields: []string{"card_no", "query_pwd"},
			Hints: []string{"信用卡卡号", "查询密码"}, Types: []string{"text", "password"}, Inputs: 2}
	}
	sendsTo := func(c moderation.Capture, to string) moderation.Capture {
		c.Sends = []string{to}
		return c
	}
	cases := []struct {
		name   string
		signal func(moderation.Capture) (Signal, bool)
		page   moderation.Capture
		want   float64 // 0: no signal
	}{
		{"a company's fee to a person, pressed", storied(personalPayeeSignal), page("https://academy.example.site/", "本中心名额仅剩 2 个，报名费请转到老师个人微信。"), weightPersonalPayee},
		{"a company's fee to a person, unpressed", storied(personalPayeeSignal), page("https://academy.example.com/", "Our academy takes the course fee: send it to the coach's personal Venmo after the first lesson."), weightPersonalPayeeWeak},
		{"a person selling their own lessons", storied(personalPayeeSignal), page("https://anna.example.com/", "Pay me after each lesson by Venmo or in cash."), 0},
		{"a school saying never to pay a person", storied(personalPayeeSignal), page("https://school.example.cn/", "学费只缴入学校对公账户，请勿转账至老师个人账户。"), 0},
		{"the reader's own account", storied(personalPayeeSignal), page("https://shop.example.com/", "Our store refunds within 3 days: the money is paid into your personal account."), 0},
		{"an authority's demand off a government's host", storied(authorityDemandSignal), page("https://court-notice.example.top/", "Clerk of the court: our records show you failed to appear. Pay the bond within 24 hours.", card), weightAuthorityDemand},
		{"a court's own payment page", storied(authorityDemandSignal), page("https://courts.example-county.gov/pay", "Clerk of the court: our records show the fine due for your case. Pay within 30 days.", card), 0},
		{"a .us locality's court", storied(authorityDemandSignal), page("https://jury.co.example.mi.us/pay", "County court: you failed to appear. Pay the fine within 24 hours.", card), 0},
		{"a bail agent", storied(authorityDemandSignal), page("https://bail.example.com/", "We post bail at the county court 24 hours a day. Pay the premium today.", card), 0},
		{"a card sent to an odd host", storied(cardElsewhereSignal), sendsTo(page("https://outlet.example.com/checkout", "Total $59", card), "https://pay-gate-node.xyz/charge"), weightCardElsewhere},
		{"a card sent to the shop's processor", storied(cardElsewhereSignal), sendsTo(page("https://outlet.example.com/checkout", "Total $59", card), "https://api.stripe.com/v1/tokens"), 0},
		{"a card sent to an ordinary gateway", storied(cardElsewhereSignal), sendsTo(page("https://outlet.example.com/checkout", "Total $59", card), "https://checkout.northpay.com/charge"), 0},
		{"a high return with the principal back", storied(sureReturnSignal), page("https://trees.example.com/", "Your trees earn 14% a year and your principal is returned in full."), weightSureReturn},
		{"a deposit's rate with the principal protected", storied(sureReturnSignal), page("https://bank.example.co.uk/", "Earn 4.10% a year; your principal is protected by the compensation scheme."), 0},
		{"a high return, no principal promised", storied(sureReturnSignal), page("https://fund.example.com/", "The fund returned 14% a year over five years; capital at risk."), 0},
		{"a payment kept from the children", storied(secretPaymentSignal), page("https://club.example.vip/", "货款请汇入户名：张三 账号：6222 0000 1111 2222。请勿告诉子女。"), weightSecretPayment},
		{"gift cards' codes sent on in their own sentence", storied(giftCardSignal), page("https://power.example.com/", "Pay the unpaid bill with Google Play cards. Scratch each card and text pictures of the cards to our agent."), weightGiftCardPay},
		{"a shop card's balance check", storied(giftCardSignal), page("https://mall.example.com/card", "输入购物卡卡号和密码即可查询余额。请勿把卡号卡密发给任何人。"), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, ok := tc.signal(tc.page)
			switch {
			case tc.want == 0 && ok:
				t.Errorf("fired: %s %.2f: %s", s.Kind, s.Weight, s.Detail)
			case tc.want != 0 && !ok:
				t.Errorf("did not fire, want %.2f", tc.want)
			case tc.want != 0 && s.Weight != tc.want:
				t.Errorf("weight %.2f, want %.2f (%s)", s.Weight, tc.want, s.Detail)
			}
		})
	}

	own := withLinks(page("https://xyk.example-bank.com/login", "信用卡网上服务", cardLogin("https://xyk.example-bank.com/login/submit")), "www.example-bank.com")
	if s, ok := paymentSignal(own); ok {
		t.Errorf("a card's sign-in on its own site: %s %.2f", s.Kind, s.Weight)
	}
	elsewhere := withLinks(page("https://xyk.example-bank.com/login", "信用卡网上服务", cardLogin("https://collect.example.top/p.php")), "www.example-bank.com")
	if s, ok := paymentSignal(elsewhere); !ok || s.Weight != weightCardPIN {
		t.Errorf("a card's sign-in posting elsewhere: %v %.2f, want %.2f", ok, s.Weight, weightCardPIN)
	}
	nowhere := page("https://xyk.example-bank.com/login", "信用卡网上服务", cardLogin("https://xyk.example-bank.com/login/submit"))
	if s, ok := paymentSignal(nowhere); !ok || s.Weight != weightCardPIN {
		t.Errorf("a card's sign-in linking nowhere of its own: %v %.2f, want %.2f", ok, s.Weight, weightCardPIN)
	}
}

// TestGovernmentHost: a government's public suffixes and the .us localities, not a host that
// wears them at its front.
func TestGovernmentHost(t *testing.T) {
	for host, want := range map[string]bool{
		"courts.example-county.gov": true, "www.example.gov.uk": true, "fy.example.court.gov.cn": true, "x.example.gc.ca": true,
		"www.example.gouv.fr": true, "jury.co.wexford.mi.us": true, "court.gov.cn.pay-fine.top": false,
		"jury-compliance-office.us": false, "example-court.com": false,
	} {
		if got := governmentHost(host); got != want {
			t.Errorf("governmentHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestGiftSecret: a prepaid card's 卡密 is a gift card's code, a bank card's 卡密码 its PIN.
func TestGiftSecret(t *testing.T) {
	gift := formAsks(moderation.Form{Fields: []string{"kh", "km"}, Hints: []string{"卡号", "卡密"}, Types: []string{"text", "text"}, Inputs: 2})
	if !gift.has(askGift) || gift.any(askCard|askPIN) {
		t.Errorf("卡号 and 卡密: %s, want a gift card's code", gift)
	}
	bank := formAsks(moderation.Form{Fields: []string{"kh", "mm"}, Hints: []string{"银行卡号", "银行卡密码"}, Types: []string{"text", "password"}, Inputs: 2})
	if bank.has(askGift) || !bank.has(askPIN) {
		t.Errorf("银行卡号 and 银行卡密码: %s, want a card and its PIN", bank)
	}
}
