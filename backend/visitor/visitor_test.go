package visitor

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/shortlink/shortlink/backend/visitor/geoip"
	"github.com/shortlink/shortlink/backend/visitor/geoip/geoiptest"
)

func newClassifier(tb testing.TB, o Options) *Classifier {
	tb.Helper()
	c, err := New(o)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func countries(tb testing.TB) geoip.Database {
	tb.Helper()
	db, err := geoip.Open(geoiptest.GeoIP2(tb, map[string]string{
		"127.0.0.0/8":   "CN",
		"10.0.0.0/8":    "US", // the proxies
		"2001:db8::/32": "DE",
	}))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}

func request(peer, xff, ua, lang string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/abc", nil)
	r.RemoteAddr = peer
	if xff != "" {
		r.Header.Set("X-Forwarded-For", xff)
	}
	r.Header.Set("User-Agent", ua)
	if lang != "" {
		r.Header.Set("Accept-Language", lang)
	}
	return r
}

func TestClassify(t *testing.T) {
	c := newClassifier(t, Options{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
		Countries:      countries(t),
	})
	if !c.GeoAvailable() {
		t.Fatal("GeoAvailable with a database")
	}
	got := c.Classify(request("10.0.0.1:443", "127.0.0.9, 10.0.0.2", uaWeChatAndroid, "zh-CN,zh;q=0.9"))
	want := Visitor{
		IP:      netip.MustParseAddr("127.0.0.9"),
		Country: "CN",
		Agent:   Agent{Android, "Android", "Chrome Mobile WebView", WeChat, false},
		Lang:    Chinese,
		Known:   PartAll,
	}
	if got != want {
		t.Fatalf("\n got %+v\nwant %+v", got, want)
	}

	got = c.Classify(request("[2001:db8::5]:443", "127.0.0.9", uaGooglebot, ""))
	if got.IP != netip.MustParseAddr("2001:db8::5") || got.Country != "DE" || !got.Crawler || got.Lang != English {
		t.Fatalf("untrusted IPv6 peer: %+v", got)
	}

	got = c.Classify(request("192.0.2.1:443", "", uaIOSSafari, "en"))
	if got.Country != "" {
		t.Fatalf("address outside the database: country %q", got.Country)
	}
}

// Parts not asked for are left zero: the redirect path pays for no more than its rules need.
func TestClassifyParts(t *testing.T) {
	c := newClassifier(t, Options{Countries: countries(t)})
	r := request("127.0.0.1:443", "", uaIOSSafari, "zh")
	for _, tt := range []struct {
		parts Parts
		want  Visitor
	}{
		{0, Visitor{}},
		{PartAddress, Visitor{IP: netip.MustParseAddr("127.0.0.1"), Known: PartAddress}},
		{PartCountry, Visitor{IP: netip.MustParseAddr("127.0.0.1"), Country: "CN", Known: PartAddress | PartCountry}},
		{PartAgent, Visitor{Agent: Agent{IOS, "iOS", "Mobile Safari", "", false}, Known: PartAgent}},
		{PartLang, Visitor{Lang: Chinese, Known: PartLang}},
	} {
		if got := c.ClassifyParts(r, tt.parts); got != tt.want {
			t.Errorf("parts %04b:\n got %+v\nwant %+v", tt.parts, got, tt.want)
		}
	}
}

func TestWithoutCountries(t *testing.T) {
	c := newClassifier(t, Options{})
	if c.GeoAvailable() {
		t.Fatal("GeoAvailable without a database")
	}
	if got := c.Classify(request("127.0.0.1:1", "", uaIOSSafari, "")); got.Country != "" || got.Known != PartAll {
		t.Fatalf("%+v", got)
	}
}

func BenchmarkClassify(b *testing.B) {
	c := newClassifier(b, Options{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
		Countries:      countries(b),
	})
	uncached := newClassifier(b, Options{
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
		Countries:      countries(b),
		AgentCacheSize: -1,
	})
	for _, ua := range []struct{ name, ua string }{
		{"iOS Safari", uaIOSSafari},
		{"WeChat Android", uaWeChatAndroid},
		{"Googlebot", uaGooglebot},
	} {
		r := request("10.0.0.1:443", "127.0.0.9, 10.0.0.2", ua.ua, "zh-CN,zh;q=0.9,en;q=0.8")
		b.Run(ua.name+"/all", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.Classify(r)
			}
		})
		b.Run(ua.name+"/all, agent cache off", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				uncached.Classify(r)
			}
		})
		b.Run(ua.name+"/agent", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.ClassifyParts(r, PartAgent)
			}
		})
		b.Run(ua.name+"/crawler only", func(b *testing.B) {
			b.ReportAllocs()
			ua := r.UserAgent()
			for b.Loop() {
				uncached.IsCrawler(ua)
			}
		})
	}
}
