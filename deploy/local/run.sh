#!/usr/bin/env bash
# Runs the server and the worker in the foreground against DATABASE_URL and REDIS_URL
# (make run provides throwaway ones). Ctrl-C or SIGTERM stops both; if either dies, the other
# is stopped and the script fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

: "${DATABASE_URL:?DATABASE_URL is required (make run starts a throwaway PostgreSQL)}"
: "${REDIS_URL:?REDIS_URL is required (make run starts a throwaway Redis)}"
for b in bin/shortlink bin/shortlink-worker; do
  [ -x "$b" ] || { echo "$b is missing: run make build" >&2; exit 1; }
done

# N random bytes as hex.
hex() {
  if command -v openssl >/dev/null; then
    openssl rand -hex "$1"
  else
    od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'
  fi
}

# Development secrets are made once and kept: CODE_KEY and CODE_TWEAK must never change,
# because short codes are encrypted IDs and new ones would turn every code into another link;
# a kept JWT_SECRET keeps sessions valid across restarts.
secrets=.local/dev-secrets.env
mkdir -p .local
(umask 077 && touch "$secrets")
for spec in CODE_KEY:32 CODE_TWEAK:7 JWT_SECRET:32; do
  key=${spec%%:*}
  grep -q "^$key=" "$secrets" || echo "$key=$(hex "${spec#*:}")" >>"$secrets"
done
# Values already in the environment win over the file.
while IFS='=' read -r key value; do
  case $key in
  CODE_KEY | CODE_TWEAK | JWT_SECRET) [ -n "${!key:-}" ] || export "$key=$value" ;;
  esac
done <"$secrets"
export CODE_KEY CODE_TWEAK JWT_SECRET

# The server creates (or updates) this operator account at start.
export OPERATOR_EMAIL=${OPERATOR_EMAIL:-admin@shortlink.local}
export OPERATOR_PASSWORD=${OPERATOR_PASSWORD:-$(hex 12)}
export HTTP_ADDR=${HTTP_ADDR:-:8080}
export PUBLIC_URL=${PUBLIC_URL:-http://localhost:8080}
# Prometheus metrics have their own listener, on loopback: never on HTTP_ADDR.
export METRICS_ADDR=${METRICS_ADDR:-127.0.0.1:9090}

# Where to probe readiness: HTTP_ADDR's port, on loopback unless it names one host.
port=${HTTP_ADDR##*:}
host=${HTTP_ADDR%:*}
case $host in '' | 0.0.0.0 | '[::]' | '::') host=127.0.0.1 ;; esac

server='' worker=''
stopping=''
# SIGTERM lets the server drain; one that is still there well after its own shutdown timeout
# is killed, so that Ctrl-C always gets the terminal back.
stop_children() {
  local p
  for p in $server $worker; do kill -TERM "$p" 2>/dev/null || true; done
  for _ in $(seq 1 300); do
    { [ -n "$server" ] && kill -0 "$server" 2>/dev/null; } ||
      { [ -n "$worker" ] && kill -0 "$worker" 2>/dev/null; } || break
    sleep 0.1
  done
  for p in $server $worker; do
    if kill -0 "$p" 2>/dev/null; then
      echo "process $p did not stop within 30s; killing it" >&2
      kill -KILL "$p" 2>/dev/null || true
    fi
    wait "$p" 2>/dev/null || true
  done
}
on_signal() {
  [ -z "$stopping" ] || return 0 # a second Ctrl-C while stopping changes nothing
  stopping=1
  trap '' INT TERM
  echo "stopping..." >&2
  stop_children
  exit 0
}
trap on_signal INT TERM
trap stop_children EXIT

# The worker drives Debian's Chromium through the Playwright driver (installed once, never a
# browser download).
export PLAYWRIGHT_DRIVER_PATH=${PLAYWRIGHT_DRIVER_PATH:-$(deploy/local/browser.sh)}
# … and reads screenshots with Tesseract; without it the worker warns once and goes on.
deploy/local/ocr.sh || echo "run.sh: no tesseract: the worker scores pages without their screenshots' text" >&2
export WORKER_ADDR=${WORKER_ADDR:-127.0.0.1:9091}

bin/shortlink migrate
bin/shortlink serve &
server=$!
bin/shortlink-worker &
worker=$!

alive() { kill -0 "$server" 2>/dev/null && kill -0 "$worker" 2>/dev/null; }
answers() {
  if command -v curl >/dev/null; then
    curl -fsS -o /dev/null "http://$host:$port/healthz" 2>/dev/null
  else
    (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null
  fi
}

# Ready when /healthz answers; give up if a child dies first or it takes too long.
ready=''
for _ in $(seq 1 300); do
  alive || break
  if answers; then
    ready=1
    break
  fi
  sleep 0.1
done
if [ -z "$ready" ]; then
  echo "the server did not become ready on http://$host:$port/healthz" >&2
  exit 1
fi

cat <<EOF

  Shortlink is running at $PUBLIC_URL
  metrics:  http://$METRICS_ADDR/metrics (server), http://$WORKER_ADDR/metrics (worker)
  operator: $OPERATOR_EMAIL
  password: $OPERATOR_PASSWORD
$([ -n "${SMTP_URL:-}" ] || echo "
  SMTP_URL is unset: verification and password-reset links are printed in this log.")

  Ctrl-C to stop.

EOF

# wait -n returns when either child exits (or a trapped signal arrives).
status=0
wait -n "$server" "$worker" || status=$?
if [ "$status" -eq 0 ]; then
  # Both programs exit 0 only when told to stop (Ctrl-C reaches them directly).
  stopping=1
  stop_children
  exit 0
fi
if ! kill -0 "$server" 2>/dev/null; then
  echo "the server exited (status $status); stopping the worker" >&2
else
  echo "the worker exited (status $status); stopping the server" >&2
fi
[ "$status" -ne 0 ] || status=1
exit "$status"
