package auth_test

import (
	"testing"

	"github.com/shortlink/shortlink/backend/auth"
)

func TestNetworkOf(t *testing.T) {
	for _, tc := range []struct{ ip, want string }{
		{"203.0.113.77", "203.0.113.0/24"},
		{"::ffff:203.0.113.77", "203.0.113.0/24"},
		{"2001:db8:1234:5678::1", "2001:db8:1234::/48"},
		{"fe80::1%eth0", "fe80::/48"},
		{"", ""},
		{"not an address", ""},
	} {
		if got := auth.NetworkOf(tc.ip); got != tc.want {
			t.Errorf("NetworkOf(%q) = %q; want %q", tc.ip, got, tc.want)
		}
	}
}
