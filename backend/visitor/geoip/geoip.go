// Package geoip answers the country of an IP address from a MaxMind DB file: a GeoIP2 or
// GeoLite2 country (or city) database through geoip2-golang, or the free DB-IP Lite country
// database of the npm registry, whose records are {country_code}, through maxminddb-golang
// (geoip2-golang refuses its database type). Reading the DB-IP file as it comes, rather than
// converting it into the GeoIP2 shape at build time, keeps the build to one download and the
// lookups as fast (see the benchmarks).
package geoip

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/oschwald/geoip2-golang/v2"
	"github.com/oschwald/maxminddb-golang/v2"
)

// DefaultPath is where `make build` puts the DB-IP Lite country database (deploy/geoip/fetch.sh),
// relative to the repository root; the server uses it when GEOIP_DB is unset.
const DefaultPath = "data/geoip/dbip-country-lite.mmdb"

// ErrUnavailable means there is no country database: geo rules cannot be offered.
var ErrUnavailable = errors.New("geoip: no country database")

// Database is an open country database; it is safe for concurrent use.
type Database interface {
	// Country is the ISO 3166-1 alpha-2 code of ip's country, "" when unknown.
	Country(ip netip.Addr) string
	// Attribution is the credit the data's licence asks for on pages that use its results,
	// and the address the credit links to; both "" when none is due.
	Attribution() (text, url string)
	// String names the file, its database type and its build date, for the start-up log.
	String() string
	Close() error
}

// Load opens the database the configuration names: GEOIP_DB when it is set (a failure is an
// error), else DefaultPath when that file exists. With neither, it returns ErrUnavailable.
func Load(configured string) (Database, error) {
	if configured != "" {
		return Open(configured)
	}
	if _, err := os.Stat(DefaultPath); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: GEOIP_DB is unset and %s is missing (make build fetches it)", ErrUnavailable, DefaultPath)
	}
	return Open(DefaultPath)
}

// Open opens a country database, choosing the reader by the database type the file declares.
func Open(path string) (Database, error) {
	mm, err := OpenMaxMind(path)
	if err == nil {
		return mm, nil
	}
	var unknown geoip2.UnknownDatabaseTypeError
	if !errors.As(err, &unknown) {
		return nil, err
	}
	return OpenDBIP(path)
}

// MaxMind reads GeoIP2 and GeoLite2 country or city databases (and DB-IP's own downloads in
// that shape).
type MaxMind struct {
	path string
	r    *geoip2.Reader
}

// OpenMaxMind opens a database that geoip2-golang accepts and that has countries.
func OpenMaxMind(path string) (*MaxMind, error) {
	r, err := geoip2.Open(path)
	if err != nil {
		if r != nil {
			_ = r.Close() // geoip2 maps the file before it looks at the type
		}
		return nil, fmt.Errorf("geoip: open %s: %w", path, err)
	}
	// A type without countries (ASN, ISP, …) is refused now rather than at every lookup.
	if _, err := r.Country(netip.IPv4Unspecified()); err != nil {
		var invalid geoip2.InvalidMethodError
		if errors.As(err, &invalid) {
			_ = r.Close()
			return nil, fmt.Errorf("geoip: %s: a %s database has no countries", path, r.Metadata().DatabaseType)
		}
	}
	return &MaxMind{path: path, r: r}, nil
}

// Country is the country where the address is, else the one where its network is
// registered; "" when the database knows neither.
func (m *MaxMind) Country(ip netip.Addr) string {
	rec, err := m.r.Country(ip.Unmap())
	if err != nil {
		return ""
	}
	if c := code(rec.Country.ISOCode); c != "" {
		return c
	}
	return code(rec.RegisteredCountry.ISOCode)
}

// Attribution is GeoLite2's and DB-IP's credit; GeoIP2 (paid) databases need none.
func (m *MaxMind) Attribution() (text, url string) {
	t := m.r.Metadata().DatabaseType
	switch {
	case strings.HasPrefix(t, "GeoLite2"):
		return "This product includes GeoLite2 data created by MaxMind", "https://www.maxmind.com"
	case strings.HasPrefix(t, "DBIP"):
		return dbipCredit, dbipURL
	}
	return "", ""
}

func (m *MaxMind) String() string { return describe(m.path, m.r.Metadata()) }

// Close releases the file.
func (m *MaxMind) Close() error { return m.r.Close() }

const (
	dbipCredit = "IP Geolocation by DB-IP"
	dbipURL    = "https://db-ip.com"
)

// DBIP reads the DB-IP Lite country database of the npm registry (@ip-location-db/
// dbip-country-mmdb, CC BY 4.0), whose records are {country_code}. Records in the GeoIP2 shape
// ({country: {iso_code}}) are read as well.
type DBIP struct {
	path string
	r    *maxminddb.Reader
}

// dbipRecord holds the only fields decoded, so a lookup allocates nothing beyond the reader's.
type dbipRecord struct {
	CountryCode string `maxminddb:"country_code"`
	Country     struct {
		ISOCode string `maxminddb:"iso_code"`
	} `maxminddb:"country"`
}

// OpenDBIP opens a country database with {country_code} records.
func OpenDBIP(path string) (*DBIP, error) {
	r, err := maxminddb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("geoip: open %s: %w", path, err)
	}
	if !strings.Contains(strings.ToLower(r.Metadata.DatabaseType), "country") {
		_ = r.Close()
		return nil, fmt.Errorf("geoip: %s: a %q database is not a country database", path, r.Metadata.DatabaseType)
	}
	return &DBIP{path: path, r: r}, nil
}

// Country is the record's country code, "" when the address has none.
func (d *DBIP) Country(ip netip.Addr) string {
	var rec dbipRecord
	if err := d.r.Lookup(ip.Unmap()).Decode(&rec); err != nil {
		return ""
	}
	if c := code(rec.CountryCode); c != "" {
		return c
	}
	return code(rec.Country.ISOCode)
}

// Attribution is the credit DB-IP's licence (CC BY 4.0) asks for.
func (d *DBIP) Attribution() (text, url string) { return dbipCredit, dbipURL }

func (d *DBIP) String() string { return describe(d.path, d.r.Metadata) }

// Close releases the file.
func (d *DBIP) Close() error { return d.r.Close() }

// code keeps ISO 3166-1 alpha-2 codes and drops anything else, such as DB-IP's "ZZ" (unknown).
func code(c string) string {
	if len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' || c == "ZZ" {
		return ""
	}
	return c
}

func describe(path string, md maxminddb.Metadata) string {
	built := time.Unix(int64(md.BuildEpoch), 0).UTC().Format(time.DateOnly)
	return fmt.Sprintf("%s (%s, built %s)", path, md.DatabaseType, built)
}
