package netguard_test

import (
	"context"
	"net"
	"net/netip"
	"testing"

	"github.com/shortlink/shortlink/backend/netguard"
)

// fakeResolver answers every name with its addresses.
type fakeResolver []netip.Addr

func (f fakeResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return f, nil
}

func TestAllowed(t *testing.T) {
	for addr, ok := range map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "192.168.0.1": false, "172.20.0.1": false,
		"100.64.1.1": false, "169.254.169.254": false, "fd00:ec2::254": false, "fe80::1": false,
		"0.0.0.0": false, "::": false, "224.0.0.1": false, "ff02::1": false, "::ffff:127.0.0.1": false,
		"::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "2002:a00:1::": false,
	} {
		err := netguard.Allowed(netip.MustParseAddr(addr), false)
		if (err == nil) != ok {
			t.Errorf("Allowed(%s) = %v, want allowed %v", addr, err, ok)
		}
	}
	if err := netguard.Allowed(netip.MustParseAddr("127.0.0.1"), true); err != nil {
		t.Errorf("loopback with AllowLoopback: %v", err)
	}
	if err := netguard.Allowed(netip.MustParseAddr("10.0.0.1"), true); err == nil {
		t.Error("AllowLoopback let a private address through")
	}
}

func TestDialRefuses(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ctx := context.Background()
	// A name that resolves to a public and a private address is refused as a whole.
	d := &netguard.Dialer{Resolver: fakeResolver{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("10.0.0.7")}}
	if _, err := d.DialContext(ctx, "tcp", "example.test:"+port); !netguard.IsRefused(err) {
		t.Errorf("mixed name: %v, want refused", err)
	}
	for _, host := range []string{"127.0.0.1", "localhost", "::1", "169.254.169.254"} {
		if _, err := (&netguard.Dialer{}).DialContext(ctx, "tcp", net.JoinHostPort(host, port)); !netguard.IsRefused(err) {
			t.Errorf("%s: %v, want refused", host, err)
		}
	}
	// A name resolving to loopback, with loopback allowed, is dialled at the checked address.
	d = &netguard.Dialer{AllowLoopback: true, Resolver: fakeResolver{netip.MustParseAddr("127.0.0.1")}}
	c, err := d.DialContext(ctx, "tcp", "hooks.example:"+port)
	if err != nil {
		t.Fatalf("loopback allowed: %v", err)
	}
	_ = c.Close()
}

// TestEmbeddedIPv4 judges IPv6 addresses that carry an IPv4 address by that address, one
// case per form and per refused IPv4 range, beside a public address in each form.
func TestEmbeddedIPv4(t *testing.T) {
	forms := map[string]func(v4 netip.Addr) netip.Addr{
		"IPv4-mapped": func(v4 netip.Addr) netip.Addr {
			b := v4.As4()
			return netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: b[0], 13: b[1], 14: b[2], 15: b[3]})
		},
		"IPv4-compatible": func(v4 netip.Addr) netip.Addr {
			b := v4.As4()
			return netip.AddrFrom16([16]byte{12: b[0], 13: b[1], 14: b[2], 15: b[3]})
		},
		"NAT64": func(v4 netip.Addr) netip.Addr {
			b := v4.As4()
			return netip.AddrFrom16([16]byte{1: 0x64, 2: 0xff, 3: 0x9b, 12: b[0], 13: b[1], 14: b[2], 15: b[3]})
		},
		"6to4": func(v4 netip.Addr) netip.Addr {
			b := v4.As4()
			return netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02, 2: b[0], 3: b[1], 4: b[2], 5: b[3], 15: 1})
		},
	}
	for _, c := range []struct{ v4, class string }{
		{"8.8.8.8", ""},
		{"93.184.216.34", ""},
		{"0.1.2.3", netguard.ClassUnspecified},
		{"10.0.0.1", netguard.ClassPrivate},
		{"172.16.5.4", netguard.ClassPrivate},
		{"192.168.1.1", netguard.ClassPrivate},
		{"100.64.0.1", netguard.ClassShared},
		{"127.0.0.1", netguard.ClassLoopback},
		{"169.254.169.254", netguard.ClassLinkLocal},
		{"192.0.0.8", netguard.ClassReserved},
		{"192.0.2.1", netguard.ClassDocumentation},
		{"192.88.99.1", netguard.ClassReserved},
		{"198.18.0.1", netguard.ClassBenchmarking},
		{"198.19.255.254", netguard.ClassBenchmarking},
		{"198.51.100.7", netguard.ClassDocumentation},
		{"203.0.113.9", netguard.ClassDocumentation},
		{"224.0.0.1", netguard.ClassMulticast},
		{"240.0.0.1", netguard.ClassReserved},
		{"255.255.255.255", netguard.ClassReserved},
	} {
		v4 := netip.MustParseAddr(c.v4)
		if got := netguard.Class(v4); got != c.class {
			t.Errorf("Class(%s) = %q, want %q", v4, got, c.class)
		}
		for name, form := range forms {
			a := form(v4)
			if got := netguard.Class(a); got != c.class {
				t.Errorf("%s %s (%s): class %q, want %q", name, a, c.v4, got, c.class)
			}
			if err := netguard.Allowed(a, false); (err == nil) != (c.class == "") {
				t.Errorf("%s %s (%s): Allowed = %v", name, a, c.v4, err)
			}
		}
	}
	// The IPv4-compatible range holds the unspecified and loopback addresses, which keep
	// their own classes; local-use NAT64 is private whatever it carries.
	for addr, class := range map[string]string{"::": netguard.ClassUnspecified, "::1": netguard.ClassLoopback,
		"64:ff9b:1::808:808": netguard.ClassPrivate} {
		if got := netguard.Class(netip.MustParseAddr(addr)); got != class {
			t.Errorf("Class(%s) = %q, want %q", addr, got, class)
		}
	}
	if err := netguard.Allowed(netip.MustParseAddr("::1"), true); err != nil {
		t.Errorf("::1 with loopback allowed: %v", err)
	}
}
