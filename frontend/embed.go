// Package frontend embeds the built web app (dist/) into the binary and serves it.
package frontend

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed dist
var dist embed.FS

// Handler serves the web app: hashed assets are cached for good, HTML never, and unknown
// paths under /app fall back to index.html so the app's own router can take them.
func Handler() http.Handler {
	root, _ := fs.Sub(dist, "dist")
	files := http.FileServer(http.FS(root))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	})
}

func exists(root fs.FS, name string) bool {
	if name == "" {
		return false
	}
	st, err := fs.Stat(root, name)
	return err == nil && !st.IsDir()
}
