package score

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// visit is what one visitor saw: the destination opened, where it ended, after which hops.
func visit(p moderation.Profile, url, final, title, text string, forms ...moderation.Form) moderation.Capture {
	return moderation.Capture{
		Profile: p, URL: url, FinalURL: final, Redirects: []string{url, final}, Status: 200,
		Title: title, Text: text, Forms: forms,
	}
}

// same is three visitors seeing the same page.
func same(url, final, title, text string, forms ...moderation.Form) []moderation.Capture {
	var out []moderation.Capture
	for _, p := range moderation.Profiles {
		out = append(out, visit(p, url, final, title, text, forms...))
	}
	return out
}

var (
	password = moderation.Form{Action: "", Password: true, Fields: []string{"email", "password"}}
	card     = moderation.Form{Card: true, Fields: []string{"name", "cardnumber", "exp", "cvc"}}
	lorem    = "Welcome to our small bakery in the old town. We bake bread, cakes and pastries every morning with local flour and butter; come by for coffee."
)

func newHeuristic(t *testing.T, blocklist string) *Heuristic {
	t.Helper()
	cfg := HeuristicConfig{}
	if blocklist != "" {
		cfg.BlocklistPath = filepath.Join(t.TempDir(), "blocklist.txt")
		if err := os.WriteFile(cfg.BlocklistPath, []byte(blocklist), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h, err := NewHeuristic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHeuristic(t *testing.T) {
	h := newHeuristic(t, "# ours\nevil.example malware\n0.0.0.0 tracker.example.net\n")
	h.learned = nil // each rule's own weight; the learned signal is TestLearnedSignal's
	tests := []struct {
		name     string
		url      string
		captures []moderation.Capture
		min, max float64 // the score's bounds
		category string
		kind     string // the strongest signal, "" for none
	}{
		{"benign page", "https://bakery.example.org/", same("https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem),
			0, 0, "benign", ""},
		{"embedded blocklist", "https://testsafebrowsing.appspot.com/s/phishing.html", nil, 1, 1, "phishing", "blocklist"},
		{"blocklisted subdomain", "https://login.evil.example/", nil, 1, 1, "malware", "blocklist"},
		{"a name ending like a listed one is not listed", "https://notevil.example/", nil, 0, 0, "benign", ""},
		{"hosts-file line", "https://a.tracker.example.net/x", nil, 1, 1, "phishing", "blocklist"},
		{"blocklisted hop", "https://bakery.example.org/", []moderation.Capture{{Profile: moderation.Desktop,
			URL: "https://bakery.example.org/", FinalURL: "https://bakery.example.org/", Redirects: []string{"https://bakery.example.org/", "http://cdn.phishing.example/r", "https://bakery.example.org/"}}},
			1, 1, "phishing", "blocklist"},
		{"form posting to a listed host", "https://bakery.example.org/", same("https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem,
			moderation.Form{Action: "https://drop.evil.example/p.php", Fields: []string{"q"}}),
			1, 1, "malware", "blocklist"},
		{"IP literal", "http://203.0.113.7/files/setup.exe", nil, 0.5, 0.5, "malware", "ip-literal"},
		{"numeric host", "http://3405803783/", nil, 0.5, 0.5, "malware", "ip-literal"},
		{"IPv6 literal", "http://[2001:db8::1]/", nil, 0.5, 0.5, "malware", "ip-literal"},
		{"IP literal asking for a password", "http://203.0.113.7/login", same("http://203.0.113.7/login", "http://203.0.113.7/login", "Sign in", "Sign in", password),
			0.7, 0.7, "phishing", "ip-literal"},
		{"honest IDN", "https://xn--mnchen-3ya.de/", nil, 0.35, 0.35, "phishing", "punycode"},
		{"digit for a letter", "https://paypa1.com/", nil, 0.75, 0.75, "phishing", "look-alike"},
		{"brand as a word of another domain", "https://paypal-secure-login.com/", nil, 0.6, 0.6, "phishing", "look-alike"},
		{"brand as a subdomain", "https://paypal.account-verify.net/", nil, 0.6, 0.6, "phishing", "look-alike"},
		{"brand's domain worn at the front", "https://paypal.com.account-verify.net/", nil, 0.75, 0.75, "phishing", "look-alike"},
		{"Cyrillic letter", "https://xn--pypal-4ve.com/", nil, 0.83, 0.84, "phishing", "look-alike"},
		{"typo", "https://paypak.com/", nil, 0.55, 0.55, "phishing", "look-alike"},
		{"rn for m", "https://rnicrosoft.com/", nil, 0.75, 0.75, "phishing", "look-alike"},
		{"the brand's own site", "https://www.paypal.com/signin", same("https://www.paypal.com/signin", "https://www.paypal.com/signin", "Log in to your PayPal account", "Email or mobile number. Password.", password),
			0, 0, "benign", ""},
		{"the brand under a country's domain", "https://www.amazon.de/", same("https://www.amazon.de/", "https://www.amazon.de/ap/signin", "Amazon Anmelden", "E-Mail-Adresse Passwort", password),
			0, 0, "benign", ""},
		{"Google's log-in", "https://accounts.google.com/", same("https://accounts.google.com/", "https://accounts.google.com/v3/signin", "Sign in – Google Accounts", "Email or phone", password),
			0, 0, "benign", ""},
		{"words near brands are not typos", "https://finance.example.com/", same("https://finance.example.com/", "https://cloud.example.com/", "Finance", lorem),
			0, 0, "benign", ""},
		{"password on a look-alike", "https://paypa1-login.com/", same("https://paypa1-login.com/", "https://paypa1-login.com/signin", "Log in to your PayPal account", "Email. Password.", password),
			0.97, 1, "phishing", "password-form"},
		{"password under another's name", "https://secure-account-check.top/", same("https://secure-account-check.top/", "https://secure-account-check.top/owa", "Sign in to your Microsoft account", "Email, phone, or Skype", password),
			0.91, 0.92, "phishing", "password-form"},
		{"password under another's name, on a plain host", "https://mx-north.example.net/", same("https://mx-north.example.net/", "https://mx-north.example.net/owa", "Sign in to your Microsoft account", "Email, phone, or Skype", password),
			0.75, 0.75, "phishing", "password-form"},
		{"a card and its PIN", "https://bill-center.example.top/", same("https://bill-center.example.top/", "https://bill-center.example.top/", "Verification", "Card number. PIN.",
			moderation.Form{Card: true, Fields: []string{"cardnumber", "pin"}}), 0.92, 0.93, "phishing", "payment-form"},
		{"a 支付密码 by its placeholder", "https://m.example.cn/p/1", same("https://m.example.cn/p/1", "https://m.example.cn/p/1", "验证", "请输入",
			moderation.Form{Password: true, Fields: []string{"phone", "password"}, Hints: []string{"手机号", "请输入6位支付密码"}}), 0.6, 0.6, "phishing", "payment-form"},
		{"a gift card's number and PIN", "https://bakery.example.org/gift", same("https://bakery.example.org/gift", "https://bakery.example.org/gift", "Gift card balance", "Check your balance",
			moderation.Form{Card: true, Fields: []string{"giftCardNumber", "pin"}}), 0, 0, "benign", ""},
		{"a win, a fee and a card", "https://bakery.example.org/win", same("https://bakery.example.org/win", "https://bakery.example.org/win", "Congratulations!", "You have won an iPhone. Pay the shipping fee of $1.95.", card),
			0.85, 0.85, "scam", "scam"},
		{"a scam quoted by an advisory", "https://bakery.example.org/news", same("https://bakery.example.org/news", "https://bakery.example.org/news", "Prize scams", "If a page says you have won and must pay a shipping fee, it is a scam."),
			0, 0, "benign", ""},
		{"a page-made hop to another site", "https://bakery.example.org/", []moderation.Capture{{Profile: moderation.Desktop, URL: "https://bakery.example.org/", FinalURL: "https://cakes.example.net/",
			Redirects: []string{"https://bakery.example.org/", "https://cakes.example.net/"}, ClientRedirects: []string{"https://cakes.example.net/"}, Title: "Cakes", Text: lorem}},
			0.3, 0.3, "spam", "hop"},
		{"an HTTP redirect is no hop", "https://bakery.example.org/", []moderation.Capture{{Profile: moderation.Desktop, URL: "https://bakery.example.org/", FinalURL: "https://cakes.example.net/",
			Redirects: []string{"https://bakery.example.org/", "https://cakes.example.net/"}, Title: "Cakes", Text: lorem}},
			0, 0, "benign", ""},
		{"password under a brand named only in the text", "https://forum.example.org/login", same("https://forum.example.org/login", "https://forum.example.org/login", "Members' log-in", "Log in. Or sign in with Apple.", password),
			0.4, 0.4, "phishing", "password-form"},
		{"card under another's name", "https://parcel-fee.top/pay", same("https://parcel-fee.top/pay", "https://parcel-fee.top/pay", "DHL Express – customs fee", "Pay 1.99 EUR to release your parcel", card),
			0.75, 0.75, "phishing", "card-form"},
		{"card in Chinese under another's name", "https://pay.example.cn/", same("https://pay.example.cn/", "https://pay.example.cn/", "支付宝 - 安全支付", "请输入银行卡号", card),
			0.75, 0.75, "phishing", "card-form"},
		{"password and card under another's name", "https://parcel-fee.top/pay", same("https://parcel-fee.top/pay", "https://parcel-fee.top/pay", "DHL Express", "Log in and pay", password, card),
			0.96, 0.97, "phishing", "card-form"},
		{"a shop's own checkout", "https://bakery.example.org/checkout", same("https://bakery.example.org/checkout", "https://bakery.example.org/checkout", "Checkout", lorem, card),
			0, 0, "benign", ""},
		{"one shortener", "https://bit.ly/3xYz", same("https://bit.ly/3xYz", "https://bakery.example.org/", "Our bakery", lorem),
			0.3, 0.3, "spam", "shortener"},
		{"shortener chain", "https://tinyurl.com/abc", []moderation.Capture{{Profile: moderation.Desktop, URL: "https://tinyurl.com/abc", FinalURL: "https://bakery.example.org/",
			Redirects: []string{"https://tinyurl.com/abc", "https://is.gd/xyz", "https://goo.su/q", "https://bakery.example.org/"}, Title: "Our bakery", Text: lorem}},
			0.5, 0.5, "spam", "shortener"},
		{"back through this service", "https://bakery.example.org/", []moderation.Capture{{Profile: moderation.Desktop, URL: "https://bakery.example.org/", FinalURL: "https://bakery.example.org/",
			Redirects: []string{"https://bakery.example.org/", "https://sho.rt/Ab12Cd", "https://bakery.example.org/"}, Title: "Our bakery", Text: lorem}},
			0.5, 0.5, "spam", "shortener"},
		{"platform wrappers are no shorteners", "https://t.co/AbC", same("https://t.co/AbC", "https://bakery.example.org/", "Our bakery", lorem),
			0, 0, "benign", ""},
		{"cloaking: another site for WeChat", "https://bakery.example.org/", []moderation.Capture{
			visit(moderation.Desktop, "https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem),
			visit(moderation.Mobile, "https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem),
			visit(moderation.WeChat, "https://bakery.example.org/", "https://hongbao.example.net/", "恭喜发财", "点击领取红包，输入手机号和验证码即可到账"),
		}, 0.6, 0.6, "cloaking", "cloaking"},
		{"cloaking: a password for mobile only", "https://bakery.example.org/", []moderation.Capture{
			visit(moderation.Desktop, "https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem),
			visit(moderation.Mobile, "https://bakery.example.org/", "https://bakery.example.org/m", "Our bakery", lorem, password),
		}, 0.5, 0.5, "cloaking", "cloaking"},
		{"cloaking: different pages", "https://bakery.example.org/", []moderation.Capture{
			visit(moderation.Desktop, "https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem),
			visit(moderation.WeChat, "https://bakery.example.org/", "https://bakery.example.org/wx", "Investment club",
				"Join the guaranteed investment club today, daily returns of five percent, withdraw any time, invite friends for bonus"),
		}, 0.5, 0.5, "cloaking", "cloaking"},
		{"cloaking: an error for desktop only", "https://bakery.example.org/", []moderation.Capture{
			{Profile: moderation.Desktop, URL: "https://bakery.example.org/", FinalURL: "https://bakery.example.org/", Status: 403, Title: "Forbidden"},
			visit(moderation.Mobile, "https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem),
		}, 0.5, 0.5, "cloaking", "cloaking"},
		{"an app store for phones is no cloaking", "https://bakery.example.org/app", []moderation.Capture{
			visit(moderation.Desktop, "https://bakery.example.org/app", "https://bakery.example.org/app", "Our app", lorem),
			visit(moderation.Mobile, "https://bakery.example.org/app", "https://apps.apple.com/app/id123", "Bakery on the App Store", "Get the app of our bakery"),
		}, 0, 0, "benign", ""},
		{"an incomplete capture is no cloaking", "https://bakery.example.org/", []moderation.Capture{
			visit(moderation.Desktop, "https://bakery.example.org/", "https://bakery.example.org/", "Our bakery", lorem),
			{Profile: moderation.WeChat, URL: "https://bakery.example.org/", FinalURL: "https://other.example.net/", Error: "timeout"},
		}, 0, 0, "benign", ""},
		{"cloaking is outweighed by phishing", "https://paypa1.com/", []moderation.Capture{
			visit(moderation.Desktop, "https://paypa1.com/", "https://paypa1.com/", "Our bakery", lorem),
			visit(moderation.Mobile, "https://paypa1.com/", "https://paypa1.com/m", "PayPal", "Log in", password),
		}, 0.98, 1, "phishing", "password-form"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			link := LinkFacts{ID: 1, URL: tt.url, ShortURL: "https://sho.rt/Xb3kPq"}
			v, err := h.Score(context.Background(), link, tt.captures)
			if err != nil {
				t.Fatal(err)
			}
			if v.Score < tt.min || v.Score > tt.max || v.Category != tt.category || v.Scorer != "heuristic" {
				t.Errorf("verdict %+v, want %s within [%v, %v]", v, tt.category, tt.min, tt.max)
			}
			t.Logf("%.3f %s: %s", v.Score, v.Category, v.Reason)
			signals := h.Signals(link, tt.captures)
			switch {
			case tt.kind == "" && len(signals) > 0:
				t.Errorf("signals %+v, want none", signals)
			case tt.kind != "" && (len(signals) == 0 || signals[0].Kind != tt.kind):
				t.Errorf("signals %+v, want %s first", signals, tt.kind)
			}
			if v.Reason == "" || len([]rune(v.Reason)) > MaxReason {
				t.Errorf("reason %q", v.Reason)
			}
			for _, s := range signals {
				if !strings.Contains(v.Reason, s.Kind) {
					t.Errorf("reason %q does not list %s", v.Reason, s.Kind)
				}
			}
		})
	}
}

func TestLookAlike(t *testing.T) {
	tests := []struct {
		host  string
		brand string // "" for none
	}{
		{"paypa1.com", "paypal"},
		{"paypal-secure-login.com", "paypal"},
		{"xn--pypal-4ve.com", "paypal"},
		{"www.paypal.com", ""},
		{"paypal.com", ""},
		{"paypak.com", "paypal"},
		{"paypay.ne.jp", ""},
		{"paypalobjects.com", ""},
		{"g00gle.com", "google"},
		{"accounts.google.com", ""},
		{"google.co.jp", ""},
		{"appleid-verify.com", "apple"}, // a short name with an affix phishing hosts use: apple + id
		{"pineapple.example.com", ""},   // apple is too short to find inside other words
		{"wwwicbc.com", "icbc"},
		{"icbc95588.top", "icbc"},
		{"ccb-vip.top", "ccb"},
		{"ccbill.com", ""},
		{"boc-online.cn", "bankofchina"},
		{"bocconi.it", ""},
		{"cmbchina.com.verify-cn.top", "cmbchina"},
		{"abchina-e.com", "abchina"},
		{"abc.xyz", ""},
		{"pdd-refund.top", "pinduoduo"},
		{"95516-safe.com", "unionpay"},
		{"unionpay.com", ""},
		{"jd.com", ""},
		{"wxpay-safe.top", "wechat"},
		{"pay.weixin.qq.com", ""},
		{"apple-id.verify-account.com", "apple"},
		{"app1e.com", "apple"},
		{"icloud.com", ""},
		{"weixin.qq.com", ""},
		{"vveixin-pay.cn", "wechat"},
		{"wechat-pay.cn", "wechat"},
		{"icbc.com.cn", ""},
		{"1cbc-online.com", "icbc"},
		{"bankofamerlca.com", "bankofamerica"},
		{"bankofamerica.com", ""},
		{"alipay.com", ""},
		{"alipay-refund.top", "alipay"},
		{"taobao.com", ""},
		{"tao8ao.com", "taobao"},
		{"netflix.com", ""},
		{"netfllx-billing.com", "netflix"},
		{"purchase.example.com", ""}, // chase is inside a word
		{"finance.yahoo.com", ""},
		{"cloud.example.com", ""},
		{"example.org", ""},
		{"203.0.113.7", ""},
	}
	for _, tt := range tests {
		b, w, detail, ok := lookAlike(tt.host)
		got := ""
		if ok {
			got = b.keys[0]
		}
		if got != tt.brand {
			t.Errorf("lookAlike(%q) = %q (%v, %s), want %q", tt.host, got, w, detail, tt.brand)
		}
	}
}

func TestParseBlocklist(t *testing.T) {
	b := blocklist{}
	err := parseBlocklist(strings.NewReader(`
# comment
Evil.Example.          # trailing dot, any case
*.wild.example malware
127.0.0.1 localhost
0.0.0.0 0.0.0.0
0.0.0.0 hosts.example
bücher-login.example scam
`), "test", b)
	if err != nil {
		t.Fatal(err)
	}
	want := blocklist{"evil.example": "phishing", "wild.example": "malware", "hosts.example": "phishing", "xn--bcher-login-thb.example": "scam"}
	if len(b) != len(want) {
		t.Fatalf("parsed %v, want %v", b, want)
	}
	for h, c := range want {
		if b[h] != c {
			t.Errorf("%s: %q, want %q", h, b[h], c)
		}
	}
	if l, _, ok := b.match("a.b.wild.example"); !ok || l != "wild.example" {
		t.Errorf("a.b.wild.example: %q %v", l, ok)
	}
	for _, bad := range []string{"evil.example fraud", "evil.example phishing extra", "https://evil.example/", "evil.example benign"} {
		if err := parseBlocklist(strings.NewReader(bad), "test", blocklist{}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := NewHeuristic(HeuristicConfig{BlocklistPath: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing blocklist was accepted")
	}
}
