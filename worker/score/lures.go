package score

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The lures' signals read what a page asks its reader to do outside the page, which a kit
// cannot leave out without losing its mark: paste a command into the system's run box, let a
// stranger's remote-access app in to get money back, scan a copied sign-in's QR code, install
// an app from off the stores, sign in to see a shared document (docs/moderation.md,
// "Heuristics").
const (
	weightPasteCommand  = 0.9  // the run box opened and a command pasted, to "verify"
	weightRemoteRefund  = 0.85 // a remote-access app, and money to be given back
	weightQRLogin       = 0.8  // scan to sign in, on a page wearing a brand its host is not
	weightSideload      = 0.85 // an app package off the stores, with a brand worn or the phone told to trust it
	weightSideloadAlone = 0.3  // an app package off the stores, on an odd host
	weightSharedDoc     = 0.6  // sign in to see a document shared, off the brands' hosts
)

var (
	// The system's run box or terminal, opened from the keyboard.
	runBoxRE = mustPattern(`\b(?:win(?:dows)?(?: key)? ?(?:\+|and) ?r)\b|⊞ ?\+ ?r|windows ?徽标键? ?\+ ?r|\bwin ?键? ?\+ ?r|` +
		`run (?:dialog|box|window)|运行(?:对话框|窗口|框)|open (?:the )?terminal|打开终端|powershell|(?:cmd|command) ?\+ ?space`)
	// A paste from the keyboard, and its running.
	pasteRE = mustPattern(`\bctrl ?\+ ?v\b|\b(?:cmd|command) ?\+ ?v\b|\bpaste\b|粘贴`)
	// The pretext: proving the reader is a person, or fixing a fault.
	verifyPretextRE = mustPattern(`captcha|robot|human|cloudflare|ray id|verification steps|人机|机器人|验证步骤|完成验证|` +
		`apply the fix|copy (?:the )?fix|复制修复|一键修复`)
	// A command shown on the page: an installation guide shows what it has its reader paste;
	// a lure keeps it on the clipboard.
	shownCommandRE = mustPattern(`\b(?:iwr|iex|irm|curl|wget|winget|choco|scoop|npm|npx|pip|brew|apt|msiexec|mshta)\b|\.ps1\b|` +
		`powershell -|\| ?(?:sh|bash|iex)\b`)
	// Words that only an advisory about these lures says.
	lureWarningRE = mustPattern(`\bmalware\b|\battack(?:s|ers?)?\b|clickfix|\bdrainers?\b|恶意(?:软件|程序|代码|链接|网站|网址|插件|应用)|木马|攻击`)

	// A remote-access or screen-sharing app a stranger's "agent" is let in by.
	remoteAppRE = mustPattern(`anydesk|teamviewer|quicksupport|rustdesk|ultraviewer|supremo|splashtop|zoho assist|` +
		`screen ?shar(?:e|ing)|share your screen|remote (?:access|support|desktop|assistance)|向日葵|todesk|屏幕共享|共享屏幕|远程(?:协助|控制|桌面|操作)`)
	// Money the reader is told they will get back.
	refundRE = mustPattern(`refund|reimburse|compensation|overcharg|cancel(?:l?ing)? (?:your |the )?(?:subscription|order|membership|renewal)|` +
		`退款|退费|退还|赔付|理赔|补偿|赔偿|取消.{0,6}(?:会员|自动续费|扣费|保险)|关闭.{0,6}(?:百万保障|保险|会员|扣费)|注销.{0,4}(?:账户|贷款|校园贷)`)

	// Scan a code to sign in.
	qrLoginRE = mustPattern(`scan (?:the |this )?qr(?: code)? (?:to|and) (?:log ?in|sign ?in|verify|continue|confirm)|` +
		`scan (?:it )?with (?:your |the )?[a-z ]{2,24} app to (?:log ?in|sign ?in|verify|continue)|` +
		`link (?:a|your|this) device|linked devices|(?:capture|scan) the (?:qr )?code (?:to|and) (?:link|log ?in|sign ?in|stay)|` +
		`扫码登录|扫描二维码登录|扫一扫登录|扫码(?:验证|认证|授权)|扫描.{0,6}二维码.{0,8}(?:登录|验证|认证|授权)|使用.{0,8}扫一扫|关联设备|登录新设备`)

	// A code to scan with the phone's camera, which moves a sign-in off the computer: a QR
	// sign-in when the page speaks of signing in or verifying and the scan pays nothing.
	phoneScanRE   = mustPattern(`scan (?:the |this )?(?:qr )?code with (?:your )?(?:phone|mobile|phone's camera|camera)|用手机(?:相机|摄像头)?扫描(?:二维码|此码|上方)`)
	signInWordsRE = mustPattern(`sign ?in|log ?in|verif|authenticat|re-?regist|登录|认证|验证|授权`)
	payWordsRE    = mustPattern(`\bpay|payment|checkout|支付|付款|收款`)

	// The phone told to trust what it installs.
	trustInstallRE = mustPattern(`unknown sources|install unknown apps|allow (?:installation|installing) from|trust (?:the )?(?:enterprise )?developer|` +
		`device management|profile (?:downloaded|installed)|certificate trust settings|(?:enable|turn on) full trust|` +
		`未知(?:来源|应用)|来源未知|仍然安装|install anyway|信任.{0,8}(?:开发者|企业)|描述文件|设备管理|(?:凭证|证书)信任`)

	// The permissions that let someone else read and drive the phone, asked of an app the page
	// offers: accessibility, screen sharing or recording (开启无障碍服务, 屏幕共享).
	remoteGrantRE = mustPattern(`\b(?:turn on|enable|allow|grant)\b[^.]{0,30}\b(?:accessibility(?: service| access| permission)?|screen (?:sharing|recording|mirroring))\b|` +
		`(?:开启|打开|允许|授予|開啟|打開|允許)[^。]{0,6}(?:无障碍|無障礙|屏幕共享|屏幕录制|螢幕分享|螢幕錄製|共享屏幕)`)

	// Granted for someone else to act on the phone: "so our agent can guide you", 以便民警远程
	// 协助. A screen reader asks for accessibility for its own user.
	remoteHelperRE = mustPattern(`\b(?:our|the|an?) (?:agent|officer|adviser|advisor|engineer|technician|staff|support team|specialist|customer service)\b[^.]{0,30}\b(?:can|will|to)\b|` +
		`(?:民警|警官|客服|工作人员|专员|老师|技术人员|办案)[^。]{0,10}(?:远程|协助|指导|操作|检测|查看)`)

	// A document, file or message shared with the reader and shown after signing in.
	sharedDocRE = mustPattern(`shared (?:a |an |the |\d+ )?(?:document|file|folder|pdf|spreadsheet|invoice)s? with you|` +
		`(?:view|open|access|download|read|preview) (?:the |this |your )?(?:shared |secure |encrypted |protected )?(?:document|file|pdf|invoice|voicemail|fax|attachment|remittance)s?\b|` +
		`查看(?:文件|文档|附件|共享)|(?:共享|分享)(?:了|给您的|给你的)?(?:文件|文档|附件)|(?:登录|验证).{0,6}(?:查看|下载)(?:文件|文档|附件)`)
)

