package browse

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestAddressClass(t *testing.T) {
	for _, c := range []struct {
		addr  string
		class string
	}{
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"93.184.215.14", ""},
		{"0.0.0.0", classUnspecified},
		{"0.1.2.3", classUnspecified},
		{"10.0.0.1", classPrivate},
		{"10.255.255.255", classPrivate},
		{"172.16.0.1", classPrivate},
		{"172.31.255.254", classPrivate},
		{"172.32.0.1", ""},
		{"192.168.1.1", classPrivate},
		{"100.64.0.1", classShared},
		{"100.127.255.254", classShared},
		{"100.128.0.1", ""},
		{"127.0.0.1", classLoopback},
		{"127.255.0.9", classLoopback},
		{"169.254.169.254", classLinkLocal},
		{"169.254.0.1", classLinkLocal},
		{"192.0.0.8", classReserved},
		{"192.0.2.1", classDocumentation},
		{"198.51.100.7", classDocumentation},
		{"203.0.113.9", classDocumentation},
		{"198.18.0.1", classBenchmarking},
		{"198.19.255.1", classBenchmarking},
		{"224.0.0.1", classMulticast},
		{"239.255.255.250", classMulticast},
		{"240.0.0.1", classReserved},
		{"255.255.255.255", classReserved},
		{"2606:4700:4700::1111", ""},
		{"2001:4860:4860::8888", ""},
		{"::", classUnspecified},
		{"::1", classLoopback},
		{"fc00::1", classPrivate},
		{"fd12:3456:789a::1", classPrivate},
		{"fe80::1", classLinkLocal},
		{"fe80::1%eth0", classLinkLocal},
		{"febf::1", classLinkLocal},
		{"fec0::1", classPrivate},
		{"ff02::1", classMulticast},
		{"2001:db8::1", classDocumentation},
		{"3fff::1", classDocumentation},
		{"2001::1", classReserved}, // Teredo
		{"100::1", classReserved},
		{"::ffff:10.0.0.1", classPrivate},
		{"::ffff:169.254.169.254", classLinkLocal},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::a9fe:a9fe", classLinkLocal}, // NAT64 of 169.254.169.254
		{"64:ff9b::808:808", ""},               // NAT64 of 8.8.8.8
		{"64:ff9b:1::1", classPrivate},
		{"2002:a00:1::1", classPrivate}, // 6to4 of 10.0.0.1
		{"2002:808:808::1", ""},         // 6to4 of 8.8.8.8
		{"::a00:1", classPrivate},       // IPv4-compatible: judged by the IPv4 address it carries
		{"4000::1", classNotGlobal},
		{"5f00::1", classNotGlobal},
	} {
		a, err := netip.ParseAddr(c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := addressClass(a); got != c.class {
			t.Errorf("addressClass(%s) = %q, want %q", c.addr, got, c.class)
		}
	}
	if got := addressClass(netip.Addr{}); got != classUnspecified {
		t.Errorf("addressClass(zero) = %q", got)
	}
}

