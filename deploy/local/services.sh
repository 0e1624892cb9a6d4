#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis for tests, local runs and benchmarks.
#
#   services.sh start DIR   start both on free loopback ports, data under DIR; writes DIR/env
#   services.sh stop DIR    stop what start started and remove DIR (safe to repeat)
#   services.sh down DIR postgres|redis   stop one of them, keeping its port (and PostgreSQL's data)
#   services.sh up DIR postgres|redis     start it again on the same port (Redis comes back empty)
#
# When DATABASE_URL and REDIS_URL are both set, start only records them in DIR/env: the
# caller brings its own servers and nothing is started or stopped.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR, or $0 down|up DIR postgres|redis" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$2

is_root() { [ "$(id -u)" -eq 0 ]; }

# Runs a command as root: directly, through sudo, or fails with a hint.
as_root() {
  if is_root; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "need root (or sudo) to run: $*" >&2
    return 1
  fi
}

# Newest installed server, since Debian keeps its binaries off PATH.
pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && echo "$d"
}

# CI starts from a clean machine: install the servers from the distribution when missing.
install_missing() {
  local pkgs=()
  pg_bin >/dev/null || pkgs+=(postgresql)
  { command -v redis-server && command -v redis-cli; } >/dev/null || pkgs+=(redis-server)
  [ ${#pkgs[@]} -eq 0 ] && return 0
  echo "installing ${pkgs[*]}..." >&2
  as_root apt-get update -q >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${pkgs[@]}" >/dev/null
  pg_bin >/dev/null || { echo "postgresql is still missing after apt-get install" >&2; return 1; }
}

# free_port: a random loopback port nothing listens on (ports.sh).
. "$(dirname "${BASH_SOURCE[0]}")/ports.sh"

# PostgreSQL refuses to run as root, so as root the server runs as the postgres user (from /,
# since it may not be allowed into the caller's working directory).
as_pg() {
  if is_root; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# Appends KEY=VALUE to DIR/state as soon as something exists, so stop can undo a partial start.
record() { printf '%s=%q\n' "$1" "$2" >>"$dir/state"; }

pg_port='' redis_port=''

# max_connections: every server and worker process holds a pool of up to 16 connections, and
# on a slow machine each fills it; the end-to-end suite runs six deployments of up to three such
# processes at once beside other packages' tests, which passed 300.
pg_start() { # bin root port
  as_pg "$1/pg_ctl" -D "$2/pg" -l "$2/pg.log" -w -t 60 \
    -o "-p $3 -k $2/run -c listen_addresses=127.0.0.1 -c max_connections=1000 -c shared_buffers=256MB" \
    start >/dev/null 2>&1
}

pg_stop() { # bin root
  as_pg "$1/pg_ctl" -D "$2/pg" -m fast -w -t 60 stop >/dev/null 2>&1
}

start_postgres() {
  local bin root port try
  bin=$(pg_bin)
  if is_root; then
    # Every parent of the data directory must be traversable by postgres, and DIR may not
    # be (mktemp makes 0700 folders; /root is closed): keep the cluster in its own folder.
    root=$(mktemp -d /tmp/shortlink-pg.XXXXXX)
    chmod 755 "$root"
    chown postgres: "$root"
  else
    root=$dir
  fi
  record PG_ROOT "$root"
  record PG_BIN "$bin"
  mkdir -p "$root/run"
  if is_root; then chown postgres: "$root/run"; fi
  if ! as_pg "$bin/initdb" -D "$root/pg" -A trust -U postgres -E UTF8 --locale=C >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    return 1
  fi
  # The socket goes in our own folder: /var/run/postgresql is not writable by everyone.
  # fsync stays on: benchmarks measure durable commits.
  for try in 1 2 3 4 5; do
    port=$(free_port)
    if pg_start "$bin" "$root" "$port"; then
      record PG_PORT "$port"
      "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres shortlink
      pg_port=$port
      echo "postgresql $(basename "$(dirname "$bin")") on 127.0.0.1:$port" >&2
      return 0
    fi
    # Most likely another run took the port between the check and the bind.
    echo "postgresql did not start on port $port (attempt $try)" >&2
  done
  tail -n 20 "$root/pg.log" >&2 || true
  return 1
}

# The pid that answers on PORT, to tell our Redis from someone else's on a reused port.
redis_pid_on() {
  redis-cli -p "$1" info server 2>/dev/null | tr -d '\r' | awk -F: '$1=="process_id"{print $2}'
}

# Starts Redis on port and waits until it answers there.
redis_start() { # port
  local pid
  rm -f "$dir/redis.pid"
  redis-server --port "$1" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$dir" --logfile "$dir/redis.log" --pidfile "$dir/redis.pid" >/dev/null
  # It daemonizes before binding, so wait until the server on the port is ours.
  for _ in $(seq 1 100); do
    pid=$(cat "$dir/redis.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && [ "$(redis_pid_on "$1")" = "$pid" ]; then return 0; fi
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  return 1
}

redis_stop() { # port
  local pid
  pid=$(cat "$dir/redis.pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  if [ "$(redis_pid_on "$1")" = "$pid" ]; then
    redis-cli -p "$1" shutdown nosave >/dev/null 2>&1 || true
  else
    kill "$pid" 2>/dev/null || true
  fi
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

start_redis() {
  local port try
  for try in 1 2 3 4 5; do
    port=$(free_port)
    if redis_start "$port"; then
      record REDIS_PORT "$port"
      redis_port=$port
      echo "redis $(redis-server --version | sed -E 's/.*v=([^ ]+).*/\1/') on 127.0.0.1:$port" >&2
      return 0
    fi
    echo "redis did not start on port $port (attempt $try)" >&2
  done
  tail -n 20 "$dir/redis.log" >&2 || true
  return 1
}

# Both servers of DIR/state answer: start was already done.
running() {
  local PG_ROOT='' PG_BIN='' PG_PORT='' REDIS_PORT=''
  [ -f "$dir/state" ] && [ -f "$dir/env" ] || return 1
  # shellcheck disable=SC1091
  . "$dir/state"
  [ -n "$PG_PORT" ] && [ -n "$REDIS_PORT" ] || return 1
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" &&
    [ "$(redis_pid_on "$REDIS_PORT")" = "$(cat "$dir/redis.pid" 2>/dev/null)" ]
}

# Stops what DIR/state says was started; leaves DIR in place.
stop_services() {
  local PG_ROOT='' PG_BIN='' PG_PORT='' REDIS_PORT='' pid
  [ -f "$dir/state" ] || return 0
  # shellcheck disable=SC1091
  . "$dir/state"
  redis_stop "$REDIS_PORT"
  if [ -n "$PG_ROOT" ] && [ -f "$PG_ROOT/pg/postmaster.pid" ]; then
    if ! pg_stop "$PG_BIN" "$PG_ROOT"; then
      # Never delete the data of a running server: make sure it is gone first.
      pid=$(head -n 1 "$PG_ROOT/pg/postmaster.pid" 2>/dev/null || true)
      if [ -n "$pid" ]; then
        kill -QUIT "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
  fi
  if [ -n "$PG_ROOT" ] && [ "$PG_ROOT" != "$dir" ]; then
    rm -rf "$PG_ROOT"
  fi
  rm -f "$dir/state"
}

case $cmd in
start)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd) # absolute, since the servers run from elsewhere
  if [ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
    # The caller's own servers: pass them through.
    printf 'export DATABASE_URL=%q\nexport REDIS_URL=%q\n' "$DATABASE_URL" "$REDIS_URL" >"$dir/env"
    exit 0
  fi
  if running; then exit 0; fi
  stop_services # leftovers of an interrupted start
  # A failed or interrupted start must not leave servers behind.
  trap 'rc=$?; [ $rc -eq 0 ] || stop_services; exit $rc' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  install_missing
  : >"$dir/state"
  start_postgres
  start_redis
  cat >"$dir/env" <<EOF
export DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/shortlink?sslmode=disable
export REDIS_URL=redis://127.0.0.1:$redis_port/0
EOF
  ;;
down | up)
  [ $# -eq 3 ] || usage
  dir=$(cd "$dir" && pwd)
  PG_ROOT='' PG_BIN='' PG_PORT='' REDIS_PORT=''
  # shellcheck disable=SC1091
  . "$dir/state"
  case $cmd-$3 in
  down-postgres) pg_stop "$PG_BIN" "$PG_ROOT" ;;
  up-postgres) pg_start "$PG_BIN" "$PG_ROOT" "$PG_PORT" ;;
  down-redis) redis_stop "$REDIS_PORT" ;;
  up-redis) redis_start "$REDIS_PORT" ;;
  *) usage ;;
  esac
  ;;
stop)
  [ -d "$dir" ] || exit 0
  dir=$(cd "$dir" && pwd)
  stop_services
  rm -rf "$dir"
  ;;
*) usage ;;
esac
