#!/usr/bin/env bash
# Load run on loopback, in one go so the figures are comparable: redirects of cached links
# against a bare net/http server answering a fixed 302 (the ceiling of this machine), one plain
# link with visit capture on and off, then link creation through the API with 64 concurrent
# clients, then visits end to end (redirect to committed rollup row) and the ingest alone
# (BenchmarkIngest). Needs DATABASE_URL and REDIS_URL (make bench starts throwaway servers),
# wrk, psql and redis-cli. BENCH_ONLY=create runs only the creates (after the seeding) and
# prints the CPU each create cost the server, PostgreSQL and Redis; with BENCH_PROFILE=file too,
# a CPU profile of the server during the create run is written there. BENCH_ONLY=visits runs
# only the visits end to end.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${BENCH_DURATION:-10s}
CONNS=${BENCH_CONNECTIONS:-64}
LINKS=${BENCH_LINKS:-$([ "${BENCH_ONLY:-}" = visits ] && echo 1000 || echo 100000)}
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # What the servers warned about (Redis timeouts, visits dropped, ingest failures) bears on the
  # figures: shown, counted by message.
  if grep -qs 'level=WARN\|level=ERROR' "$work"/server*.log; then
    echo
    echo "server warnings (count, message):"
    grep -hs 'level=WARN\|level=ERROR' "$work"/server*.log | sed -E 's/^time=[^ ]+ //; s/ (err|dropped|addr|links)=.*//' |
      sort | uniq -c | sort -rn | head -n 10
  fi
  [ -z "${BENCH_LOGS:-}" ] || cp "$work"/server*.log "$BENCH_LOGS"/ 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

. bench/lib.sh
need_wrk
[ -x bin/shortlink ] || { echo "bin/shortlink is missing: run make build" >&2; exit 1; }
go build -o "$work/ceiling" ./bench/ceiling

port=$(free_port)
off_port=$(free_port)
ingest_port=$(free_port)
ingest_metrics_port=$(free_port)
ceiling_port=$(free_port)
metrics_port=$(free_port)
export HTTP_ADDR="127.0.0.1:$port" PUBLIC_URL="http://127.0.0.1:$port" LOG_LEVEL=warn
export METRICS_ADDR="127.0.0.1:$metrics_port"
bench_env bench

bin/shortlink migrate
# The measured server captures visits (the default) and leaves the stream to an ingest node
# started for the end-to-end run: redirects are measured without the consumer's work on the
# same two cores, and the stream is emptied after each run. A second server, capture off, is
# the yardstick of what capture costs.
# One after the other: each makes sure of the operator account at start-up.
serve() { # log http_addr [VAR=value...]
  local log=$1 addr=$2; shift 2
  env "$@" HTTP_ADDR="$addr" bin/shortlink serve 2>"$work/$log" &
  pids+=($!)
  wait_http "http://$addr/healthz" || { cat "$work/$log" >&2; exit 1; }
}
debug_port=$(free_port)
serve server.log "127.0.0.1:$port" VISIT_INGEST=false ${BENCH_PROFILE:+DEBUG_ADDR=127.0.0.1:$debug_port}
on_pid=${pids[-1]}
serve server-off.log "127.0.0.1:$off_port" VISIT_CAPTURE=false VISIT_INGEST=false METRICS_ADDR=
off_pid=${pids[-1]}
"$work/ceiling" -addr "127.0.0.1:$ceiling_port" &
pids+=($!)
wait_http "http://127.0.0.1:$ceiling_port/x" || true
stream="${REDIS_PREFIX}visits"
# A node keeps the entries it sent until the consumer group has them, and stores them itself when
# the stream loses them: so the group is moved past every entry, then the stream emptied, in one
# step (deleting it, or trimming alone, would make the node store everything it kept).
empty_stream() {
  sleep 1
  redis-cli -u "$REDIS_URL" XGROUP CREATE "$stream" ingest '$' MKSTREAM >/dev/null 2>&1 || true
  redis-cli -u "$REDIS_URL" EVAL "redis.call('XGROUP', 'SETID', KEYS[1], 'ingest', '\$'); return redis.call('XTRIM', KEYS[1], 'MAXLEN', 0)" 1 "$stream" >/dev/null
}

api="http://127.0.0.1:$port/api/v1"
enterprise_workspace "$api" bench

