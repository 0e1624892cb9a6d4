package visitor

import (
	"strings"

	"github.com/mileusna/useragent"
)

// legacyAgent is how user agents were read before uap-core's expressions: mileusna/useragent
// and lists of tokens. Kept for the corpus figures and benchmarks, to compare with.
func legacyAgent(c *Classifier, ua string) Agent {
	p := useragent.Parse(ua)
	a := Agent{
		OS:      legacyOSName(p.OS),
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
		a.Browser = legacyBrowserName(ua, p.Name)
	}
	return a
}

// legacyBrowserTokens name the browsers that the parser reports under the engine they embed
// (Chrome, mostly), by the token they add; checked in order, before the parser's name.
var legacyBrowserTokens = []struct{ token, name string }{
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

// legacyParserNames maps the parser's browser names to the ones recorded.
var legacyParserNames = map[string]string{
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

// browserName is one of a fixed set of names (legacyBrowserTokens, legacyParserNames), else "Other".
func legacyBrowserName(ua, parsed string) string {
	for _, b := range legacyBrowserTokens {
		if strings.Contains(ua, b.token) {
			return b.name
		}
	}
	if name, ok := legacyParserNames[parsed]; ok {
		return name
	}
	return "Other"
}

func legacyOSName(parsed string) string {
	switch parsed {
	case "":
		return "Other"
	case useragent.Harmony:
		return "HarmonyOS"
	}
	return parsed
}
