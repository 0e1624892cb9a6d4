package testenv

import (
	"os"
	"testing"
)

// Tests that need a service (PostgreSQL, Redis, a browser, stripe-mock, a server binary) ask
// for it through Need. Under `make test` and `make test-short` (SHORTLINK_TEST_SERVICES=required)
// a missing service fails the test: nothing is skipped there. Elsewhere — `go test ./...` on a
// laptop, `make test-unit` — the test is skipped with one line saying what it needs, and the
// tests of pure logic (decisions, parsers, codecs, rules, signing, scoring) run alone
// (docs/development.md).

// ServicesRequired says that a missing service fails a test rather than skipping it.
func ServicesRequired() bool { return os.Getenv("SHORTLINK_TEST_SERVICES") == "required" }

// Need fails or skips t (see ServicesRequired) when ok is false, naming the service and how to
// get it.
func Need(t testing.TB, ok bool, service, how string) {
	t.Helper()
	if ok {
		return
	}
	if ServicesRequired() {
		t.Fatalf("%s is missing: %s", service, how)
	}
	t.Skipf("needs %s: %s", service, how)
}

// NeedEnv is Need for a service named by an environment variable.
func NeedEnv(t testing.TB, name, service, how string) string {
	t.Helper()
	v := os.Getenv(name)
	Need(t, v != "", service+" ("+name+")", how)
	return v
}