// speaksOfLures says the page warns of scams or attacks: an advisory quoting a lure's words.
func speaksOfLures(words string) bool {
	return warningRE.MatchString(words) || lureWarningRE.MatchString(words)
}

// lureSignals adds the lures' signals of one visitor's page.
func lureSignals(c moderation.Capture, add func(Signal)) {
	for _, signal := range []func(moderation.Capture) (Signal, bool){pasteCommandSignal, remoteRefundSignal, qrLoginSignal, sideloadSignal, sharedDocSignal, releaseFeeSignal} {
		if s, ok := signal(c); ok {
			add(s)
		}
	}
}

// pasteCommandSignal weighs a page that tells its reader to open the system's run box or
// terminal and paste into it, to prove they are human or to fix a fault: the page has put a
// command on the clipboard (a fake CAPTCHA, "ClickFix").
func pasteCommandSignal(c moderation.Capture) (Signal, bool) {
	words := pageWords(c)
	if !runBoxRE.MatchString(words) || !pasteRE.MatchString(words) || !verifyPretextRE.MatchString(words) ||
		shownCommandRE.MatchString(words) || speaksOfLures(words) {
		return Signal{}, false
	}
	return Signal{"paste-command", weightPasteCommand, CategoryMalware,
		fmt.Sprintf("%s is told to open the run box or a terminal and paste into it (%q, %q)", c.Profile,
			runBoxRE.FindString(words), pasteRE.FindString(words))}, true
}

