package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
)

// scimTokenRoutes are the owners' routes of SCIM provisioning: tokens and the mapping of
// group names to roles (docs/scim.md).
func (s *Server) scimTokenRoutes(ws *gin.RouterGroup) {
	ws.GET("/scim-tokens", s.inWorkspace(account.PermOwn), s.listSCIMTokens)
	ws.POST("/scim-tokens", s.inWorkspace(account.PermOwn), s.createSCIMToken)
	ws.DELETE("/scim-tokens/:id", s.inWorkspace(account.PermOwn), s.deleteSCIMToken)
	ws.GET("/scim-roles", s.inWorkspace(account.PermOwn), s.getSCIMRoles)
	ws.PUT("/scim-roles", s.inWorkspace(account.PermOwn), s.putSCIMRoles)
}

type scimTokenRequest struct {
	Name string `json:"name"`
}

// newSCIMTokenAnswer is the only answer that holds a token's secret.
type newSCIMTokenAnswer struct {
	ID        int64     `json:"id"`
	Token     string    `json:"token"`
	Name      string    `json:"name"`
	Prefix    string    `json:"prefix"`
	CreatedAt time.Time `json:"created_at"`
	// URL is the workspace's SCIM base URL, for the identity provider.
	URL string `json:"url"`
}

func (s *Server) createSCIMToken(c *gin.Context) {
	var in scimTokenRequest
	if c.Request.ContentLength != 0 && !s.bind(c, &in) {
		return
	}
	t, secret, err := s.scim.CreateToken(c.Request.Context(), workspaceID(c), userID(c), in.Name)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.auditedHere(c, audit.SCIMTokenCreated, audit.Target("scim_token", t.ID), map[string]any{"name": t.Name, "prefix": t.Prefix})
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, newSCIMTokenAnswer{ID: t.ID, Token: secret, Name: t.Name, Prefix: t.Prefix,
		CreatedAt: t.CreatedAt, URL: s.scimBase(c)})
}

func (s *Server) listSCIMTokens(c *gin.Context) {
	ts, err := s.scim.Tokens(c.Request.Context(), workspaceID(c))
	s.reply(c, http.StatusOK, gin.H{"scim_tokens": ts, "url": s.scimBase(c)}, err)
}

func (s *Server) deleteSCIMToken(c *gin.Context) {
	id, ok := s.pathID(c, "id", "SCIM token")
	if !ok {
		return
	}
	err := s.scim.DeleteToken(c.Request.Context(), workspaceID(c), id)
	if err == nil {
		s.auditedHere(c, audit.SCIMTokenRevoked, audit.Target("scim_token", id), nil)
	}
	s.noContent(c, err)
}

type scimRolesBody struct {
	Mappings map[string]string `json:"mappings"`
}

func (s *Server) getSCIMRoles(c *gin.Context) {
	m, err := s.scim.RoleMapping(c.Request.Context(), workspaceID(c))
	if m == nil {
		m = map[string]string{}
	}
	s.reply(c, http.StatusOK, scimRolesBody{Mappings: m}, err)
}

func (s *Server) putSCIMRoles(c *gin.Context) {
	var in scimRolesBody
	if !s.bind(c, &in) {
		return
	}
	m, ch, err := s.scim.SetRoleMapping(c.Request.Context(), workspaceID(c), in.Mappings)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.auditedHere(c, audit.SCIMGroupChanged, "scim_roles", map[string]any{"mappings": m})
	s.scimChanged(c, ch)
	c.JSON(http.StatusOK, scimRolesBody{Mappings: m})
}
