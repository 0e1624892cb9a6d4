package auth

import (
	"bytes"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestCheckTOTP(t *testing.T) {
	const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
	now := time.Unix(1_800_000_015, 0) // the middle of a step
	step := now.Unix() / 30
	code := func(d time.Duration) string {
		c, err := totp.GenerateCode(secret, now.Add(d))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	cases := []struct {
		name     string
		code     string
		last     int64
		wantStep int64
		reason   string
	}{
		{"now", code(0), 0, step, ""},
		{"spaces", " " + code(0)[:3] + " " + code(0)[3:] + " ", 0, step, ""},
		{"previous step", code(-30 * time.Second), 0, step - 1, ""},
		{"next step", code(30 * time.Second), 0, step + 1, ""},
		{"two steps back", code(-60 * time.Second), 0, 0, "code_invalid"},
		{"two steps ahead", code(60 * time.Second), 0, 0, "code_invalid"},
		{"accepted already", code(0), step, 0, "code_used"},
		{"older than the accepted", code(-30 * time.Second), step, 0, "code_used"},
		{"newer than the accepted", code(30 * time.Second), step, step + 1, ""},
		{"empty", "", 0, 0, "code_required"},
		{"five digits", code(0)[:5], 0, 0, "code_invalid"},
		{"letters", "abcdef", 0, 0, "code_invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CheckTOTP(secret, c.code, now, c.last)
			if c.reason == "" {
				if err != nil || got != c.wantStep {
					t.Fatalf("got %d %v, want step %d", got, err, c.wantStep)
				}
				return
			}
			var e *apperr.Error
			if err == nil || !asErr(err, &e) || e.Reason != c.reason || e.Code != apperr.Invalid {
				t.Fatalf("got %d %v, want %s", got, err, c.reason)
			}
		})
	}
}

func asErr(err error, e **apperr.Error) bool {
	x, ok := err.(*apperr.Error)
	*e = x
	return ok
}

func TestSecretSealing(t *testing.T) {
	s := NewService(Options{Secret: []byte("0123456789abcdef0123456789abcdef")}, nil, nil, nil)
	s.UseTwoFactor(nil)
	sealed := s.twoFactor.seal(7, "JBSWY3DPEHPK3PXP")
	if bytes.Contains(sealed, []byte("JBSWY3DPEHPK3PXP")) {
		t.Fatal("sealed secret readable")
	}
	if got, err := s.twoFactor.open(7, sealed); err != nil || got != "JBSWY3DPEHPK3PXP" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := s.twoFactor.open(8, sealed); err == nil {
		t.Fatal("another user's row opened the secret")
	}
	other := NewService(Options{Secret: []byte("another secret of thirty-two chars")}, nil, nil, nil)
	other.UseTwoFactor(nil)
	if _, err := other.twoFactor.open(7, sealed); err == nil {
		t.Fatal("another JWT_SECRET opened the secret")
	}
	if bytes.Equal(sealed, s.twoFactor.seal(7, "JBSWY3DPEHPK3PXP")) {
		t.Fatal("sealing twice gave the same bytes")
	}
}

func TestRecoveryCodes(t *testing.T) {
	codes, hashes := newRecoveryCodes()
	if len(codes) != RecoveryCodes || len(hashes) != RecoveryCodes {
		t.Fatalf("%d codes", len(codes))
	}
	seen := map[string]bool{}
	for i, c := range codes {
		if len(c) != 11 || c[5] != '-' || seen[c] {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
		if !bytes.Equal(hashes[i], RecoveryHash(c)) {
			t.Fatal("hash differs from RecoveryHash")
		}
	}
	if !bytes.Equal(RecoveryHash("abcde-fghjk"), RecoveryHash(" ABCDEFGHJK ")) {
		t.Fatal("case and dashes count")
	}
}
