#!/usr/bin/env bash
# The 100,000-row CSV import on one server process: uploads a file of IMPORT_ROWS rows (1% of
# them bad) with curl, follows the job until it is done and prints rows per second, from the
# job's start to its end and from the upload's first byte to done. Needs DATABASE_URL and
# REDIS_URL:
#
#   deploy/local/with-services.sh bench/import.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${IMPORT_ROWS:-100000}
work=$(mktemp -d)
pid=''
cleanup() {
  [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

go build -o "$work/shortlink" ./backend/cmd/shortlink
port=$((20000 + RANDOM % 40000))
export HTTP_ADDR="127.0.0.1:$port" PUBLIC_URL="http://127.0.0.1:$port" LOG_LEVEL=info
export JWT_SECRET=${JWT_SECRET:-bench-secret-bench-secret-bench-secret-00}
export CODE_KEY=${CODE_KEY:-000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f}
export REDIS_PREFIX="import$$:" PLAN_LIMITS=enterprise.requests_per_minute=unlimited
export OPERATOR_EMAIL="operator$$@example.com" OPERATOR_PASSWORD="bench-operator-password"
"$work/shortlink" migrate
"$work/shortlink" serve 2>"$work/server.log" &
pid=$!
for _ in $(seq 1 100); do curl -fsS -o /dev/null "http://$HTTP_ADDR/healthz" 2>/dev/null && break; sleep 0.1; done

api="http://$HTTP_ADDR/api/v1"
signup=$(curl -fsS -X POST "$api/auth/signup" -H 'Content-Type: application/json' \
  -d "{\"email\":\"import$$@example.com\",\"password\":\"bench-password\"}")
token=$(sed -E 's/.*"access_token":"([^"]+)".*/\1/' <<<"$signup")
ws=$(sed -E 's/.*"workspace":\{"id":([0-9]+).*/\1/' <<<"$signup")
op=$(curl -fsS -X POST "$api/auth/login" -H 'Content-Type: application/json' \
  -d "{\"email\":\"$OPERATOR_EMAIL\",\"password\":\"$OPERATOR_PASSWORD\"}" | sed -E 's/.*"access_token":"([^"]+)".*/\1/')
curl -fsS -o /dev/null -X PATCH "$api/admin/workspaces/$ws" -H "Authorization: Bearer $op" \
  -H 'Content-Type: application/json' -d '{"plan":"enterprise"}'

# Our header; every 100th row is bad (a javascript: URL), every 50th has an alias.
awk -v n="$ROWS" 'BEGIN {
  print "url,alias,title"
  for (i = 1; i <= n; i++) {
    if (i % 100 == 7) printf "javascript:alert(%d),,bad\n", i
    else if (i % 50 == 0) printf "https://import.example/p/%d,imp-%d,t%d\n", i, i, i
    else printf "https://import.example/p/%d,,t%d\n", i, i
  }
}' >"$work/links.csv"
echo "file: $ROWS rows, $(wc -c <"$work/links.csv") bytes"

t0=$(date +%s.%N)
answer=$(curl -fsS -X POST "$api/workspaces/$ws/imports" -H "Authorization: Bearer $token" -F "file=@$work/links.csv;type=text/csv")
t1=$(date +%s.%N)
id=$(sed -E 's/.*"id":([0-9]+).*/\1/' <<<"$answer")
while :; do
  st=$(curl -fsS "$api/workspaces/$ws/imports/$id" -H "Authorization: Bearer $token")
  case "$st" in *'"state":"done"'* | *'"state":"failed"'*) break ;; esac
  sleep 0.05
done
t2=$(date +%s.%N)
echo "$st"
grep 'import: done' "$work/server.log" || true
awk -v t0="$t0" -v t1="$t1" -v t2="$t2" -v n="$ROWS" 'BEGIN {
  printf "upload answered (202) in %.2f s; upload to done %.2f s: %.0f rows/s end to end\n", t1 - t0, t2 - t0, n / (t2 - t0)
}'
