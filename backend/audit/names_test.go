package audit

import "testing"

func TestNameTarget(t *testing.T) {
	short := func(domainID int64, key string) string {
		if domainID != 0 {
			return "https://go.example.com/" + key
		}
		return "https://sho.rt/" + key
	}
	for _, c := range []struct {
		name string
		in   Found
		want TargetName
	}{
		{"a link", Found{Kind: "link", ID: 7, Found: true, Exists: true, Label: "abc", Detail: "https://dest.example/x?y=1", DomainID: 3},
			TargetName{Kind: "link", ID: 7, Label: "https://go.example.com/abc", Detail: "dest.example", Exists: true}},
		{"a deleted link", Found{Kind: "link", ID: 7, Recorded: map[string]any{"short_url": "https://sho.rt/abc", "destination_host": "dest.example"}},
			TargetName{Kind: "link", ID: 7, Label: "https://sho.rt/abc", Detail: "dest.example"}},
		{"a deleted link of before its short URL was kept", Found{Kind: "link", ID: 7},
			TargetName{Kind: "link", ID: 7}},
		{"a webhook", Found{Kind: "webhook", ID: 2, Found: true, Exists: true, Label: "https://hooks.example:8443/in"},
			TargetName{Kind: "webhook", ID: 2, Label: "hooks.example", Exists: true}},
		{"a deleted webhook", Found{Kind: "webhook", ID: 2, Recorded: map[string]any{"url": "https://hooks.example/in", "events": []any{"x"}}},
			TargetName{Kind: "webhook", ID: 2, Label: "hooks.example"}},
		{"a removed domain", Found{Kind: "domain", ID: 4, Found: true, Label: "go.example.com"},
			TargetName{Kind: "domain", ID: 4, Label: "go.example.com"}},
		{"a withdrawn invitation", Found{Kind: "invitation", ID: 5, Recorded: map[string]any{"email": "a@example.com", "role": "member"}},
			TargetName{Kind: "invitation", ID: 5, Label: "a@example.com"}},
		{"a member", Found{Kind: "user", ID: 9, Found: true, Exists: true, Label: "a@example.com", Detail: "Ada L"},
			TargetName{Kind: "user", ID: 9, Label: "a@example.com", Detail: "Ada L", Exists: true}},
		{"a recorded detail that is no text", Found{Kind: "utm_template", ID: 1, Recorded: map[string]any{"name": 3}},
			TargetName{Kind: "utm_template", ID: 1}},
	} {
		if got := NameTarget(c.in, short); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestSplitTarget(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind string
		id   int64
	}{{"link:7", "link", 7}, {"sso", "sso", 0}, {"user:x", "user:x", 0}, {"user:-1", "user:-1", 0}, {"", "", 0}} {
		if k, id := SplitTarget(c.in); k != c.kind || id != c.id {
			t.Errorf("SplitTarget(%q) = %q %d", c.in, k, id)
		}
	}
}
