package app

import (
	"github.com/shortlink/shortlink/backend/visitor"
	"github.com/shortlink/shortlink/backend/visitor/geoip"
)

// geoCountries is the classifier's country lookup over the GeoIP database, nil without one.
func geoCountries(db geoip.Database) visitor.Countries {
	if db == nil {
		return nil
	}
	return db
}
