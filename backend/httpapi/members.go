package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
)

func (s *Server) listMembers(c *gin.Context) {
	ms, err := s.accounts.Members(c.Request.Context(), workspaceID(c))
	s.reply(c, http.StatusOK, gin.H{"members": ms}, err)
}

type roleRequest struct {
	Role string `json:"role"`
}

func (s *Server) updateMember(c *gin.Context) {
	var in roleRequest
	uid, ok := s.pathIDAndBody(c, "user", "member", &in)
	if !ok {
		return
	}
	m, err := s.accounts.SetMemberRole(c.Request.Context(), workspaceID(c), roleOf(c), uid, in.Role)
	if err == nil {
		s.auditedHere(c, audit.MemberRoleChanged, audit.Target("user", uid), map[string]any{"role": in.Role})
	}
	s.reply(c, http.StatusOK, m, err)
}

// removeMember removes a member, or lets any member leave (the route needs only PermRead;
// the service decides who may remove whom).
func (s *Server) removeMember(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	if uid, ok := s.pathID(c, "user", "member"); ok {
		err := s.accounts.RemoveMember(c.Request.Context(), workspaceID(c), userID(c), roleOf(c), uid)
		if err == nil {
			action := audit.MemberRemoved
			if uid == userID(c) {
				action = audit.MemberLeft
			}
			// The log names the member by their address once they are no longer one.
			var gone map[string]any
			if u, err := s.accounts.User(c.Request.Context(), uid); err == nil {
				gone = map[string]any{"email": u.Email}
			}
			s.auditedHere(c, action, audit.Target("user", uid), gone)
		}
		s.noContent(c, err)
	}
}
