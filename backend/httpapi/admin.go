package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

type planRequest struct {
	Plan string `json:"plan"`
}

type systemRoleRequest struct {
	SystemRole string `json:"system_role"`
}

func (s *Server) adminListWorkspaces(c *gin.Context) {
	before, limit, err := page(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	ws, err := s.accounts.ListWorkspaces(c.Request.Context(), before, limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	next := ""
	if len(ws) == limit {
		next = cursor(ws[len(ws)-1].ID)
	}
	c.JSON(http.StatusOK, gin.H{"workspaces": ws, "next_cursor": next})
}

// adminUpdateWorkspace moves a workspace to another plan.
func (s *Server) adminUpdateWorkspace(c *gin.Context) {
	id, err := int64Param(c, "workspace", "workspace")
	if err != nil {
		s.fail(c, err)
		return
	}
	var in planRequest
	if err := s.decode(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	ws, err := s.accounts.SetPlan(c.Request.Context(), id, in.Plan)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.rates.forget(id)
	c.JSON(http.StatusOK, ws)
}

func (s *Server) adminListUsers(c *gin.Context) {
	before, limit, err := page(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	us, err := s.accounts.ListUsers(c.Request.Context(), before, limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	next := ""
	if len(us) == limit {
		next = cursor(us[len(us)-1].ID)
	}
	c.JSON(http.StatusOK, gin.H{"users": us, "next_cursor": next})
}

// adminUpdateUser sets a user's system role (user, moderator, operator).
func (s *Server) adminUpdateUser(c *gin.Context) {
	id, err := int64Param(c, "user", "user")
	if err != nil {
		s.fail(c, err)
		return
	}
	var in systemRoleRequest
	if err := s.decode(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	u, err := s.accounts.SetSystemRole(c.Request.Context(), id, in.SystemRole)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, u)
}

// page reads the cursor and limit of an operator listing (the service checks the limit).
func page(c *gin.Context) (before int64, limit int, err error) {
	if limit, err = intQuery(c, "limit", 50); err != nil {
		return 0, 0, err
	}
	before, err = parseCursor(c.Query("cursor"))
	return before, limit, err
}
