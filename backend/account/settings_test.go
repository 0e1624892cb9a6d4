package account_test

import (
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
)

func TestCheckNewEmail(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		current, email, want, reason string
	}{
		{"me@example.com", " New@Example.com ", "new@example.com", ""},
		{"me@example.com", "ME@example.com", "", "email_unchanged"},
		{"me@example.com", "not an address", "", "email_invalid"},
		{"me@example.com", "", "", "email_required"},
		{"me@example.com", strings.Repeat("a", 250) + "@x.io", "", "email_invalid"},
	} {
		got, err := account.CheckNewEmail(tc.current, tc.email)
		if got != tc.want || (tc.reason == "") != (err == nil) {
			t.Errorf("CheckNewEmail(%q, %q) = %q, %v", tc.current, tc.email, got, err)
			continue
		}
		if err != nil && (apperr.ReasonOf(err) != tc.reason || apperr.FieldOf(err) != "email" || !apperr.Is(err, apperr.Invalid)) {
			t.Errorf("CheckNewEmail(%q, %q): reason %q field %q; want %q", tc.current, tc.email, apperr.ReasonOf(err), apperr.FieldOf(err), tc.reason)
		}
	}
}

func TestCheckNewPassword(t *testing.T) {
	t.Parallel()
	for p, ok := range map[string]bool{"1234567": false, "12345678": true, "密码密码密码密码": true, strings.Repeat("x", 257): false} {
		err := account.CheckNewPassword(p)
		if (err == nil) != ok || (err != nil && (apperr.ReasonOf(err) != "password_length" || apperr.FieldOf(err) != "new_password")) {
			t.Errorf("CheckNewPassword(%d chars) = %v", len([]rune(p)), err)
		}
	}
}
