package sso

import (
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
)

func TestCheckIssuer(t *testing.T) {
	for _, c := range []struct {
		in       string
		loopback bool
		reason   string
	}{
		{"https://login.example.com", false, ""},
		{"https://login.example.com/tenant/v2.0", false, ""},
		{"", false, "sso_issuer_required"},
		{"http://login.example.com", false, "sso_issuer_invalid"},
		{"http://login.example.com", true, "sso_issuer_invalid"},
		{"http://127.0.0.1:9000", false, "sso_issuer_invalid"},
		{"http://127.0.0.1:9000", true, ""},
		{"http://[::1]:9000", true, ""},
		{"http://localhost:9000", true, ""},
		{"https://user:pw@login.example.com", false, "sso_issuer_invalid"},
		{"https://login.example.com?x=1", false, "sso_issuer_invalid"},
		{"https://login.example.com#x", false, "sso_issuer_invalid"},
		{"ftp://login.example.com", false, "sso_issuer_invalid"},
		{"login.example.com", false, "sso_issuer_invalid"},
		{"javascript:alert(1)", false, "sso_issuer_invalid"},
	} {
		_, err := CheckIssuer(c.in, c.loopback)
		if got := reasonOf(err); got != c.reason {
			t.Errorf("CheckIssuer(%q, %v): %q, want %q", c.in, c.loopback, got, c.reason)
		}
	}
}

func reasonOf(err error) string {
	if err == nil {
		return ""
	}
	return apperr.ReasonOf(err)
}

func TestCheckInput(t *testing.T) {
	ok := Input{Issuer: "https://idp.example.com", ClientID: "app", ClientSecret: "s", EmailDomain: "Example.COM."}
	got, err := CheckInput(ok, false, false)
	if err != nil || got.EmailDomain != "example.com" {
		t.Fatalf("%+v %v", got, err)
	}
	for name, c := range map[string]struct {
		mod       func(*Input)
		hasSecret bool
		reason    string
	}{
		"no client id":         {func(i *Input) { i.ClientID = " " }, false, "sso_client_id_required"},
		"client id control":    {func(i *Input) { i.ClientID = "a\x00" }, false, "sso_client_id_invalid"},
		"no secret first time": {func(i *Input) { i.ClientSecret = "" }, false, "sso_client_secret_required"},
		"secret kept":          {func(i *Input) { i.ClientSecret = "" }, true, ""},
		"no domain":            {func(i *Input) { i.EmailDomain = "" }, false, "sso_email_domain_required"},
		"domain IP":            {func(i *Input) { i.EmailDomain = "192.0.2.1" }, false, "sso_email_domain_invalid"},
		"domain suffix only":   {func(i *Input) { i.EmailDomain = "co.uk" }, false, "sso_email_domain_invalid"},
		"domain with at":       {func(i *Input) { i.EmailDomain = "a@example.com" }, false, "sso_email_domain_invalid"},
	} {
		in := ok
		c.mod(&in)
		_, err := CheckInput(in, c.hasSecret, false)
		if got := reasonOf(err); got != c.reason {
			t.Errorf("%s: %q, want %q", name, got, c.reason)
		}
	}
}

func TestCheckClaims(t *testing.T) {
	for _, c := range []struct {
		claims Claims
		reason string
	}{
		{Claims{Email: "ann@example.com", EmailVerified: true}, ""},
		{Claims{Email: "Ann@EXAMPLE.com", EmailVerified: "true"}, ""},
		{Claims{Email: "ann@example.com", EmailVerified: false}, "sso_email_unverified"},
		{Claims{Email: "ann@example.com"}, "sso_email_unverified"},
		{Claims{Email: "ann@example.com", EmailVerified: "yes"}, "sso_email_unverified"},
		{Claims{EmailVerified: true}, "sso_email_unverified"},
		{Claims{Email: "ann@other.com", EmailVerified: true}, "sso_email_domain"},
		{Claims{Email: "ann@sub.example.com", EmailVerified: true}, "sso_email_domain"},
		{Claims{Email: "ann@example.com.evil.com", EmailVerified: true}, "sso_email_domain"},
		{Claims{Email: "example.com", EmailVerified: true}, "sso_email_domain"},
	} {
		if got := reasonOf(CheckClaims(c.claims, "example.com")); got != c.reason {
			t.Errorf("%+v: %q, want %q", c.claims, got, c.reason)
		}
	}
}

func TestMayJoin(t *testing.T) {
	if err := MayJoin(Existing{ID: 1, SystemRole: "user"}); err != nil {
		t.Error(err)
	}
	for _, role := range []string{"operator", "moderator", ""} {
		if reasonOf(MayJoin(Existing{ID: 1, SystemRole: role})) != "sso_staff_account" {
			t.Errorf("a %q account may join", role)
		}
	}
}

func TestSafeReturn(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "/app/",
		"/app/":                     "/app/",
		"/app/links?tag=x#top":      "/app/links?tag=x#top",
		"/app":                      "/app/",
		"/api/v1/me":                "/app/",
		"//evil.example/app/":       "/app/",
		"/app//evil.example":        "/app/",
		"https://evil.example/app/": "/app/",
		"/\\evil.example/app/":      "/app/",
		"/app/\\evil":               "/app/",
		"/app/../api/v1/me":         "/app/",
		"/app/..":                   "/app/",
		"/app/\r\nSet-Cookie: x=1":  "/app/",
		"/app/%2e%2e/api":           "/app/",
		"javascript:alert(1)//app/": "/app/",
		"/app/@evil.example":        "/app/@evil.example",
	} {
		if got := SafeReturn(in); got != want {
			t.Errorf("SafeReturn(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBinds: enforced, proven settings bind a person of the domain with the system role user;
// never staff, another domain (or a subdomain), or settings that do not enforce or are unproven.
func TestBinds(t *testing.T) {
	now := time.Now()
	enforced := &Settings{EmailDomain: "acme.com", VerifiedAt: &now, Enforce: true}
	open := &Settings{EmailDomain: "acme.com", VerifiedAt: &now}
	unproven := &Settings{EmailDomain: "acme.com", Enforce: true}
	user := func(email, role string) *account.User { return &account.User{ID: 1, Email: email, SystemRole: role} }
	for _, c := range []struct {
		st   *Settings
		u    *account.User
		want bool
	}{
		{enforced, user("ann@acme.com", account.SystemUser), true},
		{enforced, user("Ann@ACME.com", account.SystemUser), true},
		{enforced, user("ann@elsewhere.com", account.SystemUser), false},
		{enforced, user("ann@eu.acme.com", account.SystemUser), false},
		{enforced, user("mod@acme.com", account.SystemModerator), false},
		{enforced, user("op@acme.com", account.SystemOperator), false},
		{open, user("ann@acme.com", account.SystemUser), false},
		{unproven, user("ann@acme.com", account.SystemUser), false},
		{nil, user("ann@acme.com", account.SystemUser), false},
	} {
		if got := Binds(c.st, c.u); got != c.want {
			t.Errorf("Binds(%+v, %s %s) = %v, want %v", c.st, c.u.Email, c.u.SystemRole, got, c.want)
		}
	}
}
