package httpapi

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/scim"
)

// SCIM 2.0 per workspace at /scim/v2/{workspace}/ (docs/scim.md): the identity provider's
// calls, with a workspace's SCIM token as the bearer. Errors take SCIM's shape (fail does,
// once scimShape marked the request).

const (
	scimShapeKey = "scim_shape"
	scimTokenKey = "scim_token"
)

// scimRoutes serves SCIM beside the API: outside /api/v1, so outside the OpenAPI document.
func (s *Server) scimRoutes() {
	g := s.engine.Group("/scim/v2/:workspace", s.scimShape, s.scimAuth)
	g.GET("/ServiceProviderConfig", s.scimServiceProviderConfig)
	g.GET("/ResourceTypes", s.scimResourceTypes)
	g.GET("/ResourceTypes/:id", s.scimResourceType)
	g.GET("/Schemas", s.scimSchemas)
	g.GET("/Schemas/:id", s.scimSchema)
	g.GET("/Users", s.scimListUsers)
	g.POST("/Users", s.scimCreateUser)
	g.GET("/Users/:id", s.scimGetUser)
	g.PUT("/Users/:id", s.scimReplaceUser)
	g.PATCH("/Users/:id", s.scimPatchUser)
	g.DELETE("/Users/:id", s.scimDeleteUser)
	g.GET("/Groups", s.scimListGroups)
	g.POST("/Groups", s.scimCreateGroup)
	g.GET("/Groups/:id", s.scimGetGroup)
	g.PUT("/Groups/:id", s.scimReplaceGroup)
	g.PATCH("/Groups/:id", s.scimPatchGroup)
	g.DELETE("/Groups/:id", s.scimDeleteGroup)
}

// scimShape marks the request's errors as SCIM's.
func (s *Server) scimShape(c *gin.Context) {
	c.Set(scimShapeKey, true)
	c.Next()
}

// scimError writes an error in SCIM's shape: status as a string, scimType from the reason.
func scimError(c *gin.Context, status int, d errorDetail) {
	body, _ := json.Marshal(scim.ErrorJSON{Schemas: []string{scim.SchemaError}, Status: strconv.Itoa(status),
		ScimType: scim.ErrorType(d.Reason), Detail: d.Message})
	c.Abort()
	c.Data(status, scim.ContentType+"; charset=utf-8", body)
}

// scimAuth admits a request with a SCIM token of the path's workspace (a token of another
// workspace is refused like a wrong one), whose plan has sso; it is then counted against the
// workspace's budget, as the workspace's members' requests are.
func (s *Server) scimAuth(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("workspace"), 10, 64)
	scheme, token, _ := strings.Cut(c.GetHeader("Authorization"), " ")
	if err != nil || id < 1 || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		s.fail(c, scim.ErrTokenInvalid)
		return
	}
	t, err := s.scim.Authenticate(c.Request.Context(), id, strings.TrimSpace(token))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Set(workspaceKey, id)
	c.Set(scimTokenKey, t)
	if !s.count(c, s.workspaceBudget(c, id)) {
		return
	}
	c.Next()
}

// scimBase is the workspace's SCIM URL, which resources' locations start with.
func (s *Server) scimBase(c *gin.Context) string {
	return s.scimURL + "/" + strconv.FormatInt(workspaceID(c), 10)
}

// scimReply answers v as SCIM JSON.
func (s *Server) scimReply(c *gin.Context, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Data(status, scim.ContentType+"; charset=utf-8", body)
}

// scimBody reads a request's body: SCIM JSON (or plain JSON), bounded like every body.
func (s *Server) scimBody(c *gin.Context) ([]byte, bool) {
	mt, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || (mt != scim.ContentType && mt != "application/json") {
		s.fail(c, apperr.Errorf(apperr.Invalid, "send the body as %s", scim.ContentType).For("scim_invalid_syntax", ""))
		return nil, false
	}
	b, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, s.maxBody))
	if err != nil {
		s.fail(c, err)
		return nil, false
	}
	return b, true
}

// scimPage reads startIndex (1-based; below 1 is 1) and count (at most scim.MaxCount).
func (s *Server) scimPage(c *gin.Context) (scim.Page, bool) {
	p := scim.Page{StartIndex: 1, Count: scim.DefaultCount}
	for _, q := range []struct {
		name string
		to   *int
	}{{"startIndex", &p.StartIndex}, {"count", &p.Count}} {
		if v := c.Query(q.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				s.fail(c, apperr.Errorf(apperr.Invalid, "%s must be an integer", q.name).For("scim_invalid_value", ""))
				return p, false
			}
			*q.to = n
		}
	}
	p.StartIndex = max(p.StartIndex, 1)
	p.Count = min(max(p.Count, 0), scim.MaxCount)
	return p, true
}

