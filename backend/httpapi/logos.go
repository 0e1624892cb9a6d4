package httpapi

import (
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/qr"
)

// putLogo takes the workspace's logo as the request's body: a PNG of at most 100 kB and 2048
// pixels a side, stored normalised (8 bits a channel, at most qr.LogoMaxSide a side).
func (s *Server) putLogo(c *gin.Context) {
	data, err := io.ReadAll(io.LimitReader(c.Request.Body, qr.MaxLogoBytes+1))
	if err != nil {
		s.fail(c, apperr.Errorf(apperr.Invalid, "the logo could not be read").For("logo_invalid", "file"))
		return
	}
	if err := s.logos.Put(c.Request.Context(), workspaceID(c), data); err != nil {
		s.fail(c, err)
		return
	}
	s.auditedHere(c, audit.LogoSet, audit.Target("workspace", workspaceID(c)), map[string]any{"bytes": len(data)})
	c.Status(http.StatusNoContent)
}

// getLogo answers the logo as stored (normalised), or 204 when the workspace has none (a settings page asks before
// knowing, and no logo is no error).
func (s *Server) getLogo(c *gin.Context) {
	logo, err := s.logos.Get(c.Request.Context(), workspaceID(c))
	if apperr.ReasonOf(err) == "logo_missing" {
		c.Status(http.StatusNoContent)
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "private, no-cache")
	c.Data(http.StatusOK, "image/png", logo.Data)
}

func (s *Server) deleteLogo(c *gin.Context) {
	err := s.logos.Delete(c.Request.Context(), workspaceID(c))
	if err == nil {
		s.auditedHere(c, audit.LogoRemoved, audit.Target("workspace", workspaceID(c)), nil)
	}
	s.noContent(c, err)
}
