package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
)

type nameRequest struct {
	Name string `json:"name"`
}

// listWorkspaces lists the signed-in user's workspaces. A key reaches only what its scopes
// name, and no scope names workspaces.
func (s *Server) listWorkspaces(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	ctx := c.Request.Context()
	ws, err := s.accounts.WorkspacesOf(ctx, userID(c))
	s.reply(c, http.StatusOK, gin.H{"workspaces": ws}, err)
}

func (s *Server) createWorkspace(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	var in nameRequest
	if !s.bind(c, &in) {
		return
	}
	ws, err := s.accounts.CreateWorkspace(c.Request.Context(), userID(c), in.Name)
	s.reply(c, http.StatusCreated, ws, err)
}

func (s *Server) getWorkspace(c *gin.Context) {
	ws, err := s.accounts.Workspace(c.Request.Context(), workspaceID(c))
	s.replyWorkspace(c, ws, err)
}

// updateWorkspace renames the workspace; plans are changed by operators (admin.go).
func (s *Server) updateWorkspace(c *gin.Context) {
	var in nameRequest
	if !s.bind(c, &in) {
		return
	}
	ws, err := s.accounts.RenameWorkspace(c.Request.Context(), workspaceID(c), in.Name)
	if err == nil {
		s.auditedHere(c, audit.WorkspaceRenamed, audit.Target("workspace", ws.ID), map[string]any{"name": ws.Name})
	}
	s.replyWorkspace(c, ws, err)
}

// replyWorkspace answers ws with the caller's role in it, or err when there is one.
func (s *Server) replyWorkspace(c *gin.Context, ws *account.Workspace, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	ws.Role = roleOf(c)
	c.JSON(http.StatusOK, ws)
}

func (s *Server) deleteWorkspace(c *gin.Context) {
	s.noContent(c, s.accounts.DeleteWorkspace(c.Request.Context(), workspaceID(c)))
}

type transferRequest struct {
	UserID int64 `json:"user_id"`
}

// transferWorkspace hands the workspace to another member: they become its owner and the
// caller, its owner until now, an admin. Answers the new owner's membership.
func (s *Server) transferWorkspace(c *gin.Context) {
	var in transferRequest
	if !s.bind(c, &in) {
		return
	}
	m, err := s.accounts.TransferOwnership(c.Request.Context(), workspaceID(c), userID(c), roleOf(c), in.UserID)
	if err == nil {
		s.auditedHere(c, audit.WorkspaceTransferred, audit.Target("user", in.UserID), nil)
	}
	s.reply(c, http.StatusOK, m, err)
}
