package crawlers

import (
	"encoding/json"
	"regexp"
	"testing"
)

// People's user agents, in-app browsers included: none may be taken for a robot.
var people = map[string]string{
	"iOS Safari":       "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
	"iPad Safari":      "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
	"iOS Chrome":       "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
	"Android Chrome":   "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
	"Android Samsung":  "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
	"Android Firefox":  "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
	"CUBOT phone":      "Mozilla/5.0 (Linux; Android 12; CUBOT KINGKONG 7 Build/SP1A.210812.016) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36",
	"Windows Chrome":   "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	"Windows Edge":     "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80",
	"Windows Firefox":  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
	"macOS Safari":     "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
	"Linux Firefox":    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
	"ChromeOS":         "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
	"Opera":            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0",
	"WeChat iOS":       "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.42(0x18002a2f) NetType/WIFI Language/zh_CN",
	"WeChat Android":   "Mozilla/5.0 (Linux; Android 13; V2148A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64",
	"QQ iOS":           "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/8.9.80.623 V1_IPH_SQ_8.9.80_1_APP_A Pixel/1170 MiniAppEnable SimpleUISwitch/0 StudyMode/0 CurrentMode/0 CurrentFontScale/1.000000 QQTheme/1000 Core/WKWebView Device/Apple(iPhone 12) NetType/WIFI QBWebViewType/1 WKType/1",
	"QQ Android":       "Mozilla/5.0 (Linux; Android 12; PEEM00 Build/SKQ1.210216.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/98.0.4758.102 MQQBrowser/6.2 TBS/046805 Mobile Safari/537.36 V1_AND_SQ_8.9.80_4614_YYB_D QQ/8.9.80.12440 NetType/WIFI WebP/0.3.0 AppId/537176863 Pixel/1080 StatusBarHeight/96 SimpleUISwitch/0 QQTheme/1000 StudyMode/0 CurrentMode/0 CurrentFontScale/1.0 GlobalDensityScale/0.9 AllowLandscape/false InMagicWin/0",
	"QQ Browser":       "Mozilla/5.0 (Linux; U; Android 11; zh-cn; PDVM00 Build/RKQ1.201217.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/87.0.4280.141 MQQBrowser/14.5 Mobile Safari/537.36 COVC/046829",
	"Weibo":            "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Weibo (iPhone14,5__weibo__13.9.1__iphone__os16.6)",
	"Facebook iOS":     "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.35.108;FBBV/586498716;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/588394960]",
	"Facebook Android": "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UD1A.230803.041; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/462.0.0.41.81;]",
	"Instagram":        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.3.12.90 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 591232355)",
	"LINE":             "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.5.0",
	"Douyin":           "Mozilla/5.0 (Linux; Android 12; ANA-AN00 Build/HUAWEIANA-AN00; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046011 Mobile Safari/537.36 aweme_230400 JsSdk/1.0 NetType/WIFI Channel/huawei_1128_64 app_version/23.4.0 ByteLocale/zh-CN Region/CN AppSkin/white AppTheme/light BytedanceWebview/d8a21c6 WebView/075113004008",
	"Alipay":           "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Ariver/1.1.0 AliApp(AP/10.5.30.6000) Nebula WK RVKType(0) AlipayDefined(nt:WIFI,ws:390|780|3.0) AlipayClient/10.5.30.6000 Language/zh-Hans Region/CN NebulaX/1.0.0",
	"DingTalk":         "Mozilla/5.0 (Linux; U; Android 13; zh-CN; 2211133C Build/TKQ1.220905.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 Mobile Safari/537.36 AliApp(DingTalk/7.0.50) com.alibaba.android.rimet/34529434 Channel/227200 language/zh-CN abi/64 UT4Aplus/0.2.25 colorScheme/light",
	"Huawei Browser":   "Mozilla/5.0 (Linux; Android 12; HarmonyOS; NOH-AN00; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36",
	"UC Browser":       "Mozilla/5.0 (Linux; U; Android 12; zh-CN; V2172A Build/SP1A.210812.003) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UCBrowser/16.2.6.1273 Mobile Safari/537.36",
	"Baidu app":        "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 SP-engine/2.76.0 main/1.0 baiduboxapp/13.40.5.10 (Baidu; P2 16.6) NABar/1.0",
	"HTC Butterfly":    "Mozilla/5.0 (Linux; U; Android 4.3; en-us; HTC_Butterfly Build/JSS15J) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
	"ViewSonic":        "Mozilla/5.0 (Linux; U; Android 4.3; en-US; ViewSonic A8+ Build/JLS36C) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 UCBrowser/11.0.5.892 U3/0.8.0 Mobile Safari/534.30",
	"M bot phone":      "Mozilla/5.0 (Linux; Android 7.0; M bot 54) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.96 Mobile Safari/537.36",
	"Sogou Browser":    "Mozilla/5.0 (Linux; Android 10; ZTE A2020 SP Build/QKQ1.200913.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/68.0.3440.106 Mobile Safari/537.36 AWP/2.0 SogouMSE,SogouMobileBrowser/6.5.11",
	"Viber":            "Mozilla/5.0 (Linux; Android 7.1.2; G011A Build/N2G48H; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/66.0.3359.158 Safari/537.36 Viber/11.9.5.8",
	"Pixel build":      "Mozilla/5.0 (Linux; Android 15; CPH2557 Build/AP3A.240617.008; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/142.0.7444.142 Mobile Safari/537.36",
	"Google app iOS":   "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/310.0.621847700 Mobile/15E148 Safari/604.1",
	"Airmail":          "Airmail 1.0 rv:148 (Macintosh; Mac OS X 10.8.3; en_BE)",
	"Firefox preview":  "Mozilla/5.0 (Windows; U; Windows NT 6.1; en-US; rv:1.9.3a1) Gecko/20100208 MozillaDeveloperPreview/3.7a1 (.NET CLR 3.5.30729)",
	"WIRED app":        "Mozilla/5.0 (iPad; U; CPU iPhone OS 7_0 like Mac OS X; de-DE) WIRED/3.2.3.11.87970",
	"Snapchat":         "Snapchat/10.29.1.0 (iPhone10,1; iOS 11.2; gzip)",
	"Outlook Express":  "Outlook-Express/7.0 (MSIE 7.0; Windows NT 5.1; Trident/4.0; AskTB5.6; TmstmpExt)",
	"Office for Mac":   "Microsoft Office Word/16.43.1108 (Mac OS/10.15.6; Desktop; es-MX; NonAppStore; Apple/MacBookAir8,1)",
	"WhatsApp app":     "WhatsApp/2.17.395 Android/6.0 Device/Meizu-M5_Note",
	"Podcast app":      "capsule-android",
	"XBot phone":       "Mozilla/5.0 (Linux; Android 8.1.0; XBot_Senior Build/O11019) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.101 Mobile Safari/537.36",
	"StumbleUpon bar":  "Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; StumbleUpon/1.9; .NET CLR 2.0.50727)",
	"PeoplePal bar":    "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; PeoplePal 6.2)",
	"360 browser":      "Mozilla/5.0 (Linux; U; Android 4.2.1; ru-ru; AMOI N850 Build/JOP40D) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30; 360browser(securitypay,securityinstalled); 360(android,uppayplugin); 360 Aphone Browser (6.9.7)",
}

