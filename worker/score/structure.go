package score

import (
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The structural signals read what a page does: what its forms ask for and where they send
// it, whose page it copies, what it asks its reader to do with money, and what it hides from
// its DOM (docs/moderation.md, "Heuristics"). Their weights, calibrated on
// testdata/calibration (pages.yaml and dev.yaml):
const (
	weightSecret         = 0.95 // a wallet's recovery phrase asked for: no honest web page does
	weightPostsScript    = 0.85 // a password sent to another site's script or a form collector
	weightPostsOther     = 0.8  // … to a site of another name than the page's, one of the two on an odd host
	weightPostsElsewhere = 0.8  // … to a site of another name, both on ordinary hosts, that the page does not name
	weightPostsOwnOrg    = 0.3  // … to another site of the same name (contoso.com to contoso-id.net)
	weightCopied         = 0.8  // a password asked on a page whose links go to a brand's own site
	weightCopiedOther    = 0.3  // … to one other site, not a listed brand
	weightGiveaway       = 0.9  // a wallet address and "send X, get 2X back"
	weightGiveawayWeak   = 0.6  // a wallet address, "send" and a giveaway's words
	weightFakeAlert      = 0.85 // a security alarm, a phone number and "call": a fake virus alert
	weightContactOnly    = 0.6  // an alarm and a contact channel, and little else on the page
	weightAdvanceFee     = 0.85 // a reward (a job's pay, a loan, a prize) held until a deposit or fee is paid
	weightAdvanceWeak    = 0.6  // a reward and a deposit or fee, the condition unsaid
	weightUltimatum      = 0.8  // sign in now or lose the account: a deadline, a loss and a password
	weightHiddenText     = 0.5  // a password or secret asked on a page with almost no words in its DOM
	weightDrawnText      = 0.65 // … whose words are drawn (the screenshot reads far more than the DOM)
)

// minDOMText is the visible text under which a page asking for a secret says too little in its
// DOM: an honest sign-in page at least says "Sign in", "Email", "Password" and "Forgot?".
const minDOMText = 20

// secretWordsRE find a recovery phrase in a field's hint or a page's words: "24 words",
// "words separated by spaces", 助记词.
var secretWordsRE = mustPattern(`\b(?:12|15|18|21|24)[- ]?words?\b|words? separated by|separate (?:each|the) words|` +
	`recovery (?:phrase|seed|words)|seed (?:phrase|words)|secret (?:phrase|words)|mnemonic|助记词|私钥`)

// walletWordsRE are what a page around a grid of words says: a wallet, its phrase, its words.
var walletWordsRE = mustPattern(`wallet|phrase|seed|mnemonic|\bwords?\b|import|restore|钱包|助记词|导入`)

// gridNameRE is a field named by its place in a grid: w1, word-12, phrase_3, 1.
var gridNameRE = mustPattern(`^(?:[a-z_-]*?)[-_]?(?:[0-9]{1,2})$`)

// secretSignal weighs a page asking for a wallet's recovery phrase — by a field's name or
// hint, or as a grid of 12 to 24 word inputs — on a host that is no listed brand's own.
func secretSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" || ownedByBrand(host) {
		return Signal{}, false
	}
	words := foldText(c.Title + " " + c.Text + " " + c.OCRText)
	for _, f := range c.Forms {
		what := ""
		switch {
		case formAsks(f).has(askSecret):
			what = "a wallet's recovery phrase"
		case hintsSay(f, secretWordsRE):
			what = "a wallet's recovery phrase (" + hintMatching(f, secretWordsRE) + ")"
		case isWordGrid(f) && walletWordsRE.MatchString(words):
			what = fmt.Sprintf("a grid of %d words", f.Inputs)
		case phraseBox(f) && secretWordsRE.MatchString(words) && !warningRE.MatchString(words) && !neverAskRE.MatchString(words):
			what = fmt.Sprintf("a wallet's recovery phrase (%q, and a box to type it in)", secretWordsRE.FindString(words))
		default:
			continue
		}
		return Signal{"secret-form", weightSecret, CategoryPhishing,
			fmt.Sprintf("%s is asked for %s on %s", c.Profile, what, host)}, true
	}
	return Signal{}, false
}

