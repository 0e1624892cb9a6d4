package health

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// checks counts this node's checks by what they found: "ok" or the reason they failed.
var checks = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shortlink_link_checks_total",
	Help: "Checks of links' destinations this node made (background and asked for), by result: ok or why they failed (dns, tls, timeout, connect, status, redirects, refused).",
}, []string{"result"})

// counted counts a check's result.
func counted(r Result) {
	result := r.Error
	if result == "" {
		result = "ok"
	}
	checks.WithLabelValues(result).Inc()
}
