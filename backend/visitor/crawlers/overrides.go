package crawlers

// narrowed are patterns of the vendored list that match people's user agents too, by the
// narrower pattern used instead ("" drops one). The test checks each is still in the list, and
// that the list's examples of it are still recognised.
var narrowed = map[string]string{
	`AP3A\.240617\.008`: ``,                                         // an Android build: every phone on it
	`Butterfly`:         `Butterfly/`,                               // HTC Butterfly phones
	`Sonic`:             `Sonic(?:SiteAuditor)?/`,                   // ViewSonic and Cherry Sonic phones
	`008\/`:             `^008/`,                                    // sprd-L008 phones
	`Expanse`:           `Expanse, a Palo Alto`,                     // Expanse phones
	`Fever`:             `Fever/`,                                   // Fever_Plus phones
	`Fluid`:             ``,                                         // a browser for macOS
	`Sogou`:             `Sogou[ -][A-Za-z]+[ -][Ss]pider`,          // Sogou's browser, not its spiders
	`Viber`:             `^Viber`,                                   // Viber's in-app browser, not the app's own requests
	`WhatsApp`:          `^WhatsApp(?:/[0-9.]+(?:[ /][A-Za-z])?)?$`, // the link-preview fetcher, not the app's own requests
	`RED\/`:             `^RED/`,                                    // WIRED's app ("WIRED/3.2.3")
}