// scimAudited records a SCIM change in the workspace's audit log; the actor is the service
// acting for the token, which the details name.
func (s *Server) scimAudited(c *gin.Context, action audit.Action, target string, details map[string]any) {
	if details == nil {
		details = map[string]any{}
	}
	if t, ok := c.Get(scimTokenKey); ok {
		details["scim_token"] = t.(*scim.Token).ID
	}
	s.auditedBy(c, audit.System(), workspaceID(c), action, target, details)
}

// scimChanged makes what a change did take effect at once on this node (the sessions it
// ended, the keys it revoked, which other nodes hear of too) and records it.
func (s *Server) scimChanged(c *gin.Context, ch scim.Changed) {
	if len(ch.EndedSessionsOf) > 0 {
		s.auth.ForgetSessions()
	}
	s.accounts.KeysRevoked(c.Request.Context(), ch.RevokedKeys)
	for _, id := range ch.Deprovisioned {
		s.scimAudited(c, audit.SCIMUserDeprovisioned, audit.Target("user", id), map[string]any{"api_keys_revoked": len(ch.RevokedKeys)})
	}
	for _, id := range ch.Restored {
		s.scimAudited(c, audit.SCIMUserRestored, audit.Target("user", id), nil)
	}
	for id, role := range ch.Roles {
		s.scimAudited(c, audit.SCIMRoleChanged, audit.Target("user", id), map[string]any{"role": role})
	}
}

func (s *Server) scimListUsers(c *gin.Context) {
	q, err := scim.ParseUserFilter(c.Query("filter"))
	if err != nil {
		s.fail(c, err)
		return
	}
	p, ok := s.scimPage(c)
	if !ok {
		return
	}
	users, total, err := s.scim.Users(c.Request.Context(), workspaceID(c), q, p)
	if err != nil {
		s.fail(c, err)
		return
	}
	items := make([]any, 0, len(users))
	for _, u := range users {
		items = append(items, scim.UserAnswer(u, s.scimBase(c)))
	}
	s.scimReply(c, http.StatusOK, scim.List(total, p, items))
}