echo "seeding $LINKS links..."
batch=$(awk 'BEGIN{printf "{\"links\":["; for(i=1;i<=1000;i++){printf "%s{\"url\":\"https://example.com/seed/%d\"}", (i>1?",":""), i}; printf "]}"}')
: >"$work/codes"
for _ in $(seq 1 $((LINKS / 1000))); do
  curl -fsS -X POST "$api/workspaces/$ws/links/batch" -H "Authorization: Bearer $key" \
    -H 'Content-Type: application/json' -d "$batch" | grep -o '"code":"[^"]*"' | cut -d'"' -f4 >>"$work/codes"
done
echo "seeded $(wc -l <"$work/codes") links"

# wrk prints Requests/sec and, with --latency, the 99th percentile.
measure() { # name url script args...
  local name=$1 url=$2 script=$3; shift 3
  local out
  out=$(wrk -t2 -c"$CONNS" -d"$DURATION" --latency -s "$script" "$url" -- "$@")
  local rps p99 non2xx total
  rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  non2xx=$(awk '/Non-2xx or 3xx/ {print $5}' <<<"$out")
  total=$(awk '/requests in/ {print $1}' <<<"$out")
  echo "$name|$rps|$p99|${non2xx:-0}|$total"
}

to_ms() { # 1.23ms / 450.00us / 1.02s -> milliseconds
  awk -v v="$1" 'BEGIN{ if (v ~ /us$/) {sub(/us$/,"",v); print v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v); print v+0} else {sub(/s$/,"",v); print v*1000} }'
}

# CPU time of a process so far, in clock ticks (Linux): a measure that other load on the machine
# disturbs far less than throughput.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
redis_pid=$(redis-cli -u "$REDIS_URL" INFO server | awk -F: '/^process_id/ {print $2+0}')
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

if [ "${BENCH_ONLY:-}" = create ]; then
  echo "caught up with the seed's links in $(search_caught_up) s"
  echo "measuring the ceiling, then creates ($DURATION, $CONNS connections)..."
  # The ceiling right before the creates, for their ratio.
  wrk -t2 -c"$CONNS" -d2s "http://127.0.0.1:$ceiling_port/x" >/dev/null
  ceil=$(measure ceiling "http://127.0.0.1:$ceiling_port" bench/redirect.lua "$work/codes")
  # A short warm-up: connections, the plan cache, the writer.
  wrk -t2 -c"$CONNS" -d2s -s bench/create.lua "$api/workspaces/$ws/links" -- "$key" >/dev/null
  search_caught_up >/dev/null
  before=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM links")
  cpu0="$(ticks "$on_pid") $(pg_ticks) $(ticks "$redis_pid")"
  if [ -n "${BENCH_PROFILE:-}" ]; then
    curl -fsS -o "$BENCH_PROFILE" "http://127.0.0.1:$debug_port/debug/pprof/profile?seconds=$((${DURATION%s} - 2))" &
    profiler=$!
  fi
  create=$(measure create "$api/workspaces/$ws/links" bench/create.lua "$key")
  [ -z "${BENCH_PROFILE:-}" ] || wait "$profiler"
  cpu1="$(ticks "$on_pid") $(pg_ticks) $(ticks "$redis_pid")"
  after=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM links")
  IFS='|' read -r _ k_rps k_p99 k_bad k_total <<<"$create"
  secs=${DURATION%s}
  acked=$((k_total - k_bad))
  printf '%-38s %12s %10s\n' "shortlink create (API, committed)" "$(awk -v a="$acked" -v s="$secs" 'BEGIN{printf "%.2f", a/s}')" "$k_p99"
  echo "create answers that were not 201: ${k_bad}; rows added to links: $((after - before)) (acknowledged: $acked)"
  IFS='|' read -r _ c_rps c_p99 _ _ <<<"$ceil"
  printf '%-38s %12s %10s\n' "ceiling (bare net/http 302)" "$c_rps" "$c_p99"
  awk -v a="$acked" -v s="$secs" -v c="$c_rps" 'BEGIN{printf "creates / ceiling: %.2f   (target >= 0.17)\n", a/s/c}'
  awk -v a="$cpu0" -v b="$cpu1" -v n="$acked" -v hz="$(getconf CLK_TCK)" 'BEGIN{
    split(a, x, " "); split(b, y, " ")
    for (i = 1; i <= 3; i++) d[i] = (y[i] - x[i]) / hz * 1e6 / n
    printf "CPU per create: server %.1f µs, PostgreSQL %.1f µs, Redis %.1f µs\n", d[1], d[2], d[3]
  }'
  # The search index behind the creates (migration 00063): how long the indexer took to copy
  # the links still queued when the creates stopped, and PostgreSQL's CPU for the creates and
  # that catching up together.
  echo "search index caught up $(search_caught_up) s after the last create"
  cpu2=$(pg_ticks)
  awk -v a="$cpu0" -v b="$cpu2" -v n="$acked" -v hz="$(getconf CLK_TCK)" 'BEGIN{
    split(a, x, " "); printf "PostgreSQL CPU per create with the search index caught up: %.1f µs\n", (b - x[2]) / hz * 1e6 / n
  }'
  psql "$DATABASE_URL" -Atc "SELECT 'links not in the search table: ' || (SELECT count(*) FROM links l WHERE NOT EXISTS (SELECT 1 FROM link_search s WHERE s.link_id = l.id))"
  exit 0