// narrowedCrawlerDetect are the patterns of Crawler-Detect's list (crawlerdetect/Crawlers.txt)
// that match people's user agents in the public corpora (TestCorpus), most of them people's
// apps (Office, WhatsApp, podcast and feed readers), or that Go's regexp cannot read; the
// comment is a person's user agent each matches.
var narrowedCrawlerDetect = map[string]string{
	`^git\/`:                 ``, // git/2.32.0.windows.2
	`^Mail\/`:                ``, // Mail/1816 CFNetwork/673.0.3 Darwin/13.0.0 (x86_64) (Macmini5
	`008\/`:                  ``, // DESAY TS1008/1.0 Release/07.12.2013 Mozilla/5.0 (Linux; U; A
	`acrylicapps\.com\/pulp`: ``, // Pulp/1.5.2 (iPad; http://www.acrylicapps.com/pulp/)
	`Airmail`:                ``, // Airmail 1.0 rv:148 (Macintosh; Mac OS X 10.8.3; en_BE)
	`AndroidDownloadManager`: ``, // AndroidDownloadManager/4.1.1 (Linux; U; Android 4.1.1; MB886
	`Astute`:                 ``, // Mozilla/5.0 (Linux; Android 7.0; X428 Astute Build/NRD90M; w
	`Bandit`:                 ``, // RssBandit/1.9.0.1002
	`Buddy`:                  ``, // Mozilla/5.0 (Linux; Android 4.0.4; iBuddy Connect Build/IMM7
	`Chirp\/`:                ``, // GoogleChirp/1.0.1 (Linux; Android/5.0) GOOG/7 AppleWebKit/53
	`curl`:                   ``, // newsbeuter/2.4 (Linux 3.2.0-23-generic; i686; http://www.new
	`Demon`:                  ``, // FeedDemon/4.5 (http://www.feeddemon.com/; Microsoft Windows)
	`Excel\/`:                ``, // Microsoft Office Excel/16.44.1213 (Mac OS/11.1; Desktop; en-
	`github\.com`:            ``, // castero 0.9.5 <https://github.com/xgi/castero>
	`huaweisymantec`:         ``, // Huaweisymantecspider (compatible; MSIE 8.0; DSE-support@huaw
	`khttp\/`:                ``, // DS podcast/1.0.5 (be.standaard.audio; build:6; Android 10; S
	`LibVLC`:                 ``, // NEXT 2000 HD FTA_VLC/3.0.14 LibVLC/3.0.14
	`LibWeb`:                 ``, // Mozilla/5.0 (Linux; x86_64) LibWeb+LibJS/1.0 Ladybird/1.0
	`libwww`:                 ``, // VMS_Mosaic/4.0 (Motif;OpenVMS V8.3 COMPAQ Professional Works
	`Liferea\/`:              ``, // Liferea/1.6.4 (Linux; en_US.UTF-8; http://liferea.sf.net/)
	`MacOutlook\/`:           ``, // MacOutlook/15.27.0.161010 (Intelx64 Mac OS X Version 10.11.6
	`Microsoft Office`:       ``, // Microsoft Office/14.0 (Windows NT 6.1; Microsoft Outlook 14.
	`Microsoft Outlook`:      ``, // Microsoft Office/14.0 (Windows NT 6.1; Microsoft Outlook 14.
	`NetNewsWire`:            ``, // Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_2) AppleWebKit/5
	`NewsGator`:              ``, // FeedStation/4.5 (http://www.newsgator.com/; Microsoft Window
	`NYU`:                    ``, // TIANYU-KTOUCH/A930/Screen-240X320
	`Octopus`:                ``, // Mozilla/5.0 (Linux; Android 9; OCTOPUS-CORE T8) AppleWebKit/
	`okhttp`:                 ``, // DS podcast/1.0.5 (be.standaard.audio; build:6; Android 10; S
	`OPPO A33`:               ``, // Mozilla/5.0 (Linux; Android 5.1.1; OPPO A33m) AppleWebKit/53
	`Outlook-Express`:        ``, // Outlook-Express/7.0 (MSIE 7.0; Windows NT 6.1; Trident/4.0;
	`Outlook-iOS`:            ``, // Outlook-iOS/665.29827.prod.iphone (2.63.0)
	`PeoplePal`:              ``, // Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; PeoplePal 6.2): a toolbar of Internet Explorer
	`PodcastAddict\/`:        ``, // PodcastAddict/v2 - Dalvik/2.1.0 (Linux; U; Android 6.0; FEVE
	`PowerPoint\/`:           ``, // Microsoft Office PowerPoint/15.29.1215 (Mac OS/10.11.5; Desk
	`Pump`:                   ``, // Opera/9.80 (Linux sh4; U; HbbTV/1.1.1 (; INTEK; Vantage Full
	`QQDownload`:             ``, // Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; Trident/4
	`QuiteRSS`:               ``, // Mozilla/5.0 (Windows NT 6.1) AppleWebKit/602.1 (KHTML, like
	`Reeder\/`:               ``, // Reeder/1010.79.00 CFNetwork/520.4.3 Darwin/11.4.0 (x86_64) (
	`RSSOwl`:                 ``, // RSSOwl/2.2.1.201312301314 (Windows; U; en)
	`Siphon`:                 ``, // WormsiPhone-iPad/2.3 CFNetwork/548.1.4 Darwin/11.0.0
	`Slack\/`:                ``, // Slack/396839 CFNetwork/889.9 Darwin/17.2.0
	`speedy`:                 ``, // Speedy/138 CFNetwork/596.2.3 Darwin/12.2.0 (x86_64) (Macmini
	`StumbleUpon`:            ``, // Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; StumbleUpon/1.9; .NET CLR 2.0.50727): a toolbar of Internet Explorer
	`voyager\/`:              ``, // AmigaVoyager/3.2 (AmigaOS/MC680x0)
	`Webster`:                ``, // Mozilla/4.7 (compatible; OffByOne; Windows 2000) Webster Pro
	`WhatsApp`:               ``, // WhatsApp/2.6.4 iPhone_OS/4.3.3 Device/iPhone_4
	`WordPress\/`:            ``, // WordPress/3.8.1; http://www.samsung-blog-news.de
	`Word\/`:                 ``, // Word/15.22.506 (Mac OS/10.11.5; Desktop; en-US; NonAppStore;
	`Yandex(?!Search)`:       ``, // Yandex.Music/2019-11-01.trunk.5885661
	`Zeus `:                  ``, // Mozilla/5.0 (Linux; Android 11; AUPO Zeus 10 Pro) AppleWebKi
	`[a-z0-9\-_]*(bot|crawl|headless|archiver|transcoder|spider|uptime|validator|fetcher|cron|checker|reader|extractor|monitoring|analyzer|scraper)`: ``, // Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; Banca Cabot
}

