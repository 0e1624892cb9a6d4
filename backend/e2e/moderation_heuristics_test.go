package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/worker/review"
)

// The pages of TestModerationHeuristicsAlone: three honest ones that name prizes, payment brands
// and sign-in providers in passing, and five abusive ones as they are met in the wild.
const (
	// heurArticle is a local paper's report: a prize won and WeChat Pay taken, in the third person.
	heurArticle = `<!doctype html><html><head><meta charset="utf-8"><title>Flower show draws record crowd – Town Herald</title>
<meta name="description" content="Tulips, a raffle and visitors from our twin town."></head><body>
<h1>Flower show draws record crowd</h1>
<p>Mrs Lee won first prize for her tulips at Saturday's flower show, and the winner of the raffle
took home a bicycle. Entry was five pounds; stalls took cash, cards and WeChat Pay for visitors
from the twin town.</p><p>Next year's show is planned for May.</p>
<form action="/search"><input type="search" name="q" placeholder="Search the Herald"></form></body></html>`

	// heurCheckout is a shop's own checkout, asking for a card on its own host.
	heurCheckout = `<!doctype html><html><head><meta charset="utf-8"><title>Checkout – Tea Corner</title></head><body>
<h1>Checkout</h1><p>Your order: Earl Grey tea 250 g, shortbread. Subtotal £14.50. Shipping fee £3.95.
Free shipping on orders over £30.</p>
<p>We accept Visa, Mastercard, American Express, PayPal, WeChat Pay, Alipay and UnionPay.</p>
<form action="/checkout/pay" method="post">
<label>Email <input type="email" name="email" autocomplete="email"></label>
<label>Name on card <input name="ccname" autocomplete="cc-name"></label>
<label>Card number <input name="cardnumber" autocomplete="cc-number" inputmode="numeric"></label>
<label>Expiry <input name="exp-date" autocomplete="cc-exp" placeholder="MM/YY"></label>
<label>Security code <input name="cvc" autocomplete="cc-csc"></label>
<label>Billing address <input name="address" autocomplete="street-address"></label>
<button>Place order</button></form></body></html>`

	// heurSignIn is a club's own sign-in page.
	heurSignIn = `<!doctype html><html><head><meta charset="utf-8"><title>Sign in – Garden Club</title></head><body>
<h1>Sign in to the Garden Club</h1>
<form action="/session" method="post">
<label>Email <input type="email" name="email" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label>
<button>Sign in</button></form>
<p><a href="/forgot">Forgot your password?</a> Or sign in with Google. New here? <a href="/join">Join the club</a>.</p>
</body></html>`

	// heurBankLookAlike copies a Chinese bank's online banking on a look-alike host.
	heurBankLookAlike = `<!doctype html><html><head><meta charset="utf-8"><title>中国工商银行 个人网上银行</title></head><body>
<h1>中国工商银行</h1><p>尊敬的客户：您的网银证书已过期，请及时登录升级。</p>
<form action="/ebank/login.php" method="post">
<div><span>卡号/用户名</span><input name="logonCardNum"></div>
<div><span>登录密码</span><input type="password" name="logonPwd"></div>
<div><span>短信验证码</span><input name="smsCode"></div>
<button>登录</button></form></body></html>`

	// heurWeChatPay is a WeChat Pay "security check" reached through a per-link id.
	heurWeChatPay = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>微信支付 - 账户安全验证</title><meta name="description" content="您的微信支付账户存在风险，请立即验证。"></head><body>
<h2>微信支付</h2><p>您的账户存在异常交易，已被临时限制收款。请输入手机号与支付密码完成身份验证，24小时内未验证将冻结账户。</p>
<form action="/p/verify" method="post">
<input name="phone" type="tel" placeholder="手机号">
<input name="password" type="password" placeholder="请输入6位支付密码" maxlength="6">
<button>验证</button></form></body></html>`

	// heurPrize tells the visitor they won a phone, for a shipping fee paid by card.
	heurPrize = `<!doctype html><html><head><meta charset="utf-8"><title>Congratulations!</title></head><body>
<h1>Congratulations! You have won an iPhone 15 Pro</h1>
<p>You are today's lucky winner. Claim your prize now: just pay the small shipping fee of $1.95.
Only 3 prizes left. Offer expires in 04:59.</p>
<form action="/checkout" method="post">
<input name="name" placeholder="Full name"><input name="phone" type="tel" placeholder="Phone">
<input name="address" placeholder="Delivery address">
<input name="card" placeholder="Card number"><input name="exp" placeholder="MM/YY"><input name="cvc" placeholder="CVC">
<button>Pay $1.95 and claim</button></form></body></html>`

	// heurCloakedNews is what the cloaked site shows everyone but WeChat's browser.
	heurCloakedNews = `<!doctype html><html><head><meta charset="utf-8"><title>每日新闻 - 春季种植指南</title></head><body>
<h1>春季种植指南</h1><p>四月是播种豌豆、蚕豆和生菜的好时节。夜间气温较低时，请为幼苗覆盖保温。</p>
<p>本周末社区花园将举办开放日活动，欢迎居民参加。</p></body></html>`

	// heurBridge moves on at once, by a meta refresh, to another site.
	heurBridge = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=http://docs-viewer.test/signin?doc=77">
<title>Loading…</title></head><body><p>Loading your document…</p></body></html>`

	// heurBridgeLanding is where the bridge leads: a Microsoft sign-in copy on a neutral host.
	heurBridgeLanding = `<!doctype html><html><head><meta charset="utf-8"><title>Sign in to your Microsoft account</title></head><body>
<h1>Microsoft</h1><p>Sign in to view the shared document.</p>
<form action="/signin/next" method="post">
<input type="email" name="loginfmt" placeholder="Email, phone, or Skype">
<input type="password" name="passwd" placeholder="Password"><button>Sign in</button></form></body></html>`
)

