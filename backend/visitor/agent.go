package visitor

import (
	"strings"

	"github.com/shortlink/shortlink/backend/visitor/uap"
)

// Device is the kind of device the rules target.
type Device string

// The devices of device targets (deviceOf); every other device (tablets and phones of other
// systems, TVs, consoles, cars, robots without a system) is OtherDevice.
const (
	IOS         Device = "ios"     // iPhone, iPad (when it does not ask for desktop sites), iPod, Apple Watch and TV
	Android     Device = "android" // Android phones, tablets and TVs, Huawei's HarmonyOS up to 4
	Desktop     Device = "desktop" // Windows, macOS (and iPads asking for desktop sites), Linux, ChromeOS, BSD, Solaris
	OtherDevice Device = "other"
)

// InApp is the app whose built-in browser shows the page, "" for a browser of its own.
type InApp string

// The in-app browsers told apart. WeChat and QQ are those of the "open in your browser"
// guide (wechat_guide); the others are for statistics.
const (
	WeChat    InApp = "wechat"    // "MicroMessenger", which WeCom (wxwork) sends too
	QQ        InApp = "qq"        // the QQ app (" QQ/"), not QQ Browser, a browser of its own
	Weibo     InApp = "weibo"     // "Weibo", "__weibo__"
	Alipay    InApp = "alipay"    // "AlipayClient"
	DingTalk  InApp = "dingtalk"  // "DingTalk"
	Douyin    InApp = "douyin"    // "aweme"
	TikTok    InApp = "tiktok"    // "musical_ly", "TikTok", "BytedanceWebview" outside Douyin
	Facebook  InApp = "facebook"  // "FBAN/", "FBAV/", "FB_IAB"
	Instagram InApp = "instagram" // "Instagram"
	LINE      InApp = "line"      // " Line/"
	Snapchat  InApp = "snapchat"  // "Snapchat"
)

// Agent is what a user agent says about the visitor.
type Agent struct {
	Device Device
	// OS is the system's family as uap-core names it: "iOS", "Android", "Windows",
	// "Mac OS X", "Linux", "Ubuntu", "Chrome OS", …, "Other" when unknown.
	OS string
	// Browser is the browser's family as uap-core names it: "Chrome", "Chrome Mobile",
	// "Mobile Safari", "Samsung Internet", "Edge", "Opera", "UC Browser", "Facebook",
	// "Instagram", "WeChat", …, "Other" when unknown.
	Browser string
	InApp   InApp
	// Crawler is a robot: search engine, link-preview fetcher, scanner, HTTP library.
	Crawler bool
}

// parseAgent reads a user agent with uap-core's expressions (package uap) and the crawler
// list; it costs tens of microseconds, hence the cache in Classifier.
func (c *Classifier) parseAgent(ua string) Agent {
	r := c.uap.Parse(ua)
	return Agent{
		Device:  deviceOf(r, ua),
		OS:      r.OS,
		Browser: r.Browser,
		InApp:   inApp(ua),
		// uap-core's "Spider" device adds robots the list lacks (mobile search bots, …).
		Crawler: c.crawlers.Match(ua) || r.Device.Family == "Spider",
	}
}

// desktopSystems are uap-core's families of the systems of desktops and laptops.
var desktopSystems = map[string]bool{
	"Windows": true, "Mac OS X": true, "Mac OS": true, "Chrome OS": true,
	"Linux": true, "Ubuntu": true, "Kubuntu": true, "Debian": true, "Fedora": true,
	"Red Hat": true, "CentOS": true, "SUSE": true, "openSUSE": true, "Mandriva": true,
	"Gentoo": true, "Slackware": true, "Mint": true, "Arch Linux": true,
	"FreeBSD": true, "OpenBSD": true, "NetBSD": true, "DragonFly BSD": true, "BSD": true,
	"Solaris": true, "SunOS": true, "Haiku": true, "BeOS": true,
}

