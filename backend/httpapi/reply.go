package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// The steps most handlers share: each answers the error itself when it fails and reports
// whether the handler may go on.

// pathID reads the numeric path parameter name; when it is no ID, it answers that the what is
// not found.
func (s *Server) pathID(c *gin.Context, name, what string) (int64, bool) {
	id, err := int64Param(c, name, what)
	if err != nil {
		s.fail(c, err)
		return 0, false
	}
	return id, true
}

// pathIDAndBody reads the numeric path parameter name, then the JSON body into v.
func (s *Server) pathIDAndBody(c *gin.Context, name, what string, v any) (int64, bool) {
	id, ok := s.pathID(c, name, what)
	return id, ok && s.bind(c, v)
}

// bind decodes the JSON body into v (decode), answering why when it cannot.
func (s *Server) bind(c *gin.Context, v any) bool {
	if err := s.decode(c, v); err != nil {
		s.fail(c, err)
		return false
	}
	return true
}

// pageOf reads the cursor and limit of a listing (the service checks the limit), answering
// why when either is not valid.
func (s *Server) pageOf(c *gin.Context, defaultLimit int) (before int64, limit int, ok bool) {
	before, limit, err := page(c, defaultLimit)
	if err != nil {
		s.fail(c, err)
		return 0, 0, false
	}
	return before, limit, true
}

// page reads the cursor and limit of a listing.
func page(c *gin.Context, defaultLimit int) (before int64, limit int, err error) {
	if limit, err = intQuery(c, "limit", defaultLimit); err != nil {
		return 0, 0, err
	}
	before, err = parseCursor(c.Query("cursor"))
	return before, limit, err
}

// reply answers v as JSON with status, or err when there is one.
func (s *Server) reply(c *gin.Context, status int, v any, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(status, v)
}

// replyNoStore answers v as JSON that no cache may keep, or err when there is one.
func (s *Server) replyNoStore(c *gin.Context, v any, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, v)
}

// replyStatus answers status with no body, or err when there is one.
func (s *Server) replyStatus(c *gin.Context, status int, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Status(status)
}

// noContent answers 204, or err when there is one.
func (s *Server) noContent(c *gin.Context, err error) { s.replyStatus(c, http.StatusNoContent, err) }
