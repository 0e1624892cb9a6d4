package score

import (
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

func TestShapeSignals(t *testing.T) {
	signIn := moderation.Form{Password: true, Fields: []string{"email", "password"}, Types: []string{"email", "password"}, Inputs: 2}
	card := moderation.Form{Card: true, Fields: []string{"cardnumber", "exp", "cvc"}, Types: []string{"text", "text", "text"}, Inputs: 3}
	with := func(c moderation.Capture, f func(*moderation.Capture)) moderation.Capture { f(&c); return c }
	tests := []struct {
		name   string
		signal func(moderation.Capture) (Signal, bool)
		c      moderation.Capture
		want   float64 // 0: no signal
	}{
		{"a heading naming a bank", passwordForm, with(page("https://acc-review.example.com/", "Username. Password.", signIn),
			func(c *moderation.Capture) { c.Headings = "Chase Online Banking" }), weightFormTitleBrand},
		{"the bank's own heading", passwordForm, with(page("https://secure.chase.com/", "Username. Password.", signIn),
			func(c *moderation.Capture) { c.Headings = "Chase Online Banking" }), 0},
		{"a logo as the first image", passwordForm, with(page("https://files.example.top/", "Sign in", signIn),
			func(c *moderation.Capture) {
				c.Images = []moderation.Image{{Host: "files.example.top", Name: "logo.svg", Alt: "Microsoft"}}
			}), weightFormTitleBrand},
		{"a logo by its file name", passwordForm, with(page("https://files.example.com/", "Sign in", signIn),
			func(c *moderation.Capture) {
				c.Images = []moderation.Image{{Host: "files.example.com", Name: "paypal-logo.png"}}
			}), weightFormTitleBrand},
		{"an icon from the brand's host", passwordForm, with(page("https://claim.example.xyz/", "Log in", signIn),
			func(c *moderation.Capture) {
				c.Images = []moderation.Image{{Host: "static-assets-prod.epicgames.com", Name: "favicon.ico", Icon: true}}
			}), weightFormTitleBrand},
		{"sign-in buttons of other brands", passwordForm, with(page("https://app.example.io/login", "Log in", signIn),
			func(c *moderation.Capture) {
				c.Images = []moderation.Image{{Host: "app.example.io", Name: "continue-with-google.svg", Alt: "Google"}, {Host: "app.example.io", Name: "apple.svg", Alt: "Apple"}}
			}), 0},
		{"card schemes' logos on a checkout", cardForm, with(page("https://shop.example.com/pay", "Card number", card),
			func(c *moderation.Capture) {
				c.Images = []moderation.Image{{Host: "shop.example.com", Name: "visa-logo.svg", Alt: "Visa"}, {Host: "shop.example.com", Name: "mastercard-logo.svg", Alt: "Mastercard"}}
			}), 0},

		{"a bare sign-in on a free host", bareLoginSignal, page("https://3af7c.pages.dev/", "Login. Email. Password.", signIn), weightBareLogin},
		{"a bare sign-in on a cheap suffix", bareLoginSignal, page("https://portal.example.icu/", "登录 账号 密码", signIn), weightBareLogin},
		{"a bare sign-in on an ordinary host", bareLoginSignal, page("https://grafana.example-logistics.com/", "Welcome to Grafana. Email. Password.", signIn), 0},
		{"a sign-in on a free host linking to its own pages", bareLoginSignal, withLinks(page("https://notes.vercel.app/", "Log in. Email. Password. Sign up", signIn), "notes.vercel.app"), 0},

		{"pay by the day for likes, and a chat", taskSignal, page("https://jobs.example.vip/", "Earn $300 per day by liking videos. Contact our HR manager on WhatsApp"), weightTaskChat},
		{"刷单 and a WeChat", taskSignal, page("https://jianzhi.example.top/", "点赞员 每单佣金5元 日结 添加导师微信"), weightTaskChat},
		{"pay and likes, a chat by its link", taskSignal, withLinks(page("https://job.example.shop/", "给商品好评 一单一结 日赚300"), "t.me"), weightTaskChat},
		{"a job paid by the hour, on WhatsApp", taskSignal, page("https://cafe.example.cn/jobs", "门店兼职 时薪25元 添加店长微信报名"), 0},
		{"news of task scams", taskSignal, page("https://news.example/", "Scammers offer $300 per day for liking videos, then ask for a deposit on WhatsApp"), 0},

		{"a mailbox upgrade asking its password", mailboxSignal, page("https://mail-notice.example.top/", "Your mailbox has exceeded its storage limit. Verify below to upgrade. Email. Password.", signIn), weightMailbox},
		{"邮箱升级", mailboxSignal, page("https://example.top/", "您的邮箱容量已满 请立即升级 邮箱账号 邮箱密码", signIn), weightMailbox},
		{"a mailbox help page", mailboxSignal, page("https://help.example.ac.uk/", "When your mailbox is full, delete large attachments or ask for a larger quota."), 0},
		{"the provider's own page", mailboxSignal, page("https://mail.163.com/", "邮箱容量已满 升级VIP邮箱 邮箱账号 密码", signIn), 0},

		{"a recovery phrase and a box", secretSignal, page("https://validate.example.xyz/", "Type your 12 word recovery phrase below. Validate",
			moderation.Form{Fields: []string{"data"}, Types: []string{"textarea"}, Inputs: 1}), weightSecret},
		{"a wallet's help and its search box", secretSignal, page("https://help.wallet.example/", "Restore with your recovery phrase in the app. We never ask for it on a website.",
			moderation.Form{Fields: []string{"q"}, Types: []string{"search"}, Inputs: 1}), 0},
		{"an article on phrases and its comments", secretSignal, page("https://news.example/", "Never share your recovery phrase: these scam pages steal it.",
			moderation.Form{Fields: []string{"comment", "name"}, Types: []string{"textarea", "text"}, Inputs: 2}), 0},
		{"a grid of 24 the browser listed 20 of", secretSignal, page("https://restore.example.app/", "Import your wallet", grid(24, 20)), weightSecret},
		{"a grid of 12 and a choice of length", secretSignal, page("https://restore.example.app/", "Import your wallet",
			func() moderation.Form {
				f := grid(12, 12)
				f.Fields, f.Types, f.Inputs = append([]string{"length"}, f.Fields...), append([]string{"select-one"}, f.Types...), 13
				return f
			}()), weightSecret},
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
				t.Errorf("signal %+v (found %v), want weight %.2f", s, ok, tt.want)
			}
		})
	}
}

