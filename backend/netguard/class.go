// Package netguard decides which network addresses the service's outbound connections may
// reach: only global unicast addresses. The moderation browser (worker/browse), the webhook
// sender, the link checker (backend/health) and single sign-on's requests to identity providers
// (backend/sso) use it, so that a link's destination, a customer's webhook URL or a workspace's
// issuer can never make the service reach into its own network.
//
// Refused, every address of a name checked (one bad address refuses the name):
//
//	IPv4  0.0.0.0/8 unspecified ("this network")   10/8, 172.16/12, 192.168/16 private (RFC 1918)
//	      100.64/10 shared (CGNAT)                 127/8 loopback
//	      169.254/16 link-local (cloud metadata)   192.0.0/24 IETF protocol assignments
//	      192.0.2/24, 198.51.100/24, 203.0.113/24 documentation   198.18/15 benchmarking
//	      192.88.99/24 6to4 relay                  224/4 multicast   240/4 reserved and broadcast
//	IPv6  ::/128 unspecified   ::1 loopback   fc00::/7 unique local (private, fd00:ec2::254
//	      metadata included)   fe80::/10 link-local   fec0::/10 site-local   ff00::/8 multicast
//	      2001::/23 IETF protocol assignments (Teredo included)   2001:db8::/32, 3fff::/20
//	      documentation   64:ff9b:1::/48 local NAT64 and anything outside 2000::/3;
//	      IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::a.b.c.d, ::/96 but :: and ::1),
//	      NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are judged by the IPv4 address
//	      they carry: a stack or a gateway that translates them reaches that address.
package netguard

import "net/netip"

// The classes of addresses the guard refuses, as Class names them.
const (
	ClassUnspecified   = "unspecified"
	ClassLoopback      = "loopback"
	ClassPrivate       = "private"
	ClassShared        = "shared (CGNAT)"
	ClassLinkLocal     = "link-local"
	ClassMulticast     = "multicast"
	ClassDocumentation = "documentation"
	ClassBenchmarking  = "benchmarking"
	ClassReserved      = "reserved"
	ClassNotGlobal     = "non-global"
)

type classifiedPrefix struct {
	prefix netip.Prefix
	class  string
}

// blockedV4 and blockedV6 are the special-purpose ranges (IANA's registries) the guard refuses.
var blockedV4 = []classifiedPrefix{
	{netip.MustParsePrefix("0.0.0.0/8"), ClassUnspecified},
	{netip.MustParsePrefix("10.0.0.0/8"), ClassPrivate},
	{netip.MustParsePrefix("100.64.0.0/10"), ClassShared},
	{netip.MustParsePrefix("127.0.0.0/8"), ClassLoopback},
	{netip.MustParsePrefix("169.254.0.0/16"), ClassLinkLocal},
	{netip.MustParsePrefix("172.16.0.0/12"), ClassPrivate},
	{netip.MustParsePrefix("192.0.0.0/24"), ClassReserved},
	{netip.MustParsePrefix("192.0.2.0/24"), ClassDocumentation},
	{netip.MustParsePrefix("192.88.99.0/24"), ClassReserved},
	{netip.MustParsePrefix("192.168.0.0/16"), ClassPrivate},
	{netip.MustParsePrefix("198.18.0.0/15"), ClassBenchmarking},
	{netip.MustParsePrefix("198.51.100.0/24"), ClassDocumentation},
	{netip.MustParsePrefix("203.0.113.0/24"), ClassDocumentation},
	{netip.MustParsePrefix("224.0.0.0/4"), ClassMulticast},
	{netip.MustParsePrefix("240.0.0.0/4"), ClassReserved},
}

var blockedV6 = []classifiedPrefix{
	{netip.MustParsePrefix("::/128"), ClassUnspecified},
	{netip.MustParsePrefix("::1/128"), ClassLoopback},
	{netip.MustParsePrefix("64:ff9b:1::/48"), ClassPrivate},
	{netip.MustParsePrefix("100::/64"), ClassReserved},
	{netip.MustParsePrefix("2001:db8::/32"), ClassDocumentation},
	{netip.MustParsePrefix("2001::/23"), ClassReserved},
	{netip.MustParsePrefix("3fff::/20"), ClassDocumentation},
	{netip.MustParsePrefix("fc00::/7"), ClassPrivate},
	{netip.MustParsePrefix("fe80::/10"), ClassLinkLocal},
	{netip.MustParsePrefix("fec0::/10"), ClassPrivate},
	{netip.MustParsePrefix("ff00::/8"), ClassMulticast},
}

var (
	globalUnicastV6 = netip.MustParsePrefix("2000::/3")
	nat64           = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour       = netip.MustParsePrefix("2002::/16")
	ipv4Compatible  = netip.MustParsePrefix("::/96")
)

// Class is the class of a, among the ranges above, that makes it refused; "" for a global
// unicast address.
func Class(a netip.Addr) string {
	if !a.IsValid() {
		return ClassUnspecified
	}
	a = a.WithZone("").Unmap()
	if a.Is4() {
		for _, b := range blockedV4 {
			if b.prefix.Contains(a) {
				return b.class
			}
		}
		return ""
	}
	// IPv6 addresses that carry an IPv4 address reach it: judge that one.
	raw := a.As16()
	switch {
	case a == netip.IPv6Unspecified():
		return ClassUnspecified
	case a == netip.IPv6Loopback():
		return ClassLoopback
	case ipv4Compatible.Contains(a):
		return Class(netip.AddrFrom4([4]byte(raw[12:16])))
	case nat64.Contains(a):
		return Class(netip.AddrFrom4([4]byte(raw[12:16])))
	case sixToFour.Contains(a):
		return Class(netip.AddrFrom4([4]byte(raw[2:6])))
	}
	for _, b := range blockedV6 {
		if b.prefix.Contains(a) {
			return b.class
		}
	}
	if !globalUnicastV6.Contains(a) {
		return ClassNotGlobal
	}
	return ""
}
