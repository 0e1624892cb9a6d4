package domain_test

import (
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/domain"
)

// TestNormalizeReasons: each refusal names why, about the hostname, so the web app can say it.
func TestNormalizeReasons(t *testing.T) {
	own := []string{"sho.rt"}
	for in, reason := range map[string]string{
		"":                       "hostname_required",
		"https://go.example.com": "hostname_not_bare",
		"go.example.com:443":     "hostname_not_bare",
		"192.0.2.1":              "hostname_ip",
		"3232235777":             "hostname_ip",
		"go..example.com":        "hostname_invalid",
		"_dmarc.example.com":     "hostname_invalid",
		"router.local":           "hostname_not_public",
		"co.uk":                  "hostname_public_suffix",
		"x.sho.rt":               "hostname_not_public",
	} {
		_, err := domain.Normalize(in, own)
		if apperr.ReasonOf(err) != reason || apperr.FieldOf(err) != "hostname" {
			t.Errorf("Normalize(%q): %v, reason %q field %q; want %s", in, err, apperr.ReasonOf(err), apperr.FieldOf(err), reason)
		}
	}
	if _, err := domain.Normalize("links.example.net", []string{"links.example.net"}); apperr.ReasonOf(err) != "hostname_own" {
		t.Errorf("the service's own domain: %v, reason %q", err, apperr.ReasonOf(err))
	}
}

func TestProblemReason(t *testing.T) {
	for problem, reason := range map[string]string{
		"":                                       "",
		"the DNS lookup failed; try again later": "dns_lookup_failed",
		"no TXT record _shortlink-verify.go.example.com holds the token": "txt_record_missing",
	} {
		if got := domain.ProblemReason(problem); got != reason {
			t.Errorf("ProblemReason(%q) = %q, want %q", problem, got, reason)
		}
	}
}
