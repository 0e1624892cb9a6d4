package link

import (
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestUTMMerge(t *testing.T) {
	for _, c := range []struct {
		name, url string
		utm       UTM
		want      string
	}{
		{"none", "https://a.example/x?y=1", UTM{}, "https://a.example/x?y=1"},
		{"no query", "https://a.example/x", UTM{Source: "nl", Medium: "email"}, "https://a.example/x?utm_source=nl&utm_medium=email"},
		{"keeps others in order", "https://a.example/?b=2&a=1", UTM{Campaign: "spring"}, "https://a.example/?b=2&a=1&utm_campaign=spring"},
		{"overrides in place", "https://a.example/?utm_source=old&a=1", UTM{Source: "new"}, "https://a.example/?utm_source=new&a=1"},
		{"keeps unset utm", "https://a.example/?utm_medium=cpc&a=1", UTM{Source: "g"}, "https://a.example/?utm_medium=cpc&a=1&utm_source=g"},
		{"drops repeats", "https://a.example/?utm_source=a&utm_source=b", UTM{Source: "c"}, "https://a.example/?utm_source=c"},
		{"fragment", "https://a.example/p?q=1#top", UTM{Term: "x y"}, "https://a.example/p?q=1&utm_term=x+y#top"},
		{"fragment no query", "https://a.example/p#top", UTM{Content: "a&b"}, "https://a.example/p?utm_content=a%26b#top"},
		{"empty query", "https://a.example/p?", UTM{Source: "s"}, "https://a.example/p?utm_source=s"},
		{"all", "https://a.example/", UTM{"s", "m", "c", "t", "k"}, "https://a.example/?utm_source=s&utm_medium=m&utm_campaign=c&utm_term=t&utm_content=k"},
	} {
		if got := c.utm.Merge(c.url); got != c.want {
			t.Errorf("%s: Merge(%q) = %q, want %q", c.name, c.url, got, c.want)
		}
	}
}

func TestUTMValidate(t *testing.T) {
	for _, c := range []struct {
		utm    UTM
		reason string
	}{
		{UTM{Source: "ok"}, ""},
		{UTM{Medium: strings.Repeat("é", MaxUTMValueLength)}, ""},
		{UTM{Medium: strings.Repeat("a", MaxUTMValueLength+1)}, "utm_too_long"},
		{UTM{Campaign: "a\nb"}, "utm_invalid"},
		{UTM{Term: "\xff"}, "utm_invalid"},
	} {
		err := c.utm.Validate("utm")
		got := ""
		if err != nil {
			got = apperr.ReasonOf(err)
		}
		if got != c.reason {
			t.Errorf("%+v: reason %q, want %q (%v)", c.utm, got, c.reason, err)
		}
	}
}
