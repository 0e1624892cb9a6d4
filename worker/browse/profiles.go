package browse

import (
	"fmt"
	"strings"

	"github.com/playwright-community/playwright-go"
	"github.com/shortlink/shortlink/backend/moderation"
)

// visitor is how a profile presents itself to the destination.
type visitor struct {
	profile   moderation.Profile
	userAgent string
	width     int
	height    int
	scale     float64
	mobile    bool // a phone: meta viewport honoured, touch events
	locale    string
	headers   map[string]string
}

// iPhoneSafari is Safari of an iPhone on iOS 18.
const iPhoneSafari = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 " +
	"(KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1"

// weChatAndroid is WeChat's in-app browser (XWEB, a Chromium WebView) on an Android phone; the
// MicroMessenger token is what sites look for.
const weChatAndroid = "Mozilla/5.0 (Linux; Android 14; V2309A Build/UP1A.231005.007; wv) AppleWebKit/537.36 " +
	"(KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.103 Mobile Safari/537.36 XWEB/1300409 " +
	"MMWEBSDK/20241103 MMWEBID/4816 MicroMessenger/8.0.55.2780(0x2800373B) WeChat/arm64 Weixin " +
	"NetType/WIFI Language/zh_CN ABI/arm64"

// visitors are the three profiles of a review, in moderation.Profiles' order. The desktop one
// is Chrome on Windows of the same major version as the Chromium that runs it (chromiumVersion,
// "156.0.8078.79"), so that the user agent and the engine's behaviour agree.
func visitors(chromiumVersion string) []visitor {
	major, _, _ := strings.Cut(chromiumVersion, ".")
	if major == "" {
		major = "140"
	}
	return []visitor{
		{
			profile: moderation.Desktop,
			userAgent: fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "+
				"(KHTML, like Gecko) Chrome/%s.0.0.0 Safari/537.36", major),
			width: 1366, height: 768, scale: 1, locale: "en-US",
		},
		{
			profile:   moderation.Mobile,
			userAgent: iPhoneSafari,
			width:     390, height: 844, scale: 3, mobile: true, locale: "en-US",
		},
		{
			profile:   moderation.WeChat,
			userAgent: weChatAndroid,
			width:     412, height: 915, scale: 2.625, mobile: true, locale: "zh-CN",
			// Android WebViews name their app in this header.
			headers: map[string]string{"X-Requested-With": "com.tencent.mm"},
		},
	}
}

// contextOptions are the browser-context settings of a visitor whose connections go through
// the proxy at proxyURL.
func (v visitor) contextOptions(proxyURL, proxyUser, proxyPassword string) playwright.BrowserNewContextOptions {
	return playwright.BrowserNewContextOptions{
		UserAgent:         playwright.String(v.userAgent),
		Viewport:          &playwright.Size{Width: v.width, Height: v.height},
		Screen:            &playwright.Size{Width: v.width, Height: v.height},
		DeviceScaleFactor: playwright.Float(v.scale),
		IsMobile:          playwright.Bool(v.mobile),
		HasTouch:          playwright.Bool(v.mobile),
		Locale:            playwright.String(v.locale),
		ExtraHttpHeaders:  v.headers,
		JavaScriptEnabled: playwright.Bool(true),
		AcceptDownloads:   playwright.Bool(false),
		// A service worker's requests would escape the context's routes (not its proxy).
		ServiceWorkers: playwright.ServiceWorkerPolicyBlock,
		// A phishing page behind a self-signed certificate is still worth seeing.
		IgnoreHttpsErrors: playwright.Bool(true),
		Proxy: &playwright.Proxy{
			Server:   proxyURL,
			Username: playwright.String(proxyUser),
			Password: playwright.String(proxyPassword),
		},
	}
}
