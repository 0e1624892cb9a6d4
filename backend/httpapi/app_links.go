package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/domain"
)

func (s *Server) getAppLinks(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "domain"); ok {
		a, err := s.domains.GetAppLinks(c.Request.Context(), workspaceID(c), id)
		s.replyAppLinks(c, a, err)
	}
}

func (s *Server) putAppLinks(c *gin.Context) {
	var in domain.AppLinks
	id, ok := s.pathIDAndBody(c, "id", "domain", &in)
	if !ok {
		return
	}
	a, err := s.domains.SetAppLinks(c.Request.Context(), workspaceID(c), id, in)
	if err == nil {
		s.auditedHere(c, audit.AppLinksSet, audit.Target("domain", id), map[string]any{
			"apple_app_site_association": a.AppleAppSiteAssociation != nil, "assetlinks": a.AssetLinks != nil})
	}
	s.replyAppLinks(c, a, err)
}

func (s *Server) deleteAppLinks(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "domain"); ok {
		_, err := s.domains.SetAppLinks(c.Request.Context(), workspaceID(c), id, domain.AppLinks{})
		if err == nil {
			s.auditedHere(c, audit.AppLinksRemoved, audit.Target("domain", id), nil)
		}
		s.noContent(c, err)
	}
}

// replyAppLinks answers both files, null when not set.
func (s *Server) replyAppLinks(c *gin.Context, a *domain.AppLinks, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	out := gin.H{"apple_app_site_association": nil, "assetlinks": nil}
	if a.AppleAppSiteAssociation != nil {
		out["apple_app_site_association"] = a.AppleAppSiteAssociation
	}
	if a.AssetLinks != nil {
		out["assetlinks"] = a.AssetLinks
	}
	c.JSON(http.StatusOK, out)
}
