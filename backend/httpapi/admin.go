package httpapi

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
)

type planRequest struct {
	Plan string `json:"plan"`
}

type systemRoleRequest struct {
	SystemRole string `json:"system_role"`
}

func (s *Server) adminListWorkspaces(c *gin.Context) {
	adminList(s, c, "workspaces", s.accounts.ListWorkspaces, func(w *account.Workspace) int64 { return w.ID })
}

// adminUpdateWorkspace moves a workspace to another plan.
func (s *Server) adminUpdateWorkspace(c *gin.Context) {
	var in planRequest
	id, ok := s.pathIDAndBody(c, "workspace", "workspace", &in)
	if !ok {
		return
	}
	ws, err := s.accounts.SetPlan(c.Request.Context(), id, in.Plan)
	if err == nil {
		s.rates.forget(id)
		s.audited(c, id, audit.PlanChanged, audit.Target("workspace", id), map[string]any{"plan": ws.Plan})
	}
	s.reply(c, http.StatusOK, ws, err)
}

func (s *Server) adminListUsers(c *gin.Context) {
	adminList(s, c, "users", s.accounts.ListUsers, func(u *account.User) int64 { return u.ID })
}

// adminUpdateUser sets a user's system role (user, moderator, operator).
func (s *Server) adminUpdateUser(c *gin.Context) {
	var in systemRoleRequest
	id, ok := s.pathIDAndBody(c, "user", "user", &in)
	if !ok {
		return
	}
	u, err := s.accounts.SetSystemRole(c.Request.Context(), id, in.SystemRole)
	if err == nil {
		// The change signed out every session of the person: their access tokens stop now.
		s.auth.ForgetSessions()
	}
	s.reply(c, http.StatusOK, u, err)
}

// adminList answers a page of an operator listing under key. A full page has a next cursor,
// the id of its last item; the next page may be empty.
func adminList[T any](s *Server, c *gin.Context, key string,
	list func(ctx context.Context, before int64, limit int) ([]T, error), id func(T) int64) {
	before, limit, ok := s.pageOf(c, 50)
	if !ok {
		return
	}
	items, err := list(c.Request.Context(), before, limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	next := ""
	if len(items) == limit {
		next = cursor(id(items[len(items)-1]))
	}
	c.JSON(http.StatusOK, gin.H{key: items, "next_cursor": next})
}
