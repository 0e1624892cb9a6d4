#!/usr/bin/env bash
# The scale run (docs/benchmarks.md#workspaces-of-10-million-links): seeds one workspace of
# SCALE_LINKS links (10,000,000 by default) and SCALE_SPREAD more over SCALE_WORKSPACES others
# (bench/seed, by COPY), then times every query shape of the links list through the HTTP API
# (bench/listq: p50, p95, p99 of warm pages of 50), then creates into the big workspace against
# the bare net/http ceiling, as make bench measures them. Needs DATABASE_URL and REDIS_URL (make
# bench-scale starts throwaway servers), wrk and psql. SCALE_ONLY=list skips the creates;
# SCALE_CASES=word runs only the list's cases whose name holds it; SCALE_ONLY=bulk times bulk jobs
# over the big workspace instead (bench/bulk-jobs.sh); SCALE_ONLY=stats seeds SCALE_VISITS visits
# (1,000,000,000) over the last year of the big workspace's links (100,000 by default, none
# spread) with the rollups they leave, and times the statistics instead (bench/statq).
set -euo pipefail
cd "$(dirname "$0")/.."

LINKS=${SCALE_LINKS:-10000000}
SPREAD=${SCALE_SPREAD:-3000000}
SPACES=${SCALE_WORKSPACES:-10000}
if [ "${SCALE_ONLY:-}" = stats ]; then
  LINKS=${SCALE_LINKS:-100000} SPREAD=${SCALE_SPREAD:-0} SPACES=${SCALE_WORKSPACES:-0}
  seed_visits=(-visits "${SCALE_VISITS:-1000000000}")
fi
DURATION=${BENCH_DURATION:-10s}
CONNS=${BENCH_CONNECTIONS:-64}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

[ -x bin/shortlink ] || { echo "bin/shortlink is missing: run make build" >&2; exit 1; }
go build -o "$work/seed" ./bench/seed
go build -o "$work/listq" ./bench/listq
go build -o "$work/statq" ./bench/statq
go build -o "$work/ceiling" ./bench/ceiling
. bench/lib.sh
need_wrk

port=$(free_port)
ceiling_port=$(free_port)
export HTTP_ADDR="127.0.0.1:$port" PUBLIC_URL="http://127.0.0.1:$port" LOG_LEVEL=warn METRICS_ADDR=
# The bulk jobs' own lines say where their time went.
[ "${SCALE_ONLY:-}" != bulk ] || LOG_LEVEL=info
bench_env scale

bin/shortlink migrate
bin/shortlink serve 2>"$work/server.log" &
pids+=($!)
server_pid=$!
wait_http "http://127.0.0.1:$port/healthz" || { cat "$work/server.log" >&2; exit 1; }

api="http://127.0.0.1:$port/api/v1"
enterprise_workspace "$api" scale

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "seeding $LINKS links in workspace $ws and $SPREAD over $SPACES others..."
"$work/seed" -workspace "$ws" -links "$LINKS" -workspaces "$SPACES" -spread "$SPREAD" ${seed_visits[@]+"${seed_visits[@]}"} |
  tee "$work/seed.out"
# The server's search indexer copies the seeded links into the search table (migration 00063)
# as the seed commits them; the list is timed once it has them all.
echo "search index caught up $(search_caught_up) s after the seed"
psql "$DATABASE_URL" -qc "VACUUM (ANALYZE) link_search"
psql "$DATABASE_URL" -Atc "SELECT 'database size: ' || pg_size_pretty(pg_database_size(current_database()))"
echo "load average after seeding: $(cut -d' ' -f1-3 /proc/loadavg)"
# The server's host table reloads within a second of the seed's custom domains.
sleep 2

# SCALE_ONLY=bulk: bulk jobs over the big workspace instead of the list and the creates
# (docs/benchmarks.md#bulk-jobs-over-a-million-links).
if [ "${SCALE_ONLY:-}" = bulk ]; then
  bench/bulk-jobs.sh "$api/workspaces/$ws" "$key" "$server_pid"
  grep -a 'bulk job: done' "$work/server.log" || true
  exit 0
fi

# SCALE_ONLY=stats: the statistics of the workspace and of the links at the seed's sample ranks
# (docs/benchmarks.md#statistics-at-a-billion-visits).
if [ "${SCALE_ONLY:-}" = stats ]; then
  psql "$DATABASE_URL" -Atc "SELECT relname || ': ' || n_live_tup || ' rows, ' || pg_size_pretty(pg_total_relation_size(relid))
    FROM pg_stat_user_tables WHERE relname IN ('visit_hours', 'visit_key_days', 'visit_key_hours', 'visit_key_months', 'visit_totals', 'workspace_visit_hours') ORDER BY relname"
  sample=$(sed -nE 's/^sample link rank=([0-9]+) id=([0-9]+).*/rank-\1=\2/p' "$work/seed.out" | paste -sd, -)
  echo
  echo "statistics through the API (first answer, then warm: p50 / p95 / p99):"
  "$work/statq" -api "$api/workspaces/$ws" -key "$key" -links "$sample" ${SCALE_CASES:+-only "$SCALE_CASES"}
  exit 0
fi

echo
echo "links list through the API, pages of 50 (warm; p50 / p95 / p99 of every page of the walks):"
"$work/listq" -api "$api/workspaces/$ws/links" -key "$key" ${SCALE_CASES:+-only "$SCALE_CASES"} || true

[ "${SCALE_ONLY:-}" != list ] || exit 0

# Creates into the big workspace beside the bare net/http ceiling, as bench/run.sh measures them:
# the ratio is what the search index and the size of the tables cost a create.
"$work/ceiling" -addr "127.0.0.1:$ceiling_port" &
pids+=($!)
wait_http "http://127.0.0.1:$ceiling_port/x" || true
rate() { wrk -t2 -c"$CONNS" -d"$DURATION" "$@" | awk '/^Requests\/sec/ {print $2}'; }
wrk -t2 -c"$CONNS" -d2s "http://127.0.0.1:$ceiling_port/x" >/dev/null
ceil=$(rate "http://127.0.0.1:$ceiling_port/x")
wrk -t2 -c"$CONNS" -d2s -s bench/create.lua "$api/workspaces/$ws/links" -- "$key" >/dev/null
creates=$(rate -s bench/create.lua "$api/workspaces/$ws/links" -- "$key")
echo
echo "ceiling (bare net/http 302): $ceil/s"
echo "creates into the workspace: $creates/s"
echo "search index caught up $(search_caught_up) s after the last create"
awk -v c="$ceil" -v k="$creates" 'BEGIN{printf "creates / ceiling: %.2f   (target >= 0.17)\n", k/c}'
