// Package frontend embeds the built web app (dist/) into the binary and serves it. The app's
// sources are beside this file (a Vite project); `make build` and `make test` build it into
// dist/ before Go compiles. dist/ is not committed: its placeholder (.keep) lets this package
// compile without the build, and a binary built so answers every page of the app with 503.
package frontend

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"

	"github.com/shortlink/shortlink/backend/httpsec"
)

//go:embed all:dist
var dist embed.FS

// notBuilt is the answer of a binary built without the app.
const notBuilt = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Shortlink</title>
<style>body{font:16px system-ui,sans-serif;margin:3rem}</style>
<p>The web app was not built into this binary: build it with <code>make build</code> (Node 20 and npm).
The REST API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></html>
`

// Handler serves the web app: hashed assets are cached for good, HTML never, and unknown
// paths under /app fall back to index.html so the app's own router can take them. Every
// answer carries the app's security headers; https says the deployment is served over https.
func Handler(https bool) http.Handler {
	root, _ := fs.Sub(dist, "dist")
	files := http.FileServer(http.FS(root))
	index, err := fs.ReadFile(root, "index.html")
	if err != nil {
		headers := httpsec.New(policy([]byte(notBuilt)), "strict-origin-when-cross-origin", https)
		return headers.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(notBuilt))
		}))
	}
	headers := httpsec.New(policy(index), "strict-origin-when-cross-origin", https)
	return headers.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/app")
		if strings.HasPrefix(p, "/assets/") && !exists(root, strings.TrimPrefix(p, "/")) {
			// An asset of another build: HTML in its place would only break the page.
			http.NotFound(w, r)
			return
		}
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

// exists reports whether name is a file of the app; dot files (the placeholder) are not.
func exists(root fs.FS, name string) bool {
	if name == "" || strings.HasPrefix(name, ".") || strings.Contains(name, "/.") {
		return false
	}
	st, err := fs.Stat(root, name)
	return err == nil && !st.IsDir()
}