// neverAskRE is a wallet's own help telling its readers no one asks for their phrase.
var neverAskRE = mustPattern(`never (?:ask|share|include|enter|type|give)|do not (?:share|include|enter|give)|don't (?:share|include|enter|give)|不要(?:泄露|分享|透露|填写|提供)|切勿|绝不会|不会(?:主动)?(?:来电|致电|索要|要求)|请勿(?:泄露|提供|填写)`)

// phraseBox says whether f is where a phrase is typed: a text area, or one or two text inputs,
// none of them a search, an account, a name or a contact.
func phraseBox(f moderation.Form) bool {
	if f.Inputs == 0 || f.Inputs > 3 || formAsks(f).any(askLogin|askName|askPhone|askAddress|askCard) {
		return false
	}
	box := false
	for i, name := range f.Fields {
		t := ""
		if i < len(f.Types) {
			t = f.Types[i]
		}
		n := strings.ToLower(name)
		if t == "search" || n == "q" || n == "s" || strings.Contains(n, "search") {
			return false
		}
		box = box || t == "textarea" || t == "text" || t == "password"
	}
	return box
}

func hintsSay(f moderation.Form, re *pattern) bool { return hintMatching(f, re) != "" }

func hintMatching(f moderation.Form, re *pattern) string {
	for _, h := range f.Hints {
		if m := re.FindString(strings.ToLower(h)); m != "" {
			return m
		}
	}
	return ""
}

// isWordGrid says whether f is a grid of a recovery phrase's words: 12, 15, 18, 21 or 24
// inputs of text (or password), named by their place or not at all.
func isWordGrid(f moderation.Form) bool {
	words, numbered, other := 0, 0, 0
	for i, name := range f.Fields {
		if i < len(f.Types) && f.Types[i] != "" && f.Types[i] != "text" && f.Types[i] != "password" {
			other++ // a choice of the phrase's length, a checkbox
			continue
		}
		words++
		if n := strings.ToLower(name); n == "" || n == "text" || n == "password" || gridNameRE.MatchString(n) {
			numbered++
		}
	}
	if numbered*4 < words*3 || other > 3 {
		return false
	}
	// The browser lists a form's first fields only: those past them count as words too.
	switch words + max(0, f.Inputs-len(f.Fields)) {
	case 12, 15, 18, 21, 24:
		return true
	}
	return false
}

// formCollectors receive forms for sites that have no server: phishing kits send what they
// harvest there, or to a chat bot.
var formCollectors = []string{"api.telegram.org", "formspree.io", "getform.io", "formsubmit.co", "submit-form.com",
	"formcarry.com", "basin.usebasin.com", "webhook.site", "script.google.com", "hooks.zapier.com",
	"discord.com", "discordapp.com", "000webhostapp.com", "pipedream.net", "requestbin.net", "ngrok.io", "ngrok-free.app"}

// scriptPathRE is a form handler's path: a script, or the words kits name their handlers.
var scriptPathRE = mustPattern(`(?i)\.(?:php[0-9]?|asp|aspx|cgi|pl|jsp)$|/(?:gate|next|post|send|mail|submit|save|log|result|results|rezult|process|login2|verify|validate|sendmail)(?:\.[a-z0-9]+)?$`)

// postsSignal weighs a form asking for a password, a code, a PIN or a recovery phrase that
// sends it to another registrable domain than the page's — a listed brand's own domain (an
// identity provider, a payment processor) aside — or to a script of a look-alike host.
func postsSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" {
		return Signal{}, false
	}
	page := registrableDomain(host)
	pageName := page
	if oddHost(host) != "" {
		// A project on a free host is named in its path as often as in its host
		// (jdoe.github.io/trailmix/ and api.trailmix-app.com).
		pageName += "/" + firstPathSegment(captureURL(c))
	}
	var best Signal
	for _, f := range c.Forms {
		a := formAsks(f)
		if !a.any(askPassword | askPIN | askSecret | askOTP) {
			continue
		}
		if s, ok := scriptSendsSignal(c, a, host); ok && s.Weight > best.Weight {
			best = s
		}
		for _, target := range formTargets(c, f, host) {
			if s, ok := postsTo(c, a, host, pageName, target); ok && s.Weight > best.Weight {
				best = s
			}
		}
	}
	return best, best.Weight > 0
}

