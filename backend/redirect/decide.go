package redirect

import (
	"net/http"
	"slices"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/visitor"
)

// Page names what a visitor is shown instead of (or before) the redirect.
type Page int

// The pages of the rules (docs/rules-and-plans.md#link-rules).
const (
	NoPage       Page = iota // the redirect itself
	PageBlocked              // 403: banned or disabled
	PageGone                 // 410: expired, or the visit cap is used up
	PageOG                   // 200: Open Graph preview for crawlers
	PageGeo                  // 403: not open in the visitor's country
	PagePassword             // 200: asks for the link's password
	PageForm                 // 200: asks the link's form
	PageGuide                // 200: "open in your browser" for WeChat and QQ
)

// Facts are what the decision needs beyond the link: who asks, when, what their cookies and
// posted answers proved, and what the workspace's plan allows. The handler gathers them; the
// decision itself does no I/O.
type Facts struct {
	Visitor visitor.Visitor
	Now     time.Time
	// CapReached says the link's visit cap is used up (read only for capped links).
	CapReached bool
	// PasswordOK: the visitor holds this link's password cookie or just posted its password.
	PasswordOK bool
	// FormDone: the visitor just posted valid answers to the link's form.
	FormDone bool
	// Remembered is 1 + the index of the variant this visitor got before (cookie), 0 when none.
	Remembered int
	// Random is a number in [0, 1) that picks a new visitor's variant.
	Random float64
	// Inactive names the rules the workspace's plan no longer applies (after a downgrade).
	Inactive []string
	// WeChatClosed: the plan stops WeChat visits to this link (free plan, after 10 days).
	WeChatClosed bool
	// Look says the request only looks (HEAD, or the preview page at /{code}+): it is decided
	// as a visit is, but it is no visit and takes none of the link's max_visits.
	Look bool
}

// Outcome is the decision: a page to show, or a redirect to Target.
type Outcome struct {
	Page   Page
	Status int
	Target string
	// Variant is the index of the variant chosen, -1 when the link has none; Sticky says the
	// visitor is to remember it (a new visitor).
	Variant int
	Sticky  bool
	// CountVisit says the redirect uses up one of the link's max_visits (a person, on a capped
	// link): the handler takes it, and answers 410 instead when none is left.
	CountVisit bool
}

// Decide applies the link's rules in the order of docs/rules-and-plans.md#link-rules: status → expiry or visit cap →
// (crawlers: Open Graph) → geo → password → form → WeChat/QQ guide → device target → country
// target → variant → url. It is a pure function of its arguments.
//
// The rules that protect (geo, password, form) apply whatever f.Inactive says: after a
// downgrade the plan stops new or changed ones, never the ones a link has (they must not fail
// open); the rules that serve the owner (targets, variants, the guide) stop.
//
//nolint:gocyclo // the rules' precedence, kept in one place on the hot path
func Decide(l *link.Link, f *Facts) Outcome {
	r := &l.Rules
	on := func(rule string) bool { return !slices.Contains(f.Inactive, rule) }
	switch {
	case l.Status != link.StatusActive:
		return Outcome{Page: PageBlocked, Status: http.StatusForbidden, Variant: -1}
	case l.Expired(f.Now):
		return Outcome{Page: PageGone, Status: http.StatusGone, Variant: -1}
	}
	capped := r.MaxVisits != nil && on("max_visits")
	if capped && f.CapReached {
		return Outcome{Page: PageGone, Status: http.StatusGone, Variant: -1}
	}
	if f.Visitor.Crawler && r.OG != nil && on("og") {
		return Outcome{Page: PageOG, Status: http.StatusOK, Variant: -1}
	}
	if r.Geo != nil && !geoAllows(r.Geo, f.Visitor.Country) {
		return Outcome{Page: PageGeo, Status: http.StatusForbidden, Variant: -1}
	}
	if r.PasswordHash != "" && !f.PasswordOK {
		return Outcome{Page: PagePassword, Status: http.StatusOK, Variant: -1}
	}
	if r.Form != nil && !f.FormDone {
		return Outcome{Page: PageForm, Status: http.StatusOK, Variant: -1}
	}
	if inApp := f.Visitor.InApp; inApp == visitor.WeChat || inApp == visitor.QQ {
		if (r.WeChatGuide && on("wechat_guide")) || (inApp == visitor.WeChat && f.WeChatClosed) {
			return Outcome{Page: PageGuide, Status: http.StatusOK, Variant: -1}
		}
	}
	o := Outcome{Status: l.RedirectStatus, Target: l.Destination(), Variant: -1, CountVisit: capped && !f.Visitor.Crawler && !f.Look}
	if t, ok := r.DeviceTargets[string(f.Visitor.Device)]; ok && on("device_targets") {
		o.Target = l.UTM.Merge(t)
		return o
	}
	if t, ok := r.CountryTargets[f.Visitor.Country]; ok && f.Visitor.Country != "" && on("country_targets") {
		o.Target = l.UTM.Merge(t)
		return o
	}
	if len(r.Variants) > 0 && on("variants") {
		o.Variant = f.Remembered - 1
		if o.Variant < 0 || o.Variant >= len(r.Variants) {
			o.Variant, o.Sticky = pickVariant(r.Variants, f.Random), true
		}
		o.Target = l.UTM.Merge(r.Variants[o.Variant].URL)
	}
	return o
}

// geoAllows reports whether a visitor from country may pass: an allow list refuses an unknown
// country, a deny list lets it through.
func geoAllows(g *link.Geo, country string) bool {
	if len(g.Allow) > 0 {
		return country != "" && slices.Contains(g.Allow, country)
	}
	return country == "" || !slices.Contains(g.Deny, country)
}

// pickVariant chooses by weight with x in [0, 1).
func pickVariant(vs []link.Variant, x float64) int {
	total := 0
	for _, v := range vs {
		total += v.Weight
	}
	at := x * float64(total)
	for i, v := range vs {
		at -= float64(v.Weight)
		if at < 0 {
			return i
		}
	}
	return len(vs) - 1
}
