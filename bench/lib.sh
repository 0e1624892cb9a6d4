# What bench/run.sh and bench/scale.sh share, sourced from the repository's root: wrk, waiting
# for a server, the settings every measured server runs with, the search index's catching up when
# asked, and a workspace on enterprise with an API key.

# free_port: a port below the range the kernel gives outgoing connections, so that the
# seeding's and the runs' client connections cannot hold a port before its server listens.
. deploy/local/ports.sh

need_wrk() {
  command -v wrk >/dev/null && return 0
  local sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing wrk..." >&2
  { $sudo apt-get update -q && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk; } >/dev/null ||
    { echo "wrk is missing and could not be installed: apt-get install wrk" >&2; exit 1; }
}

wait_http() {
  for _ in $(seq 1 100); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "no answer from $1" >&2
  return 1
}

# bench_env PREFIX: the settings of the measured servers. The run's workspace is put on
# enterprise by the operator (enterprise_workspace): batches, and no monthly link quota. Its API
# rate limit is raised far above what one machine can send, so the limiter still counts every
# request (one Redis round trip) without refusing any. The seeded links would all be due for
# their first health check at once, a backlog a node works through once: left out of what the
# runs measure.
bench_env() {
  export JWT_SECRET=${JWT_SECRET:-bench-secret-bench-secret-bench-secret-00}
  export CODE_KEY=${CODE_KEY:-000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f}
  export REDIS_PREFIX="$1$$:"
  export OPERATOR_EMAIL="operator$$@example.com" OPERATOR_PASSWORD="bench-operator-password"
  export PLAN_LIMITS=${PLAN_LIMITS:-enterprise.requests_per_minute=1000000000}
  export HEALTH_CHECK=false
}

# search_caught_up: waits until the search indexer has copied every link queued so far
# (migration 00063: link_search_queue empty) and prints how long that took, in seconds.
search_caught_up() {
  local t0 t1
  t0=$(date +%s.%N)
  until [ "$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM link_search_queue")" = 0 ]; do sleep 0.05; done
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f\n", b - a}'
}

# enterprise_workspace API NAME: signs NAME$$@example.com up at API, has the operator put its
# workspace on enterprise, and sets token, ws and key (links:read, links:write and stats:read).
enterprise_workspace() {
  local api=$1 name=$2 signup op
  signup=$(curl -fsS -X POST "$api/auth/signup" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$name$$@example.com\",\"password\":\"bench-password\"}")
  token=$(sed -E 's/.*"access_token":"([^"]+)".*/\1/' <<<"$signup")
  ws=$(sed -E 's/.*"workspace":\{"id":([0-9]+).*/\1/' <<<"$signup")
  op=$(curl -fsS -X POST "$api/auth/login" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$OPERATOR_EMAIL\",\"password\":\"$OPERATOR_PASSWORD\"}" |
    sed -E 's/.*"access_token":"([^"]+)".*/\1/')
  curl -fsS -o /dev/null -X PATCH "$api/admin/workspaces/$ws" -H "Authorization: Bearer $op" \
    -H 'Content-Type: application/json' -d '{"plan":"enterprise"}'
  key=$(curl -fsS -X POST "$api/workspaces/$ws/api-keys" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' -d "{\"name\":\"$name\",\"scopes\":[\"links:read\",\"links:write\",\"stats:read\"]}" |
    sed -E 's/.*"key":"([^"]+)".*/\1/')
}
