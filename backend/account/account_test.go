package account

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/locale"
)

var allPerms = []Permission{PermRead, PermLinksRead, PermLinksWrite, PermStatsRead, PermManage, PermOwn}

func TestRoleAllows(t *testing.T) {
	t.Parallel()
	// The whole matrix, written out: a change to the role model must change this table.
	want := map[string]map[Permission]bool{
		RoleViewer: {PermRead: true, PermLinksRead: true, PermStatsRead: true},
		RoleMember: {PermRead: true, PermLinksRead: true, PermStatsRead: true, PermLinksWrite: true},
		RoleAdmin:  {PermRead: true, PermLinksRead: true, PermStatsRead: true, PermLinksWrite: true, PermManage: true},
		RoleOwner:  {PermRead: true, PermLinksRead: true, PermStatsRead: true, PermLinksWrite: true, PermManage: true, PermOwn: true},
		"":         {},
		"root":     {},
		"Owner":    {},
	}
	for role, perms := range want {
		for _, p := range allPerms {
			if got := RoleAllows(role, p); got != perms[p] {
				t.Errorf("RoleAllows(%q, %d) = %v, want %v", role, p, got, perms[p])
			}
		}
	}
}

func TestScopesAllow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scopes []string
		allow  []Permission
	}{
		{nil, nil},
		{[]string{ScopeLinksRead}, []Permission{PermLinksRead}},
		{[]string{ScopeLinksWrite}, []Permission{PermLinksRead, PermLinksWrite}},
		{[]string{ScopeStatsRead}, []Permission{PermStatsRead}},
		{Scopes, []Permission{PermLinksRead, PermLinksWrite, PermStatsRead}},
		{[]string{"manage", "own", "admin", "read"}, nil},
	}
	for _, tt := range tests {
		for _, p := range allPerms {
			want := false
			for _, a := range tt.allow {
				want = want || a == p
			}
			if got := ScopesAllow(tt.scopes, p); got != want {
				t.Errorf("ScopesAllow(%v, %d) = %v, want %v", tt.scopes, p, got, want)
			}
		}
	}
}

func TestScopeFor(t *testing.T) {
	t.Parallel()
	tests := map[Permission]string{
		PermLinksRead: ScopeLinksRead, PermLinksWrite: ScopeLinksWrite, PermStatsRead: ScopeStatsRead,
		PermRead: "", PermManage: "", PermOwn: "",
	}
	for p, want := range tests {
		if got := ScopeFor(p); got != want {
			t.Errorf("ScopeFor(%d) = %q, want %q", p, got, want)
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 185) + ".com" // 254
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"alice@example.com", "alice@example.com", true},
		{"  Alice@Example.COM \n", "alice@example.com", true},
		{"a.b+tag@sub.example.co.uk", "a.b+tag@sub.example.co.uk", true},
		{long, long, true},
		{"x" + long, "", false},
		{"", "", false},
		{"   ", "", false},
		{"alice", "", false},
		{"alice@", "", false},
		{"@example.com", "", false},
		{"alice@localhost", "", false},
		{"alice@example.", "", false},
		{"alice@.example.com", "", false},
		{"alice@exa..mple.com", "", false},
		{"Alice <alice@example.com>", "", false},
		{"alice@example.com, bob@example.com", "", false},
		{"al ice@example.com", "", false},
		{"alice@[127.0.0.1]", "", false},
	}
	for _, tt := range tests {
		got, err := NormalizeEmail(tt.in)
		if tt.ok {
			if err != nil || got != tt.want {
				t.Errorf("NormalizeEmail(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		} else if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want an invalid error", tt.in, got, err)
		}
	}
}

