package browse

import (
	"context"
	"errors"
	"fmt"
	"github.com/shortlink/shortlink/backend/netguard"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// The SSRF guard. The browser may connect only to global unicast addresses: a destination
// whose host is, or resolves to, or is mapped by the host rules to, any of the following is
// refused (every address of a name is checked; one bad address refuses the name):
//
//	IPv4  0.0.0.0/8 unspecified ("this network")   10/8, 172.16/12, 192.168/16 private (RFC 1918)
//	      100.64/10 shared (CGNAT)                 127/8 loopback
//	      169.254/16 link-local (cloud metadata)   192.0.0/24 IETF protocol assignments
//	      192.0.2/24, 198.51.100/24, 203.0.113/24 documentation   198.18/15 benchmarking
//	      192.88.99/24 6to4 relay                  224/4 multicast   240/4 reserved and broadcast
//	IPv6  ::/128 unspecified   ::1 loopback   fc00::/7 unique local (private)   fe80::/10 link-local
//	      fec0::/10 site-local   ff00::/8 multicast   2001::/23 IETF protocol assignments
//	      (Teredo included)   2001:db8::/32, 3fff::/20 documentation   64:ff9b:1::/48 local NAT64
//	      and anything outside 2000::/3 (not global unicast);
//	      IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are
//	      judged by the IPv4 address they carry.
//
// AllowLoopback (MODERATION_ALLOW_LOOPBACK, for tests) lets 127/8 and ::1 through, nothing else.
// Only http and https destinations are opened; a page's requests may also be data:, blob: and
// about: (no network) and ws/wss, and any other scheme is refused. "localhost" and names under
// .localhost are loopback without DNS, as in Chromium.

// Resolver looks up the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DefaultLookupTimeout bounds one DNS lookup of the guard.
const DefaultLookupTimeout = 5 * time.Second

// Guard decides which destinations the browser may connect to.
type Guard struct {
	rules         HostRules
	resolver      Resolver
	allowLoopback bool
	lookupTimeout time.Duration
}

// NewGuard returns the guard that maps hosts by rules, resolves names with resolver
// (net.DefaultResolver when nil), each lookup bounded by DefaultLookupTimeout, and lets
// loopback addresses through when allowLoopback is set.
func NewGuard(rules HostRules, resolver Resolver, allowLoopback bool) *Guard {
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	return &Guard{rules: rules, resolver: resolver, allowLoopback: allowLoopback, lookupTimeout: DefaultLookupTimeout}
}

// RefusedError is a destination the guard refuses; Reason says why ("private address 10.0.0.1").
type RefusedError struct {
	Reason string
}

func (e *RefusedError) Error() string { return "refused: " + e.Reason }

// refused builds a RefusedError.
func refused(format string, args ...any) error {
	return &RefusedError{Reason: fmt.Sprintf(format, args...)}
}

// IsRefused says err is (or wraps) a refusal of the guard.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// CheckDestination checks a link's destination before the browser opens it: an absolute http
// or https URL whose host may be connected to. It returns nil, a *RefusedError, or another
// error when the host cannot be resolved.
func (g *Guard) CheckDestination(ctx context.Context, raw string) error {
	return checkURL(ctx, raw, true, g.Resolve)
}

// CheckRequest checks a request a page makes: no network (data:, blob:, about:), or an http,
// https, ws or wss URL whose host may be connected to.
func (g *Guard) CheckRequest(ctx context.Context, raw string) error {
	return checkURL(ctx, raw, false, g.Resolve)
}

// resolveFunc is Guard.Resolve or a cache in front of it.
type resolveFunc func(ctx context.Context, host string, port int) ([]netip.AddrPort, error)

// checkURL applies the scheme rules to raw (a destination when first, else a page's request)
// and resolves its host with resolve.
func checkURL(ctx context.Context, raw string, first bool, resolve resolveFunc) error {
	u, err := url.Parse(raw)
	if err != nil {
		return refused("malformed URL")
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "http" || scheme == "https":
	case first:
		return refused("scheme %q (only http and https are opened)", u.Scheme)
	case scheme == "ws" || scheme == "wss":
	case scheme == "data" || scheme == "blob" || scheme == "about":
		return nil
	default:
		return refused("scheme %q", u.Scheme)
	}
	if u.Host == "" {
		return refused("no host")
	}
	port := defaultPort(scheme)
	if p := u.Port(); p != "" {
		n, err := parsePort(p)
		if err != nil {
			return refused("bad port %q", p)
		}
		port = n
	}
	_, err = resolve(ctx, u.Hostname(), port)
	return err
}

func defaultPort(scheme string) int {
	switch strings.ToLower(scheme) {
	case "https", "wss":
		return 443
	}
	return 80
}

// Resolve is where a connection to host and port may go: the host mapped by the host rules,
// then resolved (an IP literal as it is), every address checked. It returns the addresses to
// dial, a *RefusedError when any address is not allowed, or another error when the host
// cannot be resolved.
func (g *Guard) Resolve(ctx context.Context, host string, port int) ([]netip.AddrPort, error) {
	h, err := canonicalHost(host)
	if err != nil {
		return nil, refused("malformed host %q", host)
	}
	to, toPort, mapped, notFound := g.rules.Map(h, port)
	if notFound {
		return nil, fmt.Errorf("resolve %s: host not found (the host rules map it to ^NOTFOUND)", h)
	}
	subject := h
	if mapped {
		subject = h + " mapped to " + hostPortString(to, toPort)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(to); err == nil {
		addrs = []netip.Addr{a}
	} else if to == "localhost" || strings.HasSuffix(to, ".localhost") {
		addrs = []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}
	} else {
		lctx, cancel := context.WithTimeout(ctx, g.lookupTimeout)
		addrs, err = g.resolver.LookupNetIP(lctx, "ip", to)
		cancel()
		if err != nil {
			var dnsErr *net.DNSError
			if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
				return nil, fmt.Errorf("resolve %s: host not found", subject)
			}
			return nil, fmt.Errorf("resolve %s: %w", subject, err)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("resolve %s: no addresses", subject)
		}
	}
	out := make([]netip.AddrPort, 0, len(addrs))
	for _, a := range addrs {
		a = a.WithZone("").Unmap()
		if class := addressClass(a); class != "" && !(class == classLoopback && g.allowLoopback) {
			if a.String() == h {
				return nil, refused("%s address %s", class, a)
			}
			return nil, refused("%s address %s (%s)", class, a, subject)
		}
		out = append(out, netip.AddrPortFrom(a, uint16(toPort)))
	}
	return out, nil
}

// The classes of addresses the guard refuses (backend/netguard decides them).
const (
	classUnspecified   = netguard.ClassUnspecified
	classLoopback      = netguard.ClassLoopback
	classPrivate       = netguard.ClassPrivate
	classShared        = netguard.ClassShared
	classLinkLocal     = netguard.ClassLinkLocal
	classMulticast     = netguard.ClassMulticast
	classDocumentation = netguard.ClassDocumentation
	classBenchmarking  = netguard.ClassBenchmarking
	classReserved      = netguard.ClassReserved
	classNotGlobal     = netguard.ClassNotGlobal
)

// addressClass is the class of a that makes it refused; "" for a global unicast address.
func addressClass(a netip.Addr) string { return netguard.Class(a) }