// remoteRefundSignal weighs a page that promises money back (a refund, a cancelled renewal, a
// compensation) through a remote-access or screen-sharing app, or has the reader move money
// (the bank's app opened, a transfer) while the app is on: the "agent" empties the account.
func remoteRefundSignal(c moderation.Capture) (Signal, bool) {
	words := pageWords(c)
	if speaksOfLures(words) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	// The app and the money in one breath: a support site that does both, refunds in one
	// section and remote help in another, is no lure.
	for _, m := range remoteAppRE.FindAllStringIndex(words, -1) {
		if negated(words, m[0]) {
			continue
		}
		near := words[max(0, m[0]-refundReach):min(len(words), m[1]+refundReach)]
		if r := refundRE.FindString(near); r != "" || moneyMoveRE.MatchString(near) {
			if r == "" {
				r = moneyMoveRE.FindString(near)
			}
			return Signal{"remote-refund", weightRemoteRefund, CategoryScam,
				fmt.Sprintf("%s is offered money back (%q) through a remote-access app (%q)", c.Profile, r, words[m[0]:m[1]])}, true
		}
	}
	return Signal{}, false
}

// moneyMoveRE is the reader's money moved while a stranger watches the screen: the bank's app
// opened, a transfer, the balance read out (story.go has the rest of that story).
var moneyMoveRE = mustPattern(`(?:open|log ?in to|sign in to) (?:your )?(?:bank(?:ing)?|online banking) (?:app|account)|transfer (?:the |your )?(?:money|funds|balance)|` +
	`打开(?:手机)?银行 ?app|登录(?:手机)?银行|网银转账|(?:将|把)?余额转(?:入|出|到)|转账至|转入.{0,8}账户`)

// refundReach is how far from the remote-access app the money back must be said, in bytes:
// about a sentence each way (some 60 Chinese characters).
const refundReach = 180

// negationRE is a sentence saying something is never asked: "we will never ask you to share
// your screen", 不会要求您……共享屏幕.
var negationRE = mustPattern(`never|won't|will not|do not|don't|no need|does not need|doesn't need|not required|不会|不要|切勿|谨防|请勿|从不|绝不|从未|不承诺|不保证|不需要|无需|不必`)

// negated says a negation stands before words[at:] in its sentence (within 40 Chinese
// characters, or 120 Latin ones).
func negated(words string, at int) bool {
	before := words[max(0, at-120):at]
	if i := strings.LastIndexAny(before, ".!?。！？"); i >= 0 {
		before = before[i:]
	}
	return negationRE.MatchString(before)
}

// Held money released against a payment: an investment dashboard that asks a "tax", a fee or
// a deposit before a withdrawal.
var (
	withdrawRE   = mustPattern(`withdraw|提现|出金|取款`)
	releaseFeeRE = mustPattern(`(?:pay|deposit|transfer|settle) (?:the |a |an )?(?:[a-z0-9%-]+ ){0,3}(?:tax|fee|deposit|margin)(?:[^.]|\.[0-9]){0,60}(?:before|until|to|so that) [^.]{0,30}(?:releas|unlock|withdraw|process)|` +
		`before (?:your )?(?:funds|withdrawal|profits?|balance)[^.]{0,40}(?:released|unlocked|processed|withdrawn)[^.]{0,20}(?:pay|deposit)|` +
		`(?:需|须|需要|必须)先?(?:缴纳|支付|补缴|充值).{0,16}(?:税|手续费|保证金|解冻金|认证金|风险金)|缴纳.{0,24}后.{0,12}(?:解冻|到账|提现|出金)`)
	weightReleaseFee = 0.85
)

