package moderation

import (
	"slices"
	"strings"
	"testing"
)

func TestBlind(t *testing.T) {
	seen := Capture{Profile: Desktop, Status: 200, Title: "Corner Shop", Text: "Tea and biscuits since 1990."}
	form := Capture{Profile: Mobile, Status: 200, Forms: []Form{{Password: true}}} // a bare login form is something seen
	cases := []struct {
		name     string
		captures []Capture
		want     []string
	}{
		{"every visitor saw the page", []Capture{seen, form}, nil},
		{"none at all", nil, []string{"no capture"}},
		{"a timeout", []Capture{seen, {Profile: WeChat, Error: "timeout"}}, []string{"wechat: timeout"}},
		{"a reset connection", []Capture{{Profile: Desktop, Error: "navigation: net::ERR_CONNECTION_RESET"}},
			[]string{"desktop: navigation: net::ERR_CONNECTION_RESET"}},
		{"a TLS failure", []Capture{{Profile: Mobile, Error: "navigation: net::ERR_SSL_PROTOCOL_ERROR"}},
			[]string{"mobile: navigation: net::ERR_SSL_PROTOCOL_ERROR"}},
		{"nearly empty", []Capture{{Profile: Desktop, Status: 200, Title: "x", Text: " ok "}}, []string{"desktop: nearly empty page"}},
		{"the guard's refusal is known", []Capture{{Profile: Desktop, Error: "refused: private address 10.0.0.1"}}, nil},
		{"a download is known", []Capture{{Profile: Desktop, Error: "download blocked: a.exe"}}, nil},
	}
	for _, c := range cases {
		if got := Blind(c.captures); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := Refused([]Capture{seen, {Profile: WeChat, Error: "refused: link-local address 169.254.169.254"}}); !slices.Equal(got,
		[]string{"wechat: refused: link-local address 169.254.169.254"}) {
		t.Errorf("refused: %q", got)
	}
}

func TestUnseen(t *testing.T) {
	th := DefaultThresholds
	benign := Verdict{Score: 0.05, Category: "benign", Reason: "an ordinary page", Scorer: "heuristic"}
	// Seen: the verdict stands.
	if got := Unseen(benign, nil, th); got.Score != benign.Score || got.Category != "benign" {
		t.Errorf("seen: %+v", got)
	}
	// Not seen and would pass: flagged for a moderator with the reason, the scorer's view kept.
	got := Unseen(benign, []string{"wechat: timeout"}, th)
	if th.StateOf(got) != Flagged || got.Category != CategoryIncomplete || !strings.Contains(got.Reason, "wechat: timeout") ||
		len(got.Notes) != 1 || !strings.Contains(got.Notes[0], "an ordinary page") {
		t.Errorf("unseen: %+v", got)
	}
	// Banned on what there was: the ban stands.
	phish := Verdict{Score: 0.95, Category: "phishing", Reason: "a PayPal login on another host"}
	if got := Unseen(phish, []string{"desktop: timeout"}, th); got.Score != phish.Score || got.Category != "phishing" ||
		got.Reason != phish.Reason || len(got.Notes) != 0 {
		t.Errorf("banned: %+v", got)
	}
}
