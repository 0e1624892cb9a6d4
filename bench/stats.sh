#!/usr/bin/env bash
# The statistics benchmark (BenchmarkLinkStats10M in backend/e2e): fills a fresh database with
# 10 million visits of one busy link over 90 days through the real insert, then times the
# link's statistics through the service and through HTTP. Takes a few minutes; uses
# DATABASE_URL and REDIS_URL when set, else throwaway servers.
#
#   bench/stats.sh                          # 10,000,000 visits, 100 calls per measurement
#   STATS_BENCH_VISITS=1000000 bench/stats.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export STATS_BENCH=1
exec deploy/local/with-services.sh go test -run '^$' -bench LinkStats10M -benchtime "${BENCH_TIMES:-100x}" \
  -timeout 3h -v ./backend/e2e