fi

# Visits the capture-on server dropped (buffer full) during a run, from its metrics listener.
drops() {
  curl -fsS "http://$METRICS_ADDR/metrics" | awk '/^shortlink_visits_dropped_total/ {s+=$2} END {printf "%d\n", s}'
}

if [ "${BENCH_ONLY:-}" != visits ]; then
# One plain link and one with rules (a geo deny list, device targets, two variants), each
# requested on its own: the cost of the rules is the ratio of the two.
plain_code=$(curl -fsS -X POST "$api/workspaces/$ws/links" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d '{"url":"https://example.com/plain"}' | sed -E 's/.*"code":"([^"]+)".*/\1/')
rules_code=$(curl -fsS -X POST "$api/workspaces/$ws/links" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d '{"url":"https://example.com/rules",
    "geo":{"deny":["RU","KP"]},
    "device_targets":{"ios":"https://apps.apple.com/app/x","android":"https://play.google.com/store/apps/x"},
    "variants":[{"url":"https://example.com/a","weight":50},{"url":"https://example.com/b","weight":50}]}' |
  sed -E 's/.*"code":"([^"]+)".*/\1/')
[ -n "$rules_code" ] || { echo "could not create the rules link (is a GeoIP database in place? make build fetches it)" >&2; exit 1; }
# A link with UTM parameters: its destination is merged when it is saved, so it should cost
# what a plain link does.
utm_code=$(curl -fsS -X POST "$api/workspaces/$ws/links" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d '{"url":"https://example.com/utm?ref=1#top",
    "utm":{"source":"newsletter","medium":"email","campaign":"spring"}}' | sed -E 's/.*"code":"([^"]+)".*/\1/')
[ -n "$utm_code" ] || { echo "could not create the UTM link" >&2; exit 1; }

echo "warming caches..."
# Every link once (bench/warm.lua), then random ones as measured: the redirects measured are
# of cached links.
wrk -t2 -c"$CONNS" -d5s -s bench/warm.lua "http://127.0.0.1:$port" -- "$work/codes" >/dev/null
wrk -t2 -c"$CONNS" -d2s -s bench/redirect.lua "http://127.0.0.1:$port" -- "$work/codes" >/dev/null
wrk -t2 -c"$CONNS" -d2s -s bench/redirect.lua "http://127.0.0.1:$ceiling_port" -- "$work/codes" >/dev/null

