package domain_test

import (
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/domain"
)

func TestNormalize(t *testing.T) {
	own := []string{"sho.rt", "links.example.net"}
	good := map[string]string{
		"go.example.com":            "go.example.com",
		"Go.Example.COM.":           "go.example.com",
		"  go.example.com ":         "go.example.com",
		"example.com":               "example.com",
		"bücher.example.de":         "xn--bcher-kva.example.de",
		"xn--bcher-kva.example.de":  "xn--bcher-kva.example.de",
		"短.例子.中国":                   "xn--s7y.xn--fsqu00a.xn--fiqs8s",
		"a.b.c.example.co.uk":       "a.b.c.example.co.uk",
		"me.github.io":              "me.github.io",
		"go-1.example.com":          "go-1.example.com",
		"links.example.net.example": "",
	}
	for in, want := range good {
		got, err := domain.Normalize(in, own)
		if want == "" {
			if err == nil {
				t.Errorf("Normalize(%q) = %q, want an error", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{
		"", " ", ".", "com", "co.uk", "github.io", "localhost", "go.localhost", "go.corp.internal",
		"router.local", "x.test", "192.0.2.1", "3232235777", "0x7f.1", "10.0.0.1.", "[::1]", "::1",
		"2001:db8::1", "go.example.com:443", "https://go.example.com", "go.example.com/x",
		"go.example.com?x", "user@go.example.com", "go example.com", "go\x00.example.com",
		"_dmarc.example.com", "go..example.com", "-go.example.com", "go-.example.com",
		strings.Repeat("a", 64) + ".example.com", strings.Repeat("abcdefghi.", 30) + "example.com",
		"sho.rt", "x.sho.rt", "links.example.net", "a.links.example.net", "go.example.com\u202e",
		"abc.onion",
	}
	for _, in := range bad {
		if got, err := domain.Normalize(in, own); err == nil || !apperr.Is(err, apperr.Invalid) {
			t.Errorf("Normalize(%q) = %q, %v; want invalid", in, got, err)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"go.example.com", "bücher.example.de", "1.2.3.4", "a..b", "[::1]:80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := domain.Normalize(in, nil)
		if err != nil {
			if !apperr.Is(err, apperr.Invalid) {
				t.Fatalf("Normalize(%q): %v is not invalid", in, err)
			}
			return
		}
		if again, err := domain.Normalize(got, nil); err != nil || again != got {
			t.Fatalf("Normalize(%q) = %q, then %q, %v", in, got, again, err)
		}
		if got != strings.ToLower(got) || len(got) > domain.MaxHostnameLength || strings.ContainsAny(got, ":/[] ") {
			t.Fatalf("Normalize(%q) = %q", in, got)
		}
	})
}
