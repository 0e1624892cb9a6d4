package visitor

import (
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP is the address of the client that sent r (docs/visitors.md): the TCP peer, or — only when
// the peer is a trusted proxy — the right-most address of X-Forwarded-For that is not one.
//
// The header is read from right to left, across every X-Forwarded-For line in order, because
// each trusted proxy appends the peer it saw: addresses left of the first untrusted one were
// written by that client and prove nothing. Entries may carry a port ("192.0.2.1:443",
// "[2001:db8::1]:443"); empty entries are skipped. An entry that is not an address ends the
// walk, and so does the left end of the header when every entry is a trusted proxy: the answer
// is then the left-most trusted address reached, the closest hop that is known. IPv4-mapped
// IPv6 addresses are answered as IPv4, and zones are dropped. The zero Addr means the peer's
// own address could not be read (RemoteAddr of a Unix socket, say).
func ClientIP(r *http.Request, trusted []netip.Prefix) netip.Addr {
	// Canonical key: no allocation, unlike Values.
	return ClientIPOf(r.RemoteAddr, r.Header["X-Forwarded-For"], trusted)
}

// ClientIPOf is ClientIP from the parts of a request it reads: its RemoteAddr and its
// X-Forwarded-For lines.
func ClientIPOf(remoteAddr string, lines []string, trusted []netip.Prefix) netip.Addr {
	peer := parseAddr(remoteAddr)
	if !peer.IsValid() || !contains(trusted, peer) {
		return peer
	}
	client := peer
	for i := len(lines) - 1; i >= 0; i-- {
		rest := lines[i]
		for rest != "" {
			entry := rest
			if j := strings.LastIndexByte(rest, ','); j >= 0 {
				entry, rest = rest[j+1:], rest[:j]
			} else {
				rest = ""
			}
			entry = strings.Trim(entry, " \t")
			if entry == "" {
				continue
			}
			a := parseAddr(entry)
			if !a.IsValid() {
				return client
			}
			if !contains(trusted, a) {
				return a
			}
			client = a
		}
	}
	return client
}

func contains(prefixes []netip.Prefix, a netip.Addr) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseAddr reads "addr", "ipv4:port", "[ipv6]" or "[ipv6]:port" (optionally in double
// quotes); anything else is the zero Addr.
func parseAddr(s string) netip.Addr {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	host := s
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 || !isPort(s[end+1:], true) {
			return netip.Addr{}
		}
		host = s[1:end]
	case strings.Count(s, ":") == 1:
		i := strings.IndexByte(s, ':')
		if !isPort(s[i:], false) {
			return netip.Addr{}
		}
		host = s[:i]
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.WithZone("").Unmap()
}

// isPort reports whether s is ":digits" (or "" when optional).
func isPort(s string, optional bool) bool {
	if s == "" {
		return optional
	}
	if len(s) < 2 || len(s) > 6 || s[0] != ':' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