// postsTo weighs a form asking for a, on host (of the name pageName), that sends it to target.
func postsTo(c moderation.Capture, a asks, host, pageName, target string) (Signal, bool) {
	page := registrableDomain(host)
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") {
		return Signal{}, false
	}
	to := normalizeHost(u.Hostname())
	if to == "" {
		return Signal{}, false
	}
	script := scriptPathRE.MatchString(u.Path)
	collector := false
	for _, fc := range formCollectors {
		collector = collector || underDomain(to, fc)
	}
	var s Signal
	switch {
	case collector:
		s = Signal{"posts-elsewhere", weightPostsScript, CategoryPhishing,
			fmt.Sprintf("%s's form sends %s to %s, a form collector", c.Profile, a, to)}
	case registrableDomain(to) != page && !ownedByBrand(to) && disclosed(c, to):
		s = Signal{"posts-elsewhere", weightPostsOwnOrg, CategoryPhishing,
			fmt.Sprintf("%s's form on %s sends %s to another site it names, %s", c.Profile, host, a, to)}
	case registrableDomain(to) != page && !ownedByBrand(to) && script:
		s = Signal{"posts-elsewhere", weightPostsScript, CategoryPhishing,
			fmt.Sprintf("%s's form on %s sends %s to a script on another site, %s%s", c.Profile, host, a, to, u.Path)}
	case registrableDomain(to) != page && !ownedByBrand(to) && !sameOrganisation(pageName, registrableDomain(to)) &&
		(oddHost(to) != "" || oddHost(host) != ""):
		s = Signal{"posts-elsewhere", weightPostsOther, CategoryPhishing,
			fmt.Sprintf("%s's form on %s sends %s to a site of another name, %s", c.Profile, host, a, to)}
	case registrableDomain(to) != page && !ownedByBrand(to) && !sameOrganisation(pageName, registrableDomain(to)):
		s = Signal{"posts-elsewhere", weightPostsElsewhere, CategoryPhishing,
			fmt.Sprintf("%s's form on %s sends %s to another site, %s", c.Profile, host, a, to)}
	case registrableDomain(to) != page && !ownedByBrand(to):
		s = Signal{"posts-elsewhere", weightPostsOwnOrg, CategoryPhishing,
			fmt.Sprintf("%s's form on %s sends %s to another site of its name, %s", c.Profile, host, a, to)}
	case script:
		if b, _, _, ok := lookAlike(to); ok {
			s = Signal{"posts-elsewhere", weightPostsScript, CategoryPhishing,
				fmt.Sprintf("%s's form sends %s to a script of %s, a look-alike of %s", c.Profile, a, to, b.keys[0])}
		}
	}
	return s, s.Weight > 0
}

// orgWords are the words of domain names that name no organisation: what a site does, not
// whose it is.
var orgWords = map[string]bool{"login": true, "logon": true, "signin": true, "sso": true, "auth": true, "id": true,
	"idp": true, "portal": true, "mail": true, "email": true, "online": true, "web": true, "app": true, "apps": true,
	"cloud": true, "net": true, "group": true, "corp": true, "inc": true, "global": true, "center": true, "centre": true,
	"keji": true, "tech": true, "service": true, "services": true, "secure": true, "account": true, "accounts": true,
	"my": true, "the": true, "hr": true, "staff": true, "home": true, "info": true, "site": true}

// captureURL is where the visitor ended: the final URL, or the one opened.
func captureURL(c moderation.Capture) string {
	if c.FinalURL != "" {
		return c.FinalURL
	}
	return c.URL
}

