package httpapi

import (
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
)

// checkLink checks a link's destination now (POST …/links/{id}/check) and answers the link
// with its health as the check left it.
func (s *Server) checkLink(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	if s.health == nil {
		s.fail(c, apperr.Errorf(apperr.Internal, "internal error").For("internal", ""))
		return
	}
	if err := s.health.CheckNow(c.Request.Context(), workspaceID(c), id); err != nil {
		s.fail(c, err)
		return
	}
	l, err := s.links.Get(c.Request.Context(), workspaceID(c), id)
	s.replyLink(c, l, err)
}

// waitsOnOthers says route waits on another server: a link's destination (the check asked
// for), bounded by HEALTH_TIMEOUT for each of its requests, or a webhook's receiver (a test
// delivery or a resend), bounded by the deliveries' 10 s; not by WRITE_TIMEOUT, which a slow
// destination or receiver would otherwise turn into a 503 however healthy the service.
func waitsOnOthers(route string) bool {
	return strings.HasSuffix(route, "/links/:id/check") || strings.HasSuffix(route, "/webhooks/:id/test") ||
		strings.HasSuffix(route, "/webhooks/:id/deliveries/:delivery/resend")
}
