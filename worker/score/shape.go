package score

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The weights of the signals read from a page's shape: whose logo and headings it wears, how
// bare its sign-in form stands, what it offers for trivial tasks, what it says of a mailbox.
const (
	weightBareLogin = 0.5  // a sign-in form alone on an odd host, linking nowhere of its own
	weightTaskChat  = 0.85 // pay by the day for liking or rating, and a chat to get the tasks
	weightTaskPay   = 0.6  // … the pay and the tasks, no chat named
	weightMailbox   = 0.75 // a mailbox full or to upgrade, and its password asked off the providers' hosts
)

// bareText is the visible text under which a sign-in page has nothing but its form.
const bareText = 300

// wornBrand is a brand a page wears outside its words: in a heading, a logo, its icon.
type wornBrand struct {
	brand *brand
	where string // "heading Chase Online Banking", "logo Microsoft", "icon from www.chase.com"
}

// wornBrands are the brands a page shows as its own: named in its headings, in its first
// image or an image named a logo (file name or alternative text), or whose host its icon is
// loaded from or named after. Images further down (card schemes on a checkout, "Continue with
// Google" buttons) are not the page's own.
func wornBrands(c moderation.Capture) []wornBrand { return brandsWorn(c, true) }

// imageBrands are the brands a page wears in its images alone: its logo and its icon.
func imageBrands(c moderation.Capture) []wornBrand { return brandsWorn(c, false) }

// brandsWorn are wornBrands, those of the headings only when headings is set.
func brandsWorn(c moderation.Capture, headings bool) []wornBrand {
	var out []wornBrand
	seen := map[*brand]bool{}
	add := func(b *brand, where string) {
		if !seen[b] {
			seen[b] = true
			out = append(out, wornBrand{b, where})
		}
	}
	if headings {
		for _, n := range namedBrands(c.Headings) {
			add(n.brand, "heading naming "+n.name)
		}
	}
	first := true
	for _, img := range c.Images {
		switch {
		case img.Icon:
			if b := brandOwning(normalizeHost(img.Host)); b != nil {
				add(b, "icon from "+img.Host)
			}
			for _, b := range brandsInFileName(img.Name) {
				add(b, "icon "+img.Name)
			}
			continue
		case !first && !strings.Contains(strings.ToLower(img.Name+" "+img.Alt), "logo") && !strings.Contains(img.Alt, "标志"):
			continue
		}
		first = false
		if signInWithRE.MatchString(img.Alt + " " + img.Name) {
			continue // a button to sign in with the brand's account, not the page's logo
		}
		for _, n := range namedBrands(img.Alt) {
			add(n.brand, "logo "+n.name)
		}
		for _, b := range brandsInFileName(img.Name) {
			add(b, "logo "+img.Name)
		}
	}
	return out
}

// signInWithRE is a button that signs in with another's account: "Sign in with Google",
// "continue-with-apple.svg", 使用微信登录; nor is a QR code to sign in with it.
var signInWithRE = mustPattern(`(?i)(?:sign|log)[ _-]?in[ _-]with|continue[ _-]with|connect[ _-]with|btn[_-]|button|使用.{0,8}登录|一键登录|qr[ _-]?code|二维码`)