// firstPathSegment is the first segment of a URL's path, "" when none.
func firstPathSegment(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	seg, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	return strings.ToLower(seg)
}

// sameOrganisation says whether two registrable domains carry a name in common, a word of 4
// letters or more that names someone (contoso-health.com and contoso-id.net; hengtai-group.com
// and hengtai.com.cn): an organisation's sign-in posting to its own identity provider. A
// domain may be followed by "/" and its page's first path segment, whose words count too.
func sameOrganisation(a, b string) bool {
	names := func(d string) []string {
		d, path, _ := strings.Cut(d, "/")
		suffix, _ := publicsuffix.PublicSuffix(d)
		label := strings.TrimSuffix(d, "."+suffix) + "." + path
		var out []string
		for _, w := range strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '.' || r >= '0' && r <= '9' }) {
			if len(w) >= 4 && !orgWords[w] && !hostWords[w] {
				out = append(out, w)
			}
		}
		return out
	}
	for _, x := range names(a) {
		for _, y := range names(b) {
			if x == y || strings.Contains(y, x) || strings.Contains(x, y) {
				return true
			}
		}
	}
	return false
}

// copiedSignal weighs a page asking for a password, a card or a secret whose links lead to
// one other site: a copy of that site's page keeps them ("Forgot password?", "Privacy").
func copiedSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" || !pageAsks(c).any(askPassword|askPIN|askCard|askSecret|askOTP|askID) || len(c.Links) < 3 {
		return Signal{}, false
	}
	page := registrableDomain(host)
	count := map[string]int{}
	for _, l := range c.Links {
		if d := registrableDomain(normalizeHost(l)); d != "" && d != page {
			count[d]++
		}
	}
	top, n := "", 0
	for d, k := range count {
		if k > n || (k == n && d < top) {
			top, n = d, k
		}
	}
	if n < 3 || 2*n < len(c.Links) {
		return Signal{}, false
	}
	if b := brandOwning(top); b != nil && !b.owns(host) {
		return Signal{"copied-page", weightCopied, CategoryPhishing,
			fmt.Sprintf("%s is asked for %s on %s, whose links lead to %s (%d of %d): a copy of %s's page",
				c.Profile, pageAsks(c), host, top, n, len(c.Links), b.keys[0])}, true
	}
	if brandOwning(top) != nil {
		return Signal{}, false
	}
	return Signal{"copied-page", weightCopiedOther, CategoryPhishing,
		fmt.Sprintf("%s is asked for %s on %s, whose links lead to %s (%d of %d)", c.Profile, pageAsks(c), host, top, n, len(c.Links))}, true
}

// Wallet addresses: Bitcoin (legacy and bech32), Ethereum and its chains, TRON.
var walletAddressRE = mustPattern(`\b(?:bc1[ac-hj-np-z02-9]{25,59}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})\b`)

var (
	// Sending coins to get more back.
	doubleBackRE = mustPattern(`(?:twice|double|2x|x2|3x|200%|two times) (?:the amount|back|your|of)|(?:get|receive|return|send) (?:back )?(?:twice|double|2x|x2|3x)|` +
		`(?:will|we) (?:immediately |instantly |automatically )?(?:send|return|pay) (?:it )?back|` +
		`(?:receive|get) (?:from )?[0-9.,]+ ?(?:btc|eth|usdt|sol|bnb|xrp|doge|bitcoin|ether)?[^.]{0,40} back|返还[0-9]+倍|` +
		`双倍|翻倍|返还(?:双倍|两倍|2倍|200%)|自动返还|原路返还.{0,6}倍`)
	// A giveaway's words.
	giveawayRE = mustPattern(`giveaway|give away|giving away|airdrop|distribution|free (?:btc|eth|usdt|crypto|bitcoin)|anniversary event|赠送|空投|回馈|福利活动`)
	// Sending coins.
	sendCoinsRE = mustPattern(`\bsend\b|\btransfer\b|\bdeposit\b|转入|转账|充值`)
)

