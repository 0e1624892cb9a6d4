package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visitor/geoip/geoiptest"
)

// User agents of the visitors in these tests.
const (
	uaIPhone  = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	uaAndroid = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
	uaDesktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	uaWeChat  = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560(0x28002F3B) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64"
	uaBot     = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaTwitter = "Twitterbot/1.0"
)

// Visitors' countries, by the address their proxy names (TRUSTED_PROXIES is the loopback).
const (
	fromDE = "10.1.0.7"
	fromCN = "10.2.0.7"
	fromRU = "10.3.0.7"
	fromXX = "192.0.2.1" // in no network of the database: an unknown country
)

// rulesDeployment is a deployment with a small GeoIP database and the loopback as trusted proxy.
func rulesDeployment(t *testing.T) *deployment {
	return withRules(t, newDeployment(t))
}

// withRules gives d a small GeoIP database and the loopback as trusted proxy.
func withRules(t *testing.T, d *deployment) *deployment {
	d.env["GEOIP_DB"] = geoiptest.GeoIP2(t, map[string]string{"10.1.0.0/16": "DE", "10.2.0.0/16": "CN", "10.3.0.0/16": "RU"})
	d.env["TRUSTED_PROXIES"] = "127.0.0.1/32"
	return d
}

// visitor is one browser: its address, user agent, language and cookies.
type visitorClient struct {
	s       *server
	from    string
	ua      string
	lang    string
	accept  string // the Accept header, none when empty
	cookies map[string]*http.Cookie
}

func (s *server) visitor(from, ua string) *visitorClient {
	return &visitorClient{s: s, from: from, ua: ua, cookies: map[string]*http.Cookie{}}
}

func (v *visitorClient) do(method, path string, form url.Values) response {
	v.s.t.Helper()
	var body *strings.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	req, err := http.NewRequest(method, v.s.base+path, body)
	if err != nil {
		v.s.t.Fatal(err)
	}
	req.Host = shortHost
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("X-Forwarded-For", v.from)
	req.Header.Set("User-Agent", v.ua)
	if v.lang != "" {
		req.Header.Set("Accept-Language", v.lang)
	}
	if v.accept != "" {
		req.Header.Set("Accept", v.accept)
	}
	for _, c := range v.cookies {
		req.AddCookie(c)
	}
	r := v.s.send(req)
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		v.cookies[c.Name] = c
	}
	return r
}

func (v *visitorClient) get(path string) response { v.s.t.Helper(); return v.do("GET", path, nil) }