// brandsInFileName are the brands whose key a file's name holds as a word: "paypal-logo.svg",
// "logo_icbc.png".
func brandsInFileName(name string) []*brand {
	name = strings.ToLower(name)
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	words := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var out []*brand
	for i := range brands {
		for _, k := range append(append([]string{}, brands[i].keys...), brands[i].weak...) {
			if len(k) >= 4 && containsString(words, k) {
				out = append(out, &brands[i])
				break
			}
		}
	}
	return out
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// freeHosts are where anyone can put a page up under a name of the host's: a sign-in page
// there belongs to whoever made it, rarely to the sign-in it shows.
var freeHosts = []string{"web.app", "firebaseapp.com", "pages.dev", "workers.dev", "netlify.app", "vercel.app",
	"github.io", "gitlab.io", "glitch.me", "herokuapp.com", "onrender.com", "repl.co", "replit.app", "weebly.com",
	"wixsite.com", "godaddysites.com", "blogspot.com", "000webhostapp.com", "azurewebsites.net", "web.core.windows.net",
	"r2.dev", "surge.sh", "fly.dev", "square.site", "webflow.io", "framer.website", "framer.app", "notion.site",
	"ipfs.io", "dweb.link", "translate.goog", "ngrok.io", "ngrok-free.app", "trycloudflare.com", "backblazeb2.com",
	"storage.googleapis.com", "s3.amazonaws.com", "firebasestorage.googleapis.com", "myshopify.com", "jimdosite.com",
	"yolasite.com", "webnode.page", "mystrikingly.com", "carrd.co", "typedream.app", "gitbook.io", "codeanyapp.com"}

// cheapSuffixes are top-level domains that cost little and that phishing favours.
var cheapSuffixes = map[string]bool{"top": true, "xyz": true, "icu": true, "click": true, "live": true, "site": true,
	"online": true, "shop": true, "vip": true, "cc": true, "buzz": true, "rest": true, "cfd": true, "sbs": true,
	"monster": true, "cyou": true, "bond": true, "lol": true, "link": true, "work": true, "fun": true, "space": true,
	"tk": true, "ml": true, "ga": true, "cf": true, "gq": true, "win": true, "loan": true, "bid": true, "gdn": true,
	"quest": true, "autos": true, "mom": true, "beauty": true, "hair": true, "skin": true, "makeup": true, "pw": true}

// oddHost says why host is not where a brand or an organisation keeps its sign-in page: a
// free host's subdomain, a cheap suffix, a name of letters and digits mixed at random, or a name
// of phishing's words. "" when it is not odd.
func oddHost(host string) string {
	if host == "" || ownedByBrand(host) {
		return ""
	}
	if isIPLiteral(host) {
		return "" // weighed by the ip-literal signal
	}
	if isUserContent(host) {
		return "a page anyone may publish (" + host + ")"
	}
	for _, f := range freeHosts {
		if strings.HasSuffix(host, "."+f) {
			return "a free host's subdomain (" + f + ")"
		}
	}
	suffix, _ := publicsuffix.PublicSuffix(host)
	if cheapSuffixes[suffix] {
		return "a ." + suffix + " name"
	}
	labels := strings.Split(strings.TrimSuffix(host, "."+suffix), ".")
	for _, l := range labels {
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' }) {
			if mixedRandom(part) {
				return "a name of random letters and digits (" + part + ")"
			}
		}
	}
	n := 0
	for _, l := range labels {
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == '-' || r == '_' }) {
			if hostWords[w] {
				n++
			}
		}
	}
	if n >= 2 {
		return "a name of phishing's words"
	}
	return ""
}

// mixedRandom says whether a label part mixes letters and digits in four runs or more
// ("x7k2m", "3af7c"): names people choose keep their digits together ("web2day", "365days").
func mixedRandom(s string) bool {
	runs, prevDigit := 0, false
	for i, r := range s {
		d := r >= '0' && r <= '9'
		if i == 0 || d != prevDigit {
			runs++
		}
		prevDigit = d
	}
	return runs >= 4
}

// ownLinks counts the links of c that lead to its own registrable domain.
func ownLinks(c moderation.Capture) int {
	page := registrableDomain(captureHost(c))
	n := 0
	for _, l := range c.Links {
		if registrableDomain(normalizeHost(l)) == page {
			n++
		}
	}
	return n
}

// bareLoginSignal weighs the shape of a credential harvest that wears no brand: a password or
// code asked on a page of little else, with no link to its own site, on an odd host.
func bareLoginSignal(c moderation.Capture) (Signal, bool) {
	a := pageAsks(c)
	host := captureHost(c)
	if !a.any(askPassword|askOTP|askPIN|askSecret) || changesPassword(c) || ownLinks(c) > 0 {
		return Signal{}, false
	}
	if n := len([]rune(strings.TrimSpace(c.Text))); n >= bareText {
		return Signal{}, false
	}
	odd := oddHost(host)
	if odd == "" {
		return Signal{}, false
	}
	return Signal{"bare-login", weightBareLogin, CategoryPhishing,
		fmt.Sprintf("%s is asked for %s on a page of little else, linking nowhere of its own, on %s, %s", c.Profile, a, host, odd)}, true
}

