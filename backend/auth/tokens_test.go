package auth

import (
	"encoding/base64"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/shortlink/shortlink/backend/apperr"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

func tokenService(ttl time.Duration) *Service {
	return NewService(Options{Secret: testSecret, AccessTTL: ttl, RefreshTTL: time.Hour}, nil, nil, slog.New(slog.DiscardHandler))
}

// sign makes a token with any algorithm and claims, as an attacker could.
func sign(t *testing.T, m jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAccessToken(t *testing.T) {
	s := tokenService(15 * time.Minute)
	tok, exp, err := s.AccessToken(42, "operator")
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(exp); d < 14*time.Minute || d > 15*time.Minute {
		t.Errorf("expires in %v, want 15m", d)
	}
	c, err := s.VerifyAccess(tok)
	if err != nil || c.UserID != 42 || c.SystemRole != "operator" {
		t.Fatalf("VerifyAccess = %+v, %v", c, err)
	}

	now := time.Now()
	valid := func() jwt.MapClaims {
		return jwt.MapClaims{"sub": "42", "role": "operator", "iss": "shortlink", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix()}
	}
	with := func(k string, v any) jwt.MapClaims {
		c := valid()
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	parts := strings.Split(tok, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	forged := strings.Replace(string(payload), `"sub":"42"`, `"sub":"43"`, 1)
	sig := []byte(parts[2])
	sig[3] ^= 1

	expired, _, _ := tokenService(-time.Minute).AccessToken(42, "user")
	tests := map[string]string{
		"control: valid claims":  sign(t, jwt.SigningMethodHS256, testSecret, valid()),
		"payload changed":        parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(forged)) + "." + parts[2],
		"signature changed":      parts[0] + "." + parts[1] + "." + string(sig),
		"signature removed":      parts[0] + "." + parts[1] + ".",
		"other secret":           sign(t, jwt.SigningMethodHS256, []byte("another secret of 32 characters!"), valid()),
		"alg none":               sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, valid()),
		"alg HS512, same secret": sign(t, jwt.SigningMethodHS512, testSecret, valid()),
		"alg HS384, same secret": sign(t, jwt.SigningMethodHS384, testSecret, valid()),
		"expired":                expired,
		"no expiry":              sign(t, jwt.SigningMethodHS256, testSecret, with("exp", nil)),
		"issued in the future":   sign(t, jwt.SigningMethodHS256, testSecret, with("iat", now.Add(time.Hour).Unix())),
		"other issuer":           sign(t, jwt.SigningMethodHS256, testSecret, with("iss", "someone-else")),
		"subject not a number":   sign(t, jwt.SigningMethodHS256, testSecret, with("sub", "admin")),
		"subject zero":           sign(t, jwt.SigningMethodHS256, testSecret, with("sub", "0")),
		"no subject":             sign(t, jwt.SigningMethodHS256, testSecret, with("sub", nil)),
		"garbage":                "not.a.token",
		"empty":                  "",
	}
	for name, tok := range tests {
		_, err := s.VerifyAccess(tok)
		if name == "control: valid claims" {
			if err != nil {
				t.Errorf("%s: rejected: %v", name, err)
			}
			continue
		}
		if !apperr.Is(err, apperr.Unauthorized) {
			t.Errorf("%s: VerifyAccess = %v, want unauthorized", name, err)
		}
	}
}
