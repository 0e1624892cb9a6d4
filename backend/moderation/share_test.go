package moderation_test

import (
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
)

func TestNormalise(t *testing.T) {
	d := moderation.Destinations{Tracking: []string{"spm", "from_*"}}
	same := [][]string{
		{"https://shop.test/p/1", "HTTPS://Shop.TEST:443/p/1#top", "https://shop.test/p/1?utm_source=x&utm_medium=y",
			"https://shop.test/p/1?fbclid=1&gclid=2&mc_cid=3&mc_eid=4&ref=abc", "https://shop.test/p/1?spm=a.b&from_app=wx",
			"https://shop.test/p/1?UTM_Campaign=z"},
		{"http://blog.test/", "http://blog.test", "http://blog.test:80/"},
		{"https://a.test/x?b=2&a=1", "https://a.test/x?a=1&b=2", "https://a.test/x?a=1&utm_id=9&b=2"},
	}
	for _, group := range same {
		want := d.Normalise(group[0])
		if want == "" {
			t.Fatalf("%q normalises to nothing", group[0])
		}
		for _, u := range group[1:] {
			if got := d.Normalise(u); got != want {
				t.Errorf("Normalise(%q) = %q, want %q as %q", u, got, want, group[0])
			}
		}
	}
	different := [][2]string{
		{"https://shop.test/p/1", "https://shop.test/p/2"},
		{"https://shop.test/p/1", "https://shop.test/p/1/"},
		{"https://shop.test/p/1", "https://shop.test/P/1"},
		{"https://shop.test/p/1", "https://shop.test/p/1?id=7"},
		{"https://shop.test/p/1?id=7", "https://shop.test/p/1?id=8"},
		{"https://pay.test/?uid=1", "https://pay.test/?uid=2"},
		{"https://shop.test/p/1?referrer=x", "https://shop.test/p/1"},
		{"https://shop.test/", "http://shop.test/"},
		{"https://shop.test/", "https://shop.test:8443/"},
		{"https://shop.test/", "https://www.shop.test/"},
		{"https://shop.test/", "https://u:p@shop.test/"},
		{"https://shop.test/?spm=1", "https://shop.test/?spmx=1"},
	}
	for _, p := range different {
		if a, b := d.Normalise(p[0]), d.Normalise(p[1]); a == b {
			t.Errorf("%q and %q both normalise to %q", p[0], p[1], a)
		}
	}
	if got := d.Normalise("https://shop.test/p/1?utm_source=x&b=2&a=1#f"); got != "https://shop.test/p/1?a=1&b=2" {
		t.Errorf("normalised: %q", got)
	}
	for _, bad := range []string{"", "mailto:a@b.test", "/relative", "ftp://x.test/", "%zz"} {
		if got := d.Normalise(bad); got != "" {
			t.Errorf("Normalise(%q) = %q, want \"\"", bad, got)
		}
	}
	// Without the configured list, spm is a parameter like any other.
	if (moderation.Destinations{}).Normalise("https://shop.test/?spm=1") == (moderation.Destinations{}).Normalise("https://shop.test/") {
		t.Error("spm is dropped without being configured")
	}
}

func TestMayShare(t *testing.T) {
	for reason, want := range map[string]bool{"created": true, "target_changed": true, "visits": false, "requested": false, "appeal": false} {
		if got := moderation.MayShare(reason); got != want {
			t.Errorf("MayShare(%q) = %v", reason, got)
		}
	}
}

func TestReuseFor(t *testing.T) {
	at := time.Now()
	s := moderation.Shared{ReviewID: 5, LinkID: 6, WorkspaceID: 7, ReviewedAt: at}
	if r := moderation.ReuseFor(s, 7); r.ReviewID == nil || *r.ReviewID != 5 || *r.LinkID != 6 || !r.ReviewedAt.Equal(at) {
		t.Errorf("same workspace: %+v", r)
	}
	if r := moderation.ReuseFor(s, 8); r.ReviewID != nil || r.LinkID != nil || !r.ReviewedAt.Equal(at) {
		t.Errorf("another workspace is told of the review or its link: %+v", r)
	}
}

