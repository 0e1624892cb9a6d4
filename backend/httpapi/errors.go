package httpapi

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
)

// statuses maps application error codes to HTTP statuses: the one place that does.
var statuses = map[string]int{
	apperr.Invalid:       http.StatusBadRequest,
	apperr.Unauthorized:  http.StatusUnauthorized,
	apperr.Forbidden:     http.StatusForbidden,
	apperr.NotFound:      http.StatusNotFound,
	apperr.Conflict:      http.StatusConflict,
	apperr.PlanRequired:  http.StatusForbidden,
	apperr.QuotaExceeded: http.StatusForbidden,
	apperr.RateLimited:   http.StatusTooManyRequests,
	apperr.TooLarge:      http.StatusRequestEntityTooLarge,
	apperr.Unavailable:   http.StatusServiceUnavailable,
	apperr.Internal:      http.StatusInternalServerError,
}

// errorBody is the shape of every error answer: {"error":{"code","message"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"request_id,omitempty"`
}

// fail answers err in the error shape. Internal errors are logged with their details and shown
// to the client only as "internal error" with the request ID.
func (s *Server) fail(c *gin.Context, err error) {
	code := apperr.CodeOf(err)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		code, err = apperr.TooLarge, apperr.Errorf(apperr.TooLarge, "request body is larger than %d bytes", mbe.Limit)
	}
	status, ok := statuses[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	detail := errorDetail{Code: code, Message: apperr.MessageOf(err)}
	if status >= 500 {
		detail.RequestID = c.GetString(requestIDKey)
		level := slog.LevelError
		if code == apperr.Unavailable {
			level = slog.LevelWarn
		}
		s.log.Log(c.Request.Context(), level, "request failed", "method", c.Request.Method,
			"path", c.FullPath(), "request_id", detail.RequestID, "err", err)
	}
	c.AbortWithStatusJSON(status, errorBody{Error: detail})
}
