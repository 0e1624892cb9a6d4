#!/usr/bin/env bash
# Bulk jobs over a seeded workspace (docs/benchmarks.md#bulk-jobs-over-a-million-links), run by
# bench/scale.sh with SCALE_ONLY=bulk: a job per step over the filter BULK_FILTER (every link the
# list shows by default: {}), each timed from its submission to its end as the API reports them
# (created_at, finished_at), with the redirect caches' tombstones and the change feed's rows
# included. Steps: BULK_STEPS, of "disable", "enable", "tag", "archive", "delete" (default:
# disable then delete). Usage: bench/bulk-jobs.sh API_WORKSPACE_URL KEY.
set -euo pipefail
base=$1 key=$2
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

field() { sed -E "s/.*\"$1\":(\"[^\"]*\"|[^,}]*).*/\1/" <<<"$2" | tr -d '"'; }

echo "bulk jobs over $filter (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
for step in $steps; do
  job=$(curl -fsS -X POST "$base/links/bulk-jobs" -H "Authorization: Bearer $key" \
    -H 'Content-Type: application/json' -d "$(body "$step")")
  id=$(field id "$job")
  while :; do
    job=$(curl -fsS "$base/links/bulk-jobs/$id" -H "Authorization: Bearer $key")
    case $(field state "$job") in done | failed | canceled) break ;; esac
    sleep 0.5
  done
  created=$(field created_at "$job") started=$(field started_at "$job") finished=$(field finished_at "$job")
  secs=$(python3 -c "from datetime import datetime as d; f=lambda s: d.fromisoformat(s.replace('Z','+00:00')); print(round((f('$finished')-f('$created')).total_seconds(), 1))")
  total=$(field total "$job")
  printf '%-8s state %s: %s links (%s failed) in %s s from submission (started after %s s), %s links/s\n' \
    "$step" "$(field state "$job")" "$total" "$(field failed "$job")" "$secs" \
    "$(python3 -c "from datetime import datetime as d; f=lambda s: d.fromisoformat(s.replace('Z','+00:00')); print(round((f('$started')-f('$created')).total_seconds(), 1))")" \
    "$(python3 -c "print(round($total / max($secs, 0.001)))")"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
