package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// metrics reads /metrics from the server's metrics listener.
func (s *server) metrics() response {
	s.t.Helper()
	addr := s.app.MetricsAddr()
	if addr == "" {
		s.t.Fatal("no metrics listener: start the server with METRICS_ADDR")
	}
	res, err := noRedirect.Get("http://" + addr + "/metrics")
	if err != nil {
		s.t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// TestMetricsListener: metrics are served on METRICS_ADDR only, never on the main address,
// whatever the host (the short domain included); without METRICS_ADDR they are off.
func TestMetricsListener(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t, "METRICS_ADDR", "127.0.0.1:0")
	if s.app.MetricsAddr() == "" || s.app.MetricsAddr() == s.app.Addr() {
		t.Fatalf("metrics address %q beside %q", s.app.MetricsAddr(), s.app.Addr())
	}
	s.visit("GET", "/nothing-here")
	if r := s.metrics(); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "shortlink_redirects_total") {
		t.Fatalf("metrics listener: %d %.200s", r.Status, r.Body)
	}
	isMetrics := func(r response) bool {
		return strings.Contains(string(r.Body), "shortlink_") || strings.Contains(string(r.Body), "go_goroutines")
	}
	for _, host := range []string{"", shortHost, "localhost", "app.example.com"} {
		req, _ := http.NewRequest("GET", s.base+"/metrics", nil)
		if host != "" {
			req.Host = host
		}
		if r := s.send(req); r.Status == http.StatusOK || isMetrics(r) {
			t.Errorf("GET /metrics on the main address, Host %q: %d %.200s", host, r.Status, r.Body)
		}
	}
	// The metrics listener answers nothing else.
	res, err := noRedirect.Get("http://" + s.app.MetricsAddr() + "/api/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("the metrics listener served /api/v1/openapi.json: %d", res.StatusCode)
	}

	if off := d.start(t); off.app.MetricsAddr() != "" {
		t.Errorf("METRICS_ADDR unset, yet metrics are served on %s", off.app.MetricsAddr())
	}
}
