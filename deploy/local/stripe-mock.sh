#!/usr/bin/env bash
# Installs stripe-mock (Stripe's API answered from its OpenAPI description, for the billing
# tests) when it is missing, and prints the path of its binary (STRIPE_MOCK):
# $XDG_CACHE_HOME/shortlink/stripe-mock-VERSION/stripe-mock, else under ~/.cache.
#
# Quick when it is there. Progress goes to stderr; stdout is only the path.
set -euo pipefail

version=0.203.0
dir=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/shortlink/stripe-mock-$version
bin=$dir/stripe-mock

if [ ! -x "$bin" ]; then
  echo "stripe-mock.sh: installing stripe-mock v$version..." >&2
  mkdir -p "$dir"
  GOBIN=$dir go install "github.com/stripe/stripe-mock@v$version" >&2
  [ -x "$bin" ] || { echo "stripe-mock.sh: $bin is still missing after go install" >&2; exit 1; }
fi
echo "$bin"
