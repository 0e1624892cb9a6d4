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
}
