package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/link"
)

// utmTemplateAnswer is a workspace's UTM template as the API shows it.
type utmTemplateAnswer struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	UTM       link.UTM  `json:"utm"`
	CreatedAt time.Time `json:"created_at"`
}

func answerUTMTemplate(t *link.UTMTemplate) utmTemplateAnswer {
	return utmTemplateAnswer{ID: t.ID, Name: t.Name, UTM: t.UTM, CreatedAt: t.CreatedAt}
}

type utmTemplateRequest struct {
	Name string   `json:"name"`
	UTM  link.UTM `json:"utm"`
}

func (s *Server) createUTMTemplate(c *gin.Context) {
	var in utmTemplateRequest
	if !s.bind(c, &in) {
		return
	}
	t, err := s.utmTemplates.Create(c.Request.Context(), workspaceID(c), in.Name, in.UTM)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.auditedHere(c, audit.UTMTemplateCreated, audit.Target("utm_template", t.ID), map[string]any{"name": t.Name, "utm": t.UTM})
	c.JSON(http.StatusCreated, answerUTMTemplate(t))
}

func (s *Server) listUTMTemplates(c *gin.Context) {
	ts, err := s.utmTemplates.List(c.Request.Context(), workspaceID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]utmTemplateAnswer, len(ts))
	for i, t := range ts {
		out[i] = answerUTMTemplate(t)
	}
	c.JSON(http.StatusOK, gin.H{"templates": out})
}

func (s *Server) deleteUTMTemplate(c *gin.Context) {
	id, ok := s.pathID(c, "id", "UTM template")
	if !ok {
		return
	}
	err := s.utmTemplates.Delete(c.Request.Context(), workspaceID(c), id)
	if err == nil {
		s.auditedHere(c, audit.UTMTemplateDeleted, audit.Target("utm_template", id), nil)
	}
	s.noContent(c, err)
}