// giveawaySignal weighs a page that shows a wallet address and promises more coins back for
// those sent to it. A page that speaks of scams (news quoting one) is left alone.
func giveawaySignal(c moderation.Capture) (Signal, bool) {
	raw := c.Title + " \n " + c.Text + " \n " + c.OCRText
	addr := walletAddressRE.FindString(raw)
	if addr == "" {
		return Signal{}, false
	}
	text := foldText(raw)
	if warningRE.MatchString(text) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	short := addr
	if len(short) > 12 {
		short = short[:6] + "…" + short[len(short)-4:]
	}
	if m := doubleBackRE.FindString(text); m != "" && sendCoinsRE.MatchString(text) {
		return Signal{"crypto-giveaway", weightGiveaway, CategoryScam,
			fmt.Sprintf("%s is shown the wallet address %s and reads %q: send coins, get more back", c.Profile, short, m)}, true
	}
	if m := giveawayRE.FindString(text); m != "" && sendCoinsRE.MatchString(text) {
		return Signal{"crypto-giveaway", weightGiveawayWeak, CategoryScam,
			fmt.Sprintf("%s is shown the wallet address %s and reads %q", c.Profile, short, m)}, true
	}
	return Signal{}, false
}

var (
	// A security alarm raised at the reader's own device or account.
	alarmRE = mustPattern(`(?:computer|pc|device|system|phone|mac|iphone|windows) (?:is|has been|was|may be) (?:infected|compromised|blocked|locked|hacked|at risk)|` +
		`access to this (?:pc|computer|device) has been (?:blocked|locked|suspended)|(?:virus|trojan|spyware|malware|ransomware)(?:es)? (?:detected|found|alert)|` +
		`infected with|security (?:warning|alert|breach)|do not (?:restart|shut down|turn off|close)|` +
		`(?:电脑|手机|设备|系统)(?:已|已经)?(?:被)?(?:感染|锁定|入侵|中毒)|感染(?:了)?病毒|木马|请勿(?:关闭|重启|关机)`)
	// A phone number: +1 (844) 555-0193, 1-800-555-0100, 400-855-0917, 0800 123 4567.
	phoneRE = mustPattern(`(?:\+?\d{1,3}[ .-]?)?\(?\d{3,4}\)?[ .-]?\d{3,4}[ .-]\d{3,4}\b|\b[48]00\d{7}\b|\b1[3-9]\d{9}\b`)
	// The device said to be locked: what a fake alert claims, and no page of help does.
	lockedRE = mustPattern(`(?:access to this (?:pc|computer|device)|your (?:pc|computer|device|browser)) (?:has been|is) (?:blocked|locked|suspended)|(?:电脑|设备|浏览器)(?:已被|已)(?:锁定|冻结)`)
	// Being kept on the page: a fake alert tells its reader not to close it.
	pinRE = mustPattern(`do not (?:restart|shut down|turn off|close)|don't (?:close|restart)|请勿(?:关闭|重启|关机)|不要关闭`)
	// Being told to call or write.
	callRE = mustPattern(`\bcall\b|\bdial\b|\bphone\b|toll[- ]free|helpline|hotline|拨打|致电|热线|联系`)
	// A chat or phone as the only way onwards.
	channelRE = mustPattern(`whatsapp|telegram|wechat|微信|\bqq\b|signal`)
)

// littleText is the visible text under which a page that raises an alarm has no content of its
// own: a fake alert is the alarm and a number, where a helpdesk or an article about infections
// has pages of help around its phone number.
const littleText = 600