func (s *Server) scimCreateUser(c *gin.Context) {
	body, ok := s.scimBody(c)
	if !ok {
		return
	}
	in, err := scim.DecodeUser(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	u, ch, err := s.scim.CreateUser(c.Request.Context(), workspaceID(c), in)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimAudited(c, audit.SCIMUserProvisioned, audit.Target("user", u.UserID), map[string]any{"email": u.UserName, "active": u.Active})
	s.scimChanged(c, ch)
	a := scim.UserAnswer(u, s.scimBase(c))
	c.Header("Location", a.Meta.Location)
	s.scimReply(c, http.StatusCreated, a)
}

func (s *Server) scimGetUser(c *gin.Context) {
	u, err := s.scim.User(c.Request.Context(), workspaceID(c), c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimReply(c, http.StatusOK, scim.UserAnswer(u, s.scimBase(c)))
}

func (s *Server) scimReplaceUser(c *gin.Context) {
	body, ok := s.scimBody(c)
	if !ok {
		return
	}
	in, err := scim.DecodeUser(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	u, ch, err := s.scim.ReplaceUser(c.Request.Context(), workspaceID(c), c.Param("id"), in)
	s.scimUserChanged(c, u, ch, err)
}

func (s *Server) scimPatchUser(c *gin.Context) {
	body, ok := s.scimBody(c)
	if !ok {
		return
	}
	p, err := scim.DecodePatch(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	u, ch, err := s.scim.PatchUser(c.Request.Context(), workspaceID(c), c.Param("id"), p.Operations)
	s.scimUserChanged(c, u, ch, err)
}

func (s *Server) scimUserChanged(c *gin.Context, u *scim.User, ch scim.Changed, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimChanged(c, ch)
	s.scimReply(c, http.StatusOK, scim.UserAnswer(u, s.scimBase(c)))
}

func (s *Server) scimDeleteUser(c *gin.Context) {
	u, err := s.scim.User(c.Request.Context(), workspaceID(c), c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	ch, err := s.scim.DeleteUser(c.Request.Context(), workspaceID(c), u.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimChanged(c, ch)
	s.scimAudited(c, audit.SCIMUserDeleted, audit.Target("user", u.UserID), map[string]any{"email": u.UserName})
	c.Status(http.StatusNoContent)
}

func (s *Server) scimListGroups(c *gin.Context) {
	q, err := scim.ParseGroupFilter(c.Query("filter"))
	if err != nil {
		s.fail(c, err)
		return
	}
	p, ok := s.scimPage(c)
	if !ok {
		return
	}
	withoutMembers := strings.Contains(strings.ToLower(c.Query("excludedAttributes")), "members")
	groups, total, err := s.scim.Groups(c.Request.Context(), workspaceID(c), q, p, withoutMembers)
	if err != nil {
		s.fail(c, err)
		return
	}
	items := make([]any, 0, len(groups))
	for _, g := range groups {
		items = append(items, scim.GroupAnswer(g, s.scimBase(c)))
	}
	s.scimReply(c, http.StatusOK, scim.List(total, p, items))
}

func (s *Server) scimCreateGroup(c *gin.Context) {
	body, ok := s.scimBody(c)
	if !ok {
		return
	}
	in, err := scim.DecodeGroup(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	g, ch, err := s.scim.CreateGroup(c.Request.Context(), workspaceID(c), in)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimAudited(c, audit.SCIMGroupChanged, "scim_group:"+g.ID, map[string]any{"display_name": g.DisplayName, "created": true})
	s.scimChanged(c, ch)
	a := scim.GroupAnswer(g, s.scimBase(c))
	c.Header("Location", a.Meta.Location)
	s.scimReply(c, http.StatusCreated, a)
}

func (s *Server) scimGetGroup(c *gin.Context) {
	g, err := s.scim.Group(c.Request.Context(), workspaceID(c), c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimReply(c, http.StatusOK, scim.GroupAnswer(g, s.scimBase(c)))
}

func (s *Server) scimReplaceGroup(c *gin.Context) {
	body, ok := s.scimBody(c)
	if !ok {
		return
	}
	in, err := scim.DecodeGroup(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	g, ch, err := s.scim.ReplaceGroup(c.Request.Context(), workspaceID(c), c.Param("id"), in)
	s.scimGroupChanged(c, g, ch, err)
}

func (s *Server) scimPatchGroup(c *gin.Context) {
	body, ok := s.scimBody(c)
	if !ok {
		return
	}
	p, err := scim.DecodePatch(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	g, ch, err := s.scim.PatchGroup(c.Request.Context(), workspaceID(c), c.Param("id"), p.Operations)
	if err == nil {
		// Okta and Entra ID expect 204 or the group; 204 spares listing a large group.
		s.scimAudited(c, audit.SCIMGroupChanged, "scim_group:"+g.ID, map[string]any{"display_name": g.DisplayName})
		s.scimChanged(c, ch)
		c.Status(http.StatusNoContent)
		return
	}
	s.fail(c, err)
}

func (s *Server) scimGroupChanged(c *gin.Context, g *scim.Group, ch scim.Changed, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimAudited(c, audit.SCIMGroupChanged, "scim_group:"+g.ID, map[string]any{"display_name": g.DisplayName})
	s.scimChanged(c, ch)
	s.scimReply(c, http.StatusOK, scim.GroupAnswer(g, s.scimBase(c)))
}

func (s *Server) scimDeleteGroup(c *gin.Context) {
	id := c.Param("id")
	ch, err := s.scim.DeleteGroup(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.scimAudited(c, audit.SCIMGroupChanged, "scim_group:"+id, map[string]any{"deleted": true})
	s.scimChanged(c, ch)
	c.Status(http.StatusNoContent)
}

func (s *Server) scimServiceProviderConfig(c *gin.Context) {
	s.scimReply(c, http.StatusOK, scim.ServiceProviderConfig(s.scimBase(c)))
}

func (s *Server) scimResourceTypes(c *gin.Context) {
	docs := scim.ResourceTypes(s.scimBase(c))
	s.scimReply(c, http.StatusOK, scim.List(len(docs), scim.Page{StartIndex: 1}, docs))
}

func (s *Server) scimResourceType(c *gin.Context) {
	s.scimDoc(c, scim.ResourceTypes(s.scimBase(c)), "resource type")
}

func (s *Server) scimSchemas(c *gin.Context) {
	docs := scim.Schemas(s.scimBase(c))
	s.scimReply(c, http.StatusOK, scim.List(len(docs), scim.Page{StartIndex: 1}, docs))
}

func (s *Server) scimSchema(c *gin.Context) { s.scimDoc(c, scim.Schemas(s.scimBase(c)), "schema") }

func (s *Server) scimDoc(c *gin.Context, docs []any, what string) {
	d := scim.Find(docs, c.Param("id"))
	if d == nil {
		s.fail(c, apperr.Errorf(apperr.NotFound, "no such %s", what).For("scim_not_found", ""))
		return
	}
	s.scimReply(c, http.StatusOK, d)
}
