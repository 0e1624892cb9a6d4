// Package e2e holds the end-to-end tests: each starts real server processes (or the binaries)
// against PostgreSQL and Redis of its own test database and key prefix, and talks to them over
// HTTP the way a client, a visitor's browser or the moderation worker does. The soak and
// failover runs carry the build tag soak (make soak, make chaos).
package e2e