// alertSignal weighs a page that raises an alarm about the reader's device or account and
// gives a phone number to call — a fake virus alert — or a chat to write to, with little else
// on it (littleText). Pages that speak of scams (news, advisories) are left alone.
func alertSignal(c moderation.Capture) (Signal, bool) {
	text := foldText(c.Title + " \n " + c.Text + " \n " + c.OCRText)
	alarm := alarmRE.FindString(text)
	if alarm == "" || warningRE.MatchString(text) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	// A page with content of its own — a helpdesk, an article — has more words than an alarm,
	// or a site to find one's way around; a fake alert has neither.
	if n := len([]rune(c.Text)); n >= 4*littleText || n >= littleText && (len(c.Links) > 0 || !pinRE.MatchString(text) && !lockedRE.MatchString(text)) ||
		ownLinks(c) >= 3 && !pinRE.MatchString(text) && !lockedRE.MatchString(text) {
		return Signal{}, false
	}
	if phone := phoneRE.FindString(text); phone != "" && (callRE.MatchString(text) || channelRE.MatchString(text)) {
		return Signal{"fake-alert", weightFakeAlert, CategoryScam,
			fmt.Sprintf("%s reads %q and is given %s to call", c.Profile, alarm, strings.TrimSpace(phone))}, true
	}
	if ch := channelRE.FindString(text); ch != "" && pinRE.MatchString(text) && len(c.Forms) == 0 {
		return Signal{"fake-alert", weightFakeAlert, CategoryScam,
			fmt.Sprintf("%s reads %q, is told to keep the page open and is sent to %s", c.Profile, alarm, ch)}, true
	}
	if ch := channelRE.FindString(text); ch != "" && len(c.Forms) == 0 {
		return Signal{"fake-alert", weightContactOnly, CategoryScam,
			fmt.Sprintf("%s reads %q and is sent to %s, on a page of little else", c.Profile, alarm, ch)}, true
	}
	return Signal{}, false
}

var (
	// A reward: a job's pay, a loan, returns (prizes are scamSignal's).
	rewardRE = mustPattern(`commission|earn \$?[0-9]|per day|daily (?:income|pay|profit)|part[- ]time|work from home|(?:loan|credit)(?: of [^ ]+)? (?:has been |is )?(?:approved|granted)|` +
		`release (?:the|your) (?:full )?(?:funds|loan|money|payout|payment|[$£€¥][0-9][0-9.,]*)|释放货款|货款[^。]{0,12}(?:到账|到您的)|guaranteed (?:return|profit)s?|withdraw (?:your )?(?:earnings|profit|commission)|` +
		`pre-?approved|disbursement|(?:grant|inheritance|compensation|settlement|winnings|unclaimed (?:funds|money))[^.]{0,30}(?:approved|awarded|ready|waiting|released|of [$£€][0-9])|` +
		`(?:release|return)s? (?:them|it) to you|(?:released|returned|paid out|sent back) to you|(?:funds|money|assets|crypto)[^.]{0,40}(?:located|traced|recovered)|` +
		`佣金|日赚|日结|兼职|返利|提现|放款|贷款(?:已)?(?:审批|通过|批准)|额度|收益`)
	// A payment the reader must make first.
	upfrontRE = mustPattern(`deposit|top[- ]?up|recharge|upfront|advance (?:fee|payment)|\bbond\b|(?:insurance|processing|activation|unlock|release|verification|service|membership|training|equipment|registration|transfer|clearance|upgrade) fee|starter kit|` +
		`pay (?:a |the )?(?:small |refundable )?fee|充值|垫付|押金|保证金|会员费|激活费|解冻金|开通费|升级费|解冻费|手续费|工本费|认证费|培训费|入职费|服装费|体检费|资料费`)
	// The payment is the condition of the reward.
	conditionRE = mustPattern(`must|required|need to|have to|in order to|to (?:release|unlock|receive|withdraw|activate|start|claim|get)|before|first|` +
		`\b(?:once|until|after)\b[^.]{0,40}\b(?:is|are|has been) (?:paid|settled|received|cleared)\b|` +
		`需先|需要先|先(?:充值|垫付|缴纳|支付|交)|才能|方可|激活|(?:需|须|需要|必须)(?:缴纳|支付|补缴|充值)|缴纳后|解冻`)
	// A fee denied: "no application fee", "we never ask for deposits", 不收取任何费用.
	noFeeRE = mustPattern(`\b(?:no|never|without|free of|zero)\b[^.]{0,40}(?:fee|deposit|charge|money|payment)|` +
		`\b(?:no|never|not)\b[^.]{0,40}\b(?:ask|require|request|charge)s?\b[^.]{0,40}\b(?:pay|deposit|fee)|(?:无需|不会|不收|不需要|绝不|不得|免)[^。，,.]{0,12}(?:费|押金|保证金|充值|垫付)`)
)