// Robots the redirect path must recognise, by name.
var robots = map[string]string{
	"Googlebot":              "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"Googlebot smartphone":   "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.91 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
	"bingbot":                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
	"Baiduspider":            "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
	"YandexBot":              "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
	"Sogou":                  "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)",
	"Applebot":               "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
	"DuckDuckBot":            "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
	"facebookexternalhit":    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
	"Twitterbot":             "Twitterbot/1.0",
	"Slackbot-LinkExpanding": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
	"TelegramBot":            "TelegramBot (like TwitterBot)",
	"WhatsApp":               "WhatsApp/2.23.20.0 A",
	"Discordbot":             "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
	"LinkedInBot":            "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
	"SkypeUriPreview":        "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com",
	"LINE preview":           "facebookexternalhit/1.1;line-poker/1.0",
	"Pinterest":              "Pinterestbot/1.0 (+http://www.pinterest.com/bot.html)",
	"Office":                 "Mozilla/4.0 (compatible; ms-office; MSOffice 16)",
	"Headless Chrome":        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36",
	"curl":                   "curl/8.5.0",
	"wget":                   "Wget/1.21.4",
	"python-requests":        "python-requests/2.31.0",
	"Go-http-client":         "Go-http-client/1.1",
	"unknown bot":            "Mozilla/5.0 (compatible; ExampleBot/1.0)",
	"unknown crawler":        "SomeCompany Crawler 2.1",
	"monitoring":             "Prometheus/2.40.5",
	"template":               "{{.custom_user_agent}}",
	"bare Mozilla":           "Mozilla/5.0 (compatible)",
	"browser's name":         "Chrome",
	"one word":               "revolt",
	"mail image proxy":       "RamblerMail/6.0 (incompatible; ImageProxy/6.0)",
	"security scanner":       "Arachni/v1.5.1",
	"Crawler-Detect's list":  "Mozilla/5.0 (compatible; Seekport Crawler; http://seekport.com/)",
	"isbot's list":           "Mozilla/5.0 (compatible; SerpReputationManagementAgent/1.0)",
	"empty":                  "",
	"dash":                   "-",
}

