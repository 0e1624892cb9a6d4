package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/plan"
)

// getPlan answers the workspace's effective plan, its features, limits and usage.
func (s *Server) getPlan(c *gin.Context) {
	st, err := s.plans.Status(c.Request.Context(), workspaceID(c))
	s.reply(c, http.StatusOK, st, err)
}

// listPlans answers every plan with its prices, features and limits, for anyone: the table
// the gate enforces, so what the app shows is what the server allows. checkout says whether
// plans can be bought here; without billing the operator sets plans and the trial is free.
func (s *Server) listPlans(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"plans": s.offers(c), "features": plan.Features, "checkout": s.billing != nil})
}

// trialWorkspace is the workspace answer of a started trial: the workspace with its end.
type trialWorkspace struct {
	*account.Workspace
	TrialEndsAt *time.Time `json:"trial_ends_at"`
}

// startTrial puts the workspace on the trial; a workspace gets one (409 trial_used). With
// billing on, the trial is paid for: the answer is a Checkout Session's URL instead.
func (s *Server) startTrial(c *gin.Context) {
	if s.billing != nil {
		s.trialCheckout(c)
		return
	}
	ctx := c.Request.Context()
	st, err := s.plans.StartTrial(ctx, workspaceID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	s.rates.forget(workspaceID(c))
	s.auditedHere(c, audit.TrialStarted, audit.Target("workspace", workspaceID(c)), map[string]any{"plan": plan.Trial, "ends_at": st.TrialEndsAt})
	ws, err := s.accounts.Workspace(ctx, workspaceID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	ws.Role = roleOf(c)
	c.JSON(http.StatusOK, trialWorkspace{Workspace: ws, TrialEndsAt: st.TrialEndsAt})
}
