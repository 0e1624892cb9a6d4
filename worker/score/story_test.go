package score

import (
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// TestStorySignals: each story signal's edges — a denial, an advisory that collects nothing,
// an advisory's words on a page that does collect, a condition outside the fee's sentence.
func TestStorySignals(t *testing.T) {
	withSends := func(c moderation.Capture, to ...string) moderation.Capture {
		c.Sends = to
		return c
	}
	cases := []struct {
		name   string
		signal func(moderation.Capture) (Signal, bool)
		page   moderation.Capture
		want   float64 // 0: no signal
	}{
		{"gift cards for a fee", storied(giftCardSignal), page("https://fee-desk.example.top/", "The release fee can be paid with Steam gift cards. Send a photo of each card."), weightGiftCardPay},
		{"gift cards denied on the page", storied(giftCardSignal), page("https://relief.example.org/", "Donate by card below. We do not accept gift cards. Steam gift cards sent to us are returned."), 0},
		{"a shop's own gift card", storied(giftCardSignal), page("https://shop.example.com/checkout", "Pay with card or an Example gift card."), 0},
		{"a gift-card shop", storied(giftCardSignal), page("https://cards.example.com/", "Buy Apple and Steam gift cards delivered by email, no fees. Steam gift cards are paid with Visa or PayPal."), 0},
		{"gift cards in an advisory", storied(giftCardSignal), page("https://news.example.com/a", "Scammers ask for payment in Apple gift cards and a photo of the card: it is fraud."), 0},
		{"a safe account", storied(safeAccountSignal), page("https://case.example.top/", "Transfer your savings to the secure account below today."), weightSafeAccount},
		{"a safe account denied", storied(safeAccountSignal), page("https://bank.example.com/help", "We will never ask you to transfer money to a safe account."), 0},
		{"an advisory that gives an account to pay is none", storied(safeAccountSignal), page("https://fraud-team.example.top/", "Fraud alert. Transfer the balance to the secure account: sort code 01-02-03 account 12345678."), weightSafeAccount},
		{"a deposit to a person, pressed", storied(offPlatformSignal), page("https://flat.example.site/", "我在国外，看房前需先付定金 ¥2,000。收款人：李* 开户行：某银行 账号：6222 0000 1111 2222"), weightOffPlatform},
		{"a deposit to a company, unpressed", storied(offPlatformSignal), page("https://inn.example.ie/", "A deposit of 30% confirms the room. Account name: Example Inn Ltd. Account number: 12345678."), 0},
		{"sure returns and a deposit", storied(sureReturnSignal), page("https://vip.example.vip/", "老师带单，稳赚不赔，首充 1000 送 300。"), weightSureReturn},
		{"a fund's warning", storied(sureReturnSignal), page("https://fund.example.com/", "Past performance is no guide; you may get back less than you invested. Minimum investment $500."), 0},
		{"a live device code", storied(deviceCodeSignal), page("https://meet.example.top/", "Open microsoft.com/devicelogin and enter the code ABC-DEF. Code expires in 14:59."), weightDeviceCode},
		{"a device sign-in guide", storied(deviceCodeSignal), page("https://docs.example.dev/", "The CLI prints a code; open microsoft.com/devicelogin and enter the code there."), 0},
		{"a help page's scripts that send", storied(deviceCodeSignal), withSends(page("https://help.example-tv.com/", "On your TV open the app; on your phone go to google.com/device and enter the code shown on the TV."), "https://help.example-tv.com/analytics"), 0},
		{"a device code that goes on by itself", storied(deviceCodeSignal), page("https://meet.example.top/", "Go to google.com/device and enter the code XYZ-123. This page continues automatically."), weightDeviceCode},
		{"a secure wallet of one's own", storied(safeAccountSignal), page("https://exchange-news.example.com/", "We recommend you move your coins to a secure wallet you control."), 0},
		{"a drawn bill", storied(drawnDemandSignal), func() moderation.Capture {
			c := page("https://pay.example.top/", "Pay $9.00", moderation.Form{Card: true, Fields: []string{"cc"}, Hints: []string{"cc-number"}, Types: []string{"text"}, Inputs: 1})
			c.OCRText = "FINAL NOTICE Amount due $9.00, rises to $60.00 after 48 h and is sent to collections. Card number Pay $9.00"
			return c
		}(), weightDrawnDemand},
		{"a bill in its page", storied(drawnDemandSignal), func() moderation.Capture {
			c := page("https://pay.example.gov/", "Amount due $9.00, rises to $60.00 after 48 h and is sent to collections. To contest it, request a hearing within 21 days at the office on Main Street. Card number Pay $9.00", moderation.Form{Card: true, Fields: []string{"cc"}, Hints: []string{"cc-number"}, Types: []string{"text"}, Inputs: 1})
			c.OCRText = c.Text
			return c
		}(), 0},
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
}

// TestAdvanceFeeCondition: the condition binds the fee in its own sentence.
func TestAdvanceFeeCondition(t *testing.T) {
	annuity := page("https://annuity.example.com/", "Guaranteed returns of 4% a year for the first five years. Minimum deposit $10,000. Licensed by the state insurance department.")
	if s, ok := advanceFeeSignal(annuity); ok {
		t.Errorf("an annuity's terms: %s %.2f", s.Kind, s.Weight)
	}
	loan := page("https://funding.example.top/", "Your loan of $20,000 is pre-approved. A refundable insurance deposit of $400 must be paid before disbursement.")
	if s, ok := advanceFeeSignal(loan); !ok || s.Weight != weightAdvanceFee {
		t.Errorf("a loan's fee before disbursement: %v %.2f", ok, s.Weight)
	}
}

// storied is a story signal as it reads a page alone, its view read for it.
func storied(signal func(moderation.Capture, storyView) (Signal, bool)) func(moderation.Capture) (Signal, bool) {
	return func(c moderation.Capture) (Signal, bool) { return signal(c, readStory(c)) }
}
