// Package migrations holds the database schema as numbered SQL files, embedded in the binary.
package migrations

import "embed"

// FS holds every migration file; goose applies them in order of their numbers.
//
//go:embed *.sql
var FS embed.FS