var (
	// Pay by the day or the task: "earn $300 per day", 日结, 日赚, 佣金.
	taskPayRE = mustPattern(`earn (?:up to )?[$€£]?[0-9][0-9,.]*(?: ?- ?[$€£]?[0-9][0-9,.]*)? ?(?:usd|dollars)? (?:a|per) day|[$€£][0-9][0-9,.]*(?: ?- ?[$€£]?[0-9][0-9,.]*)? (?:a|per) day|paid daily|daily (?:pay|income|salary|commission)|commission per (?:task|order|review)|` +
		`日结|日赚|日入|一单一结|每单佣金|佣金|一天[0-9]+`)
	// Tasks no one pays for: liking, rating, reviewing, following, "boosting" orders.
	taskWorkRE = mustPattern(`(?:lik(?:e|ing)|rat(?:e|ing)|review(?:ing)?|follow(?:ing)?|subscrib(?:e|ing) to|boost(?:ing)?|optimi[sz](?:e|ing)|click(?:ing)?) (?:products|videos|youtube|tiktok|hotels|apps|channels|posts|orders)|` +
		`like videos|rate products|点赞|好评|刷单|关注.{0,4}(?:账号|博主)|做任务|抢单|领取任务|数据优化`)
	// A chat given as the way to the tasks.
	taskChatRE = mustPattern(`whatsapp|telegram|wechat|微信|\bqq\b|联系(?:招聘|客服|导师|专员|hr)|(?:contact|message) (?:our|the) (?:hr|recruiter|manager|mentor)`)
)

// chatHosts are the chats a link can open.
var chatHosts = []string{"wa.me", "api.whatsapp.com", "chat.whatsapp.com", "t.me", "telegram.me", "line.me", "u.wechat.com"}

// taskSignal weighs a job that pays by the day for liking, rating or reviewing, and sends its
// reader to a chat for the tasks: the task scam's recruitment, whose deposit comes later, in
// the chat. Pages that speak of scams are left alone.
func taskSignal(c moderation.Capture) (Signal, bool) {
	text := pageWords(c)
	pay, work := taskPayRE.FindString(text), taskWorkRE.FindString(text)
	if pay == "" || work == "" || warningRE.MatchString(text) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	chat := taskChatRE.FindString(text)
	for _, l := range c.Links {
		for _, h := range chatHosts {
			if chat == "" && underDomain(normalizeHost(l), h) {
				chat = h
			}
		}
	}
	if chat != "" {
		return Signal{"task-scam", weightTaskChat, CategoryScam,
			fmt.Sprintf("%s reads %q for %q, and is sent to %s", c.Profile, pay, work, chat)}, true
	}
	return Signal{"task-scam", weightTaskPay, CategoryScam, fmt.Sprintf("%s reads %q for %q", c.Profile, pay, work)}, true
}

// mailboxRE is a mailbox's pretext, told to its reader: your mailbox is full, over its quota,
// to upgrade, about to stop ("mailbox upgrades: ask the help desk" is no pretext).
var mailboxRE = mustPattern(`your (?:mailbox|webmail|e-?mail(?: account)?|email storage|mail storage)[^.]{0,80}(?:full|quota|storage limit|exceeded|upgrade|deactivat|expire|suspend|stop receiving|not be able to (?:send|receive))|` +
	`(?:upgrade|validate|verify|re-?activate) your (?:mailbox|webmail|e-?mail account|email quota|quota)|mailbox (?:is|has) (?:full|exceeded|reached)|` +
	`(?:mailbox|webmail|e-?mail account)[^.]{0,60}(?:must|needs? to|has to) be (?:upgraded|validated|verified|migrated|re-?activated)|` +
	`mailboxes (?:not|that are not) (?:upgraded|validated|verified)|(?:messages|emails) (?:are |have been )?(?:held|on hold|pending) until|` +
	`(?:您|你)的邮箱.{0,20}(?:已满|不足|超出|升级|停用|过期|验证|冻结)|邮箱(?:容量|空间)?(?:已满|即将满|已超出|已停用|即将停用|已过期)|(?:立即|请)(?:升级|验证|激活)(?:您的)?邮箱`)

// mailboxSignal weighs a page that tells its reader their mailbox is full or must be
// upgraded, and asks for its password there, off the mail providers' own hosts: the webmail
// "upgrade". A password change (a new password asked) is an honest notice.
func mailboxSignal(c moderation.Capture) (Signal, bool) {
	a := pageAsks(c)
	if !a.any(askPassword|askOTP) || changesPassword(c) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	text := pageWords(c) + " " + foldText(c.Headings)
	m := mailboxRE.FindString(text)
	if m == "" || warningRE.MatchString(text) {
		return Signal{}, false
	}
	return Signal{"mailbox", weightMailbox, CategoryPhishing,
		fmt.Sprintf("%s reads %q and is asked for %s on %s", c.Profile, truncate(m, 60), a, captureHost(c))}, true
}