echo "measuring ($DURATION each, $CONNS connections, wrk -t2 on the same 2 cores)..."
ceil=$(measure ceiling "http://127.0.0.1:$ceiling_port" bench/redirect.lua "$work/codes")
redir=$(measure redirect "http://127.0.0.1:$port" bench/redirect.lua "$work/codes")
empty_stream
wrk -t2 -c"$CONNS" -d2s -s bench/single.lua "http://127.0.0.1:$port" -- "$rules_code" >/dev/null
wrk -t2 -c"$CONNS" -d2s -s bench/single.lua "http://127.0.0.1:$port" -- "$utm_code" >/dev/null
wrk -t2 -c"$CONNS" -d2s -s bench/single.lua "http://127.0.0.1:$off_port" -- "$plain_code" >/dev/null
empty_stream
# Capture off and on, twice in turn: the machine's drift over a minute is of the order of the
# difference measured.
combine() { # name measure-line... -> name|mean requests/s|mean p99|non-3xx|requests
  local name=$1 line _n rps p99 bad total sums=""
  shift
  for line in "$@"; do
    IFS='|' read -r _n rps p99 bad total <<<"$line"
    sums+="$rps $(to_ms "$p99") $bad $total"$'\n'
  done
  awk -v name="$name" '{r+=$1; p+=$2; b+=$3; t+=$4; n++}
    END{printf "%s|%.2f|%.2fms|%d|%d\n", name, r/n, p/n, b, t}' <<<"${sums%$'\n'}"
}
offs=() ons=() cpu_off=0 cpu_on=0 cpu_redis=0
d0=$(drops)
for _ in 1 2; do
  t=$(ticks "$off_pid")
  offs+=("$(measure plain-off "http://127.0.0.1:$off_port" bench/single.lua "$plain_code")")
  cpu_off=$((cpu_off + $(ticks "$off_pid") - t))
  t=$(ticks "$on_pid") r=$(ticks "$redis_pid")
  ons+=("$(measure plain "http://127.0.0.1:$port" bench/single.lua "$plain_code")")
  cpu_on=$((cpu_on + $(ticks "$on_pid") - t)) cpu_redis=$((cpu_redis + $(ticks "$redis_pid") - r))
  empty_stream
done
plain_drops=$(($(drops) - d0))
plain_off=$(combine plain-off "${offs[@]}")
plain=$(combine plain "${ons[@]}")
ruled=$(measure rules "http://127.0.0.1:$port" bench/single.lua "$rules_code")
empty_stream
utmed=$(measure utm "http://127.0.0.1:$port" bench/single.lua "$utm_code")
empty_stream
# Sum and count of the batch writer's rows-per-insert histogram, from the metrics listener.
batch_rows() {
  curl -fsS "http://$METRICS_ADDR/metrics" | awk '/^shortlink_link_insert_batch_rows_sum/ {s=$2}
    /^shortlink_link_insert_batch_rows_count/ {c=$2} END {printf "%d %d\n", s, c}'
}
IFS=' ' read -r b_sum0 b_count0 <<<"$(batch_rows)"
before=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM links")
create=$(measure create "$api/workspaces/$ws/links" bench/create.lua "$key")
after=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM links")
search_lag=$(search_caught_up)

IFS='|' read -r _ c_rps c_p99 _ _ <<<"$ceil"
IFS='|' read -r _ r_rps r_p99 r_bad _ <<<"$redir"
IFS='|' read -r _ k_rps k_p99 k_bad k_total <<<"$create"
IFS='|' read -r _ p_rps p_p99 p_bad _ <<<"$plain"
IFS='|' read -r _ x_rps x_p99 x_bad _ <<<"$ruled"
IFS='|' read -r _ u_rps u_p99 u_bad _ <<<"$utmed"
IFS='|' read -r _ o_rps o_p99 o_bad _ <<<"$plain_off"
secs=${DURATION%s}
acked=$(( (k_total - k_bad) ))
printf '\n%-38s %12s %10s\n' "run" "requests/s" "p99"
printf '%-38s %12s %10s\n' "ceiling (bare net/http 302)" "$c_rps" "$c_p99"
printf '%-38s %12s %10s\n' "shortlink redirect (cached)" "$r_rps" "$r_p99"
printf '%-38s %12s %10s\n' "one plain link, capture off (2 runs)" "$o_rps" "$o_p99"
printf '%-38s %12s %10s\n' "one plain link, capture on (2 runs)" "$p_rps" "$p_p99"
printf '%-38s %12s %10s\n' "one link with rules" "$x_rps" "$x_p99"
printf '%-38s %12s %10s\n' "one link with UTM parameters" "$u_rps" "$u_p99"
printf '%-38s %12s %10s\n' "shortlink create (API, committed)" "$(awk -v a="$acked" -v s="$secs" 'BEGIN{printf "%.2f", a/s}')" "$k_p99"
echo
awk -v r="$r_rps" -v c="$c_rps" -v rp="$(to_ms "$r_p99")" -v cp="$(to_ms "$c_p99")" \
  'BEGIN{printf "redirect throughput / ceiling: %.2f   (target >= 0.70)\nredirect p99 / ceiling p99:    %.2f   (target <= 1.50)\n", r/c, rp/cp}'
awk -v x="$x_rps" -v p="$p_rps" 'BEGIN{printf "rules link / plain link:       %.2f   (target >= 0.80)\n", x/p}'
awk -v u="$u_rps" -v p="$p_rps" 'BEGIN{printf "UTM link / plain link:         %.2f   (target >= 0.90)\n", u/p}'
awk -v on="$p_rps" -v off="$o_rps" -v c="$c_rps" -v op="$(to_ms "$p_p99")" -v cp="$(to_ms "$c_p99")" \
  'BEGIN{printf "plain link, capture on / off:  %.2f   (target >= 0.85)\nplain link, capture on / ceiling: %.2f (target >= 0.70)\nplain link on, p99 / ceiling p99: %.2f\n", on/off, on/c, op/cp}'
# Server CPU per redirect answered, from the two runs of each.
IFS='|' read -r _ _ _ _ o_total <<<"$plain_off"
IFS='|' read -r _ _ _ _ p_total <<<"$plain"
awk -v hz="$(getconf CLK_TCK)" -v off="$cpu_off" -v on="$cpu_on" -v rd="$cpu_redis" -v no="$o_total" -v np="$p_total" \
  'BEGIN{printf "server CPU per redirect: capture off %.1f µs, on %.1f µs (+%.1f µs of Redis)\n", off/hz*1e6/no, on/hz*1e6/np, rd/hz*1e6/np}'
echo "visits dropped by the capture buffer during the capture-on runs: $plain_drops"
echo "redirect answers that were not 3xx: ${r_bad} (plain link ${p_bad}, off ${o_bad}, rules link ${x_bad}, UTM link ${u_bad})"
echo "create answers that were not 201: ${k_bad}; rows added to links: $((after - before)) (acknowledged: $acked)"
echo "search index (migration 00063) caught up ${search_lag} s after the last create"
# The batch writer's histogram on the metrics listener, read around the create run: rows per
# insert statement during that run.
IFS=' ' read -r b_sum1 b_count1 <<<"$(batch_rows)"
awk -v s="$((b_sum1 - b_sum0))" -v c="$((b_count1 - b_count0))" \
  'BEGIN{if (c > 0) printf "rows per insert statement during the create run: %.1f (%d statements)\n", s/c, c}'
fi

# Visits end to end: an ingest node joins, wrk floods 1,000 of the seeded links (VISIT_LINKS;
# the popular ones most, one visit in five by a crawler) on the capture-on server, and the
# rollups are polled until they count every 302 the server answered (its
# shortlink_redirects_total: wrk leaves up to one request per connection unanswered when it
# stops), less the visits the buffer dropped. The bare net/http ceiling is measured on the same
# links just before: stored visits a second are given as a share of it.
visit_links=${VISIT_LINKS:-1000}
head -n "$visit_links" "$work/codes" >"$work/visit-codes"
echo
echo "visits end to end ($(wc -l <"$work/visit-codes") links, $DURATION of redirects, then until every visit is in visit_hours)..."
empty_stream
serve server-ingest.log "127.0.0.1:$ingest_port" VISIT_INGEST=true METRICS_ADDR="127.0.0.1:$ingest_metrics_port"
ingest_pid=${pids[-1]}
wrk -t2 -c"$CONNS" -d2s -s bench/visits.lua "http://127.0.0.1:$ceiling_port" -- "$work/visit-codes" >/dev/null
v_ceil=$(measure ceiling "http://127.0.0.1:$ceiling_port" bench/visits.lua "$work/visit-codes")
IFS='|' read -r _ v_ceil_rps _ _ _ <<<"$v_ceil"
sleep 1
rolled() { psql "$DATABASE_URL" -Atc "SELECT coalesce(sum(visits + bots), 0) FROM visit_hours"; }
redirected() {
  curl -fsS "http://$METRICS_ADDR/metrics" | awk '/^shortlink_redirects_total\{outcome="redirect"\}/ {printf "%d\n", $2}'
}
now() { date +%s.%N; }
# Where the CPU goes, per visit: the whole machine (/proc/stat), the serving node, the ingest
# node, PostgreSQL (its postmaster and backends) and Redis; wrk and the kernel's networking are
# most of the rest. Two cores give 2,000,000 µs a second: their sum bounds visits a second.
machine_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8; exit}' /proc/stat; }
base=$(rolled)
d0=$(drops)
r0=$(redirected)
cpu0="$(machine_ticks) $(ticks "$on_pid") $(ticks "$ingest_pid") $(pg_ticks) $(ticks "$redis_pid")"
t0=$(now)
e2e=$(measure visits "http://127.0.0.1:$port" bench/visits.lua "$work/visit-codes")
t1=$(now)
IFS='|' read -r _ v_rps v_p99 v_bad v_total <<<"$e2e"
sleep 0.2 # the last requests wrk left
answered=$(($(redirected) - r0))
dropped=$(($(drops) - d0))
want=$((answered - dropped))
deadline=$(awk -v t="$t1" 'BEGIN{printf "%.3f", t + 300}')
while :; do
  got=$(($(rolled) - base))
  [ "$got" -ge "$want" ] && break
  if awk -v n="$(now)" -v d="$deadline" 'BEGIN{exit !(n > d)}'; then break; fi
  sleep 0.1
done
t2=$(now)
cpu1="$(machine_ticks) $(ticks "$on_pid") $(ticks "$ingest_pid") $(pg_ticks) $(ticks "$redis_pid")"
sleep 2 # a late double count would show now
final=$(($(rolled) - base))
awk -v wrk="$((v_total - v_bad))" -v a="$answered" -v w="$want" -v g="$final" -v r="$v_rps" \
  -v t0="$t0" -v t1="$t1" -v t2="$t2" -v dr="$dropped" -v c="$v_ceil_rps" 'BEGIN{
  printf "ceiling (bare net/http 302, same links): %.0f/s\n", c
  printf "redirects: %.0f/s; 302s counted by wrk %d, answered by the server %d; dropped by the buffer: %d\n", r, wrk, a, dr
  printf "in visit_hours: %d (want %d)%s\n", g, w, (g == w ? "" : "   MISMATCH")
  printf "stored/s from the first redirect to the last commit: %.0f\n", g/(t2-t0)
  printf "stored visits a second / ceiling: %.2f   (target >= 0.60)\n", g/(t2-t0)/c
  printf "lag of the last commit behind the last redirect: %.1f s   (target < 5)\n", t2-t1
}'
awk -v a="$cpu0" -v b="$cpu1" -v n="$final" -v hz="$(getconf CLK_TCK)" 'BEGIN{
  split(a, x, " "); split(b, y, " ")
  for (i = 1; i <= 5; i++) d[i] = (y[i] - x[i]) / hz * 1e6 / n
  printf "CPU per visit: machine %.1f µs (serving node %.1f, ingest node %.1f, PostgreSQL %.1f, Redis %.1f, the rest %.1f: wrk, kernel)\n",
    d[1], d[2], d[3], d[4], d[5], d[1] - d[2] - d[3] - d[4] - d[5]
  printf "visits a second two cores could carry at that cost: %.0f\n", 2e6 / d[1]
}'
# The most memory the ingest node held (its resident set at its peak): what a pod that ingests
# needs on top of what serving takes.
awk '/^VmHWM:/ {printf "ingest node peak memory: %.0f MiB\n", $2 / 1024}' "/proc/$ingest_pid/status" 2>/dev/null || true
kill "$ingest_pid" 2>/dev/null || true

