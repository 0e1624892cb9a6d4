package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var apiLatency = promauto.NewHistogramVec(prometheus.HistogramOpts{
	Name:    "shortlink_api_request_seconds",
	Help:    "API request latency by route and status.",
	Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
}, []string{"method", "route", "status"})

// apiAbandoned counts the requests whose client went away before they were answered, which
// failed for it (a cancelled query): not errors of the service (see abandoned).
var apiAbandoned = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shortlink_api_abandoned_total",
	Help: "API requests whose client went away before the answer, by route; not errors of the service.",
}, []string{"method", "route"})

// slowRequest is how long an API request takes before its answer is logged as slow.
var slowRequest = time.Second

// observe records each API request's latency under its route pattern (never the raw path,
// which would make one series per link), and logs those slower than slowRequest: the
// histogram shows that some are slow, the log which and when.
func (s *Server) observe(c *gin.Context) {
	start := time.Now()
	c.Next()
	took := time.Since(start)
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	status := c.Writer.Status()
	apiLatency.WithLabelValues(methodLabel(c.Request.Method), route, strconv.Itoa(status)).Observe(took.Seconds())
	if took >= slowRequest && !streamed(c.Request.Method, route) {
		s.log.Warn("api: slow request", "method", c.Request.Method, "route", route, "status", status,
			"seconds", took.Seconds(), "request_id", c.GetString(requestIDKey))
	}
}

// streamed says whether the route streams a file, which takes as long as the file: the CSV
// exports and an import's upload.
func streamed(method, route string) bool {
	return strings.HasSuffix(route, ".csv") || method == http.MethodPost && strings.HasSuffix(route, "/imports")
}

// methodLabel keeps the label's values few: any client can send any method name.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}
