package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
)

type meResponse struct {
	User       *account.User        `json:"user"`
	Workspaces []*account.Workspace `json:"workspaces"`
	// PendingEmail is the address the person asked to move to and has not confirmed yet.
	PendingEmail *string `json:"pending_email"`
	// TwoFactor is whether the person signs in with a second factor (confirmed, not pending).
	TwoFactor bool `json:"two_factor"`
}

// me answers who is signed in and the workspaces they may switch between, with their role in
// each.
func (s *Server) me(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	ctx := c.Request.Context()
	u, err := s.accounts.User(ctx, userID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	ws, err := s.accounts.WorkspacesOf(ctx, u.ID)
	if err == nil {
		err = s.effectivePlans(ctx, ws)
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	pending, err := s.accounts.PendingEmail(ctx, u.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	on, err := s.auth.TwoFactorOn(ctx, u.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	res := meResponse{User: u, Workspaces: ws, TwoFactor: on}
	if pending != "" {
		res.PendingEmail = &pending
	}
	c.JSON(http.StatusOK, res)
}
