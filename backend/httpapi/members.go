package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

func (s *Server) listMembers(c *gin.Context) {
	ms, err := s.accounts.Members(c.Request.Context(), workspaceID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"members": ms})
}

type roleRequest struct {
	Role string `json:"role"`
}

func (s *Server) updateMember(c *gin.Context) {
	uid, err := int64Param(c, "user", "member")
	if err != nil {
		s.fail(c, err)
		return
	}
	var in roleRequest
	if err := s.decode(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	m, err := s.accounts.SetMemberRole(c.Request.Context(), workspaceID(c), roleOf(c), uid, in.Role)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, m)
}

// removeMember removes a member, or lets any member leave (the route needs only PermRead;
// the service decides who may remove whom).
func (s *Server) removeMember(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	uid, err := int64Param(c, "user", "member")
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := s.accounts.RemoveMember(c.Request.Context(), workspaceID(c), userID(c), roleOf(c), uid); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
