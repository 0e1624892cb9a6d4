package domain

import (
	"slices"
	"testing"
)

func TestTarget(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   []Record
		err    bool
	}{
		{nil, []Record{{"CNAME", "go.shop.example", "sho.rt"}}, false},
		{[]string{"", " "}, []Record{{"CNAME", "go.shop.example", "sho.rt"}}, false},
		{[]string{"Edge.Sho.RT."}, []Record{{"CNAME", "go.shop.example", "edge.sho.rt"}}, false},
		{[]string{"203.0.113.7", "2001:db8::7"}, []Record{{"A", "go.shop.example", "203.0.113.7"}, {"AAAA", "go.shop.example", "2001:db8::7"}}, false},
		{[]string{"edge.sho.rt", "203.0.113.7"}, nil, true},
		{[]string{"edge.sho.rt", "other.sho.rt"}, nil, true},
		{[]string{"localhost"}, nil, true},
		{[]string{"127.0.0.1"}, nil, true},
		{[]string{"fe80::1%eth0"}, nil, true},
		{[]string{"not a host"}, nil, true},
	} {
		target, err := ParseTarget(c.values, "sho.rt")
		if (err != nil) != c.err {
			t.Errorf("%q: err %v", c.values, err)
			continue
		}
		if got := target.Records("go.shop.example"); err == nil && !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.values, got, c.want)
		}
	}
}
