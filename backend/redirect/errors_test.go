package redirect

import "testing"

func TestPrefersJSON(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                                  false,
		"*/*":                               false,
		"text/html":                         false,
		"application/json":                  true,
		"application/json; charset=utf-8":   true,
		"application/*":                     true,
		"application/problem+json":          false,
		"application/json, text/html":       false, // a tie: a browser's page
		"text/html;q=0.5, application/json": true,
		"application/json;q=0.5, */*":       false, // */* takes HTML at 1
		"application/json;q=0.5, text/html": false,
		"application/json;q=0":              false,
		"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8": false,
		"application/json;q=bad, text/plain":                                                    false,
	} {
		if got := prefersJSON(accept); got != want {
			t.Errorf("prefersJSON(%q) = %v, want %v", accept, got, want)
		}
	}
}