// deviceOf is the device class of a reading, with what the user agent says besides for
// what the expressions leave unread:
//   - iOS for iOS, for iPhones, iPads and iPods whatever the system reads as, and for
//     Apple's watch and TV (their links are the iPhone's); an iPad asking for desktop sites
//     says it is a Mac, and is a desktop;
//   - Android for Android, its other spellings ("Andr0id", "diordnA", "Adr") included, but
//     Android apps on Chromebooks are desktops;
//   - a desktop for a desktop system on no phone, tablet, TV, console or car;
//   - the other class for the rest (other phones, TVs, consoles, watches, robots).
func deviceOf(r uap.Result, ua string) Device {
	switch r.OS {
	case "iOS":
		if strings.Contains(ua, "Darwin/") && strings.Contains(ua, "x86_64") {
			return Desktop // a Mac app's own requests (CFNetwork)
		}
		return IOS
	case "WatchOS", "tvOS", "ATV OS X":
		return IOS
	case "Android":
		if strings.Contains(ua, "Chromebook") {
			return Desktop
		}
		return Android
	case "Mac OS X", "Mac OS":
		return Desktop
	}
	switch r.Device.Family {
	case "iPhone", "iPad", "iPod", "iPod touch", "Apple Watch", "AppleTV":
		return IOS
	}
	if r.OS == uap.Other || r.OS == "Linux" {
		lower := strings.ToLower(ua)
		switch {
		case strings.Contains(lower, "andr0id") || strings.Contains(ua, "diordnA") ||
			strings.Contains(lower, "; android ") || r.OS == uap.Other && (strings.Contains(lower, "android ") ||
			strings.Contains(ua, "; Adr ")): // UC Browser's short form
			return Android
		case r.OS == uap.Other && (hasWord(ua, "iOS") || strings.Contains(ua, "dv(iPh") ||
			strings.Contains(ua, "dv(iPad") || strings.Contains(lower, "watch os") ||
			strings.Contains(lower, "watchos")):
			return IOS
		case r.OS == uap.Other && (strings.Contains(ua, "macOS") || strings.Contains(ua, "Macintosh") ||
			hasWord(ua, "OSX")):
			return Desktop
		}
	}
	if desktopSystems[r.OS] && !appliance(ua) {
		switch r.Device.Family {
		case uap.Other, "Mac", "Spider":
			return Desktop
		}
	}
	return OtherDevice
}

// applianceTokens are what TVs, set-top boxes, speakers, consoles and cars running a
// desktop system (mostly Linux) add to their browser's user agent, in lower case.
var applianceTokens = []string{
	"hbbtv", "smarttv", "smart-tv", "smart tv", "ce-html", "netrange", "sraf/", "sonos",
	"tesla/", "xbox", "playstation", "nintendo", "crkey", "web0s", "netcast", "viera",
	"bravia", "tizen", "_tv_", "kylo/", "tablet browser", "dlna", "upnp", "opera tv",
	"qtembedded",
}

func appliance(ua string) bool {
	lower := strings.ToLower(ua)
	for _, t := range applianceTokens {
		if strings.Contains(lower, t) {
			return true
		}
	}
	return false
}

// hasWord reports whether w occurs in s between characters that are not letters.
func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isLetter(s[j-1])
		end := j + len(w)
		after := end == len(s) || !isLetter(s[end])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// inApp recognises the in-app browser by the token its app adds, most specific first (WeChat
// on Android also says MQQBrowser, the engine it embeds).
func inApp(ua string) InApp {
	switch {
	case strings.Contains(ua, "MicroMessenger"):
		return WeChat
	case strings.Contains(ua, " QQ/") || strings.HasPrefix(ua, "QQ/"):
		return QQ
	case strings.Contains(ua, "Weibo") || strings.Contains(ua, "__weibo__"):
		return Weibo
	case strings.Contains(ua, "AlipayClient"):
		return Alipay
	case strings.Contains(ua, "DingTalk"):
		return DingTalk
	case strings.Contains(ua, "aweme"):
		return Douyin
	case strings.Contains(ua, "musical_ly") || strings.Contains(ua, "TikTok") || strings.Contains(ua, "BytedanceWebview"):
		return TikTok
	case strings.Contains(ua, "Instagram"):
		return Instagram
	case strings.Contains(ua, "FBAN/") || strings.Contains(ua, "FBAV/") || strings.Contains(ua, "FB_IAB"):
		return Facebook
	case strings.Contains(ua, " Line/"):
		return LINE
	case strings.Contains(ua, "Snapchat"):
		return Snapchat
	}
	return ""
}