// depositInterestRE names the interest a deposit earns: a savings account's or a certificate's
// page, not a fee held against a reward.
var depositInterestRE = mustPattern(`\binterest\b|\bapy\b|\baer\b|利息|年利率`)

// advanceFeeSignal weighs a page that holds a reward — a job's pay, a loan, returns, a prize —
// until its reader pays a deposit or a fee: task scams, loan scams, prize scams. Pages that
// speak of scams, or say no fee is asked, are left alone.
func advanceFeeSignal(c moderation.Capture) (Signal, bool) {
	text := foldText(c.Title + " \n " + c.Description + " \n " + truncate(c.Text, scanText) + " \n " + c.OCRText)
	reward := firstUnnegated(rewardRE, text) // "不承诺任何返利" denies a reward
	fee := upfrontRE.FindString(text)
	// A page speaking of scams is an advisory unless it gives a way to pay it (story.go).
	if reward == "" || fee == "" || warningRE.MatchString(text) && !paysHere(c, text) || noFeeRE.MatchString(text) {
		return Signal{}, false
	}
	if ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	// The condition binds the fee in its own sentence: "a deposit is required before
	// disbursement", not "for the first five years" beside a minimum deposit.
	for _, m := range upfrontRE.FindAllStringIndex(text, -1) {
		sentence := sentenceAround(text, m[0], m[1])
		if buysPlaceRE.MatchString(sentence) {
			continue // a deposit that secures a place is its price (coverstory.go)
		}
		if cond := conditionRE.FindString(sentence); cond != "" {
			return Signal{"advance-fee", weightAdvanceFee, CategoryScam,
				fmt.Sprintf("%s reads %q held until %q is paid (%q)", c.Profile, reward, text[m[0]:m[1]], cond)}, true
		}
	}
	// The condition unsaid, a page that names its licence or its regulator is a financial
	// firm's own offer (story.go, licensedRE), and one whose deposit earns interest a bank's.
	if licensedRE.MatchString(text) || depositInterestRE.MatchString(text) {
		return Signal{}, false
	}
	return Signal{"advance-fee", weightAdvanceWeak, CategoryScam,
		fmt.Sprintf("%s reads %q and %q", c.Profile, reward, fee)}, true
}

var (
	// A loss threatened to the reader's account.
	lossRE = mustPattern(`deactivat|suspen|terminat|delet|disabled|closed|closure|lose access|blocked|will be (?:signed|logged|locked) out|` +
		`停用|冻结|注销|关闭|删除|封号|封停|作废|暂停(?:使用|服务)?|停保`)
	// A deadline.
	deadlineRE = mustPattern(`within (?:24|48|72|[0-9]+) ?(?:hours|hrs|h|days)|in (?:24|48|72) hours|today|immediately|failure to|` +
		`(?:by|before) (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* [0-9]{1,2}\b|` +
		`(?:24|48|72) ?小时内|今日内|立即|尽快|逾期|[0-9]{1,2} ?月 ?[0-9]{1,2} ?日 ?(?:前|之前)|本月内|今日 ?[0-9]{1,2}[:：]|` +
		// A deadline of hours the same day: 今晚 21:00 前, "by 8pm tonight".
		`(?:今晚|今天|今日|当晚|明天|明日) ?[0-9]{1,2} ?[:：点]|\bby [0-9]{1,2}(?::[0-9]{2})? ?(?:am|pm)? (?:tonight|today)\b`)
)

