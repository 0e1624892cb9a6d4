package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

type bulkEditRequest struct {
	IDs []int64      `json:"ids"`
	Set link.BulkSet `json:"set"`
}

type bulkEditResult struct {
	ID    int64        `json:"id"`
	Link  *linkAnswer  `json:"link,omitempty"`
	Error *errorDetail `json:"error,omitempty"`
}

// bulkEditLinks changes the status, expiry or tags of up to link.MaxBulk links, answering each
// ID in input order with the link as changed or the error that left it as it was. It costs one
// request of the rate limit per ID.
func (s *Server) bulkEditLinks(c *gin.Context) {
	var req bulkEditRequest
	if !s.bind(c, &req) {
		return
	}
	// A link a row (docs/security.md, "Rate limits"); a list of a size BulkUpdate refuses costs
	// one request, as any refused request.
	if n := len(req.IDs); n <= link.MaxBulk && !s.charge(c, n) {
		return
	}
	results, err := s.links.BulkUpdate(c.Request.Context(), workspaceID(c), req.IDs, req.Set)
	if err != nil {
		s.fail(c, err)
		return
	}
	made := make([]*link.Link, len(results))
	for i, r := range results {
		made[i] = r.Link
	}
	answers := s.answerLinks(c, made)
	out := make([]bulkEditResult, len(results))
	for i, r := range results {
		out[i].ID = req.IDs[i]
		if r.Err != nil {
			out[i].Error = &errorDetail{Code: apperr.CodeOf(r.Err), Message: apperr.MessageOf(r.Err), Reason: apperr.ReasonOf(r.Err), Field: apperr.FieldOf(r.Err)}
			continue
		}
		out[i].Link = answers[i]
	}
	c.JSON(http.StatusOK, gin.H{"results": out})
}
