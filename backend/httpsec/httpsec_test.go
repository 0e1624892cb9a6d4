package httpsec_test

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/shortlink/shortlink/backend/httpsec"
)

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func TestInlineHashes(t *testing.T) {
	doc := `<!doctype html><html><head><style>
body{color:red}
</style><script src="/app/a.js"></script><script type="module">import "x";</script>
<title>{{.Title}} &amp; more</title></head><body><p>if (a < b) {}</p><script>
const x = "</p>" + '&amp;';
</script><style></style></body></html>`
	tests := []struct {
		tag  string
		want []string
	}{
		{"script", []string{hash(`import "x";`), hash("\nconst x = \"</p>\" + '&amp;';\n")}},
		{"style", []string{hash("\nbody{color:red}\n")}},
	}
	for _, tt := range tests {
		if got := httpsec.InlineHashes([]byte(doc), tt.tag); !slices.Equal(got, tt.want) {
			t.Errorf("InlineHashes(%s) = %v, want %v", tt.tag, got, tt.want)
		}
	}
	if got := httpsec.InlineHashes([]byte(`<p>no scripts</p>`), "script"); got != nil {
		t.Errorf("a document without scripts: %v", got)
	}
}

func TestHeaders(t *testing.T) {
	plain := httptest.NewRequest("GET", "http://sho.rt/x", nil)
	overTLS := httptest.NewRequest("GET", "https://sho.rt/x", nil)
	overTLS.TLS = &tls.ConnectionState{}
	tests := []struct {
		name  string
		https bool
		req   *http.Request
		hsts  bool
	}{
		{"http deployment", false, plain, false},
		{"http deployment, TLS request", false, overTLS, true},
		{"https deployment", true, plain, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		httpsec.New("default-src 'none'", "no-referrer", tt.https).Set(h, tt.req)
		if h.Get("Content-Security-Policy") != "default-src 'none'" || h.Get("X-Frame-Options") != "DENY" ||
			h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", tt.name, h)
		}
		if got := h.Get("Strict-Transport-Security") != ""; got != tt.hsts {
			t.Errorf("%s: HSTS %v, want %v", tt.name, got, tt.hsts)
		}
	}
}
