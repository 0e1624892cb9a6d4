// Command ceiling is the yardstick of the redirect benchmark: the least a Go HTTP server can
// do per redirect (one map lookup by path, one 302), so that Shortlink's figures can be read
// against what this machine allows.
package main

import (
	"flag"
	"log"
	"net/http"
	"strings"
)

const (
	codes    = 100000
	target   = "https://example.com/"
	alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "listen address")
	flag.Parse()

	// Six-character codes like Shortlink's, so the map is as large as a warm cache.
	links := make(map[string]string, codes)
	for i := 0; i < codes; i++ {
		n := uint64(i)*2654435761 + 916132832
		var b [6]byte
		for j := range b {
			b[j] = alphabet[n%62]
			n /= 62
		}
		links[string(b[:])] = target
	}

	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		url, ok := links[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			url = target // a miss answers the same, so every request costs the same
		}
		w.Header().Set("Location", url)
		w.Header().Set("Cache-Control", "private, max-age=0")
		w.WriteHeader(http.StatusFound)
	})
	log.Fatal(http.ListenAndServe(*addr, h))
}
