package apperr_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestReasonAndField(t *testing.T) {
	base := apperr.Errorf(apperr.Conflict, "alias %q is already in use", "x")
	e := base.For("alias_taken", "alias")
	if base.Reason != "" || base.Field != "" {
		t.Fatalf("For changed its receiver: %+v", base)
	}
	wrapped := fmt.Errorf("create link: %w", e)
	for _, c := range []struct{ name, got, want string }{
		{"code", apperr.CodeOf(wrapped), apperr.Conflict},
		{"message", apperr.MessageOf(wrapped), `alias "x" is already in use`},
		{"reason", apperr.ReasonOf(wrapped), "alias_taken"},
		{"field", apperr.FieldOf(wrapped), "alias"},
		{"reason without one", apperr.ReasonOf(base), apperr.Conflict},
		{"field without one", apperr.FieldOf(base), ""},
		{"reason of a plain error", apperr.ReasonOf(errors.New("boom")), apperr.Internal},
		{"field of a plain error", apperr.FieldOf(errors.New("boom")), ""},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestMissing(t *testing.T) {
	for what, reason := range map[string]string{
		"link":    "link_not_found",
		"API key": "api_key_not_found",
		"member":  "member_not_found",
	} {
		e := apperr.Missing(what)
		if e.Code != apperr.NotFound || e.Reason != reason || e.Message != what+" not found" || e.Field != "" {
			t.Errorf("Missing(%q) = %+v, want reason %s", what, e, reason)
		}
	}
}
