package redirect_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redirect"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitor"
)

// fixture is a resolver over a real database holding n links in one workspace.
func fixture(tb testing.TB, n int) (*redirect.Handler, *code.Codec, []string) {
	return fixtureWith(tb, n, redirect.RuleDeps{})
}

func fixtureWith(tb testing.TB, n int, deps redirect.RuleDeps) (*redirect.Handler, *code.Codec, []string) {
	tb.Helper()
	db := testenv.DB(tb)
	ctx := context.Background()
	var ws int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO workspaces (name) VALUES ('bench') RETURNING id`).Scan(&ws); err != nil {
		tb.Fatal(err)
	}
	codec, err := code.New(make([]byte, 16), make([]byte, 7), 6)
	if err != nil {
		tb.Fatal(err)
	}
	store := postgres.NewLinkStore(db)
	links := make([]*link.Link, n)
	keys := make([]string, n)
	for i := range links {
		k, _ := codec.Encode(uint64(i + 1))
		keys[i] = k
		links[i] = &link.Link{ID: int64(i + 1), WorkspaceID: ws, Key: k, URL: fmt.Sprintf("https://example.com/%d", i),
			RedirectStatus: 302, Status: link.StatusActive, CreatedAt: time.Now()}
	}
	if _, err := store.Insert(ctx, links); err != nil {
		tb.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	resolver := redirect.NewResolver(store, nil, codec, 100000, log)
	resolver.Issued(int64(n))
	return redirect.NewHandler(resolver, []string{"sho.rt"}, deps), codec, keys
}

func TestHandlerRedirects(t *testing.T) {
	h, codec, keys := fixture(t, 10)
	for _, tc := range []struct {
		path, host string
		status     int
		location   string
	}{
		{"/" + keys[3], "sho.rt", 302, "https://example.com/3"},
		{"/" + keys[3], "SHO.RT:8080", 302, "https://example.com/3"},
		{"/" + keys[3], "other.example", 404, ""},
		{"/" + keys[3] + "+", "sho.rt", 200, ""},
		{"/", "sho.rt", 404, ""},
		{"/x/y", "sho.rt", 404, ""},
	} {
		r := httptest.NewRequest("GET", tc.path, nil)
		r.Host = tc.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status || w.Header().Get("Location") != tc.location {
			t.Errorf("GET %s%s = %d %q, want %d %q", tc.host, tc.path, w.Code, w.Header().Get("Location"), tc.status, tc.location)
		}
	}
	far, _ := codec.Encode(codec.Max())
	r := httptest.NewRequest("GET", "/"+far, nil)
	r.Host = "sho.rt"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNotFound {
		t.Fatalf("never-issued code: %d", w.Code)
	}
}

// BenchmarkRedirectCached measures the handler alone on cached links (go test -bench).
func BenchmarkRedirectCached(b *testing.B) {
	benchmarkRedirect(b, redirect.RuleDeps{})
}

// BenchmarkRedirectCaptured is BenchmarkRedirectCached with every visit captured into a real
// visit.Buffer (classification, hashing and encoding included, in its flusher), whose store
// discards the batches: what capture costs the node, beyond Redis and PostgreSQL.
func BenchmarkRedirectCaptured(b *testing.B) {
	classifier, err := visitor.New(visitor.Options{})
	if err != nil {
		b.Fatal(err)
	}
	buf := visit.NewBuffer(visit.Options{Store: discardStore{}, Classifier: classifier,
		Hasher: visit.NewHasher([]byte("k")), Log: slog.New(slog.DiscardHandler)})
	defer buf.Close()
	benchmarkRedirect(b, redirect.RuleDeps{Visits: buf})
}

type discardStore struct{}

func (discardStore) Insert(_ context.Context, batches []visit.Batch) (visit.Stored, error) {
	n := 0
	for _, b := range batches {
		n += len(b)
	}
	return visit.Stored{Events: n}, nil
}
func (discardStore) CreatePartitions(context.Context, time.Time, int) error { return nil }
func (discardStore) CompactDays(context.Context, time.Time) (int, error)    { return 0, nil }
func (discardStore) DropPartitions(context.Context, time.Time, time.Time) (int, error) {
	return 0, nil
}

func benchmarkRedirect(b *testing.B, deps redirect.RuleDeps) {
	h, _, keys := fixtureWith(b, 1000, deps)
	reqs := make([]*http.Request, len(keys))
	for i, k := range keys {
		reqs[i] = httptest.NewRequest("GET", "/"+k, nil)
		reqs[i].Host = "sho.rt"
		reqs[i].Header.Set("User-Agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36")
		h.ServeHTTP(httptest.NewRecorder(), reqs[i]) // warm the in-process cache
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := &discard{h: http.Header{}}
		i := 0
		for pb.Next() {
			clear(w.h)
			h.ServeHTTP(w, reqs[i%len(reqs)])
			i++
		}
	})
}

// BenchmarkRejectNeverIssued measures the answer to a code whose ID was never issued.
func BenchmarkRejectNeverIssued(b *testing.B) {
	h, codec, _ := fixture(b, 10)
	far, _ := codec.Encode(codec.Max() - 1)
	req := httptest.NewRequest("GET", "/"+far, nil)
	req.Host = "sho.rt"
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w := &discard{h: http.Header{}}
		h.ServeHTTP(w, req)
	}
}

type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// TestReservationsShrink: reservations the issued range has reached are forgotten, and those
// below it are not kept at all.
func TestReservationsShrink(t *testing.T) {
	codec, err := code.New(make([]byte, 16), make([]byte, 7), 6)
	if err != nil {
		t.Fatal(err)
	}
	r := redirect.NewResolver(nil, nil, codec, 1000, slog.New(slog.DiscardHandler))
	r.Issued(1000)
	for i := range int64(100) {
		r.Reserve(10_000_000 + i*1000)
	}
	r.Reserve(5) // below the issued range: looked up anyway
	if n := r.Reserved(); n != 100 {
		t.Fatalf("kept %d reservations, want 100", n)
	}
	r.Issued(10_000_000 + 50*1000 - (1 << 20))
	if n := r.Reserved(); n != 49 {
		t.Fatalf("after the issued range moved: %d reservations, want 49", n)
	}
}
