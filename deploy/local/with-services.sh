#!/usr/bin/env bash
# Runs a command against throwaway PostgreSQL and Redis (see services.sh), then stops them
# whatever happens: normal exit, Ctrl-C or SIGTERM. Exits with the command's status.
#
#   with-services.sh go test ./...
#
# DATABASE_URL and REDIS_URL already set in the environment are used as they are.
set -euo pipefail

[ $# -gt 0 ] || { echo "usage: $0 CMD [ARGS...]" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/shortlink-services.XXXXXX")
child=''
signalled=''

cleanup() {
  local rc=$?
  trap '' INT TERM HUP # finish cleaning up even if Ctrl-C is pressed again
  if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
    kill -TERM "$child" 2>/dev/null || true
    # A command that ignores SIGTERM must not keep the databases alive forever.
    for _ in $(seq 1 300); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  "$here/services.sh" stop "$dir" || true
  exit "$rc"
}
trap cleanup EXIT

# Pass the signal on; the command decides how to stop, and its status becomes ours.
# The command runs in the background, where a script cannot trap SIGINT (bash ignores it in
# background jobs): it is told to stop with SIGTERM, whatever signal arrived here.
forward() {
  signalled=$1
  if [ -n "$child" ]; then kill -TERM "$child" 2>/dev/null || true; fi
}
trap 'forward INT' INT
trap 'forward TERM' TERM
trap 'forward HUP' HUP

"$here/services.sh" start "$dir"
case $signalled in INT) exit 130 ;; TERM) exit 143 ;; HUP) exit 129 ;; esac
# shellcheck disable=SC1091
. "$dir/env"

# In the background so that `wait` returns on SIGTERM (a foreground child would delay the
# trap until it exits); stdin is kept, and INT/QUIT, which bash ignores in background
# commands, are restored so Ctrl-C reaches the command as usual.
( trap - INT QUIT TERM HUP; exec "$@" ) <&0 &
child=$!
while :; do
  status=0
  wait "$child" || status=$?
  # A trapped signal interrupts wait while the command keeps running: wait again.
  if kill -0 "$child" 2>/dev/null; then continue; fi
  # If the command ended just as a signal cut wait short, its own status is still pending.
  if [ "$status" -gt 128 ]; then
    again=0
    wait "$child" 2>/dev/null || again=$?
    [ "$again" -eq 127 ] || status=$again
  fi
  break
done
child=''
if [ -n "$signalled" ] && [ "$status" -eq 0 ]; then
  case $signalled in INT) status=130 ;; TERM) status=143 ;; HUP) status=129 ;; esac
fi
exit "$status"
