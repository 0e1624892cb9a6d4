// Package apperr defines the application's error codes; the HTTP layer maps each code to a status.
package apperr

import (
	"errors"
	"fmt"
	"strings"
)

// Codes every layer may return; anything else is an internal error.
const (
	Invalid      = "invalid"
	Unauthorized = "unauthorized"
	Forbidden    = "forbidden"
	// EmailUnverified refuses what needs a proven address (invitations, system roles).
	EmailUnverified = "email_unverified"
	NotFound        = "not_found"
	// Gone is a short link that answered once and no longer does (expired, visits used up).
	Gone          = "gone"
	Conflict      = "conflict"
	PlanRequired  = "plan_required"
	QuotaExceeded = "quota_exceeded"
	TrialUsed     = "trial_used"
	RateLimited   = "rate_limited"
	TooLarge      = "too_large"
	Unavailable   = "unavailable"
	Internal      = "internal"
)

// Error is an error a client may see: a code from the list above, a human message and, when
// known, a finer reason (a stable name such as "alias_taken", which the web app translates)
// and the input field it is about.
type Error struct {
	Code    string
	Message string
	// Reason names the error more finely than Code, for clients that explain it in their own
	// words; empty means Code says it all.
	Reason string
	// Field is the input the error is about ("alias", "url"), empty when none.
	Field string
}

// For returns a copy of e with a finer reason and the input field it is about ("" for none).
func (e *Error) For(reason, field string) *Error {
	c := *e
	c.Reason, c.Field = reason, field
	return &c
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with a formatted message. A string argument quoted with %q is
// cut to MaxQuoted characters: quote what the client sent with %q.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, boundArgs(args)...)}
}

// Missing returns a not_found error for a kind of thing ("link", "API key"): the message
// "<what> not found" and the reason "<what>_not_found" in snake case ("api_key_not_found").
func Missing(what string) *Error {
	reason := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(what)), " ", "_") + "_not_found"
	return &Error{Code: NotFound, Message: what + " not found", Reason: reason}
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

// ReasonOf returns the reason of the first *Error in err's chain, its code when it has none,
// Internal when err carries no *Error.
func ReasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		if e.Reason != "" {
			return e.Reason
		}
		return e.Code
	}
	return Internal
}

// FieldOf returns the input field of the first *Error in err's chain, "" if none.
func FieldOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// Is reports whether err carries the given code.
func Is(err error, code string) bool { return err != nil && CodeOf(err) == code }