func TestCanonicalHost(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM":             "example.com",
		"example.com.":            "example.com.",
		"2130706433":              "127.0.0.1",
		"0x7f.1":                  "127.0.0.1",
		"0x7F000001":              "127.0.0.1",
		"0177.0.0.1":              "127.0.0.1",
		"127.1":                   "127.0.0.1",
		"10.1":                    "10.0.0.1",
		"169.254.43518":           "169.254.169.254",
		"0xa9.0xfe.0xa9.0xfe":     "169.254.169.254",
		"127.0.0.1.":              "127.0.0.1",
		"[::1]":                   "::1",
		"[0:0:0:0:0:ffff:a00:1]":  "::ffff:10.0.0.1",
		"[FE80::1]":               "fe80::1",
		"bücher.example":          "xn--bcher-kva.example",
		"under_score.example":     "under_score.example",
		"1.2.3.4a":                "1.2.3.4a", // the last label is not a number: a name
		"www.0x10.example":        "www.0x10.example",
		"0x10.example":            "0x10.example",
		"sub.127.0.0.1.nip.io":    "sub.127.0.0.1.nip.io",
		"xn--bcher-kva.example":   "xn--bcher-kva.example",
		"EXAMPLE.xn--p1ai":        "example.xn--p1ai",
		"localhost":               "localhost",
		"a.b.c.d.e.f.example.com": "a.b.c.d.e.f.example.com",
	} {
		got, err := canonicalHost(in)
		if err != nil || got != want {
			t.Errorf("canonicalHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1.2.3.4.5", "256.1.1.1", "0x100000000", "1.2.65536", "[::1", "a b", "a%2fb", "[1.2.3.4]", "09.1.1.1"} {
		if got, err := canonicalHost(in); err == nil {
			t.Errorf("canonicalHost(%q) = %q, want an error", in, got)
		}
	}
}

// fakeResolver answers from a table; other names are not found.
type fakeResolver struct {
	names   map[string][]string
	lookups atomic.Int32
	delay   time.Duration
}

func (r *fakeResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.lookups.Add(1)
	if r.delay > 0 {
		select {
		case <-time.After(r.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	addrs, ok := r.names[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = netip.MustParseAddr(a)
	}
	return out, nil
}

func TestGuard(t *testing.T) {
	rules, err := ParseHostRules("MAP bank-login.test 127.0.0.1:8081, MAP *.shop.test 127.0.0.1:8082, " +
		"MAP metadata.test 169.254.169.254, MAP mapped-public.test 8.8.8.8, MAP alias.test public.example, " +
		"MAP gone.test ^NOTFOUND, MAP local-name.test localhost")
	if err != nil {
		t.Fatal(err)
	}
	dns := &fakeResolver{names: map[string][]string{
		"public.example":   {"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
		"mixed.example":    {"93.184.215.14", "10.0.0.7"}, // one bad address refuses the name
		"internal.example": {"192.168.10.20"},
		"v6local.example":  {"fd00::5"},
		"loop.example":     {"127.0.0.1"},
		"mapped.example":   {"::ffff:169.254.169.254"},
		"empty.example":    {},
	}}
	strict := NewGuard(rules, dns, false)
	loose := NewGuard(rules, dns, true)
	ctx := context.Background()

	type outcome int
	const (
		allowed outcome = iota
		refusedOutcome
		failed // not a refusal: the host cannot be resolved
	)
	for _, c := range []struct {
		url         string
		strict      outcome
		loose       outcome
		reasonMatch string
	}{
		{"https://public.example/login", allowed, allowed, ""},
		{"http://8.8.8.8/", allowed, allowed, ""},
		{"http://[2606:4700:4700::1111]/", allowed, allowed, ""},
		{"http://10.0.0.1/", refusedOutcome, refusedOutcome, "private address 10.0.0.1"},
		{"http://169.254.169.254/latest/meta-data/", refusedOutcome, refusedOutcome, "link-local address 169.254.169.254"},
		{"http://2852039166/", refusedOutcome, refusedOutcome, "link-local address 169.254.169.254"},
		{"http://0xa9fea9fe/", refusedOutcome, refusedOutcome, "link-local"},
		{"http://[::ffff:a9fe:a9fe]/", refusedOutcome, refusedOutcome, "link-local"},
		{"http://[fe80::1]/", refusedOutcome, refusedOutcome, "link-local"},
		{"http://[fd00::1]/", refusedOutcome, refusedOutcome, "private"},
		{"http://100.100.100.200/", refusedOutcome, refusedOutcome, "shared (CGNAT)"},
		{"http://0.0.0.0:8080/", refusedOutcome, refusedOutcome, "unspecified"},
		{"http://[::]/", refusedOutcome, refusedOutcome, "unspecified"},
		{"http://224.0.0.251/", refusedOutcome, refusedOutcome, "multicast"},
		{"http://127.0.0.1:8080/", refusedOutcome, allowed, "loopback address 127.0.0.1"},
		{"http://127.1/", refusedOutcome, allowed, "loopback"},
		{"http://[::1]:8080/", refusedOutcome, allowed, "loopback address ::1"},
		{"http://localhost/", refusedOutcome, allowed, "loopback"},
		{"http://app.localhost/", refusedOutcome, allowed, "loopback"},
		{"http://loop.example/", refusedOutcome, allowed, "loopback address 127.0.0.1 (loop.example)"},
		{"http://bank-login.test/", refusedOutcome, allowed, "loopback address 127.0.0.1 (bank-login.test mapped to 127.0.0.1:8081)"},
		{"https://www.shop.test/cart", refusedOutcome, allowed, "mapped to 127.0.0.1:8082"},
		{"http://local-name.test/", refusedOutcome, allowed, "loopback"},
		{"http://metadata.test/", refusedOutcome, refusedOutcome, "link-local address 169.254.169.254 (metadata.test mapped to 169.254.169.254:80)"},
		{"http://mapped-public.test/", allowed, allowed, ""},
		{"http://alias.test/", allowed, allowed, ""},
		{"http://mixed.example/", refusedOutcome, refusedOutcome, "private address 10.0.0.7 (mixed.example)"},
		{"http://internal.example/", refusedOutcome, refusedOutcome, "private"},
		{"http://v6local.example/", refusedOutcome, refusedOutcome, "private address fd00::5"},
		{"http://mapped.example/", refusedOutcome, refusedOutcome, "link-local address 169.254.169.254"},
		{"http://unknown.example/", failed, failed, ""},
		{"http://empty.example/", failed, failed, ""},
		{"http://gone.test/", failed, failed, ""},
		{"file:///etc/passwd", refusedOutcome, refusedOutcome, `scheme "file"`},
		{"ftp://public.example/", refusedOutcome, refusedOutcome, "scheme"},
		{"javascript:alert(1)", refusedOutcome, refusedOutcome, "scheme"},
		{"data:text/html,hi", refusedOutcome, refusedOutcome, "scheme"},
		{"http:///nohost", refusedOutcome, refusedOutcome, "no host"},
		{"http://public.example:99999/", refusedOutcome, refusedOutcome, "bad port"},
	} {
		for _, g := range []struct {
			name  string
			guard *Guard
			want  outcome
		}{{"strict", strict, c.strict}, {"loopback allowed", loose, c.loose}} {
			err := g.guard.CheckDestination(ctx, c.url)
			got := allowed
			switch {
			case IsRefused(err):
				got = refusedOutcome
			case err != nil:
				got = failed
			}
			if got != g.want {
				t.Errorf("%s: CheckDestination(%s) = %v, want outcome %d", g.name, c.url, err, g.want)
				continue
			}
			if got == refusedOutcome && !strings.Contains(err.Error(), c.reasonMatch) {
				t.Errorf("%s: CheckDestination(%s) = %q, want it to say %q", g.name, c.url, err, c.reasonMatch)
			}
			if got == refusedOutcome && !strings.HasPrefix(err.Error(), "refused: ") {
				t.Errorf("%s: %q does not start with \"refused: \"", g.name, err)
			}
		}
	}

	// A page's own requests may also use data:, blob: and about: and WebSockets.
	for _, u := range []string{"data:image/png;base64,AAAA", "blob:https://public.example/1234", "about:blank", "wss://public.example/socket"} {
		if err := strict.CheckRequest(ctx, u); err != nil {
			t.Errorf("CheckRequest(%s) = %v", u, err)
		}
	}
	for _, u := range []string{"file:///etc/passwd", "chrome://settings", "ws://10.0.0.1/", "http://169.254.169.254/"} {
		if err := strict.CheckRequest(ctx, u); !IsRefused(err) {
			t.Errorf("CheckRequest(%s) = %v, want a refusal", u, err)
		}
	}

	// What Resolve gives is what may be dialled: the mapped address and port.
	addrs, err := loose.Resolve(ctx, "www.shop.test", 443)
	if err != nil || len(addrs) != 1 || addrs[0] != netip.MustParseAddrPort("127.0.0.1:8082") {
		t.Errorf("Resolve(www.shop.test:443) = %v, %v", addrs, err)
	}
	addrs, err = strict.Resolve(ctx, "public.example", 443)
	if err != nil || len(addrs) != 2 || addrs[0].Port() != 443 {
		t.Errorf("Resolve(public.example:443) = %v, %v", addrs, err)
	}
}

func TestGuardLookupTimeout(t *testing.T) {
	dns := &fakeResolver{names: map[string][]string{"slow.example": {"8.8.8.8"}}, delay: time.Hour}
	g := NewGuard(HostRules{}, dns, false)
	g.lookupTimeout = 50 * time.Millisecond
	start := time.Now()
	err := g.CheckDestination(context.Background(), "http://slow.example/")
	if err == nil || IsRefused(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("slow lookup: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("slow lookup took %v", d)
	}
}

func FuzzCanonicalHost(f *testing.F) {
	for _, s := range []string{"0x7f.1", "[::1]", "bücher.example", "1.2.3.4", "a..b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := canonicalHost(s)
		if err != nil {
			return
		}
		// Canonical forms are fixed points.
		if h2, err := canonicalHost(h); err != nil || h2 != h {
			t.Errorf("canonicalHost(%q) = %q, then %q, %v", s, h, h2, err)
		}
	})
}
