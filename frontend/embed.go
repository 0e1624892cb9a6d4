// Package frontend embeds the built web app (dist/) into the binary and serves it.
package frontend

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"

	"github.com/shortlink/shortlink/backend/httpsec"
)

//go:embed dist
var dist embed.FS

// Handler serves the web app: hashed assets are cached for good, HTML never, and unknown
// paths under /app fall back to index.html so the app's own router can take them. Every
// answer carries the app's security headers; https says the deployment is served over https.
func Handler(https bool) http.Handler {
	root, _ := fs.Sub(dist, "dist")
	files := http.FileServer(http.FS(root))
	index, _ := fs.ReadFile(root, "index.html")
	headers := httpsec.New(policy(index), "strict-origin-when-cross-origin", https)
	return headers.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/app")
		if p == "" || p == "/" || !exists(root, strings.TrimPrefix(p, "/")) {
			w.Header().Set("Cache-Control", "no-cache")
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/"
			files.ServeHTTP(w, r2)
			return
		}
		if strings.HasPrefix(p, "/assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = p
		files.ServeHTTP(w, r2)
	}))
}

// policy is the app's Content-Security-Policy: its own origin only, and of inline code only
// the scripts and styles of index.html as built (allowed by their hashes, computed here from
// the embedded file, so a rebuilt app needs no change), never 'unsafe-inline'.
func policy(index []byte) string {
	scripts := append([]string{"'self'"}, httpsec.InlineHashes(index, "script")...)
	styles := append([]string{"'self'"}, httpsec.InlineHashes(index, "style")...)
	return "default-src 'self'; script-src " + strings.Join(scripts, " ") + "; style-src " + strings.Join(styles, " ") +
		"; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

func exists(root fs.FS, name string) bool {
	if name == "" {
		return false
	}
	st, err := fs.Stat(root, name)
	return err == nil && !st.IsDir()
}
