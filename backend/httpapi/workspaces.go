package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/plan"
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
	if err == nil {
		err = s.effectivePlans(ctx, ws)
	}
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

type workspaceUpdate struct {
	Name *string `json:"name"`
	// Require2FA is owners' alone to change, and needs a plan with sso to turn on.
	Require2FA *bool `json:"require_2fa"`
	sessionPolicyUpdate
}

// updateWorkspace renames the workspace and sets whether it requires two-factor sign-in of
// its members; plans are changed by operators (admin.go) and billing.
func (s *Server) updateWorkspace(c *gin.Context) {
	var in workspaceUpdate
	if !s.bind(c, &in) {
		return
	}
	ctx, id := c.Request.Context(), workspaceID(c)
	if in.Name != nil || (in.Require2FA == nil && !in.sessionPolicyUpdate.set()) {
		if _, err := account.ValidateName(deref(in.Name)); err != nil {
			s.fail(c, err)
			return
		}
	}
	if in.Require2FA != nil && !s.setRequire2FA(c, *in.Require2FA) {
		return
	}
	if in.sessionPolicyUpdate.set() && !s.setSessionPolicy(c, in.sessionPolicyUpdate) {
		return
	}
	var ws *account.Workspace
	var err error
	if in.Name != nil {
		ws, err = s.accounts.RenameWorkspace(ctx, id, *in.Name)
		if err == nil {
			s.auditedHere(c, audit.WorkspaceRenamed, audit.Target("workspace", ws.ID), map[string]any{"name": ws.Name})
		}
	} else {
		ws, err = s.accounts.Workspace(ctx, id)
	}
	s.replyWorkspace(c, ws, err)
}

// setRequire2FA turns the workspace's 2FA requirement on or off for its owner, recording a
// change in the audit log; false when it answered an error.
func (s *Server) setRequire2FA(c *gin.Context, on bool) bool {
	ctx, id := c.Request.Context(), workspaceID(c)
	if on {
		if err := s.plans.Require(ctx, id, plan.SSO); err != nil {
			s.fail(c, err)
			return false
		}
	}
	own, err := s.auth.TwoFactorOn(ctx, userID(c))
	if err != nil {
		s.fail(c, err)
		return false
	}
	_, changed, err := s.accounts.SetRequire2FA(ctx, id, roleOf(c), own, on)
	if err != nil {
		s.fail(c, err)
		return false
	}
	if changed {
		s.auditedHere(c, audit.TwoFactorRequired, audit.Target("workspace", id), map[string]any{"require_2fa": on})
	}
	return true
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// replyWorkspace answers ws with the caller's role in it, or err when there is one.
func (s *Server) replyWorkspace(c *gin.Context, ws *account.Workspace, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	ws.Role = roleOf(c)
	if err := s.effectivePlans(c.Request.Context(), []*account.Workspace{ws}); err != nil {
		s.fail(c, err)
		return
	}
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
