package httpapi

import (
	"net/http"
	"strconv"
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

// observe records each API request's latency under its route pattern (never the raw path,
// which would make one series per link).
func observe(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	apiLatency.WithLabelValues(methodLabel(c.Request.Method), route, strconv.Itoa(c.Writer.Status())).Observe(time.Since(start).Seconds())
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