// releaseFeeSignal weighs a page holding the reader's money (a withdrawal, a balance) until a
// tax, a fee or a deposit is paid first: an investment or task platform's last step.
func releaseFeeSignal(c moderation.Capture) (Signal, bool) {
	words := pageWords(c)
	m := releaseFeeRE.FindString(words)
	// An exchange's fee table that says it never asks a fee before releasing funds is no demand.
	if m == "" || !withdrawRE.MatchString(words) || speaksOfLures(words) || noFeeRE.MatchString(words) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	return Signal{"release-fee", weightReleaseFee, CategoryScam,
		fmt.Sprintf("%s is told to pay before a withdrawal is released (%q)", c.Profile, m)}, true
}

// pageBrands are the brands a page names as its own: in its title, its description or its
// headings, or worn as its logo or icon.
func pageBrands(c moderation.Capture) []*brand {
	var out []*brand
	seen := map[*brand]bool{}
	for _, n := range namedBrands(c.Title + " \n " + c.Description + " \n " + c.Headings) {
		if !seen[n.brand] {
			seen[n.brand] = true
			out = append(out, n.brand)
		}
	}
	for _, w := range wornBrands(c) {
		if !seen[w.brand] {
			seen[w.brand] = true
			out = append(out, w.brand)
		}
	}
	return out
}

// qrLoginSignal weighs a page asking its reader to scan a QR code to sign in, on a page that
// names as its own a brand whose host it is not, with no image of that brand's own hosts: the
// code signs the scanner's account in for whoever shows it.
func qrLoginSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	words := pageWords(c)
	scan := qrLoginRE.FindString(words)
	if scan == "" {
		scan = phoneScan(words)
	}
	if host == "" || ownedByBrand(host) || scan == "" || speaksOfLures(words) {
		return Signal{}, false
	}
	// A code to scan before a deadline or the account is lost presses for what no portal asks.
	text := foldText(c.Title + " \n " + c.Text + " \n " + c.OCRText)
	threat := lossRE.MatchString(text) && deadlineRE.MatchString(text)
	for _, b := range pageBrands(c) {
		if b.owns(host) || !qrAccountKinds[b.kind] && !threat || servedBy(c, b) {
			continue
		}
		return Signal{"qr-login", weightQRLogin, CategoryPhishing,
			fmt.Sprintf("%s is asked to scan a code to sign in (%q) on a page wearing %s, on %s", c.Profile,
				scan, b.keys[0], host)}, true
	}
	return Signal{}, false
}

// phoneScan is a code to scan with the phone on a page that speaks of signing in or verifying,
// its sentence paying nothing: "" when there is none.
func phoneScan(words string) string {
	m := phoneScanRE.FindStringIndex(words)
	if m == nil || !signInWordsRE.MatchString(words) || payWordsRE.MatchString(sentenceAround(words, m[0], m[1])) {
		return ""
	}
	return words[m[0]:m[1]]
}

// offersBrandChannel says whether the page names b only as a channel it sends its reader to: a
// link to b's own hosts (a game's store page beside the studio's own installer), b unnamed in
// the page's title and not its logo or icon. A page dressed as b names it in its title or wears
// its logo.
func offersBrandChannel(c moderation.Capture, b *brand) bool {
	for _, n := range namedBrands(c.Title) {
		if n.brand == b {
			return false
		}
	}
	for _, w := range imageBrands(c) {
		if w.brand == b {
			return false
		}
	}
	for _, l := range c.Links {
		if b.owns(normalizeHost(l)) {
			return true
		}
	}
	return false
}

// qrAccountKinds are the brands whose app signs its user in elsewhere by a scanned code:
// messengers, wallets, banks, shops, mail and games. A government portal or a courier that
// offers "scan with Alipay to sign in" wears its own name, not the app's.
var qrAccountKinds = map[string]bool{"payment": true, "bank": true, "social": true, "webmail": true, "crypto": true,
	"shop": true, "gaming": true}

