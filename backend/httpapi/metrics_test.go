package httpapi

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// A request slower than slowRequest is logged with its route pattern; a quick one, and a slow
// CSV export (which streams as long as its file), are not.
func TestSlowRequestsLogged(t *testing.T) {
	was := slowRequest
	slowRequest = 50 * time.Millisecond
	t.Cleanup(func() { slowRequest = was })
	var logs bytes.Buffer
	s := &Server{log: slog.New(slog.NewTextHandler(&logs, nil))}
	gin.SetMode(gin.TestMode)
	e := gin.New()
	e.Use(s.observe)
	slow := func(c *gin.Context) { time.Sleep(60 * time.Millisecond); c.Status(http.StatusOK) }
	e.GET("/api/v1/links/:id", slow)
	e.GET("/api/v1/links/export.csv", slow)
	e.GET("/api/v1/quick", func(c *gin.Context) { c.Status(http.StatusNoContent) })
	for _, path := range []string{"/api/v1/links/42", "/api/v1/links/export.csv", "/api/v1/quick"} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], `msg="api: slow request"`) ||
		!strings.Contains(lines[0], "route=/api/v1/links/:id") || !strings.Contains(lines[0], "status=200") {
		t.Errorf("logged:\n%s\nwant one slow request, on /api/v1/links/:id", logs.String())
	}
}