func TestPrioritise(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	due := moderation.Prioritise([]moderation.Due{
		{LinkID: 1, At: at, Reason: "created", WorkspaceID: 1},
		{LinkID: 2, At: at, Reason: "created", WorkspaceID: 1},
		{LinkID: 3, At: at, Reason: "created", WorkspaceID: 1},
		{LinkID: 4, At: at.Add(time.Second), Reason: "created", WorkspaceID: 2},
		{LinkID: 5, At: at.Add(time.Second), Reason: "visits", WorkspaceID: 1},
		{LinkID: 6, At: at.Add(time.Second), Reason: "requested", WorkspaceID: 1},
		{LinkID: 7, At: at, Reason: "target_changed", WorkspaceID: 1},
	})
	score := map[int64]time.Time{}
	for _, d := range due {
		score[d.LinkID] = d.At
	}
	before := func(a, b int64) {
		t.Helper()
		if !score[a].Before(score[b]) {
			t.Errorf("link %d (%v) is not served before link %d (%v)", a, score[a], b, score[b])
		}
	}
	before(6, 5) // a moderator's request before visits
	before(5, 1) // visits before new links
	before(1, 2) // an import in its order
	before(2, 3)
	if !score[1].Equal(at) || !score[7].Equal(at) {
		t.Errorf("the first new link and a changed destination keep their due time: %v %v", score[1], score[7])
	}
	// The other workspace's single create, a second later, goes before a long import's tail.
	long := make([]moderation.Due, 200)
	for i := range long {
		long[i] = moderation.Due{LinkID: int64(100 + i), At: at, Reason: "created", WorkspaceID: 1}
	}
	long = append(long, moderation.Due{LinkID: 999, At: at.Add(time.Second), Reason: "created", WorkspaceID: 2})
	p := moderation.Prioritise(long)
	if last, single := p[199].At, p[200].At; !single.Before(last) {
		t.Errorf("a single create (%v) waits for the import's last link (%v)", single, last)
	}
}

