#!/bin/sh
# Starts one Redis of the StatefulSet shortlink-redis-node: as a replica of the primary the
# Sentinels name, or, when no Sentinel answers (the first start of the set, or every pod
# restarted at once), as the primary if this is pod 0 and as its replica otherwise.
# Environment: REDIS_PASSWORD, MAXMEMORY (e.g. 768mb).
set -eu
self=$(hostname -f)
set_name=shortlink-redis-node
primary=
for i in 0 1 2; do
  peer="$set_name-$i.$set_name"
  answer=$(redis-cli -h "$peer" -p 26379 --raw SENTINEL get-master-addr-by-name shortlink 2>/dev/null | head -n 1) || true
  if [ -n "$answer" ]; then
    primary=$answer
    break
  fi
done
if [ -z "$primary" ]; then
  primary="$set_name-0.$(hostname -d)"
  case $(hostname) in *-0) primary=$self ;; esac
fi
# Sentinel may name the primary by its short or full name: compare the pod part.
case $primary in "$(hostname)" | "$(hostname)".*) primary=$self ;; esac

mkdir -p /data/conf
conf=/data/conf/redis.conf
cat >"$conf" <<CONF
port 6379
dir /data
# The visit stream and the moderation queue must outlive a restart: append-only file, synced
# every second.
appendonly yes
appendfsync everysec
requirepass "$REDIS_PASSWORD"
masterauth "$REDIS_PASSWORD"
replica-announce-ip $self
# Keys with a time to live (the link cache, rate limits, visit caps) may be evicted; the stream
# and the queue, which have none, never are.
maxmemory $MAXMEMORY
maxmemory-policy volatile-lru
# A primary cut off from both replicas stops taking writes after 10 s instead of taking writes
# that a failover elsewhere would drop.
min-replicas-to-write 1
min-replicas-max-lag 10
CONF
if [ "$primary" != "$self" ]; then
  echo "replicaof $primary 6379" >>"$conf"
fi
echo "redis: this is $self; primary $primary"
exec redis-server "$conf"