// narrowedIsbot are the patterns of isbot's list (isbot/patterns.json) that match people's
// user agents in the public corpora, or that use look-around, which Go's regexp cannot
// read; the comment is a person's user agent each matches.
var narrowedIsbot = map[string]string{
	`(?:^|[^g])news(?!sapphire)`:                                ``, // Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_2) AppleWebKit/5
	`(?<! channel/|google/)google(?!(?:wv|app|/google| pixel))`: ``, // Mozilla/5.0 (Windows; U; Windows NT 5.1; cs-CZ) AppleWebKit/
	`(?<! cu)bots?(?:\b|_)`:                                     ``, // Mozilla/5.0 (Linux; Android 8.1.0; XBot_Senior Build/O11019)
	`(?<!lib)http`:                                              ``, // Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; i-NavFour
	`24x7`:                                                      ``, // Mozilla/5.0 (Linux; U; Android 4.2.1; ru-ru; ZT-97003G Build
	`;\s\w+;$`:                                                  ``, // Mozilla/5.0 Linux; Android 7.0; FTE161G Build/NRD90M; wv App
	`@[a-z][\w-]+\.`:                                            ``, // Mozilla/5.0 (Linux; Android 4.0.3; ARCHOS 101G9 Build/ICS@RO
	`\(\)`:                                                      ``, // LAVA.KKT QUADRA.LEGEND61D_11C_HW_V02 (MRE/3.1.00(1);MAUI/KKT
	`\.com\b`:                                                   ``, // Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; i-NavFour
	`\b\w+\.ai`:                                                 ``, // Mozilla/5.0 (Linux; U; Android 2.3.6; zh-cn; GT-I9000 Build/
	`\|`:                                                        ``, // Mozilla/5.0 (Linux; Android 6.0; CG|EON Blaze GOLD) AppleWeb
	`^[<\(;]`:                                                   ``, // (null)/(null) watchOS/5.0.1 model/Watch4,2 hwp/t8006 build/1
	`^[\w \.\-\(?:\):%]+(?:/v?\d+(?:\.\d+)?(?:\.\d{1,10})*?)?(?:,|$)`: ``, // nook browser/1.0
	`^[\w\-]+/[\w]+$`:          ``, // CronetSnapDevSheldon/1
	`^[^ ]{50,}$`:              ``, // TECNOT611/wap2.0_Profile/MIDP-2.0/CLDC-1.1/240x320/key
	`^\d+\b`:                   ``, // 2.1.0 (Linux; U; Android 7.0; ONEPLUS A3000 Build/NRD90M)
	`^\w*search\b`:             ``, // search.ch/2.8 Android/4.0.3; htc_europe:HTC One V; Mozilla/5
	`^\w+/[\w\(\)]*$`:          ``, // CronetSnapDevSheldon/1
	`^\w+/\d\.\d\s\([\w@]+\)$`: ``, // Aplix_SEGASATURN_browser/2.0 (Japanese)
	`^amaya`:                   ``, // amaya/9.51 libwww/5.4.0
	`^client/`:                 ``, // Client/29283 CFNetwork/1404.0.5 Darwin/22.3.0
	`^downcast/`:               ``, // Downcast/2.9.11 (Mac OS X Version 10.11.3 (Build 15D21))
	`^read`:                    ``, // ReadKit/2.4.0 (Mac OS X Version 10.9.2 (Build 13C64))
	`^reed`:                    ``, // Reeder/1010.79.00 CFNetwork/520.4.3 Darwin/11.4.0 (x86_64) (
	`^rss`:                     ``, // RssBandit/1.9.0.1002
	`^snapchat`:                ``, // Snapchat/10.29.1.0 (iPhone10,1; iOS 11.2; gzip)
	`^whatsapp`:                ``, // WhatsApp/2.6.4 iPhone_OS/4.3.3 Device/iPhone_4
	`^wordpress`:               ``, // WordPress/3.8.1; http://www.samsung-blog-news.de
	`^yahoo`:                   ``, // YahooMobile/1.0 (im; 1.8.4.15957); (Linux; U; Android 2.3.6;
	`^yandex`:                  ``, // Yandex.Music/2019-11-01.trunk.5885661
	`advisor`:                  ``, // LG-AppAdvisor/v2.0.57
	`agent\b`:                  ``, // Windows-Update-Agent/10.0.10011.16384 Client-Protocol/2.32
	`browsex`:                  ``, // Mozilla/4.61 [en] (X11; U; ) - BrowseX (2.0.0 Windows)
	`capture`:                  ``, // Mozilla/5.0 (Linux; Android 8.1.0; Capture+) AppleWebKit/537
	`catch`:                    ``, // Podcatcher Deluxe
	`chromeframe`:              ``, // Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Tr
	`detect`:                   ``, // Xiaoyuzhou/2.55.1 (build:1506; iOS 16.6.0) ContentLengthDete
	`discovery`:                ``, // Mozilla/5.0 (Linux; Android 4.4.2; GM Discovery II) AppleWeb
	`download`:                 ``, // Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; Trident/4
	`feed`:                     ``, // FeedDemon/4.5 (http://www.feeddemon.com/; Microsoft Windows)
	`firephp`:                  ``, // SAMSUNG-S8000/S8000XXIF3 SHP/VPP/R5 Jasmine/1.0 Nextreaming
	`java(?!;)`:                ``, // SonyEricssonU10/R1x Browser/NetFront/3.5 Profile/MIDP-2.1 Co
	`library`:                  ``, // Gospel_Library 2.6.1.7 / Android 4.3 279372.1 / HTC HTC One
	`manager`:                  ``, // AndroidDownloadManager/4.1.1 (Linux; U; Android 4.1.1; MB886
	`offbyone`:                 ``, // Mozilla/4.7 (compatible; OffByOne; Windows 2000) Webster Pro
	`parser`:                   ``, // Podchaser-Parser
	`proxy`:                    ``, // Mozilla/4.76 (compatible; MSIE 6.0; U; Windows 95; PalmSourc
	`radar`:                    ``, // Mozilla/5.0 (compatible; MSIE 9.0; Windows Phone OS 7.5; Tri
	`rss\b`:                    ``, // Akregator/1.2.9; librss/remnants
	`server`:                   ``, // Mozilla/4.0 (compatible; MSIE 4.01; Digital AlphaServer 1000
	`sogou`:                    ``, // Mozilla/5.0 (Linux; U; Android 5.0.2; zh-cn; Redmi Note 2 Bu
	`spider`:                   ``, // Mozilla/5.0 (Linux; Android 13; Spider 8) AppleWebKit/537.36
	`tools`:                    ``, // Mozilla/5.0 (Linux; Android 12; LGE-AN10 Build/HONORLGE-AN10
	`torrent`:                  ``, // qBittorrent/4.3.9 ProgramUpdater (www.qbittorrent.org)
	`url`:                      ``, // Breaker/v315 (subscribers=9999; feed-id=123456; url=https://
	`virtuoso`:                 ``, // Mozilla/5.0 (Linux; Android 6.0; AURII Virtuoso Build/MRA58K
	// Read by shape (shape.go) without a regular expression run on every browser's user agent.
	`^mozilla/\d\.\d\s\((?:compatible;)?(?:\s?[\w\d-.]+\/\d+\.\d+)?\)$`: ``,
	`^mozilla/\d\.\d\s[\w\.-]+$`:                                        ``,
	`preview`:                                                           `(?:^|[^r])preview`,           // MozillaDeveloperPreview, a Firefox build
	`(?<!cam)scan`:                                                      `(?:^|[^m]|[^a]m|[^c]am)scan`, // look-behind: not "camscanner"
}