func TestRegistrableDomain(t *testing.T) {
	for raw, want := range map[string]string{
		"https://www.example.com/x":    "example.com",
		"https://a.b.example.co.uk/":   "example.co.uk",
		"https://alice.github.io/page": "alice.github.io",
		"https://bob.github.io/":       "bob.github.io",
		"http://pay-wx.test/?id=1":     "pay-wx.test",
		"http://cdn.pay-wx.test/":      "pay-wx.test",
		"http://127.0.0.1:8080/":       "127.0.0.1",
		"https://WWW.Example.COM./":    "example.com",
		"not a url":                    "",
	} {
		if got := moderation.RegistrableDomain(raw); got != want {
			t.Errorf("RegistrableDomain(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestReputationPlan(t *testing.T) {
	r := moderation.Reputation{Run: 3, Sample: 10}
	v := func(s moderation.State, cat string) moderation.DomainVerdict {
		return moderation.DomainVerdict{State: s, Shared: moderation.Shared{ReviewID: 1, Verdict: moderation.Verdict{Category: cat}}}
	}
	pass := v(moderation.Passed, "benign")
	phish := v(moderation.Banned, "phishing")
	cases := []struct {
		name   string
		reason string
		link   int64
		recent []moderation.DomainVerdict
		want   moderation.Plan
	}{
		{"unknown domain", "created", 1, nil, moderation.PlanReview},
		{"too few passes", "created", 1, []moderation.DomainVerdict{pass, pass}, moderation.PlanReview},
		{"a run of passes", "created", 1, []moderation.DomainVerdict{pass, pass, pass}, moderation.PlanPass},
		{"a run of passes, sampled", "created", 20, []moderation.DomainVerdict{pass, pass, pass}, moderation.PlanReview},
		{"a flag among them", "created", 1, []moderation.DomainVerdict{pass, pass, pass, v(moderation.Flagged, "scam")}, moderation.PlanReview},
		{"a ban among them", "created", 1, []moderation.DomainVerdict{pass, pass, pass, phish}, moderation.PlanReview},
		{"a milestone on a trusted domain", "visits", 1, []moderation.DomainVerdict{pass, pass, pass}, moderation.PlanReview},
		{"a request on a trusted domain", "requested", 1, []moderation.DomainVerdict{pass, pass, pass}, moderation.PlanReview},
		{"a phishing ban", "created", 1, []moderation.DomainVerdict{phish}, moderation.PlanBan},
		{"a new destination after phishing bans", "target_changed", 1, []moderation.DomainVerdict{phish, phish}, moderation.PlanBan},
		{"a phishing ban on a domain that also passed pages", "created", 1, []moderation.DomainVerdict{phish, pass}, moderation.PlanReview},
		{"a milestone after a phishing ban", "visits", 1, []moderation.DomainVerdict{phish}, moderation.PlanReview},
		{"a malware ban is not held on the domain", "created", 1, []moderation.DomainVerdict{v(moderation.Banned, "malware")}, moderation.PlanReview},
		{"a pass after the ban", "created", 1, []moderation.DomainVerdict{pass, phish}, moderation.PlanReview},
		{"a held link is reviewed itself", "held", 1, []moderation.DomainVerdict{phish}, moderation.PlanReview},
		{"a held link on a trusted domain", "held", 1, []moderation.DomainVerdict{pass, pass, pass}, moderation.PlanReview},
	}
	for _, c := range cases {
		if got, _ := r.Plan(c.reason, c.link, "", c.recent); got != c.want {
			t.Errorf("%s: plan %d, want %d", c.name, got, c.want)
		}
	}
	// A moderator's decision on the domain comes first.
	if got, v := r.Plan("created", 1, moderation.DomainBanned, []moderation.DomainVerdict{pass, pass, pass}); got != moderation.PlanBan || v != nil {
		t.Errorf("a banned domain: plan %d, verdict %v", got, v)
	}
	if got, _ := r.Plan("visits", 1, moderation.DomainBanned, nil); got != moderation.PlanReview {
		t.Errorf("a milestone on a banned domain: plan %d", got)
	}
	if got, _ := r.Plan("created", 1, moderation.DomainCleared, []moderation.DomainVerdict{phish}); got != moderation.PlanReview {
		t.Errorf("a cleared domain's phishing ban: plan %d", got)
	}
	if got, v := r.Plan("held", 1, moderation.DomainBanned, []moderation.DomainVerdict{pass}); got != moderation.PlanBan || v != nil {
		t.Errorf("a held link of a domain a moderator banned: plan %d, verdict %v", got, v)
	}
	// Holds: when a domain's new links are held at their creation.
	for _, c := range []struct {
		name    string
		decided string
		recent  []moderation.DomainVerdict
		want    bool
	}{
		{"no record", "", nil, false},
		{"a phishing ban", "", []moderation.DomainVerdict{phish}, true},
		{"phishing bans", "", []moderation.DomainVerdict{phish, phish}, true},
		{"a phishing ban on a domain that also passed pages", "", []moderation.DomainVerdict{phish, pass}, false},
		{"a pass after the ban", "", []moderation.DomainVerdict{pass, phish}, false},
		{"a malware ban", "", []moderation.DomainVerdict{v(moderation.Banned, "malware")}, false},
		{"a phishing flag", "", []moderation.DomainVerdict{v(moderation.Flagged, "phishing")}, false},
		{"cleared by a moderator", moderation.DomainCleared, []moderation.DomainVerdict{phish}, false},
	} {
		if got := r.Holds(c.decided, c.recent); got != c.want {
			t.Errorf("Holds, %s: %v, want %v", c.name, got, c.want)
		}
	}
	if moderation.Lead(moderation.ReasonHeld) != moderation.LeadRequested {
		t.Errorf("a held link's lead: %v", moderation.Lead(moderation.ReasonHeld))
	}
	for _, in := range []string{"example.com", "Example.COM", "alice.github.io", "example.co.uk."} {
		if _, err := moderation.ParseDomain(in); err != nil {
			t.Errorf("ParseDomain(%q): %v", in, err)
		}
	}
	for _, in := range []string{"", "com", "www.example.com", "co.uk", "github.io", "http://example.com", "example.com/x", "a b.com", "1.2.3.4", "example.com:80"} {
		if d, err := moderation.ParseDomain(in); err == nil {
			t.Errorf("ParseDomain(%q) = %q, want an error", in, d)
		}
	}
}
