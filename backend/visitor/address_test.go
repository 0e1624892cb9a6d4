package visitor

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientIP(t *testing.T) {
	trusted := []netip.Prefix{
		netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("fd00::/8"),
		netip.MustParsePrefix("192.0.2.7/32"),
	}
	tests := []struct {
		name    string
		peer    string
		xff     []string // one entry per header line
		trusted []netip.Prefix
		want    string // "" for the zero Addr
	}{
		{name: "peer, no proxies configured", peer: "203.0.113.5:1234", xff: []string{"198.51.100.1"}, want: "203.0.113.5"},
		{name: "untrusted peer: header ignored", peer: "203.0.113.5:1234", xff: []string{"198.51.100.1"}, trusted: trusted, want: "203.0.113.5"},
		{name: "trusted peer, one client", peer: "10.0.0.1:443", xff: []string{"198.51.100.1"}, trusted: trusted, want: "198.51.100.1"},
		{name: "trusted peer, no header", peer: "10.0.0.1:443", trusted: trusted, want: "10.0.0.1"},
		{name: "trusted peer, empty header", peer: "10.0.0.1:443", xff: []string{""}, trusted: trusted, want: "10.0.0.1"},
		{name: "right-most untrusted wins over forged left entries", peer: "10.0.0.1:443", xff: []string{"1.1.1.1, 198.51.100.1, 10.0.0.2"}, trusted: trusted, want: "198.51.100.1"},
		{name: "spaces and tabs", peer: "10.0.0.1:443", xff: []string{" 1.1.1.1 ,\t198.51.100.1\t,10.0.0.2 "}, trusted: trusted, want: "198.51.100.1"},
		{name: "several header lines read as one list", peer: "10.0.0.1:443", xff: []string{"1.1.1.1, 198.51.100.1", "10.0.0.3", "10.0.0.2"}, trusted: trusted, want: "198.51.100.1"},
		{name: "untrusted entry in the last line", peer: "10.0.0.1:443", xff: []string{"1.1.1.1", "198.51.100.9"}, trusted: trusted, want: "198.51.100.9"},
		{name: "all trusted: the left-most", peer: "10.0.0.1:443", xff: []string{"10.0.0.9, 10.0.0.2"}, trusted: trusted, want: "10.0.0.9"},
		{name: "empty entries skipped", peer: "10.0.0.1:443", xff: []string{"198.51.100.1,, ,10.0.0.2,"}, trusted: trusted, want: "198.51.100.1"},
		{name: "garbage ends the walk at the last trusted hop", peer: "10.0.0.1:443", xff: []string{"198.51.100.1, unknown, 10.0.0.2"}, trusted: trusted, want: "10.0.0.2"},
		{name: "garbage right next to the peer", peer: "10.0.0.1:443", xff: []string{"198.51.100.1, not-an-ip"}, trusted: trusted, want: "10.0.0.1"},
		{name: "entry with a port", peer: "10.0.0.1:443", xff: []string{"198.51.100.1:5555"}, trusted: trusted, want: "198.51.100.1"},
		{name: "bad port is garbage", peer: "10.0.0.1:443", xff: []string{"198.51.100.1:http"}, trusted: trusted, want: "10.0.0.1"},
		{name: "IPv6 entry", peer: "10.0.0.1:443", xff: []string{"2001:db8::1"}, trusted: trusted, want: "2001:db8::1"},
		{name: "IPv6 entry in brackets with port", peer: "10.0.0.1:443", xff: []string{"[2001:db8::1]:8443"}, trusted: trusted, want: "2001:db8::1"},
		{name: "IPv6 entry in brackets", peer: "10.0.0.1:443", xff: []string{"[2001:db8::1]"}, trusted: trusted, want: "2001:db8::1"},
		{name: "quoted IPv6", peer: "10.0.0.1:443", xff: []string{`"[2001:db8::1]:80"`}, trusted: trusted, want: "2001:db8::1"},
		{name: "unclosed bracket", peer: "10.0.0.1:443", xff: []string{"[2001:db8::1"}, trusted: trusted, want: "10.0.0.1"},
		{name: "IPv6 peer trusted", peer: "[fd00::5]:443", xff: []string{"198.51.100.1, fd00::6"}, trusted: trusted, want: "198.51.100.1"},
		{name: "IPv6 peer untrusted", peer: "[2001:db8::7]:443", xff: []string{"198.51.100.1"}, trusted: trusted, want: "2001:db8::7"},
		{name: "IPv4-mapped peer is IPv4 and trusted", peer: "[::ffff:10.0.0.1]:443", xff: []string{"198.51.100.1"}, trusted: trusted, want: "198.51.100.1"},
		{name: "IPv4-mapped entry answered as IPv4", peer: "10.0.0.1:443", xff: []string{"::ffff:198.51.100.1"}, trusted: trusted, want: "198.51.100.1"},
		{name: "mapped trusted entry skipped", peer: "10.0.0.1:443", xff: []string{"198.51.100.1, ::ffff:10.0.0.2"}, trusted: trusted, want: "198.51.100.1"},
		{name: "zone dropped", peer: "[fe80::1%eth0]:443", want: "fe80::1"},
		{name: "single trusted address", peer: "192.0.2.7:80", xff: []string{"198.51.100.1"}, trusted: trusted, want: "198.51.100.1"},
		{name: "neighbour of a single trusted address", peer: "192.0.2.8:80", xff: []string{"198.51.100.1"}, trusted: trusted, want: "192.0.2.8"},
		{name: "peer without port", peer: "10.0.0.1", xff: []string{"198.51.100.1"}, trusted: trusted, want: "198.51.100.1"},
		{name: "unreadable peer", peer: "@", xff: []string{"198.51.100.1"}, trusted: trusted, want: ""},
		{name: "empty peer", peer: "", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/abc", nil)
			r.RemoteAddr = tt.peer
			for _, line := range tt.xff {
				r.Header.Add("X-Forwarded-For", line)
			}
			got := ClientIP(r, tt.trusted)
			if tt.want == "" {
				if got.IsValid() {
					t.Fatalf("got %v, want the zero Addr", got)
				}
				return
			}
			if want := netip.MustParseAddr(tt.want); got != want {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

func FuzzClientIP(f *testing.F) {
	f.Add("10.0.0.1:1", "1.2.3.4, [::1]:80, \"x\"")
	f.Add("[::ffff:10.0.0.1]:1", ",,:,[,],\"")
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::/0")}
	f.Fuzz(func(t *testing.T, peer, xff string) {
		r := &http.Request{RemoteAddr: peer, Header: http.Header{"X-Forwarded-For": {xff}}}
		a := ClientIP(r, trusted)
		if a.IsValid() && (a.Zone() != "" || a.Is4In6()) {
			t.Fatalf("%v: zoned or mapped", a)
		}
	})
}

func BenchmarkClientIP(b *testing.B) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	r := httptest.NewRequest(http.MethodGet, "/abc", nil)
	r.RemoteAddr = "10.0.0.1:443"
	r.Header.Set("X-Forwarded-For", "198.51.100.1, 10.0.0.2")
	b.ReportAllocs()
	for b.Loop() {
		ClientIP(r, trusted)
	}
}
