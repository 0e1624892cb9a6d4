// Package e2e holds the end-to-end tests: each starts real server processes (or the binaries)
// against PostgreSQL and Redis of its own test database and key prefix, and talks to them over
// HTTP the way a client, a visitor's browser or the moderation worker does. A test that makes
// its deployment with newDeployment runs in parallel with the others (it owns its database and
// key prefix); one that times what a busy machine slows down, counts what the rate limiters let
// through, or reads the process's metrics uses newSerialDeployment or limiterDeployment and runs
// alone, before the parallel ones. The soak and failover runs carry the build tag soak (make
// soak, make chaos).
package e2e
