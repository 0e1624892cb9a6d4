package redirect_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redirect"
	"github.com/shortlink/shortlink/backend/testenv"
)

// domainFixture is a handler over a real database with n custom domains d0.example.com … (d1
// with a root URL, d2 removed) and, on the short domain and on each domain, the alias "promo"
// to a URL naming its domain.
func domainFixture(tb testing.TB, n int) (*redirect.Handler, *domain.Table) {
	tb.Helper()
	db := testenv.DB(tb)
	ctx := context.Background()
	var ws int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO workspaces (name, plan) VALUES ('domains', 'enterprise') RETURNING id`).Scan(&ws); err != nil {
		tb.Fatal(err)
	}
	ids := make([]int64, n)
	for i := range ids {
		root := ""
		if i == 1 {
			root = "https://www.example.com/"
		}
		if err := db.Pool.QueryRow(ctx, `INSERT INTO domains (workspace_id, hostname, token, verified_at, root_url)
			VALUES ($1, $2, 't', now(), $3) RETURNING id`, ws, fmt.Sprintf("d%d.example.com", i), root).Scan(&ids[i]); err != nil {
			tb.Fatal(err)
		}
	}
	if n > 2 {
		if _, err := db.Pool.Exec(ctx, `UPDATE domains SET removed_at = now() WHERE id = $1`, ids[2]); err != nil {
			tb.Fatal(err)
		}
	}
	store := postgres.NewLinkStore(db)
	links := []*link.Link{{ID: 1, WorkspaceID: ws, Key: "promo", IsAlias: true, URL: "https://example.com/short",
		RedirectStatus: 302, Status: link.StatusActive, CreatedAt: time.Now()}}
	for i, id := range ids {
		links = append(links, &link.Link{ID: int64(i + 2), WorkspaceID: ws, DomainID: id, Key: "promo", IsAlias: true,
			URL: fmt.Sprintf("https://example.com/d%d", i), RedirectStatus: 302, Status: link.StatusActive, CreatedAt: time.Now()})
	}
	if _, err := store.Insert(ctx, links); err != nil {
		tb.Fatal(err)
	}
	codec, err := code.New(make([]byte, 16), make([]byte, 7), 6)
	if err != nil {
		tb.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	resolver := redirect.NewResolver(store, nil, codec, 100000, log)
	resolver.Issued(int64(len(links)))
	table := domain.NewTable(postgres.NewDomainStore(db))
	if err := table.Reload(ctx); err != nil {
		tb.Fatal(err)
	}
	h := redirect.NewHandler(resolver, []string{"sho.rt"}, redirect.RuleDeps{})
	h.ServeDomains(table)
	return h, table
}

func TestHandlerCustomDomains(t *testing.T) {
	h, _ := domainFixture(t, 3)
	for _, tc := range []struct {
		method, host, path string
		status             int
		location           string
	}{
		{"GET", "sho.rt", "/promo", 302, "https://example.com/short"},
		{"GET", "d0.example.com", "/promo", 302, "https://example.com/d0"},
		{"HEAD", "D1.EXAMPLE.COM:443", "/promo", 302, "https://example.com/d1"},
		{"GET", "d1.example.com", "/", 302, "https://www.example.com/"},
		{"GET", "d0.example.com", "/", 404, ""},      // no root URL
		{"GET", "d0.example.com", "/nope", 404, ""},  // a bare 404
		{"GET", "d2.example.com", "/promo", 404, ""}, // removed
		{"GET", "d2.example.com", "/", 404, ""},
		{"GET", "d9.example.com", "/promo", 404, ""}, // unknown
		{"DELETE", "d0.example.com", "/promo", 405, ""},
	} {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		r.Host = tc.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status || w.Header().Get("Location") != tc.location {
			t.Errorf("%s %s%s = %d %q, want %d %q", tc.method, tc.host, tc.path, w.Code, w.Header().Get("Location"), tc.status, tc.location)
		}
		if tc.status == 404 && tc.host != "d9.example.com" && strings.Contains(strings.ToLower(w.Body.String()), "short") {
			t.Errorf("%s%s shows this service's page: %s", tc.host, tc.path, w.Body)
		}
	}
	// The short domain's own 404 page is the service's.
	r := httptest.NewRequest("GET", "/nope", nil)
	r.Host = "sho.rt"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNotFound || !strings.Contains(strings.ToLower(w.Body.String()), "short link") {
		t.Errorf("the short domain's 404: %d %s", w.Code, w.Body)
	}
}

// BenchmarkRedirectOwnHostWithDomains is BenchmarkRedirectCached's request with 1,000 custom
// domains in the table: what the host-first lookup costs the service's own domain.
func BenchmarkRedirectOwnHostWithDomains(b *testing.B) {
	h, table := domainFixture(b, 1000)
	benchHost(b, h, table, "sho.rt")
}

// BenchmarkRedirectCustomDomain is a cached redirect on a custom domain.
func BenchmarkRedirectCustomDomain(b *testing.B) {
	h, table := domainFixture(b, 1000)
	benchHost(b, h, table, "d500.example.com")
}

// benchHost runs what BenchmarkRedirectCached runs, on host, routed as app.ServeHTTP routes:
// the table first, then the handler.
func benchHost(b *testing.B, h *redirect.Handler, table *domain.Table, host string) {
	r := httptest.NewRequest("GET", "/promo", nil)
	r.Host = host
	r.Header.Set("User-Agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36")
	h.ServeHTTP(httptest.NewRecorder(), r) // warm the in-process cache
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := &discard{h: http.Header{}}
		for pb.Next() {
			clear(w.h)
			if d := table.Host(r.Host); d != nil {
				h.ServeDomain(w, r, d)
			} else {
				h.ServeHTTP(w, r)
			}
		}
	})
	if w := httptest.NewRecorder(); true {
		h.ServeHTTP(w, r)
		if w.Code != http.StatusFound {
			b.Fatalf("status %d", w.Code)
		}
	}
}
