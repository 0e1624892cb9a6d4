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
