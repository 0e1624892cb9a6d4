package config

import (
	"github.com/caarlos0/env/v11"
)

// Migration is what `shortlink migrate` reads from the environment: the database alone.
type Migration struct {
	// DatabaseURL is read as the server's pool reads it (pool options, several hosts).
	DatabaseURL string `env:"DATABASE_URL,required"`
}

// LoadMigration reads the settings of `shortlink migrate`; errors name the variable.
func LoadMigration() (Migration, error) {
	var m Migration
	if err := env.Parse(&m); err != nil {
		return m, explain(err)
	}
	return m, nil
}

// MigrationFromMap is LoadMigration over a map (tests).
func MigrationFromMap(vars map[string]string) (Migration, error) {
	var m Migration
	if err := env.ParseWithOptions(&m, env.Options{Environment: vars}); err != nil {
		return m, explain(err)
	}
	return m, nil
}