// servedBy says whether the page loads an image or a script from b's own hosts: a sign-in of
// the brand's own, embedded.
func servedBy(c moderation.Capture, b *brand) bool {
	for _, i := range c.Images {
		if b.owns(normalizeHost(i.Host)) {
			return true
		}
	}
	for _, s := range c.Scripts {
		if b.owns(normalizeHost(s)) {
			return true
		}
	}
	return false
}

// appStores are where apps are installed from honestly; a package they serve is no sideload.
var appStores = []string{"play.google.com", "apps.apple.com", "itunes.apple.com", "apps.microsoft.com",
	"appgallery.huawei.com", "app.mi.com", "sj.qq.com", "f-droid.org", "apkmirror.com"}

// sideloadSignal weighs a page offering an app package or an installer from a host that is
// no store's nor a listed brand's: with a brand worn that is not the host's, or the phone told
// to trust what it installs, it is a fake app; alone on an odd host, it adds weight.
func sideloadSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" || ownedByBrand(host) {
		return Signal{}, false
	}
	var pkg, from string
	for _, d := range c.Downloads {
		u, err := url.Parse(d)
		if err != nil {
			continue
		}
		h := normalizeHost(u.Hostname())
		store := false
		for _, s := range appStores {
			store = store || underDomain(h, s)
		}
		if store || (h != "" && ownedByBrand(h)) {
			continue
		}
		pkg, from = path.Base(u.Path), h
		if u.Scheme == "itms-services" {
			pkg, from = "an iOS enterprise app", host
		}
		break
	}
	if pkg == "" {
		return Signal{}, false
	}
	words := pageWords(c)
	for _, b := range pageBrands(c) {
		if !b.owns(host) && b.kind != "identity" && !offersBrandChannel(c, b) {
			return Signal{"sideload", weightSideload, CategoryMalware,
				fmt.Sprintf("%s is offered %s from %s on a page wearing %s, on %s", c.Profile, pkg, from, b.keys[0], host)}, true
		}
	}
	// The app's permissions that hand the phone to someone else: an advisory offers no
	// package, and an honest app's page says it never asks them.
	if m := remoteGrant(words); m != "" {
		return Signal{"sideload", weightSideload, CategoryMalware,
			fmt.Sprintf("%s is offered %s from %s and told to grant it %q", c.Profile, pkg, from, m)}, true
	}
	if m := firstUnnegated(trustInstallRE, words); m != "" && !speaksOfLures(words) {
		return Signal{"sideload", weightSideload, CategoryMalware,
			fmt.Sprintf("%s is offered %s from %s and told to trust it (%q)", c.Profile, pkg, from, m)}, true
	}
	if why := oddHost(host); why != "" {
		return Signal{"sideload", weightSideloadAlone, CategoryMalware,
			fmt.Sprintf("%s is offered %s from %s, on %s (%s)", c.Profile, pkg, from, host, why)}, true
	}
	return Signal{}, false
}

// sharedDocSignal weighs a page asking for a password or a code to see a document, a file or
// a message shared with the reader, off the listed brands' hosts: the shared-file lure.
func sharedDocSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" || ownedByBrand(host) {
		return Signal{}, false
	}
	if !pageAsks(c).any(askPassword|askOTP) || changesPassword(c) {
		return Signal{}, false
	}
	words := pageWords(c)
	m := sharedDocRE.FindString(words)
	if m == "" || speaksOfLures(words) {
		return Signal{}, false
	}
	return Signal{"shared-document", weightSharedDoc, CategoryPhishing,
		fmt.Sprintf("%s is asked for a password to see a shared document (%q), on %s", c.Profile, strings.TrimSpace(m), host)}, true
}

// remoteGrant is the first permission the page asks for an app it offers that lets someone else
// act on the phone, in a sentence that says for whom: "" when there is none.
func remoteGrant(words string) string {
	for _, m := range remoteGrantRE.FindAllStringIndex(words, -1) {
		if !negated(words, m[0]) && remoteHelperRE.MatchString(sentenceAround(words, m[0], m[1])) {
			return words[m[0]:m[1]]
		}
	}
	return ""
}
