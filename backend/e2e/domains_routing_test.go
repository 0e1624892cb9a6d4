package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestDomainRouting: a custom domain's answer names the records that point it at the service
// (docs/domains-and-imports.md#custom-domains): a CNAME to PUBLIC_URL's host by default, the
// operator's DOMAIN_TARGET otherwise — a host name (CNAME) or addresses (A and AAAA).
func TestDomainRouting(t *testing.T) {
	d := newDeployment(t)
	for i, c := range []struct {
		target string
		want   []string // type name value
	}{
		{"", []string{"CNAME go.shop-example.com " + shortHost}},
		{"Edge.Sho.RT", []string{"CNAME go.shop-example.com edge.sho.rt"}},
		{"203.0.113.7, 2001:db8::7", []string{"A go.shop-example.com 203.0.113.7", "AAAA go.shop-example.com 2001:db8::7"}},
	} {
		s := d.start(t, "DOMAIN_TARGET", c.target)
		tn := s.signupOn(fmt.Sprintf("owner-%d@example.com", i), "enterprise")
		host := fmt.Sprintf("go%d.shop-example.com", i)
		got := s.addDomain(tn, host)
		listed := answer[struct {
			Domains []domainJSON `json:"domains"`
		}](t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/domains", tn.WorkspaceID), tn.Token, nil), http.StatusOK, "domains")
		for _, answer := range []domainJSON{got, listed.Domains[0]} {
			var records []string
			for _, r := range answer.Routing {
				records = append(records, r.Type+" "+strings.Replace(r.Name, host, "go.shop-example.com", 1)+" "+r.Value)
			}
			if fmt.Sprint(records) != fmt.Sprint(c.want) {
				t.Errorf("DOMAIN_TARGET=%q: routing %v, want %v", c.target, records, c.want)
			}
		}
	}
}
