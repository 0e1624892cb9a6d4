// Package geoiptest writes small country databases for tests, in the two shapes that package
// geoip reads, so that no test depends on downloading one.
package geoiptest

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// GeoIP2 writes a GeoIP2-Country database mapping each network (CIDR) to a country code, in
// the test's temporary folder, and returns its path. Reserved ranges such as 10.0.0.0/8,
// 127.0.0.0/8 or 2001:db8::/32 may be used.
func GeoIP2(tb testing.TB, networks map[string]string) string {
	tb.Helper()
	records := make(map[string]mmdbtype.Map, len(networks))
	for cidr, cc := range networks {
		records[cidr] = mmdbtype.Map{
			"country": mmdbtype.Map{
				"iso_code": mmdbtype.String(cc),
				"names":    mmdbtype.Map{"en": mmdbtype.String("Country " + cc)},
			},
		}
	}
	return Write(tb, "GeoIP2-Country", records)
}

// DBIP writes a database shaped like the npm registry's DB-IP Lite country database
// (type "country ipvAll", records {country_code}) and returns its path.
func DBIP(tb testing.TB, networks map[string]string) string {
	tb.Helper()
	records := make(map[string]mmdbtype.Map, len(networks))
	for cidr, cc := range networks {
		records[cidr] = mmdbtype.Map{"country_code": mmdbtype.String(cc)}
	}
	return Write(tb, "country ipvAll", records)
}

// Write writes a database of the given type with the given record per network and returns
// its path.
func Write(tb testing.TB, databaseType string, records map[string]mmdbtype.Map) string {
	tb.Helper()
	tree, err := mmdbwriter.New(mmdbwriter.Options{
		DatabaseType:            databaseType,
		IncludeReservedNetworks: true,
		RecordSize:              24,
	})
	if err != nil {
		tb.Fatal(err)
	}
	for cidr, rec := range records {
		_, network, err := net.ParseCIDR(cidr)
		if err != nil {
			tb.Fatal(err)
		}
		if err := tree.Insert(network, rec); err != nil {
			tb.Fatalf("insert %s: %v", cidr, err)
		}
	}
	path := filepath.Join(tb.TempDir(), "country.mmdb")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := tree.WriteTo(f); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}
