// Package apperr defines the application's error codes; the HTTP layer maps each code to a status.
package apperr

import (
	"errors"
	"fmt"
)

// Codes every layer may return; anything else is an internal error.
const (
	Invalid      = "invalid"
	Unauthorized = "unauthorized"
	Forbidden    = "forbidden"
	// EmailUnverified refuses what needs a proven address (invitations, system roles).
	EmailUnverified = "email_unverified"
	NotFound        = "not_found"
	Conflict        = "conflict"
	PlanRequired    = "plan_required"
	QuotaExceeded   = "quota_exceeded"
	TrialUsed       = "trial_used"
	RateLimited     = "rate_limited"
	TooLarge        = "too_large"
	Unavailable     = "unavailable"
	Internal        = "internal"
)

// Error is an error a client may see: a code from the list above and a human message.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of the first *Error in err's chain, Internal if there is none.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// MessageOf returns the message of the first *Error in err's chain, "internal error" if there is none.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// Is reports whether err carries the given code.
func Is(err error, code string) bool { return err != nil && CodeOf(err) == code }
