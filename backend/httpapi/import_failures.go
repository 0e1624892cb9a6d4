package httpapi

import (
	"github.com/gin-gonic/gin"
)

// importFailureAnswer is one failed row of an import: where it is in the file, the URL as given,
// and the error with its finer reason (docs/api.md#errors), which the web app translates.
type importFailureAnswer struct {
	Row         int    `json:"row"`
	Line        int    `json:"line"`
	URL         string `json:"url"`
	ErrorCode   string `json:"error_code"`
	Error       string `json:"error"`
	ErrorReason string `json:"error_reason"`
}

// importFailures answers a page of an import's failed rows in row order, while it runs and
// after (docs/domains-and-imports.md#csv-imports).
func (s *Server) importFailures(c *gin.Context) {
	id, ok := s.pathID(c, "id", "import")
	if !ok {
		return
	}
	after, limit, ok := s.pageOf(c, 20)
	if !ok {
		return
	}
	rows, next, err := s.imports.Failures(c.Request.Context(), workspaceID(c), id, after, limit)
	out := make([]importFailureAnswer, len(rows))
	for i, r := range rows {
		out[i] = importFailureAnswer{Row: r.Row, Line: r.Line, URL: r.URL, ErrorCode: r.ErrorCode, Error: r.Error, ErrorReason: r.ErrorReason}
	}
	s.replyNoStore(c, gin.H{"items": out, "next_cursor": cursor(next)}, err)
}
