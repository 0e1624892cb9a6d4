#!/usr/bin/env bash
# Bulk jobs over a seeded workspace (docs/benchmarks.md#bulk-jobs-over-a-million-links), run by
# bench/scale.sh with SCALE_ONLY=bulk: a job per step over the filter BULK_FILTER (every link the
# list shows by default: {}), each timed from its submission to its end as the API reports them
# (created_at, finished_at), with the redirect caches' tombstones and the change feed's rows
# included. Steps: BULK_STEPS, of "disable", "enable", "tag", "archive", "delete" (default:
# disable then delete). With the server's process ID, also the CPU time the server, PostgreSQL
# and Redis spent on each job (from /proc), which other load on the machine disturbs far less
# than the job's time. Usage: bench/bulk-jobs.sh API_WORKSPACE_URL KEY [SERVER_PID].
set -euo pipefail
base=$1 key=$2 server=${3:-0}
filter=${BULK_FILTER:-'{}'}
steps=${BULK_STEPS:-disable delete}

body() {
  case $1 in
    disable) echo "{\"filter\":$filter,\"set\":{\"status\":\"disabled\"}}" ;;
    enable) echo "{\"filter\":$filter,\"set\":{\"status\":\"active\"}}" ;;
    tag) echo "{\"filter\":$filter,\"set\":{\"tags_add\":[\"vip\"]}}" ;;
    archive) echo "{\"filter\":$filter,\"set\":{\"archived\":true}}" ;;
    delete) echo "{\"filter\":$filter,\"delete\":true}" ;;
    *) echo "unknown step $1" >&2; exit 2 ;;
  esac
}

ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
redis_pid=$(redis-cli -u "$REDIS_URL" INFO server 2>/dev/null | awk -F: '/^process_id/ {print $2+0}' || echo 0)
# The postmaster is the parent of PostgreSQL's checkpointer (a process that lives as long as it).
postmaster=$(awk '{print $4}' "/proc/$(psql "$DATABASE_URL" -Atc \
  "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'")/stat" 2>/dev/null || echo 0)
pg_ticks() {
  local t=0 f line rest
  for f in /proc/[0-9]*/stat; do
    read -r line <"$f" 2>/dev/null || continue
    rest=${line##*) }
    set -- $rest
    [ "$2" = "$postmaster" ] && t=$((t + ${12} + ${13}))
  done
  echo $((t + $(ticks "$postmaster")))
}
cpu() { echo "$(ticks "$server") $(pg_ticks) $(ticks "${redis_pid:-0}")"; }

field() { sed -E "s/.*\"$1\":(\"[^\"]*\"|[^,}]*).*/\1/" <<<"$2" | tr -d '"'; }

echo "bulk jobs over $filter (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
for step in $steps; do
  cpu0=$(cpu)
  job=$(curl -fsS -X POST "$base/links/bulk-jobs" -H "Authorization: Bearer $key" \
    -H 'Content-Type: application/json' -d "$(body "$step")")
  id=$(field id "$job")
  while :; do
    job=$(curl -fsS "$base/links/bulk-jobs/$id" -H "Authorization: Bearer $key")
    case $(field state "$job") in done | failed | canceled) break ;; esac
    sleep 0.5
  done
  cpu1=$(cpu)
  created=$(field created_at "$job") started=$(field started_at "$job") finished=$(field finished_at "$job")
  secs=$(python3 -c "from datetime import datetime as d; f=lambda s: d.fromisoformat(s.replace('Z','+00:00')); print(round((f('$finished')-f('$created')).total_seconds(), 1))")
  total=$(field total "$job")
  printf '%-8s state %s: %s links (%s failed) in %s s from submission (started after %s s), %s links/s\n' \
    "$step" "$(field state "$job")" "$total" "$(field failed "$job")" "$secs" \
    "$(python3 -c "from datetime import datetime as d; f=lambda s: d.fromisoformat(s.replace('Z','+00:00')); print(round((f('$started')-f('$created')).total_seconds(), 1))")" \
    "$(python3 -c "print(round($total / max($secs, 0.001)))")"
  [ "$server" = 0 ] || awk -v a="$cpu0" -v b="$cpu1" -v hz="$(getconf CLK_TCK)" 'BEGIN{
    split(a, x, " "); split(b, y, " ")
    s = (y[1] - x[1]) / hz; p = (y[2] - x[2]) / hz; r = (y[3] - x[3]) / hz
    printf "         CPU seconds: server %.1f, PostgreSQL %.1f, Redis %.1f, in all %.1f (%.1f s of two cores)\n", s, p, r, s + p + r, (s + p + r) / 2 }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
