package httpapi

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
)

// statuses maps application error codes to HTTP statuses: the one place that does.
var statuses = map[string]int{
	apperr.Invalid:         http.StatusBadRequest,
	apperr.Unauthorized:    http.StatusUnauthorized,
	apperr.Forbidden:       http.StatusForbidden,
	apperr.EmailUnverified: http.StatusForbidden,
	apperr.NotFound:        http.StatusNotFound,
	apperr.Gone:            http.StatusGone,
	apperr.Conflict:        http.StatusConflict,
	apperr.PlanRequired:    http.StatusForbidden,
	apperr.QuotaExceeded:   http.StatusForbidden,
	apperr.TrialUsed:       http.StatusConflict,
	apperr.RateLimited:     http.StatusTooManyRequests,
	apperr.TooLarge:        http.StatusRequestEntityTooLarge,
	apperr.Unavailable:     http.StatusServiceUnavailable,
	apperr.Internal:        http.StatusInternalServerError,
}

// errorBody is the shape of every error answer: {"error":{"code","message"}}.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Reason is finer than Code and stable: clients translate it. Code when nothing finer.
	Reason    string `json:"reason"`
	Field     string `json:"field,omitempty"`
	RequestID string `json:"request_id,omitempty"`
}

// fail answers err in the error shape, counted against a rate limit like every answer
// (countRefused). Internal errors are logged with their details and shown to the client only
// as "internal error" with the request ID.
func (s *Server) fail(c *gin.Context, err error) {
	if c.GetBool(scimShapeKey) {
		s.failAs(c, err, func(status int, d errorDetail) { scimError(c, status, d) })
		return
	}
	s.failAs(c, err, func(status int, d errorDetail) { c.AbortWithStatusJSON(status, errorBody{Error: d}) })
}

// failAs is fail with the answer written by write: the API's shape, or SCIM's (scim.go).
func (s *Server) failAs(c *gin.Context, err error, write func(status int, d errorDetail)) {
	code := apperr.CodeOf(err)
	if (code == apperr.Internal || code == apperr.Unavailable) && errors.Is(c.Request.Context().Err(), context.Canceled) {
		s.abandoned(c, err)
		return
	}
	if !s.countRefused(c) {
		return
	}
	var mbe *http.MaxBytesError
	switch {
	case (code == apperr.Internal || code == apperr.Unavailable) && deadlinePassed(c):
		// The write deadline passed (writeDeadline): a store is too slow. What the request
		// did not finish was not acknowledged; the client may retry.
		code, err = apperr.Unavailable, &timeoutError{after: s.writeTimeout, cause: err}
	case errors.As(err, &mbe):
		code, err = apperr.TooLarge, apperr.Errorf(apperr.TooLarge, "request body is larger than %d bytes", mbe.Limit).For("body_too_large", "")
	case code == apperr.Internal && (errors.As(err, new(net.Error)) || errors.Is(err, io.ErrUnexpectedEOF)):
		// A store that cannot be reached: the request may succeed when retried.
		s.log.Error("request failed: a backing service is unreachable", "path", c.FullPath(), "err", err)
		code, err = apperr.Unavailable, apperr.Errorf(apperr.Unavailable, "the service cannot reach its database right now, try again").For("unavailable", "")
	}
	status, ok := statuses[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	// Refusals that know when to come back (rate limits, busy password hashing) say so.
	var retry interface{ RetrySeconds() string }
	if errors.As(err, &retry) {
		c.Header("Retry-After", retry.RetrySeconds())
	}
	detail := errorDetail{Code: code, Message: apperr.MessageOf(err), Reason: code}
	if apperr.CodeOf(err) == code {
		detail.Reason, detail.Field = apperr.ReasonOf(err), apperr.FieldOf(err)
	}
	if status >= 500 {
		detail.RequestID = c.GetString(requestIDKey)
		level := slog.LevelError
		if code == apperr.Unavailable {
			level = slog.LevelWarn
		}
		s.log.Log(c.Request.Context(), level, "request failed", "method", c.Request.Method,
			"path", c.FullPath(), "request_id", detail.RequestID, "err", err)
	}
	write(status, detail)
}

// statusClientClosed is the status recorded for a request whose client went away before the
// answer (nginx's 499): nobody reads it, and it keeps such requests apart from the service's
// failures in the latency metric.
const statusClientClosed = 499

// abandoned ends a request whose client went away while it was served, which made it fail: no
// failure of the service, so it is logged at info and counted apart, not as a 500.
func (s *Server) abandoned(c *gin.Context, err error) {
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	apiAbandoned.WithLabelValues(methodLabel(c.Request.Method), route).Inc()
	s.log.Info("request abandoned by the client", "method", c.Request.Method, "path", route,
		"request_id", c.GetString(requestIDKey), "err", err)
	c.AbortWithStatus(statusClientClosed)
}

// deadlinePassed reports whether the request's write deadline (writeDeadline) has passed. It
// reads the clock rather than the context's error: a store's own timer (a connection's read
// deadline, the batch writer's) may fire at that deadline before the context's does.
func deadlinePassed(c *gin.Context) bool {
	d, ok := c.Request.Context().Deadline()
	return ok && !time.Now().Before(d)
}

// timeoutError answers a write whose deadline (WRITE_TIMEOUT) passed: 503 unavailable, with
// Retry-After.
type timeoutError struct {
	after time.Duration
	cause error
}

func (e *timeoutError) Error() string { return "write deadline passed: " + e.cause.Error() }

// Unwrap lets apperr see the code and message.
func (e *timeoutError) Unwrap() error {
	return apperr.Errorf(apperr.Unavailable, "the service could not finish this within %s, try again", e.after).For("unavailable", "")
}

// RetrySeconds is the Retry-After header's value: the deadline, in whole seconds, at least 1.
// A store that did not answer within it is unlikely to answer a retry much sooner.
func (e *timeoutError) RetrySeconds() string {
	return strconv.Itoa(max(1, int((e.after+time.Second-1)/time.Second)))
}
