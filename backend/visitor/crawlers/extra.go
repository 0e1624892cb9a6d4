package crawlers

// extra are the project's own patterns, beside the vendored list: the fetchers that SPEC names
// (kept here too, so that an update of the list cannot drop them), safe-links scanners, and
// heuristics. Go's regexp syntax; each must require a string of three bytes or more (see
// required), or it would be tried on every user agent.
var extra = []string{
	// Link previews of chat, social and mail apps.
	`facebookexternalhit`, `facebookcatalog`, `Twitterbot`, `Slackbot`, `TelegramBot`,
	`WhatsApp/`, `Discordbot`, `LinkedInBot`, `SkypeUriPreview`, `redditbot`, `Pinterestbot`,
	`vkShare`, `Iframely`, `Embedly`, `Mattermost`, `kakaotalk-scrap`, `Snap URL Preview`,
	`Viber/`, `line-poker`, `Google-PageRenderer`,
	// Search engines and their helpers.
	`Googlebot`, `Google-InspectionTool`, `GoogleOther`, `Storebot-Google`, `AdsBot-Google`,
	`Mediapartners-Google`, `Google-Read-Aloud`, `(?i)bingbot`, `BingPreview`, `Baiduspider`,
	`YandexBot`, `YandexMobileBot`, `Applebot`, `DuckDuckBot`, `Sogou`, `360Spider`,
	`YisouSpider`, `Bytespider`, `PetalBot`, `Yahoo! Slurp`, `SeznamBot`, `Qwantify`,
	// Safe-links scanners and office apps that open a link before the person does.
	`Microsoft Office Existence Discovery`, `ms-office`, `MSOffice`, `(?i)barracuda`,
	`(?i)proofpoint`, `(?i)mimecast`, `(?i)trendmicro`, `(?i)symantec`,
	// Heuristics: no browser says any of these. "bot" outside CUBOT, a brand of phones.
	`(?i)(?:^|[^u]|[^c]u)bot`, `(?i)crawl`, `(?i)spider`, `(?i)scrap(?:er|y)`, `(?i)headless`,
	`(?i)preview`, `(?i)https?://`, `(?i)phantomjs`, `(?i)slurp`, `(?i)lighthouse`,
	`(?i)^(?:curl|wget|python|go-http-client|java/|okhttp|axios|node-fetch|undici|libwww|httpie|postman|aiohttp|guzzle|ruby|php/|perl|rust|reqwest|dart:io|apache-httpclient|http\.rb|powershell)`,
}
