package postgres_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestLinkSearch: the links list's text search finds a part of the URL, the key or the title in
// any case, takes % and _ literally, finds texts of one or two characters, and answers the same
// with the trigram index of migration 00036 and without it (where pg_trgm is missing).
func TestLinkSearch(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	ctx := context.Background()
	accounts := postgres.NewAccountStore(db)
	_, ws := newUser(t, accounts, "search@example.com")
	_, other := newUser(t, accounts, "search-other@example.com")
	now := time.Now().UTC()
	var all []*link.Link
	for i, l := range []struct {
		ws              int64
		key, url, title string
	}{
		{ws.ID, "Spring26", "https://shop.example.com/sale?ref=home", "春季促销 Spring sale"},
		{ws.ID, "k2", "https://example.org/100%25-off_now", ""},
		{ws.ID, "docs", "https://docs.example.net/Guide/Install", "Install guide"},
		{ws.ID, "x9", "https://a.example/zz", "Ünïcode Café"},
		{other.ID, "Spring27", "https://shop.example.com/sale?ref=other", "Spring sale"},
	} {
		all = append(all, &link.Link{ID: int64(900 + i), WorkspaceID: l.ws, Key: l.key, URL: l.url, Title: l.title,
			RedirectStatus: 302, Status: link.StatusActive, CreatedAt: now, UpdatedAt: now})
	}
	if errs, err := postgres.NewLinkStore(db).Insert(ctx, all); err != nil || slices.ContainsFunc(errs, func(e error) bool { return e != nil }) {
		t.Fatalf("insert: %v %v", err, errs)
	}
	cases := []struct {
		q    string
		want []int64
	}{
		{"shop.EXAMPLE", []int64{900}},
		{"spring2", []int64{900}},
		{"促销", []int64{900}},
		{"春季促", []int64{900}},
		{"100%25", []int64{901}},
		{"%", []int64{901}},
		{"_now", []int64{901}},
		{"off_now", []int64{901}},
		{"f-n", nil},
		{"guide/install", []int64{902}},
		{"INSTALL GUIDE", []int64{902}},
		{"café", []int64{903}},
		{"Ünï", []int64{903}}, // folding other letters than ASCII's follows the database's locale
		{"zz", []int64{903}},
		{"example", []int64{903, 902, 901, 900}},
		{"sale?ref=other", nil},
		{"nothing-like-it", nil},
	}
	check := func(store *postgres.LinkStore, with string) {
		t.Helper()
		for _, c := range cases {
			page, _, err := store.List(ctx, ws.ID, link.Filter{Query: c.q, Limit: 10})
			if err != nil {
				t.Fatalf("%s %q: %v", with, c.q, err)
			}
			var got []int64
			for _, l := range page {
				got = append(got, l.ID)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: %q finds %v, want %v", with, c.q, got, c.want)
			}
		}
	}
	var indexed bool
	if err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')`).Scan(&indexed); err != nil {
		t.Fatal(err)
	}
	if indexed {
		if _, err := db.Pool.Exec(ctx, searchIndex); err != nil {
			t.Fatal(err)
		}
		check(postgres.NewLinkStore(db), "with the index")
		if _, err := db.Pool.Exec(ctx, `DROP INDEX links_search_trgm`); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log("pg_trgm is not installed: the search is checked without its index only")
	}
	check(postgres.NewLinkStore(db), "without the index")
}

// searchIndex is the trigram index of the links' search, as docs/benchmarks.md makes it.
const searchIndex = `CREATE INDEX IF NOT EXISTS links_search_trgm ON links USING gin ((url || ' ' || key || ' ' || title) gin_trgm_ops)`
