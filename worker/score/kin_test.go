package score

import (
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// TestSixthRoundSignals: each signal of the sixth round's edges — a denial, a warning that
// quotes the story, a service at the door, a screen reader's own permission, a checkout
// waiting on the banking app, an exchange's referral, a plain attachment, traditional
// characters.
func TestSixthRoundSignals(t *testing.T) {
	apk := func(c moderation.Capture, pkg string) moderation.Capture {
		c.Downloads = []string{pkg}
		return c
	}
	checkSignalCases(t, []signalCase{
		{"a new number asking a bill paid", storied(newNumberSignal), page("https://chat.example.net/t/1", "Hi Dad, this is my new number. Could you pay the garage £400 for me today? I'll pay you back on Friday."), weightNewNumber},
		{"a new number in traditional characters", storied(newNumberSignal), page("https://chat.example.tw/s/1", "阿姨，我換了號碼。你先幫我墊 2 萬，明天就還你。"), weightNewNumber},
		{"a new number and no money", storied(newNumberSignal), page("https://club.example.org/", "This is my new number, save my new number. See you on Sunday."), 0},
		{"a bank quoting the message", storied(newNumberSignal), page("https://bank.example.co.uk/scams", "Scammers write \"this is my new number, could you pay this for me? I'll pay you back\". Call your child first: this is fraud."), 0},
		{"savings to gold for an officer, secret", storied(handoverSignal), page("https://case.example.com/", "将名下存款全部兑换为黄金，由专员上门封存。不得向家人透露。"), weightHandover},
		{"a gold buyer at the door", storied(handoverSignal), page("https://gold.example.com/", "黄金上门回收，现金结算，客户信息严格保密。"), 0},
		{"protection off and a locked zip", storied(disarmSignal), page("https://free.example.com/get", "Open setup.zip with the password 1234. Turn off real-time protection during installation."), weightDisarm},
		{"protection off alone", storied(disarmSignal), page("https://free.example.com/get", "Disable your antivirus before you install the activator."), weightDisarmOnly},
		{"a vendor saying it is not needed", storied(disarmSignal), page("https://soft.example.cn/", "本软件安装时不需要关闭杀毒软件。"), 0},
		{"a guru's group handing out an app", storied(chatInvestSignal), page("https://news.example.net/a/1", "学员战绩 +48.5%。加助理微信：abc_1234，助理会发专属交易 app。"), weightChatInvest},
		{"an exchange's referral", storied(chatInvestSignal), page("https://exchange.example.com/ref", "BTC +18.4% this month. Join us on Telegram @exchange. Use your invitation code for a fee discount on USDT deposits."), 0},
		{"a broker's own app with its warning", storied(chatInvestSignal), page("https://broker.example.co.uk/app", "Our fund returned +21% last year. Message our team on WhatsApp @broker_help. Our members' app is on the App Store. Capital at risk."), 0},
		{"a buyer's payment held for the card", storied(heldPayoutSignal), page("https://deal.example.com/o/1", "Your buyer has paid £80. The money is released once you verify the debit card it is credited to."), weightHeldPayout},
		{"a checkout waiting on the banking app", storied(heldPayoutSignal), page("https://shop.example.com/confirm", "Your payment is pending until you confirm it in your banking app with your debit card."), 0},
		{"a platform's own payout", storied(heldPayoutSignal), page("https://market.example.com/sales/1", "Your buyer has paid £54. Once the buyer confirms delivery, the money moves to your balance and you can withdraw it to your bank account."), 0},
		{"a locked archive before a deadline", storied(lockedArchiveSignal), withLinks(page("https://notice.example.com/", "附件：名单.zip（解压密码：8866），请于 12 月 10 日前下载。"), "down.example.net"), weightLockedArchiveDeadline},
		{"a locked archive alone", storied(lockedArchiveSignal), withLinks(page("https://mods.example.com/", "Download pack.zip, archive password: mods"), "files.example.net"), weightLockedArchive},
		{"a plain attachment", storied(lockedArchiveSignal), withLinks(page("https://data.example.gov.uk/", "Download parking-2025.zip (CSV)."), "files.example.gov.uk"), 0},
		{"an app granting screen sharing to an agent", sideloadSignal, apk(page("https://help.example.com/app", "Install the app, then enable accessibility service and allow screen sharing so our agent can guide you."), "https://cdn.example.net/h.apk"), weightSideload},
		{"a screen reader's own permission", sideloadSignal, apk(page("https://reader.example.org/", "After installing, turn on the accessibility service for the reader so it can read the screen."), "https://reader.example.org/r.apk"), 0},
	})

	gift := moderation.Form{Action: "https://www.example-mart.com/card/query", Method: "post", Password: true, Card: true,
		Fields: []string{"card_no", "card_pwd"}, Hints: []string{"卡号", "卡密（刮开涂层）"}, Types: []string{"text", "password"}, Inputs: 2}
	own := page("https://www.example-mart.com/card", "购物卡余额查询", gift)
	if s, ok := paymentSignal(own); ok {
		t.Errorf("a shop's own card checked on its own site: %s %.2f", s.Kind, s.Weight)
	}
	gift.Action = "https://collect.example.top/p.php"
	if ownStoredValueCard(page("https://www.example-mart.com/card", "购物卡余额查询", gift)) {
		t.Errorf("a shop's card sent to another site is read as checked on its own")
	}
}