// TestModerationHeuristicsAlone: with no model configured, the worker judges eight pages with
// the heuristics alone, through real Chromium — an article, a shop's checkout and a club's
// sign-in page pass; a bank look-alike, a WeChat Pay phishing page behind a per-link id, a prize
// scam asking a shipping fee by card, a site showing a payment login to WeChat's browser only,
// and a meta-refresh hop to a sign-in copy are banned (or, for cloaking, at least flagged). At
// least 7 of the 8 must be right, and no honest page banned.
func TestModerationHeuristicsAlone(t *testing.T) {
	sites, browser := moderationRig(t)
	sites.html(t, "town-herald.test", heurArticle)
	sites.html(t, "tea-corner.test", heurCheckout)
	sites.html(t, "garden-club.test", heurSignIn)
	sites.html(t, "icbc-verify.test", heurBankLookAlike)
	sites.html(t, "m-verify88.test", heurWeChatPay)
	sites.html(t, "lucky-draw.test", heurPrize)
	sites.handle(t, "cn-daily-news.test", func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.UserAgent(), "MicroMessenger") {
			writeHTML(w, heurWeChatPay)
			return
		}
		writeHTML(w, heurCloakedNews)
	})
	sites.html(t, "daily-digest.test", heurBridge)
	sites.html(t, "docs-viewer.test", heurBridgeLanding)

	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	ms := moderationStores(t, d)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: heuristicScorer(t)})

	pages := []struct {
		name, url string
		benign    bool
		want      []string // the states that are right
	}{
		{"article", "http://town-herald.test/2026/05/flower-show", true, []string{"passed"}},
		{"shop checkout", "http://tea-corner.test/checkout", true, []string{"passed"}},
		{"own sign-in page", "http://garden-club.test/login", true, []string{"passed"}},
		{"bank look-alike", "http://icbc-verify.test/ebank/", false, []string{"banned"}},
		{"WeChat Pay phishing", "http://m-verify88.test/p/8f3a9c2e?id=55120973", false, []string{"banned"}},
		{"prize scam", "http://lucky-draw.test/claim?uid=38211", false, []string{"banned"}},
		{"cloaking", "http://cn-daily-news.test/2026/spring", false, []string{"flagged", "banned"}},
		{"meta-refresh hop", "http://daily-digest.test/r/77", false, []string{"banned"}},
	}
	ids := make([]int64, len(pages))
	for i, p := range pages {
		ids[i] = a.createLink(owner, map[string]any{"url": p.url}).ID
	}
	right := 0
	for i, p := range pages {
		got := a.waitReviewed(owner, ids[i], 90*time.Second)
		score := -1.0
		if got.Moderation.Score != nil {
			score = *got.Moderation.Score
		}
		ok := false
		for _, w := range p.want {
			ok = ok || got.Moderation.State == w
		}
		if ok {
			right++
		}
		var reason, scorer string
		if err := ms.db.Pool.QueryRow(context.Background(),
			`SELECT reason, scorer FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT 1`, ids[i]).Scan(&reason, &scorer); err != nil {
			t.Fatalf("%s: its review: %v", p.name, err)
		}
		if scorer != "heuristic" {
			t.Errorf("%s: scored by %q, want the heuristics", p.name, scorer)
		}
		t.Logf("%-20s %-7s %.3f %-9s right %v: %s", p.name, got.Moderation.State, score, got.Moderation.Category, ok, reason)
		if p.benign && got.Moderation.State == "banned" {
			t.Errorf("the honest %s was banned: %s", p.name, reason)
		}
	}
	t.Logf("%d of %d verdicts right", right, len(pages))
	if right < 7 {
		t.Errorf("%d of %d verdicts right, want at least 7", right, len(pages))
	}
}