[ "${BENCH_ONLY:-}" != visits ] || exit 0

# The ingest alone: a stream pre-filled with 500,000 events (INGEST_EVENTS) drained by one
# consumer and by two (BenchmarkIngest in backend/visit), with the CPU each spent per event;
# then the most memory a consumer holds for one full read (BenchmarkIngestMemory).
echo
echo "ingest alone (BenchmarkIngest: ${INGEST_EVENTS:-500000} events in the stream, then drained)..."
go test -run '^$' -bench 'Ingest(Memory)?$' -benchtime 1x ./backend/visit | awk '/^BenchmarkIngest/ {
  delete m
  for (i = 3; i < NF; i += 2) m[$(i+1)] = $i
  if ($1 ~ /^BenchmarkIngestMemory/) {
    printf "a consumer'"'"'s memory for one full read (%d events): %.0f MB, %.0f B/event\n",
      m["events/transaction"], m["MB/transaction"], m["bytes/event"]
    next
  }
  printf "%-46s %8.0f events/s   PostgreSQL %5.1f µs/event (%.2f cores)   consumer %4.1f µs/event   disk %3.0f B raw + %3.0f B rollups/event\n",
    $1, m["events/s"], m["pg-µs/event"], m["pg-cores"], m["go-µs/event"], m["raw-bytes/event"], m["rollup-bytes/event"] }'
