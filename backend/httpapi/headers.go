package httpapi

import (
	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/httpsec"
)

// apiCSP: API answers are data, never documents: nothing in them may load or run, and no
// page may frame them.
const apiCSP = "default-src 'none'; frame-ancestors 'none'"

// apiHeaders are the security headers of every API answer; https turns on HSTS.
func apiHeaders(https bool) *httpsec.Headers { return httpsec.New(apiCSP, "no-referrer", https) }

// secure sets the security headers before anything else can answer.
func (s *Server) secure(c *gin.Context) {
	s.headers.Set(c.Writer.Header(), c.Request)
	c.Next()
}
