#!/usr/bin/env bash
# Runs golangci-lint (configured by .golangci.yml) over the main module and the deploy module.
# Installs the version below with `go install` into $(go env GOPATH)/bin when it is missing or
# another version is there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

version=2.15.0
bin=$(go env GOPATH)/bin/golangci-lint

if ! { [ -x "$bin" ] && "$bin" version 2>/dev/null | grep -q "version $version "; }; then
  echo "lint.sh: installing golangci-lint v$version..." >&2
  go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v$version"
fi

# Another golangci-lint on the machine (a second checkout's make test) is waited for, not an error.
"$bin" run --allow-serial-runners ./...
(cd deploy && "$bin" run --allow-serial-runners --config ../.golangci.yml ./...)
