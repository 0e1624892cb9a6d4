package link

import (
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
)

var own = []string{"sho.rt", "localhost"}

func TestNormalizeURL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://example.com", "https://example.com/"},
		{"  https://Example.COM/Path?q=1#frag ", "https://example.com/Path?q=1#frag"},
		{"HTTP://example.com:80/a", "http://example.com/a"},
		{"https://example.com:443/", "https://example.com/"},
		{"https://example.com:8443/x", "https://example.com:8443/x"},
		{"https://example.com:65535/x", "https://example.com:65535/x"},
		{"example.com/landing", "https://example.com/landing"},
		{"https://bücher.example/straße", "https://xn--bcher-kva.example/stra%C3%9Fe"},
		{"https://例え.テスト/", "https://xn--r8jz45g.xn--zckzah/"},
		{"http://192.168.1.10:8080/x", "http://192.168.1.10:8080/x"},
		{"http://[2001:db8::1]/x", "http://[2001:db8::1]/x"},
		{"https://example.com./", "https://example.com/"},
	}
	for _, tt := range tests {
		got, err := NormalizeURL(tt.in, own)
		if err != nil {
			t.Errorf("NormalizeURL(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("NormalizeURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeURLRejects(t *testing.T) {
	bad := []string{
		"",
		"   ",
		"javascript:alert(1)",
		"JavaScript:alert(1)",
		"data:text/html,<script>alert(1)</script>",
		"mailto:a@example.com",
		"ftp://example.com/file",
		"file:///etc/passwd",
		"https://",
		"https:///path",
		"https://user:pass@example.com/",
		"https://exa mple.com/",
		"https://example.com/\x00",
		"https://sho.rt/abc123",
		"https://SHO.RT/abc123",
		"http://localhost:8080/x",
		"https://-bad-.example..com/",
		"https://" + strings.Repeat("a", 2100) + ".com/",
		"https://nodot/",
		"\xff\xfe",
		"https://example.com:65536/",
		"https://example.com:99999999999999999999/",
		"http://192.168.1.10:0/x",
	}
	for _, in := range bad {
		_, err := NormalizeURL(in, own)
		if err == nil {
			t.Errorf("NormalizeURL(%q) accepted a bad target", in)
			continue
		}
		if apperr.CodeOf(err) != apperr.Invalid {
			t.Errorf("NormalizeURL(%q) error code = %s, want invalid", in, apperr.CodeOf(err))
		}
	}
}

func TestValidateAlias(t *testing.T) {
	for _, ok := range []string{"a", "promo-2026", "Summer_Sale", strings.Repeat("x", 64)} {
		if err := ValidateAlias(ok); err != nil {
			t.Errorf("ValidateAlias(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "has space", "dot.ted", "slash/ed", "émoji", strings.Repeat("x", 65), "api", "Admin", "healthz", "static", "login"} {
		if err := ValidateAlias(bad); apperr.CodeOf(err) != apperr.Invalid {
			t.Errorf("ValidateAlias(%q) = %v, want invalid", bad, err)
		}
	}
}

// FuzzNormalizeURL checks that normalising never panics, that its output is accepted again
// unchanged (idempotence), and that it only ever yields http(s) URLs within the length limit.
func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{"https://example.com", "example.com/a?b=c#d", "http://[::1]:80/", "javascript:x", "https://bücher.example/", "HTTPS://A.B:443"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := NormalizeURL(in, own)
		if err != nil {
			if apperr.CodeOf(err) != apperr.Invalid {
				t.Fatalf("NormalizeURL(%q): non-invalid error %v", in, err)
			}
			return
		}
		if !strings.HasPrefix(out, "http://") && !strings.HasPrefix(out, "https://") {
			t.Fatalf("NormalizeURL(%q) = %q: not http(s)", in, out)
		}
		if len(out) > MaxURLLength {
			t.Fatalf("NormalizeURL(%q) is %d bytes long", in, len(out))
		}
		again, err := NormalizeURL(out, own)
		if err != nil || again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", in, out, again, err)
		}
	})
}
