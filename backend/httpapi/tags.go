package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/tag"
)

func (s *Server) listTags(c *gin.Context) {
	tags, err := s.tags.List(c.Request.Context(), workspaceID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"tags": tags})
}

func (s *Server) createTag(c *gin.Context) {
	var in tag.Input
	if !s.bind(c, &in) {
		return
	}
	t, err := s.tags.Create(c.Request.Context(), workspaceID(c), in)
	s.reply(c, http.StatusCreated, t, err)
}

func (s *Server) updateTag(c *gin.Context) {
	var p tag.Patch
	id, ok := s.pathIDAndBody(c, "id", "tag", &p)
	if !ok {
		return
	}
	t, err := s.tags.Update(c.Request.Context(), workspaceID(c), id, p)
	s.reply(c, http.StatusOK, t, err)
}

func (s *Server) deleteTag(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "tag"); ok {
		s.noContent(c, s.tags.Delete(c.Request.Context(), workspaceID(c), id))
	}
}
