package domain

import (
	"fmt"
	"net/netip"
	"strings"
)

// Target is where a custom domain's visitors are sent by DNS: a host name its CNAME names, or
// the addresses of its A and AAAA records (DOMAIN_TARGET, docs/domains-and-imports.md#custom-domains).
type Target struct {
	Host  string
	Addrs []netip.Addr
}

// ParseTarget reads DOMAIN_TARGET's values: one host name, or IP addresses (v4, v6 or both).
// None: a CNAME to fallback, the service's own host.
func ParseTarget(values []string, fallback string) (Target, error) {
	var t Target
	for _, v := range values {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "" {
			continue
		}
		if a, err := netip.ParseAddr(v); err == nil {
			if a.Zone() != "" || !a.IsGlobalUnicast() && !a.IsPrivate() {
				return Target{}, fmt.Errorf("%s is not an address a domain's record can name", v)
			}
			t.Addrs = append(t.Addrs, a.Unmap())
			continue
		}
		host, err := profile.ToASCII(strings.TrimSuffix(v, "."))
		if t.Host != "" || err != nil || !strings.Contains(host, ".") {
			return Target{}, fmt.Errorf("%q is neither one host name nor an IP address", v)
		}
		t.Host = host
	}
	switch {
	case t.Host != "" && len(t.Addrs) > 0:
		return Target{}, fmt.Errorf("give one host name (a CNAME) or addresses (A/AAAA), not both")
	case t.Host == "" && len(t.Addrs) == 0:
		t.Host = strings.ToLower(fallback)
	}
	return t, nil
}

// Record is a DNS record a domain's owner makes.
type Record struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Records are the records that send hostname's visitors to t: one CNAME, or an A or AAAA
// record per address.
func (t Target) Records(hostname string) []Record {
	if len(t.Addrs) == 0 {
		return []Record{{Type: "CNAME", Name: hostname, Value: t.Host}}
	}
	out := make([]Record, 0, len(t.Addrs))
	for _, a := range t.Addrs {
		kind := "AAAA"
		if a.Is4() {
			kind = "A"
		}
		out = append(out, Record{Type: kind, Name: hostname, Value: a.String()})
	}
	return out
}
