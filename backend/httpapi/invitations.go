package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/audit"
)

type inviteRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// invite invites an email address, whether or not it has an account; the role defaults to
// member. Past the workspace's hourly budget it answers 429 with Retry-After.
func (s *Server) invite(c *gin.Context) {
	var in inviteRequest
	if !s.bind(c, &in) {
		return
	}
	if in.Role == "" {
		in.Role = account.RoleMember
	}
	inv, err := s.accounts.Invite(c.Request.Context(), workspaceID(c), userID(c), in.Email, in.Role)
	if s.limited(c, err) {
		return
	}
	s.auditedHere(c, audit.InvitationSent, audit.Target("invitation", inv.ID), map[string]any{"email": inv.Email, "role": inv.Role})
	c.JSON(http.StatusCreated, inv)
}

func (s *Server) listInvitations(c *gin.Context) {
	invs, err := s.accounts.Invitations(c.Request.Context(), workspaceID(c))
	s.reply(c, http.StatusOK, gin.H{"invitations": invs}, err)
}

func (s *Server) cancelInvitation(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "invitation"); ok {
		err := s.accounts.CancelInvitation(c.Request.Context(), workspaceID(c), id)
		if err == nil {
			s.auditedHere(c, audit.InvitationWithdrawn, audit.Target("invitation", id), nil)
		}
		s.noContent(c, err)
	}
}

// resendInvitation mails a waiting invitation again with a new link; the old link stops
// working. It counts against the workspace's hourly invitations (429 past them).
func (s *Server) resendInvitation(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "invitation"); ok {
		inv, err := s.accounts.ResendInvitation(c.Request.Context(), workspaceID(c), userID(c), id)
		if s.limited(c, err) {
			return
		}
		s.auditedHere(c, audit.InvitationResent, audit.Target("invitation", inv.ID), map[string]any{"email": inv.Email})
		c.JSON(http.StatusOK, inv)
	}
}

// myInvitations lists the invitations the signed-in user has received.
func (s *Server) myInvitations(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	invs, err := s.accounts.InvitationsFor(c.Request.Context(), userID(c))
	s.reply(c, http.StatusOK, gin.H{"invitations": invs}, err)
}

// acceptInvitation answers the workspace joined, with the caller's new role in it.
func (s *Server) acceptInvitation(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	if id, ok := s.pathID(c, "id", "invitation"); ok {
		ws, err := s.accounts.AcceptInvitation(c.Request.Context(), userID(c), id)
		if err == nil {
			s.audited(c, ws.ID, audit.InvitationAccepted, audit.Target("invitation", id), map[string]any{"role": ws.Role})
		}
		s.reply(c, http.StatusOK, ws, err)
	}
}

func (s *Server) declineInvitation(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	if id, ok := s.pathID(c, "id", "invitation"); ok {
		s.noContent(c, s.accounts.DeclineInvitation(c.Request.Context(), userID(c), id))
	}
}

// previewInvitation tells the holder of an invitation link's secret (?token=) which
// workspace invites them, by whom and as what, before they sign in or up; 404 for anything
// else, alike whether the invitation exists.
func (s *Server) previewInvitation(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "invitation"); ok {
		p, err := s.accounts.PreviewInvitation(c.Request.Context(), id, c.Query("token"))
		s.reply(c, http.StatusOK, p, err)
	}
}