// post sends a page's form back with every input it holds (hidden ones included), changed by
// answers.
func (v *visitorClient) post(path string, page response, answers map[string]string) response {
	v.s.t.Helper()
	form := url.Values{}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`).FindAllStringSubmatch(string(page.Body), -1) {
		form.Set(m[1], m[2])
	}
	for k, val := range answers {
		form.Set(k, val)
	}
	return v.do("POST", path, form)
}

func (r response) has(s string) bool { return strings.Contains(string(r.Body), s) }

// TestLinkRules walks every rule of docs/rules-and-plans.md#link-rules and some combinations through real requests,
// with visitors from chosen countries and devices.
func TestLinkRules(t *testing.T) {
	d := rulesDeployment(t)
	s := d.start(t)
	tn := s.signupOn("rules@example.com", "enterprise")
	mk := func(body map[string]any) linkJSON {
		t.Helper()
		if _, ok := body["url"]; !ok {
			body["url"] = "https://example.com/default"
		}
		return s.createLink(tn, body)
	}

	t.Run("geo deny plus password", func(t *testing.T) {
		l := mk(map[string]any{"geo": map[string]any{"deny": []string{"RU"}}, "password": "open sesame"})
		if r := s.visitor(fromRU, uaDesktop).get("/" + l.Code); r.Status != http.StatusForbidden {
			t.Errorf("from RU: %d", r.Status)
		}
		v := s.visitor(fromDE, uaDesktop)
		page := v.get("/" + l.Code)
		if page.Status != http.StatusOK || !page.has(`<form method="post"`) || !page.has(`name="password"`) {
			t.Fatalf("password page: %d %.300s", page.Status, page.Body)
		}
		if r := v.post("/"+l.Code, page, map[string]string{"password": "wrong"}); r.Status != http.StatusUnauthorized {
			t.Errorf("wrong password: %d", r.Status)
		}
		r := v.post("/"+l.Code, page, map[string]string{"password": "open sesame"})
		if r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/default" {
			t.Fatalf("right password: %d %q", r.Status, r.Header.Get("Location"))
		}
		if r := v.get("/" + l.Code); r.Status != http.StatusFound {
			t.Errorf("the cookie lets the browser through: %d", r.Status)
		}
		if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code); r.Status != http.StatusOK {
			t.Errorf("another browser is asked again: %d", r.Status)
		}
		if r := s.visitor(fromXX, uaDesktop).get("/" + l.Code); r.Status != http.StatusOK {
			t.Errorf("unknown country through a deny list: %d", r.Status)
		}
		// A post without the page's token (another site's form) proves nothing.
		if r := s.visitor(fromDE, uaDesktop).do("POST", "/"+l.Code, url.Values{"password": {"open sesame"}}); r.Status == http.StatusFound {
			t.Errorf("a post without the page's token went through")
		}
	})

	t.Run("geo allow", func(t *testing.T) {
		l := mk(map[string]any{"geo": map[string]any{"allow": []string{"cn", "DE"}}})
		for from, want := range map[string]int{fromCN: 302, fromDE: 302, fromRU: 403, fromXX: 403} {
			if r := s.visitor(from, uaDesktop).get("/" + l.Code); r.Status != want {
				t.Errorf("from %s: %d, want %d", from, r.Status, want)
			}
		}
	})

	t.Run("variants plus device target", func(t *testing.T) {
		l := mk(map[string]any{"variants": []map[string]any{{"url": "https://a.example/", "weight": 50}, {"url": "https://b.example/", "weight": 50}},
			"device_targets": map[string]any{"ios": "https://apps.apple.com/app"}})
		if r := s.visitor(fromDE, uaIPhone).get("/" + l.Code); r.Header.Get("Location") != "https://apps.apple.com/app" {
			t.Errorf("iPhone: %q", r.Header.Get("Location"))
		}
		seen := map[string]int{}
		for range 40 {
			v := s.visitor(fromDE, uaDesktop)
			first := v.get("/" + l.Code).Header.Get("Location")
			seen[first]++
			for range 3 {
				if again := v.get("/" + l.Code).Header.Get("Location"); again != first {
					t.Fatalf("a returning visitor got %q after %q", again, first)
				}
			}
		}
		if seen["https://a.example/"] == 0 || seen["https://b.example/"] == 0 {
			t.Errorf("variants seen: %v", seen)
		}
	})

	t.Run("country targets", func(t *testing.T) {
		l := mk(map[string]any{"country_targets": map[string]any{"CN": "https://cn.example/"}})
		if r := s.visitor(fromCN, uaAndroid).get("/" + l.Code); r.Header.Get("Location") != "https://cn.example/" {
			t.Errorf("from CN: %q", r.Header.Get("Location"))
		}
		if r := s.visitor(fromDE, uaAndroid).get("/" + l.Code); r.Header.Get("Location") != "https://example.com/default" {
			t.Errorf("from DE: %q", r.Header.Get("Location"))
		}
	})

	t.Run("expiry plus form", func(t *testing.T) {
		form := map[string]any{"fields": []map[string]any{
			{"name": "name", "label": "Your name", "type": "text", "required": true},
			{"name": "phone", "label": "Phone", "type": "phone", "required": true},
			{"name": "size", "label": "Size", "type": "choice", "options": []string{"S", "M"}}}}
		l := mk(map[string]any{"form": form, "expires_at": "2099-01-01T00:00:00Z"})
		v := s.visitor(fromCN, uaAndroid)
		page := v.get("/" + l.Code)
		if page.Status != http.StatusOK || !page.has(`name="phone"`) || !page.has("<select") {
			t.Fatalf("form page: %d %.300s", page.Status, page.Body)
		}
		bad := v.post("/"+l.Code, page, map[string]string{"name": "Li", "phone": "12"})
		if bad.Status != http.StatusBadRequest || !bad.has(`value="Li"`) {
			t.Errorf("invalid answers: %d %.300s", bad.Status, bad.Body)
		}
		ok := v.post("/"+l.Code, page, map[string]string{"name": "Li <b>", "phone": "138 0013 8000", "size": "M"})
		if ok.Status != http.StatusFound || ok.Header.Get("Location") != "https://example.com/default" {
			t.Fatalf("valid answers: %d %.300s", ok.Status, ok.Body)
		}
		var answers struct {
			Responses []struct {
				Answers map[string]string `json:"answers"`
			} `json:"responses"`
		}
		s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/responses", tn.WorkspaceID, l.ID), tn.Key, nil).json(t, &answers)
		if len(answers.Responses) != 1 || answers.Responses[0].Answers["phone"] != "+8613800138000" || answers.Responses[0].Answers["name"] != "Li <b>" {
			t.Errorf("answers kept: %+v", answers)
		}
		expired := mk(map[string]any{"form": form, "expires_at": "2099-01-01T00:00:00Z"})
		setColumn(t, d, expired.ID, "expires_at", "2000-01-01T00:00:00Z")
		eventually(t, 5e9, "an expired link with a form is gone", func() bool {
			return s.visitor(fromCN, uaAndroid).get("/"+expired.Code).Status == http.StatusGone
		})
	})

	t.Run("wechat guide and Chinese pages", func(t *testing.T) {
		l := mk(map[string]any{"wechat_guide": true})
		v := s.visitor(fromCN, uaWeChat)
		v.lang = "zh-CN,zh;q=0.9"
		r := v.get("/" + l.Code)
		if r.Status != http.StatusOK || !r.has("浏览器") || !r.has(l.ShortURL) {
			t.Errorf("guide page: %d %.300s", r.Status, r.Body)
		}
		if r := s.visitor(fromCN, uaAndroid).get("/" + l.Code); r.Status != http.StatusFound {
			t.Errorf("a browser: %d", r.Status)
		}
	})

	t.Run("open graph for crawlers", func(t *testing.T) {
		l := mk(map[string]any{"og": map[string]any{"title": `Summer "sale"`, "description": "<b>50%</b> off", "image": "https://img.example/sale.png"}})
		r := s.visitor(fromDE, uaTwitter).get("/" + l.Code)
		if r.Status != http.StatusOK || !r.has(`<meta property="og:title" content="Summer &#34;sale&#34;">`) || !r.has(`og:image" content="https://img.example/sale.png"`) || r.has("<b>50%") {
			t.Errorf("og page: %d %s", r.Status, r.Body)
		}
		if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code); r.Status != http.StatusFound {
			t.Errorf("a person: %d", r.Status)
		}
	})

	t.Run("cap plus crawler visits", func(t *testing.T) {
		l := mk(map[string]any{"max_visits": 3})
		for i := range 5 {
			if r := s.visitor(fromDE, uaBot).get("/" + l.Code); r.Status != http.StatusFound {
				t.Fatalf("crawler %d: %d", i, r.Status)
			}
		}
		for i := range 3 {
			if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code); r.Status != http.StatusFound {
				t.Fatalf("person %d: %d", i, r.Status)
			}
		}
		if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code); r.Status != http.StatusGone {
			t.Errorf("the fourth person: %d", r.Status)
		}
		if r := s.visitor(fromDE, uaBot).get("/" + l.Code); r.Status != http.StatusGone {
			t.Errorf("a crawler once the cap is used up gets what a person gets: %d", r.Status)
		}
	})

	t.Run("free plan: gated fields and WeChat after 10 days", func(t *testing.T) {
		free := s.signup("free-rules@example.com")
		r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links", free.WorkspaceID), free.Key,
			map[string]any{"url": "https://example.com/", "password": "secret"})
		if r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
			t.Errorf("password on free: %d %s", r.Status, r.Body)
		}
		l := s.createLink(free, map[string]any{"url": "https://example.com/old", "max_visits": 1000000})
		if r := s.visitor(fromCN, uaWeChat).get("/" + l.Code); r.Status != http.StatusFound {
			t.Errorf("WeChat, a new link: %d", r.Status)
		}
		setColumn(t, d, l.ID, "created_at", "2020-01-01T00:00:00Z")
		plain := s.createLink(free, map[string]any{"url": "https://example.com/plain"})
		setColumn(t, d, plain.ID, "created_at", "2020-01-01T00:00:00Z")
		for _, code := range []string{l.Code, plain.Code} {
			eventually(t, 5e9, "WeChat closed after 10 days for "+code, func() bool {
				r := s.visitor(fromCN, uaWeChat).get("/" + code)
				return r.Status == http.StatusOK && r.has("10")
			})
			if r := s.visitor(fromCN, uaAndroid).get("/" + code); r.Status != http.StatusFound {
				t.Errorf("a browser, old free link: %d", r.Status)
			}
		}
	})

	t.Run("downgrade: gated rules stop, protective ones keep applying", func(t *testing.T) {
		other := s.signupOn("downgrade@example.com", "enterprise")
		guarded := s.createLink(other, map[string]any{"url": "https://example.com/d", "password": "secret", "max_visits": 100,
			"geo": map[string]any{"deny": []string{"RU"}}})
		split := s.createLink(other, map[string]any{"url": "https://example.com/s",
			"variants": []map[string]any{{"url": "https://a.example/", "weight": 50}, {"url": "https://b.example/", "weight": 50}}})
		if r := s.visitor(fromDE, uaDesktop).get("/" + guarded.Code); r.Status != http.StatusOK {
			t.Fatalf("enterprise: %d", r.Status)
		}
		s.setPlan(other, "free")
		eventually(t, 15e9, "the variants stop applying on the free plan", func() bool {
			return s.visitor(fromDE, uaDesktop).get("/"+split.Code).Header.Get("Location") == "https://example.com/s"
		})
		if r := s.visitor(fromDE, uaDesktop).get("/" + guarded.Code); r.Status != http.StatusOK || !r.has(`name="password"`) {
			t.Errorf("the password after the downgrade: %d %.300s", r.Status, r.Body)
		}
		if r := s.visitor(fromDE, uaDesktop).get("/" + guarded.Code + "+"); r.Status != http.StatusOK || r.has("example.com/d") {
			t.Errorf("the preview after the downgrade: %d %.300s", r.Status, r.Body)
		}
		if r := s.visitor(fromRU, uaDesktop).get("/" + guarded.Code); r.Status != http.StatusForbidden {
			t.Errorf("the geo rule after the downgrade: %d", r.Status)
		}
		var answer struct {
			HasPassword   bool     `json:"has_password"`
			InactiveRules []string `json:"inactive_rules"`
		}
		s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, guarded.ID), other.Key, nil).json(t, &answer)
		if !answer.HasPassword || len(answer.InactiveRules) != 0 {
			t.Errorf("the guarded link's answer after the downgrade: %+v, want no rule named inactive", answer)
		}
		s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, split.ID), other.Key, nil).json(t, &answer)
		if len(answer.InactiveRules) != 1 || answer.InactiveRules[0] != "variants" {
			t.Errorf("the split link's answer after the downgrade: %+v, want the variants named inactive", answer)
		}
		r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, guarded.ID), other.Key, map[string]any{"password": "changed"})
		if r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
			t.Errorf("changing the password on free: %d %s", r.Status, r.Body)
		}
	})
}

