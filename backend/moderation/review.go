package moderation

import "time"

// Profile is one of the three visitors a destination is opened as (docs/moderation.md#moderation-the-browser).
type Profile string

// The visitors of a review: the desktop Chrome of a computer, Safari on an iPhone, and the
// in-app browser of WeChat, which phishing often singles out.
const (
	Desktop Profile = "desktop"
	Mobile  Profile = "mobile"
	WeChat  Profile = "wechat"
)

// Profiles are the visitors of every review, in order.
var Profiles = []Profile{Desktop, Mobile, WeChat}

// Capture is what one visitor saw of a destination in the browser.
type Capture struct {
	Profile Profile `json:"profile"`
	// URL is the destination opened; FinalURL where the browser ended, after Redirects (every
	// URL the top frame went through, HTTP, meta refresh and script redirects alike, in order,
	// starting with URL).
	URL       string   `json:"url"`
	FinalURL  string   `json:"final_url"`
	Redirects []string `json:"redirects"`
	// ClientRedirects are the URLs of Redirects the top frame moved to by itself after a
	// document had committed (meta refresh, script), in order; HTTP redirects are not among
	// them. The scorer reads them; they are not stored.
	ClientRedirects []string `json:"client_redirects,omitempty"`
	Status          int      `json:"status"` // HTTP status of the last document, 0 when none
	Title           string   `json:"title"`
	// Description is the page's meta description (or og:description).
	Description string `json:"description"`
	// Text is the page's visible text, whitespace collapsed, at most MaxText characters.
	Text string `json:"text"`
	// Forms describe the page's forms: what they ask for and where they post.
	Forms []Form `json:"forms,omitempty"`
	// Links are the hosts of the page's links (<a href>, http and https), one per link in the
	// order of the page, at most MaxLinks; Scripts the hosts its scripts are loaded from, each
	// once, at most MaxScripts. The scorer reads them; they are not stored.
	Links   []string `json:"links,omitempty"`
	Scripts []string `json:"scripts,omitempty"`
	// Headings are the text of the page's headings (h1 to h3 and role="heading"), in order,
	// separated by " / ", at most MaxHeadings characters; Images its first images and its
	// icon, at most MaxImages: whose page it says it is, beside its title. The scorer reads
	// them; they are not stored.
	Headings string  `json:"headings,omitempty"`
	Images   []Image `json:"images,omitempty"`
	// OCRText is the text read from the screenshot, when the page showed little text in its
	// DOM or asked for a password or another secret (text drawn by CSS, SVG, canvas or
	// images); at most MaxText characters, "" when it was not read. Not stored.
	OCRText string `json:"ocr_text,omitempty"`
	// Sends are where the page's scripts send what it is given, for inputs that no form posts
	// (fetch, XMLHttpRequest, sendBeacon, WebSocket, jQuery or axios called with an address,
	// in an inline script or one of the page's own site), absolute, each once, at most
	// MaxSends; SendHosts the hosts of every absolute URL written in a script of the page's
	// that sends (base64 ones decoded) and of the requests it made with another method than
	// GET, HEAD or OPTIONS, or by WebSocket. The scorer reads them; they are not stored.
	Sends     []string `json:"sends,omitempty"`
	SendHosts []string `json:"send_hosts,omitempty"`
	// Downloads are the app packages and installers the page's links offer (an APK, an iOS
	// profile or itms-services link, an executable, a link with a download attribute), absolute,
	// at most MaxDownloads. The scorer reads them; they are not stored.
	Downloads []string `json:"downloads,omitempty"`
	// Clipboard is what the page's scripts put on the clipboard while it was watched (and its
	// gate button pressed): at most 3 texts of 1,000 characters. The scorer reads it; it is not
	// stored.
	Clipboard []string `json:"clipboard,omitempty"`
	// Rendered says a screenshot was taken: the page was seen rendered. Recordings keep it
	// where they keep no screenshot. Not stored.
	Rendered bool `json:"rendered,omitempty"`
	// Screenshot is the visible part of the page as PNG; nil when none was taken.
	Screenshot []byte `json:"-"`
	// Refused are the requests of the page that the SSRF guard stopped, as "URL (reason)", at
	// most 20; the page itself may be complete.
	Refused []string `json:"refused,omitempty"`
	// Error says why the capture is incomplete ("timeout", "refused: private address", …);
	// "" when it is complete.
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// Image is one image of a page, or its icon: where it is loaded from, its file's name and its
// alternative text.
type Image struct {
	Host string `json:"host"`
	Name string `json:"name,omitempty"` // the last segment of its path, at most 80 characters
	Alt  string `json:"alt,omitempty"`  // at most 80 characters
	Icon bool   `json:"icon,omitempty"` // the page's icon (<link rel="icon">)
}

// MaxText bounds the visible text kept per capture (and sent to the model).
const MaxText = 4000

// Bounds of a capture's link and script hosts.
const (
	MaxLinks   = 50
	MaxScripts = 20
	// MaxImages bounds a capture's images, MaxHeadings its headings' text.
	MaxImages   = 12
	MaxHeadings = 500
	// MaxSends bounds a capture's Sends and SendHosts, MaxDownloads its Downloads.
	MaxSends     = 20
	MaxDownloads = 10
)

// Form is one form of a page.
type Form struct {
	// Action is the absolute URL the form posts to; "" for inputs outside any form, which a
	// script must send.
	Action string `json:"action"`
	// Method is the form's method in lower case ("get", "post"; "" for inputs outside any form).
	Method   string `json:"method,omitempty"`
	Password bool   `json:"password"`
	// Card says the form asks for a payment card (a card-number or CVC field).
	Card bool `json:"card"`
	// Fields are the names (or types) of its inputs, at most 20; Types their types in the same
	// order ("text", "password", "email", "tel", "textarea", "select", …); Inputs how many
	// inputs a person can fill the form has, all of them (a grid of 24 words is 24).
	Fields []string `json:"fields"`
	Types  []string `json:"types,omitempty"`
	Inputs int      `json:"inputs,omitempty"`
	// Hints are what the page tells a person each input is for, in the order of Fields: its
	// label, aria-label, placeholder or the text just before it ("" when none), each cut to 60
	// characters. The scorer reads them to know a 支付密码 field from a search box.
	Hints []string `json:"hints,omitempty"`
}

// Verdict is a scorer's judgement of a destination.
type Verdict struct {
	// Score is 0 (harmless) .. 1 (certainly abusive).
	Score float64 `json:"score"`
	// Category names the abuse: "phishing", "malware", "scam", "adult", "spam", "cloaking", or
	// "benign".
	Category string `json:"category"`
	Reason   string `json:"reason"`
	// Scorer is "model" or "heuristic"; Model the model's name when the model decided.
	Scorer string `json:"scorer"`
	Model  string `json:"model,omitempty"`
	// Notes record what went wrong on the way (the model failing before the heuristics ran).
	Notes []string `json:"notes,omitempty"`
}

// LinkFacts are what a scorer knows of the link besides the captures.
type LinkFacts struct {
	ID int64
	// URL is the link's destination; ShortURL the link's own address on the service.
	URL      string
	ShortURL string
}
