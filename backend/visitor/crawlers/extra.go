package crawlers

// extra are the project's own patterns, beside the vendored list: the link-preview fetchers docs/visitors.md names
// (kept here too, so that an update of the list cannot drop them), safe-links scanners, and
// heuristics. Go's regexp syntax; each must require a string of three bytes or more (see
// required), or it would be tried on every user agent.
var extra = []string{
	// Link previews of chat, social and mail apps.
	`facebookexternalhit`, `facebookcatalog`, `Twitterbot`, `Slackbot`, `TelegramBot`,
	`^WhatsApp/[0-9.]+(?:[ /][A-Za-z])?$`, `Discordbot`, `LinkedInBot`, `SkypeUriPreview`, `redditbot`, `Pinterestbot`,
	`vkShare`, `Iframely`, `Embedly`, `Mattermost`, `kakaotalk-scrap`, `Snap URL Preview`,
	`^Viber`, `line-poker`, `Google-PageRenderer`,
	// Search engines and their helpers.
	`Googlebot`, `Google-InspectionTool`, `GoogleOther`, `Storebot-Google`, `AdsBot-Google`,
	`Mediapartners-Google`, `Google-Read-Aloud`, `(?i)bingbot`, `BingPreview`, `Baiduspider`,
	`YandexBot`, `YandexMobileBot`, `Applebot`, `DuckDuckBot`, `Sogou[ -][A-Za-z]+[ -][Ss]pider`, `360Spider`,
	`YisouSpider`, `Bytespider`, `PetalBot`, `Yahoo! Slurp`, `SeznamBot`, `Qwantify`,
	// Safe-links scanners and office apps that open a link before the person does.
	`Microsoft Office Existence Discovery`, `ms-office`, `MSOffice`, `(?i)barracuda`,
	`(?i)proofpoint`, `(?i)mimecast`, `(?i)trendmicro`, `(?i)symantec`,
	// Google's other fetchers: Google-Site-Verification, DuplexWeb-Google, GoogleProber, ….
	`Google-[A-Za-z]`, `-Google\b`, `(?i)google[-_ ]?(?:ads|sites|prober|search console|page speed|partner)`,
	// Heuristics: no browser says any of these. "bot" as a word of its own or ending a name
	// ("Googlebot/", "ExampleBot;"), not phones named CUBOT, "M bot 54", "XBot Junior",
	// "IDbot553PLUS" or "BOTECH".
	`(?i)(?:^|[^u]|[^c]u)bot(?:[/;:,)+\]-]|$|\s*v?\d*\.\d)`, `(?i)crawl`, `(?i)spider`,
	`(?i)scrap(?:er|y)`, `(?i)headless`, `(?i)(?:^|[^r])preview`, // not MozillaDeveloperPreview
	`(?i)phantomjs`, `(?i)slurp`,
	`(?i)lighthouse`,
	// A contact: an address to write to ("+http://…", "(compatible; …; http://…)", an e-mail
	// address); apps of people give a bare address at most.
	`(?i)\+https?://`, `(?i)\(compatible;[^)]*https?://`, `[A-Za-z0-9._-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}`,
	// What checkers and probes call themselves.
	`(?i)(?:check|validator|scanner|analy[sz]er|transcoder|diagnostics|verification|synthetics?\b|measurement|jndi:|monitor|research|uptime|\bdcv\b)`,
	`(?i)^(?:curl|wget|python|go-http-client|java/|okhttp|axios|node-fetch|undici|libwww|httpie|postman|aiohttp|guzzle|ruby|php/|perl|rust|reqwest|dart:io|apache-httpclient|http\.rb|powershell)`,
	// Servers and tools that fetch pages for themselves: monitoring, analytics, load tests,
	// podcast hosts, scripts.
	`(?i)^(?:collectd|munin|prometheus|grafana|matomo|piwik|k6/|castopod|kiwitcms|webmon|zabbix|nagios|icinga|telegraf|request-promise|githubcopilot)`,
	`(?i)(?:web|sitemap)parser`, `(?i)detector/`, `[a-z]Agent$`,
	// Security scanners and probes.
	`(?i)recon\b|sectxt|exploit|pentest|vuln|owned|pwn|shodan|censys|zgrab|masscan|nuclei|nmap|sqlmap|nikto|gobuster|dirbuster|ffuf|wpscan|arachni|burp|acunetix|nessus|openvas|qualys|netsparker|assetnote|\.env\b`,
	// Mail services' image proxies, which fetch what a message shows before anyone reads it.
	`(?i)(?:image|mail|email|media|link)[ -]?proxy|\bvia\b.*proxy`,
	// Shapes no browser sends (besides those of shape.go): a template left unfilled
	// ("{{.custom_user_agent}}", "YourUserAgentHere", "Gecko/geckotrail"), a "search engine"
	// calling itself one, a web address by number, a word on robots.txt, an e-mail address
	// written out ("[at]").
	`(?i)(?:my|your|default|custom|sample|example)[ _.-]?user[ _-]?agent`, `\{\{`, `(?i)gecko/[a-z]{4,}`,
	`(?i)^\w*search(?:er|engine)?(?:[-_/\d]|$)`, `(?i)https?://\d+\.\d+\.\d+\.\d+`, `(?i)robots\.txt`,
	`(?i)\[at\]|\(at\)`,
}