func TestPeopleAreNotRobots(t *testing.T) {
	m := mustNew(t)
	for name, ua := range people {
		if p := m.Which(ua); p != "" {
			t.Errorf("%s taken for a robot by %q", name, p)
		}
	}
}

func TestNamedRobots(t *testing.T) {
	m := mustNew(t)
	for name, ua := range robots {
		if !m.Match(ua) {
			t.Errorf("%s (%q) not recognised", name, ua)
		}
	}
}

// Every example user agent that the list gives for a pattern is recognised, and the
// prefilter never hides a pattern: the matcher agrees with trying every expression.
func TestListExamplesAndPrefilter(t *testing.T) {
	m := mustNew(t)
	var list []struct {
		Pattern   string   `json:"pattern"`
		Instances []string `json:"instances"`
	}
	if err := json.Unmarshal(listJSON, &list); err != nil {
		t.Fatal(err)
	}
	var isbot []string
	if err := json.Unmarshal(isbotJSON, &isbot); err != nil {
		t.Fatal(err)
	}
	res := make([]*regexp.Regexp, 0, len(list)+len(extra))
	for _, l := range []struct {
		name      string
		patterns  []string
		overrides map[string]string
	}{
		{"Crawler-Detect", crawlerDetectPatterns(), narrowedCrawlerDetect},
		{"isbot", isbot, narrowedIsbot},
	} {
		in := map[string]bool{}
		for _, p := range l.patterns {
			in[p] = true
			if q, ok := l.overrides[p]; ok {
				p = q
			}
			if p != "" {
				res = append(res, regexp.MustCompile("(?i)"+p))
			}
		}
		for p := range l.overrides {
			if !in[p] {
				t.Errorf("%s: narrowed pattern %q is no longer in the list", l.name, p)
			}
		}
	}
	inList := map[string]bool{}
	for _, e := range list {
		inList[e.Pattern] = true
		p, ok := narrowed[e.Pattern]
		if !ok {
			p = e.Pattern
		}
		if p != "" {
			res = append(res, regexp.MustCompile(p))
		}
	}
	for p := range narrowed {
		if !inList[p] {
			t.Errorf("narrowed pattern %q is no longer in the list", p)
		}
	}
	for _, src := range extra {
		res = append(res, regexp.MustCompile(src))
	}
	naive := func(ua string) bool {
		for _, re := range res {
			if re.MatchString(ua) {
				return true
			}
		}
		return false
	}
	var uas []string
	for _, e := range list {
		for _, ua := range e.Instances {
			uas = append(uas, ua)
			if p, ok := narrowed[e.Pattern]; ok && p == "" {
				continue // a person's user agent, given as the example of a dropped pattern
			}
			if !m.Match(ua) {
				t.Errorf("example of %q not recognised: %q", e.Pattern, ua)
			}
		}
	}
	for _, ua := range people {
		uas = append(uas, ua)
	}
	// Every expression against every example is most of this package's test time: -short
	// (make test-unit, make test-short) compares one example in eight, make test all of them.
	step := 1
	if testing.Short() {
		step = 8
	}
	for i, ua := range uas {
		if i%step != 0 {
			continue
		}
		if got, want := m.find(ua) >= 0, naive(ua); got != want {
			t.Errorf("prefilter disagrees on %q: matcher %v, every expression %v", ua, got, want)
		}
	}
	if len(m.always) > 0 {
		t.Logf("%d patterns without a required string: %v", len(m.always), m.always)
	}
}

func mustNew(tb testing.TB) *Matcher {
	tb.Helper()
	m, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func BenchmarkMatch(b *testing.B) {
	m := mustNew(b)
	for _, name := range []string{"iOS Safari", "WeChat Android", "Windows Edge"} {
		ua := people[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m.Match(ua)
			}
		})
	}
	for _, name := range []string{"Googlebot smartphone", "facebookexternalhit", "curl"} {
		ua := robots[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m.Match(ua)
			}
		})
	}
}

func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		mustNew(b)
	}
}
