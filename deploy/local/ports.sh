# Sourced by the scripts that start servers on loopback ports.
#
# free_port prints a random port nothing listens on, below the kernel's range for outgoing
# connections' local ports: a port of ours stays free while its server is down (down/up), and
# no client connection made meanwhile (curl, psql, a server's pools) can take it before the
# server that is to listen on it starts. Another run may grab it in between: callers retry.
free_port() {
  local p low=32768
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
  [ "$low" -gt 11000 ] || low=32768
  while :; do
    p=$((10000 + RANDOM % (low - 10000)))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}
