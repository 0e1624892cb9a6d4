package e2e

import (
	"net/http"
	"testing"
)

// TestPreviewAppliesRules: the preview page at /{code}+ decides as a visit does. A password, a
// form, a geo rule or a used-up cap answer with their page or status and never show the
// destination; the preview takes none of the cap and shows the target this visitor would get.
func TestPreviewAppliesRules(t *testing.T) {
	d := rulesDeployment(t)
	s := d.start(t)
	tn := s.signupOn("preview-rules@example.com", "enterprise")
	const secret = "https://secret.example/hidden"
	mk := func(body map[string]any) linkJSON {
		t.Helper()
		body["url"] = secret
		return s.createLink(tn, body)
	}
	form := map[string]any{"fields": []map[string]any{{"name": "phone", "label": "Phone", "type": "phone", "required": true}}}

	t.Run("password", func(t *testing.T) {
		l := mk(map[string]any{"password": "open sesame"})
		v := s.visitor(fromDE, uaDesktop)
		page := v.get("/" + l.Code + "+")
		if page.Status != http.StatusOK || !page.has(`name="password"`) || page.has("secret.example") {
			t.Fatalf("preview of a link with a password: %d %.400s", page.Status, page.Body)
		}
		if !page.has(`action="/` + l.Code + `"`) {
			t.Errorf("the preview's password page does not post to the link: %.400s", page.Body)
		}
		r := v.post("/"+l.Code, page, map[string]string{"password": "open sesame"})
		if r.Status != http.StatusFound || r.Header.Get("Location") != secret {
			t.Errorf("the password given on the preview's page: %d %q", r.Status, r.Header.Get("Location"))
		}
	})

	t.Run("form", func(t *testing.T) {
		l := mk(map[string]any{"form": form})
		r := s.visitor(fromCN, uaAndroid).get("/" + l.Code + "+")
		if r.Status != http.StatusOK || !r.has(`name="phone"`) || r.has("secret.example") {
			t.Errorf("preview of a link with a form: %d %.400s", r.Status, r.Body)
		}
	})

	t.Run("geo", func(t *testing.T) {
		l := mk(map[string]any{"geo": map[string]any{"deny": []string{"RU"}}})
		if r := s.visitor(fromRU, uaDesktop).get("/" + l.Code + "+"); r.Status != http.StatusForbidden || r.has("secret.example") {
			t.Errorf("preview from a denied country: %d %.400s", r.Status, r.Body)
		}
		if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code + "+"); r.Status != http.StatusOK || !r.has("secret.example") {
			t.Errorf("preview from an allowed country: %d %.400s", r.Status, r.Body)
		}
	})

	t.Run("cap", func(t *testing.T) {
		l := mk(map[string]any{"max_visits": 1})
		for i := range 3 {
			if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code + "+"); r.Status != http.StatusOK || !r.has("secret.example") {
				t.Fatalf("preview %d of a capped link: %d %.400s", i, r.Status, r.Body)
			}
		}
		if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code); r.Status != http.StatusFound {
			t.Fatalf("the first visit after three previews: %d", r.Status)
		}
		if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code + "+"); r.Status != http.StatusGone || r.has("secret.example") {
			t.Errorf("preview of a used-up cap: %d %.400s", r.Status, r.Body)
		}
	})

	t.Run("device target and variants", func(t *testing.T) {
		l := mk(map[string]any{"device_targets": map[string]any{"ios": "https://apps.apple.com/app"}})
		if r := s.visitor(fromDE, uaIPhone).get("/" + l.Code + "+"); r.Status != http.StatusOK || !r.has("https://apps.apple.com/app") {
			t.Errorf("preview on an iPhone: %d %.400s", r.Status, r.Body)
		}
		vl := mk(map[string]any{"variants": []map[string]any{{"url": "https://a.example/", "weight": 50}, {"url": "https://b.example/", "weight": 50}}})
		for range 10 {
			v := s.visitor(fromDE, uaDesktop)
			page := v.get("/" + vl.Code + "+")
			got := v.get("/" + vl.Code).Header.Get("Location")
			if page.Status != http.StatusOK || got == "" || !page.has(got) {
				t.Fatalf("the preview showed a variant other than the visit's %q: %d %.400s", got, page.Status, page.Body)
			}
		}
	})
}

// TestHeadTakesNoVisit: HEAD answers what GET would, but it is no visit: it neither counts nor
// takes the link's max_visits.
func TestHeadTakesNoVisit(t *testing.T) {
	d := rulesDeployment(t)
	s := d.start(t)
	tn := s.signup("head-cap@example.com")
	l := s.createLink(tn, map[string]any{"url": "https://example.com/capped", "max_visits": 2})
	for i := range 3 {
		if r := s.visitor(fromDE, uaDesktop).do("HEAD", "/"+l.Code, nil); r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/capped" {
			t.Fatalf("HEAD %d: %d %q", i, r.Status, r.Header.Get("Location"))
		}
	}
	for i := range 2 {
		if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code); r.Status != http.StatusFound {
			t.Fatalf("visit %d after three HEADs: %d", i, r.Status)
		}
	}
	if r := s.visitor(fromDE, uaDesktop).get("/" + l.Code); r.Status != http.StatusGone {
		t.Errorf("the third visit: %d", r.Status)
	}
	if r := s.visitor(fromDE, uaDesktop).do("HEAD", "/"+l.Code, nil); r.Status != http.StatusGone {
		t.Errorf("HEAD once the cap is used up: %d", r.Status)
	}
}
