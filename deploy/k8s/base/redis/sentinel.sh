#!/bin/sh
# Starts the Sentinel beside one Redis of shortlink-redis-node, watching the primary that Redis
# replicates (or itself, when it is the primary). Three Sentinels, a quorum of two.
# Environment: REDIS_PASSWORD.
set -eu
self=$(hostname -f)
until redis-cli -a "$REDIS_PASSWORD" --no-auth-warning PING 2>/dev/null | grep -q PONG; do
  sleep 1
done
primary=$(redis-cli -a "$REDIS_PASSWORD" --no-auth-warning INFO replication | tr -d '\r' |
  sed -n 's/^master_host://p')
[ -n "$primary" ] || primary=$self
# Sentinel rewrites its file as it learns: a folder of its own, kept for the pod's life.
conf=/sentinel/sentinel.conf
cat >"$conf" <<CONF
port 26379
dir /tmp
# Sentinel has no password of its own: without this it would answer loopback only. The
# NetworkPolicy shortlink-redis-node admits the Redis pods and HAProxy alone.
protected-mode no
sentinel resolve-hostnames yes
sentinel announce-hostnames yes
sentinel announce-ip $self
sentinel monitor shortlink $primary 6379 2
sentinel auth-pass shortlink $REDIS_PASSWORD
sentinel down-after-milliseconds shortlink 5000
sentinel failover-timeout shortlink 60000
sentinel parallel-syncs shortlink 1
CONF
echo "sentinel: this is $self; watching $primary"
exec redis-sentinel "$conf"
