package redirect_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/redirect"
	"github.com/shortlink/shortlink/backend/visitor"
)

func TestDecide(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	three := int64(3)
	base := func(rules link.Rules) *link.Link {
		return &link.Link{ID: 1, URL: "https://example.com/default", RedirectStatus: 302, Status: link.StatusActive, Rules: rules}
	}
	iphone := visitor.Visitor{Country: "DE", Agent: visitor.Agent{Device: visitor.IOS}}
	android := visitor.Visitor{Country: "CN", Agent: visitor.Agent{Device: visitor.Android}}
	desktop := visitor.Visitor{Country: "US", Agent: visitor.Agent{Device: visitor.Desktop}}
	unknown := visitor.Visitor{Agent: visitor.Agent{Device: visitor.Desktop}}
	wechat := visitor.Visitor{Country: "CN", Agent: visitor.Agent{Device: visitor.Android, InApp: visitor.WeChat}}
	qq := visitor.Visitor{Country: "CN", Agent: visitor.Agent{Device: visitor.IOS, InApp: visitor.QQ}}
	bot := visitor.Visitor{Country: "US", Agent: visitor.Agent{Device: visitor.OtherDevice, Crawler: true}}
	geoDeny := &link.Geo{Deny: []string{"RU"}}
	geoAllow := &link.Geo{Allow: []string{"CN", "DE"}}
	variants := []link.Variant{{URL: "https://a.example/", Weight: 30}, {URL: "https://b.example/", Weight: 70}}
	form := &link.Form{Fields: []link.FormField{{Name: "phone", Label: "Phone", Type: link.FieldPhone, Required: true}}}
	og := &link.OG{Title: "Preview"}

	for _, c := range []struct {
		name   string
		link   *link.Link
		facts  redirect.Facts
		page   redirect.Page
		status int
		target string
		count  bool
	}{
		{"plain", base(link.Rules{}), redirect.Facts{Visitor: desktop}, redirect.NoPage, 302, "https://example.com/default", false},
		{"disabled", &link.Link{URL: "https://x/", RedirectStatus: 302, Status: link.StatusDisabled}, redirect.Facts{Visitor: desktop}, redirect.PageBlocked, 403, "", false},
		{"held beats everything", &link.Link{URL: "https://x/", Status: link.StatusHeld, Rules: link.Rules{OG: og}}, redirect.Facts{Visitor: bot}, redirect.PageBlocked, 403, "", false},
		{"banned beats everything", &link.Link{URL: "https://x/", Status: link.StatusBanned, Rules: link.Rules{OG: og}}, redirect.Facts{Visitor: bot}, redirect.PageBlocked, 403, "", false},
		{"expired", &link.Link{URL: "https://x/", RedirectStatus: 302, Status: link.StatusActive, ExpiresAt: &past}, redirect.Facts{Visitor: desktop}, redirect.PageGone, 410, "", false},
		{"not expired yet", &link.Link{URL: "https://x/", RedirectStatus: 302, Status: link.StatusActive, ExpiresAt: &future}, redirect.Facts{Visitor: desktop}, redirect.NoPage, 302, "https://x/", false},
		{"cap left: counts", base(link.Rules{MaxVisits: &three}), redirect.Facts{Visitor: desktop}, redirect.NoPage, 302, "https://example.com/default", true},
		{"cap used up", base(link.Rules{MaxVisits: &three}), redirect.Facts{Visitor: desktop, CapReached: true}, redirect.PageGone, 410, "", false},
		{"cap: crawlers do not count", base(link.Rules{MaxVisits: &three}), redirect.Facts{Visitor: bot}, redirect.NoPage, 302, "https://example.com/default", false},
		{"cap inactive after downgrade", base(link.Rules{MaxVisits: &three}), redirect.Facts{Visitor: desktop, CapReached: true, Inactive: []string{"max_visits"}}, redirect.NoPage, 302, "https://example.com/default", false},
		{"expired beats the form", &link.Link{Status: link.StatusActive, ExpiresAt: &past, Rules: link.Rules{Form: form}}, redirect.Facts{Visitor: desktop}, redirect.PageGone, 410, "", false},
		{"og for crawlers", base(link.Rules{OG: og, PasswordHash: "h"}), redirect.Facts{Visitor: bot}, redirect.PageOG, 200, "", false},
		{"og not for people", base(link.Rules{OG: og}), redirect.Facts{Visitor: desktop}, redirect.NoPage, 302, "https://example.com/default", false},
		{"crawler without og: as a person", base(link.Rules{PasswordHash: "h"}), redirect.Facts{Visitor: bot}, redirect.PagePassword, 200, "", false},
		{"geo deny: denied", base(link.Rules{Geo: &link.Geo{Deny: []string{"DE"}}}), redirect.Facts{Visitor: iphone}, redirect.PageGeo, 403, "", false},
		{"geo deny: other country", base(link.Rules{Geo: geoDeny}), redirect.Facts{Visitor: iphone}, redirect.NoPage, 302, "https://example.com/default", false},
		{"geo deny: unknown passes", base(link.Rules{Geo: geoDeny}), redirect.Facts{Visitor: unknown}, redirect.NoPage, 302, "https://example.com/default", false},
		{"geo allow: allowed", base(link.Rules{Geo: geoAllow}), redirect.Facts{Visitor: android}, redirect.NoPage, 302, "https://example.com/default", false},
		{"geo allow: other country", base(link.Rules{Geo: geoAllow}), redirect.Facts{Visitor: desktop}, redirect.PageGeo, 403, "", false},
		{"geo allow: unknown refused", base(link.Rules{Geo: geoAllow}), redirect.Facts{Visitor: unknown}, redirect.PageGeo, 403, "", false},
		{"geo deny before password", base(link.Rules{Geo: &link.Geo{Deny: []string{"US"}}, PasswordHash: "h"}), redirect.Facts{Visitor: desktop}, redirect.PageGeo, 403, "", false},
		{"password asked", base(link.Rules{PasswordHash: "h"}), redirect.Facts{Visitor: desktop}, redirect.PagePassword, 200, "", false},
		{"password given", base(link.Rules{PasswordHash: "h"}), redirect.Facts{Visitor: desktop, PasswordOK: true}, redirect.NoPage, 302, "https://example.com/default", false},
		{"password kept after downgrade", base(link.Rules{PasswordHash: "h"}), redirect.Facts{Visitor: desktop, Inactive: []string{"password"}}, redirect.PagePassword, 200, "", false},
		{"geo kept after downgrade", base(link.Rules{Geo: geoDeny}), redirect.Facts{Visitor: visitor.Visitor{Country: "RU"}, Inactive: []string{"geo"}}, redirect.PageGeo, 403, "", false},
		{"form kept after downgrade", base(link.Rules{Form: form}), redirect.Facts{Visitor: desktop, Inactive: []string{"form"}}, redirect.PageForm, 200, "", false},
		{"look: cap left, takes none", base(link.Rules{MaxVisits: &three}), redirect.Facts{Visitor: desktop, Look: true}, redirect.NoPage, 302, "https://example.com/default", false},
		{"look: cap used up", base(link.Rules{MaxVisits: &three}), redirect.Facts{Visitor: desktop, Look: true, CapReached: true}, redirect.PageGone, 410, "", false},
		{"look: password asked", base(link.Rules{PasswordHash: "h"}), redirect.Facts{Visitor: desktop, Look: true}, redirect.PagePassword, 200, "", false},
		{"look: device target", base(link.Rules{DeviceTargets: map[string]string{"ios": "https://i/"}, MaxVisits: &three}), redirect.Facts{Visitor: iphone, Look: true}, redirect.NoPage, 302, "https://i/", false},
		{"password then form", base(link.Rules{PasswordHash: "h", Form: form}), redirect.Facts{Visitor: desktop, PasswordOK: true}, redirect.PageForm, 200, "", false},
		{"form done", base(link.Rules{Form: form}), redirect.Facts{Visitor: desktop, FormDone: true}, redirect.NoPage, 302, "https://example.com/default", false},
		{"wechat guide", base(link.Rules{WeChatGuide: true}), redirect.Facts{Visitor: wechat}, redirect.PageGuide, 200, "", false},
		{"qq guide", base(link.Rules{WeChatGuide: true}), redirect.Facts{Visitor: qq}, redirect.PageGuide, 200, "", false},
		{"guide not for browsers", base(link.Rules{WeChatGuide: true}), redirect.Facts{Visitor: android}, redirect.NoPage, 302, "https://example.com/default", false},
		{"wechat closed by the plan", base(link.Rules{}), redirect.Facts{Visitor: wechat, WeChatClosed: true}, redirect.PageGuide, 200, "", false},
		{"wechat closed: qq still passes", base(link.Rules{}), redirect.Facts{Visitor: qq, WeChatClosed: true}, redirect.NoPage, 302, "https://example.com/default", false},
		{"form before guide", base(link.Rules{WeChatGuide: true, Form: form}), redirect.Facts{Visitor: wechat}, redirect.PageForm, 200, "", false},
		{"device target", base(link.Rules{DeviceTargets: map[string]string{"ios": "https://apps.apple.com/x"}}), redirect.Facts{Visitor: iphone}, redirect.NoPage, 302, "https://apps.apple.com/x", false},
		{"device target, other device", base(link.Rules{DeviceTargets: map[string]string{"ios": "https://apps.apple.com/x"}}), redirect.Facts{Visitor: android}, redirect.NoPage, 302, "https://example.com/default", false},
		{"device before country", base(link.Rules{DeviceTargets: map[string]string{"ios": "https://i/"}, CountryTargets: map[string]string{"DE": "https://de/"}}), redirect.Facts{Visitor: iphone}, redirect.NoPage, 302, "https://i/", false},
		{"country target", base(link.Rules{CountryTargets: map[string]string{"CN": "https://cn/"}}), redirect.Facts{Visitor: android}, redirect.NoPage, 302, "https://cn/", false},
		{"country target inactive", base(link.Rules{CountryTargets: map[string]string{"CN": "https://cn/"}}), redirect.Facts{Visitor: android, Inactive: []string{"country_targets"}}, redirect.NoPage, 302, "https://example.com/default", false},
		{"variant by weight, low", base(link.Rules{Variants: variants}), redirect.Facts{Visitor: desktop, Random: 0.29}, redirect.NoPage, 302, "https://a.example/", false},
		{"variant by weight, high", base(link.Rules{Variants: variants}), redirect.Facts{Visitor: desktop, Random: 0.31}, redirect.NoPage, 302, "https://b.example/", false},
		{"variant returning", base(link.Rules{Variants: variants}), redirect.Facts{Visitor: desktop, Remembered: 1, Random: 0.99}, redirect.NoPage, 302, "https://a.example/", false},
		{"variant cookie out of range", base(link.Rules{Variants: variants}), redirect.Facts{Visitor: desktop, Remembered: 8, Random: 0.99}, redirect.NoPage, 302, "https://b.example/", false},
		{"device target beats variants", base(link.Rules{Variants: variants, DeviceTargets: map[string]string{"desktop": "https://d/"}}), redirect.Facts{Visitor: desktop, Random: 0.1}, redirect.NoPage, 302, "https://d/", false},
		{"cap and variant", base(link.Rules{Variants: variants, MaxVisits: &three}), redirect.Facts{Visitor: desktop, Remembered: 2}, redirect.NoPage, 302, "https://b.example/", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.facts.Now = now
			o := redirect.Decide(c.link, &c.facts)
			if o.Page != c.page || o.Status != c.status || o.Target != c.target || o.CountVisit != c.count {
				t.Errorf("got page %d, %d %q, count %v; want page %d, %d %q, count %v",
					o.Page, o.Status, o.Target, o.CountVisit, c.page, c.status, c.target, c.count)
			}
		})
	}
}

// TestVariantShares: over many fresh visitors each variant's share follows its weight.
func TestVariantShares(t *testing.T) {
	l := &link.Link{Status: link.StatusActive, RedirectStatus: http.StatusFound, Rules: link.Rules{Variants: []link.Variant{
		{URL: "https://a/", Weight: 20}, {URL: "https://b/", Weight: 30}, {URL: "https://c/", Weight: 50}}}}
	counts := map[string]int{}
	const n = 10000
	for i := range n {
		o := redirect.Decide(l, &redirect.Facts{Random: (float64(i) + 0.5) / n})
		if !o.Sticky {
			t.Fatal("a new visitor's variant is not to be remembered")
		}
		counts[o.Target]++
	}
	for target, want := range map[string]int{"https://a/": 2000, "https://b/": 3000, "https://c/": 5000} {
		if counts[target] != want {
			t.Errorf("%s: %d of %d, want %d", target, counts[target], n, want)
		}
	}
}
