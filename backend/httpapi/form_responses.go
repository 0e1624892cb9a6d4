package httpapi

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
)

type formResponseAnswer struct {
	Answers   map[string]string `json:"answers"`
	CreatedAt time.Time         `json:"created_at"`
}

// listFormResponses answers a page of the answers given to a link's form, newest first. They
// stay readable on every plan: a downgrade stops the form, not access to what it collected.
func (s *Server) listFormResponses(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	before, limit, ok := s.pageOf(c, 50)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	l, err := s.links.Get(ctx, workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, next, err := s.responses.List(ctx, l.WorkspaceID, l.ID, before, limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]formResponseAnswer, len(page))
	for i, r := range page {
		out[i] = formResponseAnswer{Answers: r.Answers, CreatedAt: r.CreatedAt}
		if out[i].Answers == nil {
			out[i].Answers = map[string]string{}
		}
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{"responses": out, "next_cursor": cursor(next)})
}

// exportFormResponses streams every answer given to a link's form as CSV, oldest first: a
// data export, so it needs the export feature. Columns: created_at, the form's fields in
// order, then fields answered before they were removed from the form.
func (s *Server) exportFormResponses(c *gin.Context) {
	// The link first: another workspace's link is not found whatever this one's plan.
	l, ok := s.pathLink(c)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	if err := s.plans.Require(ctx, l.WorkspaceID, plan.Export); err != nil {
		s.fail(c, err)
		return
	}
	columns, all, err := s.responses.Export(ctx, l)
	if err != nil {
		s.fail(c, err)
		return
	}
	header := append([]string{"created_at"}, columns...)
	streamCSV(s, c, fmt.Sprintf("link-%d-responses.csv", l.ID), header, all, func(r link.FormResponse, record []string) {
		record[0] = r.CreatedAt.UTC().Format(time.RFC3339)
		for i, name := range columns {
			record[1+i] = csvCell(r.Answers[name])
		}
	})
}