// setColumn changes a link's column behind the service's back (a test's clock), and tells the
// caches through the change feed by moving updated_at.
func setColumn(t *testing.T, d *deployment, id int64, column, value string) {
	t.Helper()
	ctx := context.Background()
	conn := d.conn(t)
	if _, err := conn.Exec(ctx, `UPDATE links SET `+testenv.QuoteIdentifier(column)+` = $2, updated_at = now() WHERE id = $1`, id, value); err != nil {
		t.Fatal(err)
	}
}

// TestVisitCapAcrossNodes: a cap of N lets exactly N people through two server processes hit
// at once, however many crawlers come too.
func TestVisitCapAcrossNodes(t *testing.T) {
	d := rulesDeployment(t)
	a, b := d.start(t), d.start(t)
	tn := a.signup("cap@example.com")
	const n = 25
	l := a.createLink(tn, map[string]any{"url": "https://example.com/capped", "max_visits": n})
	var passed, crawlersPassed atomic.Int64
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := []*server{a, b}[i%2]
			for range 8 {
				if s.visitor(fromDE, uaDesktop).get("/"+l.Code).Status == http.StatusFound {
					passed.Add(1)
				}
				if s.visitor(fromDE, uaBot).get("/"+l.Code).Status == http.StatusFound {
					crawlersPassed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if passed.Load() != n {
		t.Errorf("%d people passed a cap of %d", passed.Load(), n)
	}
	if crawlersPassed.Load() == 0 {
		t.Errorf("no crawler passed while the cap lasted")
	}
}