func passwordForm(c moderation.Capture) (Signal, bool) {
	return formSignal(c, "password-form", "a password", pageAsks(c).any(askPassword|askOTP))
}

func cardForm(c moderation.Capture) (Signal, bool) {
	return formSignal(c, "card-form", "a card", pageAsks(c).any(askCard|askCVV|askExpiry|askPIN|askID))
}

// grid is a form of n word inputs named by their place, of which the browser listed the first
// listed.
func grid(n, listed int) moderation.Form {
	f := moderation.Form{Inputs: n}
	for i := 1; i <= listed; i++ {
		f.Fields = append(f.Fields, "word"+string(rune('0'+i/10))+string(rune('0'+i%10)))
		f.Types = append(f.Types, "text")
	}
	return f
}

func TestHostShapes(t *testing.T) {
	for _, tt := range []struct {
		host string
		odd  bool
	}{
		{"docs-viewer.web.app", true}, {"x7k2m.com", true}, {"secure-account-check.com", true}, {"login.example.top", true},
		{"grafana.example-logistics.com", false}, {"web2day.com", false}, {"mail.163.com", false}, {"sites.google.com", true},
	} {
		if got := oddHost(tt.host) != ""; got != tt.odd {
			t.Errorf("oddHost(%s) = %q, want odd %v", tt.host, oddHost(tt.host), tt.odd)
		}
	}
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"contoso-health.com", "contoso-id.net", true}, {"hengtai-group.com", "hengtai.com.cn", true}, {"acme.com", "acmegroup-sso.net", true},
		{"fabrikam-portal.com", "login-auth-center.net", false}, {"hengda-keji.com", "mailauth-login.cn", false},
	} {
		if got := sameOrganisation(tt.a, tt.b); got != tt.same {
			t.Errorf("sameOrganisation(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
	for _, tt := range []struct {
		host string
		ok   bool
	}{
		{"pay.xiaomiao-mall.cn", false}, {"paypalsecure.com", true}, {"binanceus-gift.com", true},
		{"steam-trade-gift.com", true}, {"steam-cleaning.com", false}, {"contoso.sharepoint.com", false},
	} {
		if _, _, detail, ok := lookAlike(tt.host); ok != tt.ok {
			t.Errorf("lookAlike(%s) = %v (%s), want %v", tt.host, ok, detail, tt.ok)
		}
	}
}
