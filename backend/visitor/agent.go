package visitor

import (
	"strings"

	"github.com/mileusna/useragent"
)

// Device is the kind of device the rules target.
type Device string

// The devices of device targets; every other device (tablets and phones of other systems,
// TVs, consoles, robots without a system) is OtherDevice.
const (
	IOS         Device = "ios"     // iPhone, iPad (when it does not ask for desktop sites), iPod
	Android     Device = "android" // Android phones and tablets, Huawei's HarmonyOS up to 4
	Desktop     Device = "desktop" // Windows, macOS (and iPads asking for desktop sites), Linux, ChromeOS
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
	// OS is the system's name: "iOS", "Android", "Windows", "macOS", "Linux", "ChromeOS",
	// "HarmonyOS", …, "Other" when unknown.
	OS string
	// Browser is one of a fixed set of names (browserName), "WebView" for every in-app
	// browser, "Other" otherwise: few values, fit for statistics.
	Browser string
	InApp   InApp
	// Crawler is a robot: search engine, link-preview fetcher, scanner, HTTP library.
	Crawler bool
}

// parseAgent reads a user agent with mileusna/useragent (see the README for the comparison
// with uap-go) and the crawler list; it costs a few microseconds, hence the cache in Classifier.
func (c *Classifier) parseAgent(ua string) Agent {
	p := useragent.Parse(ua)
	a := Agent{
		OS:      osName(p.OS),
		InApp:   inApp(ua),
		Crawler: c.crawlers.Match(ua),
	}
	if a.OS == "Other" && strings.Contains(ua, "iPod") {
		a.OS = "iOS"
	}
	switch a.OS {
	case "iOS":
		a.Device = IOS
	case "Android":
		a.Device = Android
	case "Windows", "macOS", "Linux", "ChromeOS", "FreeBSD":
		a.Device = Desktop
		if p.Mobile || p.Tablet {
			a.Device = OtherDevice
		}
	default:
		a.Device = OtherDevice
	}
	switch {
	case a.InApp != "":
		a.Browser = "WebView" // the app's; its engine matters little
	default:
		a.Browser = browserName(ua, p.Name)
	}
	return a
}

// browserTokens name the browsers that the parser reports under the engine they embed
// (Chrome, mostly), by the token they add; checked in order, before the parser's name.
var browserTokens = []struct{ token, name string }{
	{"UCBrowser/", "UC Browser"},
	{"MQQBrowser/", "QQ Browser"},
	{"QQBrowser/", "QQ Browser"},
	{"YaBrowser/", "Yandex Browser"},
	{"Quark/", "Quark"},
	{"baiduboxapp/", "Baidu"},
	{"MiuiBrowser/", "Mi Browser"},
	{"HuaweiBrowser/", "Huawei Browser"},
	{"VivoBrowser/", "vivo Browser"},
	{"HeyTapBrowser/", "HeyTap Browser"},
	{"SogouMobileBrowser/", "Sogou Browser"},
	{"SamsungBrowser/", "Samsung Internet"},
	{"DuckDuckGo/", "DuckDuckGo"},
}

// parserNames maps the parser's browser names to the ones recorded.
var parserNames = map[string]string{
	useragent.Chrome:           "Chrome",
	useragent.Safari:           "Safari",
	useragent.MobileSafari:     "Safari",
	useragent.Firefox:          "Firefox",
	useragent.Edge:             "Edge",
	useragent.Opera:            "Opera",
	useragent.OperaMini:        "Opera",
	useragent.OperaTouch:       "Opera",
	useragent.InternetExplorer: "Internet Explorer",
	useragent.Vivaldi:          "Vivaldi",
	useragent.SamsungBrowser:   "Samsung Internet",
	"Android browser":          "Android Browser",
}

// browserName is one of a fixed set of names (browserTokens, parserNames), else "Other".
func browserName(ua, parsed string) string {
	for _, b := range browserTokens {
		if strings.Contains(ua, b.token) {
			return b.name
		}
	}
	if name, ok := parserNames[parsed]; ok {
		return name
	}
	return "Other"
}

func osName(parsed string) string {
	switch parsed {
	case "":
		return "Other"
	case useragent.Harmony:
		return "HarmonyOS"
	}
	return parsed
}

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
