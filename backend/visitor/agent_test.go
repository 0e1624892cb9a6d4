package visitor

import "testing"

const (
	uaIOSSafari     = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	uaWeChatAndroid = "Mozilla/5.0 (Linux; Android 13; V2148A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64"
	uaGooglebot     = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.91 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

func TestAgent(t *testing.T) {
	c := newClassifier(t, Options{})
	tests := []struct {
		name, ua string
		want     Agent
	}{
		{"iOS Safari", uaIOSSafari, Agent{IOS, "iOS", "Mobile Safari", "", false}},
		{"iPad Safari", "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1", Agent{IOS, "iOS", "Mobile Safari", "", false}},
		{"iPod", "Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1", Agent{IOS, "iOS", "Mobile Safari", "", false}},
		{"iOS Chrome", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1", Agent{IOS, "iOS", "Chrome Mobile iOS", "", false}},
		{"Android Chrome", "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", Agent{Android, "Android", "Chrome Mobile", "", false}},
		{"Android tablet Chrome", "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", Agent{Android, "Android", "Chrome", "", false}},
		{"Android Samsung", "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36", Agent{Android, "Android", "Samsung Internet", "", false}},
		{"Android Firefox", "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0", Agent{Android, "Android", "Firefox Mobile", "", false}},
		{"CUBOT phone", "Mozilla/5.0 (Linux; Android 12; CUBOT KINGKONG 7 Build/SP1A.210812.016) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36", Agent{Android, "Android", "Chrome Mobile", "", false}},
		{"HarmonyOS 4 Huawei Browser", "Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36", Agent{Android, "Android", "Huawei Browser", "", false}},
		{"Android QQ Browser", "Mozilla/5.0 (Linux; U; Android 11; zh-cn; PDVM00 Build/RKQ1.201217.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/87.0.4280.141 MQQBrowser/14.5 Mobile Safari/537.36 COVC/046829", Agent{Android, "Android", "QQ Browser Mobile", "", false}},
		{"Android UC Browser", "Mozilla/5.0 (Linux; U; Android 12; zh-CN; V2172A Build/SP1A.210812.003) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UCBrowser/16.2.6.1273 Mobile Safari/537.36", Agent{Android, "Android", "UC Browser", "", false}},
		{"Windows Chrome", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", Agent{Desktop, "Windows", "Chrome", "", false}},
		{"Windows Edge", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80", Agent{Desktop, "Windows", "Edge", "", false}},
		{"Windows Firefox", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0", Agent{Desktop, "Windows", "Firefox", "", false}},
		{"macOS Safari", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15", Agent{Desktop, "Mac OS X", "Safari", "", false}},
		{"macOS Chrome", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", Agent{Desktop, "Mac OS X", "Chrome", "", false}},
		{"Linux Firefox", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", Agent{Desktop, "Linux", "Firefox", "", false}},
		{"ChromeOS", "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", Agent{Desktop, "Chrome OS", "Chrome", "", false}},
		{"Opera", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0", Agent{Desktop, "Windows", "Opera", "", false}},
		{"Windows XP IE", "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1)", Agent{Desktop, "Windows", "IE", "", false}},
		{"FreeBSD", "Mozilla/5.0 (X11; FreeBSD amd64; rv:109.0) Gecko/20100101 Firefox/115.0", Agent{Desktop, "FreeBSD", "Firefox", "", false}},
		{"Solaris", "Mozilla/5.0 (X11; SunOS sun4u; en-US; rv:1.9.1) Gecko/20090615 Firefox/3.5", Agent{Desktop, "Solaris", "Firefox", "", false}},
		{"Ubuntu", "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", Agent{Desktop, "Ubuntu", "Firefox", "", false}},
		{"UC Browser, short form", "UCWEB/2.0 (MIDP-2.0; U; Adr 9; en-US; SM-J260G) U2/1.0.0 UCBrowser/13.4.0.1306 U2/1.0.0 Mobile", Agent{Android, "Other", "UC Browser", "", false}},
		{"UC Browser iOS, short form", "dv(iPh13,2);pr(UCBrowser/11.3.5.1203);ov(15_1);ss(375x812);bt(GJ);pm(0);bv(0);nm(0);im(0);nt(1);", Agent{IOS, "Other", "UC Browser", "", false}},
		{"Edge iOS", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) EdgiOS/124.0.2478.71 Version/17.0 Mobile/15E148 Safari/604.1", Agent{IOS, "iOS", "Edge Mobile", "", false}},
		{"Brave", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Brave/124", Agent{Desktop, "Windows", "Brave", "", false}},
		{"Opera Android", "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 OPR/81.0.4196.61", Agent{Android, "Android", "Opera Mobile", "", false}},
		{"Android web view of an app", "Mozilla/5.0 (Linux; Android 12; SM-A125F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36", Agent{Android, "Android", "Chrome Mobile WebView", "", false}},
		{"iPad web view of an app", "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148", Agent{IOS, "iOS", "Mobile Safari UI/WKWebView", "", false}},
		{"Android TV", "Mozilla/5.0 (Linux; Andr0id 9; BRAVIA VH1 Build/PTT1.190515.001.S4) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.99 Safari/537.36 OPR/46.0.2207.0 OMI/4.13.5.431.DIA5HBBTV.94 HbbTV/1.5.1", Agent{Android, "Linux", "Opera", "", false}},
		{"Linux TV", "Mozilla/5.0 (Linux;) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/47.0.2526.106 Safari/537.36 SRAF/4.0 (; SERAPHIC; SERAPHIC; v4.0; v1.0; ); CE-HTML/1.0 hbbtv NETRANGEMMH", Agent{OtherDevice, "Linux", "Chrome", "", false}},
		{"Mac app", "Swinsian/472 CFNetwork/978.0.7 Darwin/18.7.0 (x86_64)", Agent{Desktop, "iOS", "Swinsian", "", false}},
		{"Twitter iOS", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.38", Agent{IOS, "iOS", "Twitter", "", false}},
		{"TikTok", "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36 trill_340301 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/34.3.1 BytedanceWebview/d8a21c6", Agent{Android, "Android", "TikTok", TikTok, false}},
		{"WeChat iOS", "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.42(0x18002a2f) NetType/WIFI Language/zh_CN", Agent{IOS, "iOS", "WeChat Browser", WeChat, false}},
		{"WeChat Android", uaWeChatAndroid, Agent{Android, "Android", "Chrome Mobile WebView", WeChat, false}},
		{"WeCom", "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 wxwork/4.1.16 MicroMessenger/7.0.1 Language/zh ColorScheme/Light", Agent{IOS, "iOS", "WeChat Browser", WeChat, false}},
		{"WeChat on Windows", "Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Safari/537.36 NetType/WIFI MicroMessenger/7.0.20.1781(0x6700143B) WindowsWechat(0x63090a13) XWEB/9129 Flue", Agent{Desktop, "Windows", "WeChat Browser", WeChat, false}},
		{"QQ iOS", "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/8.9.80.623 V1_IPH_SQ_8.9.80_1_APP_A Pixel/1170 MiniAppEnable SimpleUISwitch/0 StudyMode/0 CurrentMode/0 CurrentFontScale/1.000000 QQTheme/1000 Core/WKWebView Device/Apple(iPhone 12) NetType/WIFI QBWebViewType/1 WKType/1", Agent{IOS, "iOS", "Mobile Safari UI/WKWebView", QQ, false}},
		{"QQ Android", "Mozilla/5.0 (Linux; Android 12; PEEM00 Build/SKQ1.210216.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/98.0.4758.102 MQQBrowser/6.2 TBS/046805 Mobile Safari/537.36 V1_AND_SQ_8.9.80_4614_YYB_D QQ/8.9.80.12440 NetType/WIFI WebP/0.3.0 AppId/537176863 Pixel/1080 StatusBarHeight/96 SimpleUISwitch/0 QQTheme/1000", Agent{Android, "Android", "QQ Browser Mobile", QQ, false}},
		{"Weibo", "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Weibo (iPhone14,5__weibo__13.9.1__iphone__os16.6)", Agent{IOS, "iOS", "Weibo", Weibo, false}},
		{"Alipay", "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Ariver/1.1.0 AliApp(AP/10.5.30.6000) Nebula WK RVKType(0) AlipayDefined(nt:WIFI,ws:390|780|3.0) AlipayClient/10.5.30.6000 Language/zh-Hans Region/CN NebulaX/1.0.0", Agent{IOS, "iOS", "Mobile Safari UI/WKWebView", Alipay, false}},
		{"DingTalk", "Mozilla/5.0 (Linux; U; Android 13; zh-CN; 2211133C Build/TKQ1.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 Mobile Safari/537.36 AliApp(DingTalk/7.0.50) com.alibaba.android.rimet/34529434 Channel/227200 language/zh-CN abi/64", Agent{Android, "Android", "Chrome Mobile WebView", DingTalk, false}},
		{"Douyin", "Mozilla/5.0 (Linux; Android 12; ANA-AN00 Build/HUAWEIANA-AN00; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046011 Mobile Safari/537.36 aweme_230400 JsSdk/1.0 NetType/WIFI Channel/huawei_1128_64 app_version/23.4.0 ByteLocale/zh-CN Region/CN AppSkin/white AppTheme/light BytedanceWebview/d8a21c6 WebView/075113004008", Agent{Android, "Android", "TikTok", Douyin, false}},
		{"Facebook iOS", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.35.108;FBBV/586498716;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/588394960]", Agent{IOS, "iOS", "Facebook", Facebook, false}},
		{"Facebook Android", "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UD1A.230803.041; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/462.0.0.41.81;]", Agent{Android, "Android", "Facebook", Facebook, false}},
		{"Instagram", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.3.12.90 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 591232355)", Agent{IOS, "iOS", "Instagram", Instagram, false}},
		{"LINE", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.5.0", Agent{IOS, "iOS", "LINE", LINE, false}},
		{"Googlebot smartphone", uaGooglebot, Agent{Android, "Android", "Googlebot", "", true}},
		{"Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", Agent{OtherDevice, "Other", "Googlebot", "", true}},
		{"bingbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", Agent{OtherDevice, "Other", "bingbot", "", true}},
		{"Baiduspider", "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", Agent{OtherDevice, "Other", "Baiduspider", "", true}},
		{"YandexBot", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", Agent{OtherDevice, "Other", "YandexBot", "", true}},
		{"facebookexternalhit", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", Agent{OtherDevice, "Other", "FacebookBot", "", true}},
		{"Twitterbot", "Twitterbot/1.0", Agent{OtherDevice, "Other", "Twitterbot", "", true}},
		{"Slackbot-LinkExpanding", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", Agent{OtherDevice, "Other", "Slackbot-LinkExpanding", "", true}},
		{"TelegramBot", "TelegramBot (like TwitterBot)", Agent{OtherDevice, "Other", "TelegramBot", "", true}},
		{"WhatsApp", "WhatsApp/2.23.20.0 A", Agent{OtherDevice, "Other", "WhatsApp", "", true}},
		{"Discordbot", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", Agent{OtherDevice, "Other", "Discordbot", "", true}},
		{"LinkedInBot", "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", Agent{OtherDevice, "Other", "LinkedInBot", "", true}},
		{"Headless Chrome", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36", Agent{Desktop, "Linux", "HeadlessChrome", "", true}},
		{"curl", "curl/8.5.0", Agent{OtherDevice, "Other", "curl", "", true}},
		{"python-requests", "python-requests/2.31.0", Agent{OtherDevice, "Other", "Python Requests", "", true}},
		{"Go-http-client", "Go-http-client/1.1", Agent{OtherDevice, "Other", "Go-http-client", "", true}},
		{"empty", "", Agent{OtherDevice, "Other", "Other", "", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.Agent(tt.ua); got != tt.want {
				t.Errorf("\n got %+v\nwant %+v", got, tt.want)
			}
			if got := c.IsCrawler(tt.ua); got != tt.want.Crawler {
				t.Errorf("IsCrawler = %v", got)
			}
		})
	}
}

// The toolbars of old Internet Explorers name themselves in its user agent: those are people.
// Robots that wear an Internet Explorer's user agent stay robots.
func TestToolbarsArePeople(t *testing.T) {
	c := newClassifier(t, Options{})
	for _, tt := range []struct {
		ua      string
		crawler bool
	}{
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; StumbleUpon/1.9; .NET CLR 2.0.50727)", false},
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; PeoplePal 6.2)", false},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.0; SLCC1; .NET CLR 2.0.50727; StumbleUpon/1.999)", false},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; PeoplePal 7.0; .NET CLR 2.0.50727)", false},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; .NET CLR 1.1.4322; ia_archiver)", true},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; Trident/4.0; Girafabot; girafabot at girafa dot com; http://www.girafa.com)", true},
		{"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", true},
		{"Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0; BingPreview/1.0b)", true},
		{uaGooglebot, true},
	} {
		if got := c.Agent(tt.ua); got.Crawler != tt.crawler || c.IsCrawler(tt.ua) != tt.crawler {
			t.Errorf("%q: Agent %+v, IsCrawler %v; want crawler %v", tt.ua, got, c.IsCrawler(tt.ua), tt.crawler)
		}
	}
}

// A cached answer is the parsed one, and user agents too long to cache are still parsed.
func TestAgentCache(t *testing.T) {
	cached := newClassifier(t, Options{})
	uncached := newClassifier(t, Options{AgentCacheSize: -1})
	long := uaIOSSafari + " " + string(make([]byte, agentCacheMaxKey))
	for _, ua := range []string{uaIOSSafari, uaWeChatAndroid, uaGooglebot, long} {
		first, second, want := cached.Agent(ua), cached.Agent(ua), uncached.Agent(ua)
		if first != want || second != want {
			t.Errorf("%.40q: cached %+v then %+v, parsed %+v", ua, first, second, want)
		}
	}
}

// IsCrawler answers as Agent does, for robots only uap-core's expressions know too.
func TestIsCrawlerAgreesWithAgent(t *testing.T) {
	c := newClassifier(t, Options{AgentCacheSize: -1})
	for _, k := range uapCases(t, "test_device.yaml.gz") {
		if k.Family != "Spider" && k.Family != "iPhone" {
			continue
		}
		if got, want := c.IsCrawler(k.UA), c.Agent(k.UA).Crawler; got != want {
			t.Errorf("%q: IsCrawler %v, Agent %v", k.UA, got, want)
		}
	}
}