func TestValidatePassword(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in string
		ok bool
	}{
		{"", false},
		{"1234567", false},
		{"12345678", true},
		{"пароль12", true}, // 8 characters, 14 bytes
		{"日本語日本語日", false}, // 7 characters, 21 bytes
		{strings.Repeat("x", 256), true},
		{strings.Repeat("x", 257), false},
		{strings.Repeat("é", 256), true},
	}
	for _, tt := range tests {
		err := ValidatePassword(tt.in)
		if (err == nil) != tt.ok || (err != nil && !apperr.Is(err, apperr.Invalid)) {
			t.Errorf("ValidatePassword(%d chars) = %v, want ok=%v", utf8.RuneCountInString(tt.in), err, tt.ok)
		}
	}
}

func TestValidateName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Marketing", "Marketing", true},
		{"  Marketing  ", "Marketing", true},
		{"", "", false},
		{" \t ", "", false},
		{strings.Repeat("名", 100), strings.Repeat("名", 100), true},
		{strings.Repeat("n", 101), "", false},
		{"bad \xff utf-8", "", false},
	}
	for _, tt := range tests {
		got, err := ValidateName(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ValidateName(%q) = %q, %v; want %q ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestValidateScopes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []string
		want []string
		ok   bool
	}{
		{[]string{"links:read"}, []string{"links:read"}, true},
		{[]string{"links:write", "stats:read", "links:write"}, []string{"links:write", "stats:read"}, true},
		{nil, nil, false},
		{[]string{}, nil, false},
		{[]string{"links:read", "links:delete"}, nil, false},
		{[]string{"Links:Read"}, nil, false},
	}
	for _, tt := range tests {
		got, err := ValidateScopes(tt.in)
		if (err == nil) != tt.ok || strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("ValidateScopes(%v) = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestDefaultWorkspaceName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		email string
		lang  locale.Tag
		want  string
	}{
		{"alice@example.com", locale.English, "alice's workspace"},
		{"alice@example.com", "", "alice's workspace"},
		{"lihua@example.cn", locale.Chinese, "lihua 的工作区"},
		{strings.Repeat("a", 200) + "@example.com", locale.English, strings.Repeat("a", 88) + "'s workspace"},
		{strings.Repeat("李", 200) + "@example.cn", locale.Chinese, strings.Repeat("李", 95) + " 的工作区"},
	}
	for _, tt := range tests {
		got := defaultWorkspaceName(tt.email, tt.lang)
		if got != tt.want {
			t.Errorf("defaultWorkspaceName(%q) = %q, want %q", tt.email, got, tt.want)
		}
		if _, err := ValidateName(got); err != nil {
			t.Errorf("defaultWorkspaceName(%q) = %q, which is not a valid name: %v", tt.email, got, err)
		}
	}
}

func TestTwoFactorBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		missing, sso, want bool
	}{
		{missing: true, sso: true, want: true},
		{missing: true, sso: false, want: false}, // below sso the setting does not apply
		{missing: false, sso: true, want: false},
		{missing: false, sso: false, want: false},
	} {
		if got := TwoFactorBlocks(Access{Role: RoleMember, MissingTwoFactor: tc.missing}, tc.sso); got != tc.want {
			t.Errorf("missing=%v sso=%v: %v, want %v", tc.missing, tc.sso, got, tc.want)
		}
	}
}

func TestCheckRequire2FA(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		role      string
		own, on   bool
		wantError string
	}{
		{RoleOwner, true, true, ""},
		{RoleOwner, false, true, "own_2fa_required"},
		{RoleOwner, false, false, ""}, // turning it off never needs one's own 2FA
		{RoleOwner, true, false, ""},
		{RoleAdmin, true, true, "owner_required"},
		{RoleAdmin, true, false, "owner_required"},
		{RoleMember, true, true, "owner_required"},
		{RoleViewer, false, false, "owner_required"},
	} {
		err := CheckRequire2FA(tc.role, tc.own, tc.on)
		var reason string
		if e, ok := err.(*apperr.Error); ok {
			reason = e.Reason
		} else if err != nil {
			reason = err.Error()
		}
		if reason != tc.wantError {
			t.Errorf("%s own=%v on=%v: %q, want %q", tc.role, tc.own, tc.on, reason, tc.wantError)
		}
	}
}