// ultimatumSignal weighs a page that tells its reader to sign in before a deadline or lose
// the account, and asks for the password there: the webmail "upgrade", the "verify or be
// closed" page. A form that changes a password (a new one asked twice) is an honest expiry
// notice; the brands' own hosts are left to themselves.
func ultimatumSignal(c moderation.Capture) (Signal, bool) {
	a := pageAsks(c)
	if !a.any(askPassword|askOTP) || changesPassword(c) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	text := foldText(c.Title + " \n " + c.Text + " \n " + c.OCRText)
	loss, deadline := lossRE.FindString(text), deadlineRE.FindString(text)
	if loss == "" || deadline == "" || warningRE.MatchString(text) {
		return Signal{}, false
	}
	return Signal{"ultimatum", weightUltimatum, CategoryPhishing,
		fmt.Sprintf("%s is told %q and %q, and asked for %s on %s", c.Profile, deadline, loss, a, captureHost(c))}, true
}

// newPasswordRE names a new password's fields: new, repeat, confirm, again, 新密码, 确认.
var newPasswordRE = mustPattern(`new|repeat|confirm|again|retype|re-enter|verify|second|新|确认|再次|重复`)

// changesPassword says whether a form of c asks for a new password: two password fields or
// more, or one marked new-password.
func changesPassword(c moderation.Capture) bool {
	for _, f := range c.Forms {
		n, twice := 0, false
		for i, name := range f.Fields {
			t := ""
			if i < len(f.Types) {
				t = f.Types[i]
			}
			hint := ""
			if i < len(f.Hints) {
				hint = strings.ToLower(f.Hints[i])
			}
			if strings.Contains(hint, "new-password") || strings.Contains(strings.ToLower(name), "new") && t == "password" {
				return true
			}
			if t == "password" {
				n++
				twice = twice || newPasswordRE.MatchString(strings.ToLower(name)+" "+hint)
			}
		}
		// Two password fields are a change when one is the new one or its confirmation; the
		// same password asked twice under no such word is a harvest checking its typing.
		if n >= 3 || n >= 2 && twice {
			return true
		}
	}
	return false
}

// hiddenTextSignal weighs a page asking for a password, a card or a secret with almost no
// words in its DOM: its words are drawn by CSS, SVG, a canvas or an image, where a filter
// reading the DOM does not see them. When the screenshot was read, a page whose screenshot
// says far more than its DOM weighs more. A capture with neither screenshot nor OCR text was not
// seen rendered, and is left alone.
func hiddenTextSignal(c moderation.Capture) (Signal, bool) {
	a := pageAsks(c)
	if !a.any(askPassword|askPIN|askCard|askSecret|askOTP) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	if len(c.Screenshot) == 0 && !c.Rendered && c.OCRText == "" {
		return Signal{}, false // not seen rendered: nothing says where its words went
	}
	dom := len([]rune(strings.TrimSpace(c.Text)))
	// A DOM of a few words (a button, a plate field) under a screenshot that reads four times
	// as much draws the rest of them (story.go's drawn bill has the same measure).
	if dom >= minDOMText && (dom >= brandTextPrefix/5 || textWeight(c.OCRText) < 4*dom) {
		return Signal{}, false
	}
	if ocr := textWeight(c.OCRText); ocr >= 2*minDOMText && ocr >= 3*dom {
		return Signal{"hidden-text", weightDrawnText, CategoryPhishing,
			fmt.Sprintf("%s is asked for %s on a page whose DOM holds %d characters of text and its screenshot %d: its words are drawn", c.Profile, a, dom, ocr)}, true
	}
	return Signal{"hidden-text", weightHiddenText, CategoryPhishing,
		fmt.Sprintf("%s is asked for %s on a page whose DOM holds %d characters of text", c.Profile, a, dom)}, true
}

// textWeight is how much text s holds, in characters of Latin script: a Chinese or Japanese
// character says about as much as three Latin ones ("登录" and "Sign in").
func textWeight(s string) int {
	n := 0
	for _, r := range strings.TrimSpace(s) {
		if r >= 0x2E80 {
			n += 3
		} else {
			n++
		}
	}
	return n
}
