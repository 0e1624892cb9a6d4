package httpapi

import "testing"

func TestAcceptsGzip(t *testing.T) {
	for _, c := range []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{"gzip"}, true},
		{[]string{"deflate, gzip;q=0.5"}, true},
		{[]string{"br", "GZIP"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;q=0, *"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"identity"}, false},
		{[]string{"gzip;q=nonsense"}, false},
		{[]string{"x-gzip"}, true},
	} {
		if got := acceptsGzip(c.header); got != c.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", c.header, got, c.want)
		}
	}
}
