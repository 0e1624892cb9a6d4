package geoip_test

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmind/mmdbwriter/mmdbtype"

	"github.com/shortlink/shortlink/backend/visitor/geoip"
	"github.com/shortlink/shortlink/backend/visitor/geoip/geoiptest"
)

var networks = map[string]string{
	"10.0.0.0/8":      "DE",
	"127.0.0.0/8":     "CN",
	"2001:db8::/32":   "JP",
	"198.51.100.0/24": "ZZ", // DB-IP's "unknown"
}

// lookups hold for both shapes of database.
var lookups = []struct {
	ip, want string
}{
	{"10.1.2.3", "DE"},
	{"::ffff:10.1.2.3", "DE"}, // IPv4-mapped IPv6
	{"127.0.0.1", "CN"},
	{"2001:db8::1", "JP"},
	{"198.51.100.7", ""},
	{"192.0.2.1", ""}, // not in the database
	{"2001:db9::1", ""},
}

func TestMaxMind(t *testing.T) {
	db, err := geoip.Open(geoiptest.GeoIP2(t, networks))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	if _, ok := db.(*geoip.MaxMind); !ok {
		t.Fatalf("a GeoIP2-Country database opened as %T", db)
	}
	check(t, db)
	if text, _ := db.Attribution(); text != "" {
		t.Errorf("GeoIP2 attribution %q, want none", text)
	}
	if !strings.Contains(db.String(), "GeoIP2-Country") {
		t.Errorf("String() = %q", db.String())
	}
}

func TestMaxMindRegisteredCountry(t *testing.T) {
	path := geoiptest.Write(t, "GeoLite2-Country", map[string]mmdbtype.Map{
		"10.0.0.0/8": {"registered_country": mmdbtype.Map{"iso_code": mmdbtype.String("FR")}},
	})
	db, err := geoip.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	if got := db.Country(netip.MustParseAddr("10.0.0.1")); got != "FR" {
		t.Errorf("country %q, want the registered country FR", got)
	}
	if text, url := db.Attribution(); !strings.Contains(text, "GeoLite2") || url == "" {
		t.Errorf("GeoLite2 attribution %q %q", text, url)
	}
}

func TestDBIP(t *testing.T) {
	db, err := geoip.Open(geoiptest.DBIP(t, networks))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	if _, ok := db.(*geoip.DBIP); !ok {
		t.Fatalf("a DB-IP npm database opened as %T", db)
	}
	check(t, db)
	if text, url := db.Attribution(); text != "IP Geolocation by DB-IP" || url != "https://db-ip.com" {
		t.Errorf("DB-IP attribution %q %q", text, url)
	}
}

func check(t *testing.T, db geoip.Database) {
	t.Helper()
	for _, l := range lookups {
		if got := db.Country(netip.MustParseAddr(l.ip)); got != l.want {
			t.Errorf("Country(%s) = %q, want %q", l.ip, got, l.want)
		}
	}
	if got := db.Country(netip.Addr{}); got != "" {
		t.Errorf("Country of the zero address = %q", got)
	}
}

func TestOpenRefuses(t *testing.T) {
	asn := map[string]mmdbtype.Map{"10.0.0.0/8": {"autonomous_system_number": mmdbtype.Uint32(64496)}}
	for name, path := range map[string]string{
		"missing file":          filepath.Join(t.TempDir(), "none.mmdb"),
		"not a database":        writeFile(t, "not a MaxMind DB"),
		"MaxMind ASN":           geoiptest.Write(t, "GeoLite2-ASN", asn),
		"another kind of table": geoiptest.Write(t, "asn ipvAll", asn),
	} {
		if db, err := geoip.Open(path); err == nil {
			_ = db.Close()
			t.Errorf("%s: opened", name)
		} else if errors.Is(err, geoip.ErrUnavailable) {
			t.Errorf("%s: %v reads as unavailable, want an error", name, err)
		}
	}
}

func TestLoad(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, err := geoip.Load(""); !errors.Is(err, geoip.ErrUnavailable) {
		t.Fatalf("Load without GEOIP_DB nor the default file: %v, want ErrUnavailable", err)
	}
	if _, err := geoip.Load("elsewhere.mmdb"); err == nil || errors.Is(err, geoip.ErrUnavailable) {
		t.Fatalf("Load of a GEOIP_DB that is missing: %v, want an error", err)
	}

	data, err := os.ReadFile(geoiptest.DBIP(t, networks))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(geoip.DefaultPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(geoip.DefaultPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := geoip.Load("")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	if got := db.Country(netip.MustParseAddr("10.9.9.9")); got != "DE" {
		t.Errorf("default database: %q, want DE", got)
	}

	mm, err := geoip.Load(geoiptest.GeoIP2(t, map[string]string{"10.0.0.0/8": "AT"}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = mm.Close() }()
	if got := mm.Country(netip.MustParseAddr("10.9.9.9")); got != "AT" {
		t.Errorf("GEOIP_DB beside the default file: %q, want AT", got)
	}
}

// The database `make build` fetches, when it is there (CI does not need it).
func TestFetchedDatabase(t *testing.T) {
	db := fetched(t)
	defer func() { _ = db.Close() }()
	for ip, want := range map[string]string{"8.8.8.8": "US", "1.2.4.8": "CN", "81.2.69.142": "GB"} {
		if got := db.Country(netip.MustParseAddr(ip)); got != want {
			t.Errorf("Country(%s) = %q, want %q", ip, got, want)
		}
	}
}

func fetched(tb testing.TB) geoip.Database {
	path := filepath.Join("..", "..", "..", geoip.DefaultPath)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("%s not fetched (make geoip)", geoip.DefaultPath)
	}
	db, err := geoip.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	return db
}

func writeFile(t *testing.T, content string) string {
	path := filepath.Join(t.TempDir(), "file.mmdb")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func BenchmarkCountry(b *testing.B) {
	ip := netip.MustParseAddr("10.1.2.3")
	for name, path := range map[string]string{
		"GeoIP2": geoiptest.GeoIP2(b, networks),
		"DBIP":   geoiptest.DBIP(b, networks),
	} {
		db, err := geoip.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				db.Country(ip)
			}
		})
		_ = db.Close()
	}
	b.Run("fetched DB-IP Lite", func(b *testing.B) {
		db := fetched(b)
		defer func() { _ = db.Close() }()
		ip := netip.MustParseAddr("81.2.69.142")
		b.ReportAllocs()
		for b.Loop() {
			db.Country(ip)
		}
	})
}
