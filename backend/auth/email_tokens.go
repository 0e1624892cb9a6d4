package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Budgets of the mails a caller can have sent: per account for verification links, and per
// address and per client for password resets, so nobody can flood a mailbox or use the
// service to mail many addresses.
var (
	perUserVerifyMail = Limit{Rate: 5, Burst: 5, Period: time.Hour}
	perEmailReset     = Limit{Rate: 5, Burst: 5, Period: time.Hour}
	perIPReset        = Limit{Rate: 20, Burst: 20, Period: time.Hour}
)

// NewEmailToken returns a token for a link sent by email (32 random bytes, base64url) and the
// hash to store.
func NewEmailToken() (token string, hash []byte, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, fmt.Errorf("email token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashEmailToken(token), nil
}

// HashEmailToken is how email tokens are stored and looked up: they are 256 random bits, so
// SHA-256 needs no salt or stretching.
func HashEmailToken(token string) []byte { return hashToken(token) }

// IsEmailToken reports whether s is shaped like a token of NewEmailToken.
func IsEmailToken(s string) bool {
	if len(s) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}

// AllowVerificationMail takes one mail from the account's budget of verification links, or
// answers a *RateLimitError.
func (s *Service) AllowVerificationMail(ctx context.Context, userID int64) error {
	key := "mail:verify:" + strconv.FormatInt(userID, 10)
	if wait, ok := s.limiter.take(ctx, key, perUserVerifyMail); !ok {
		return &RateLimitError{RetryAfter: wait, What: "verification mails"}
	}
	return nil
}

// AllowPasswordReset takes one request from the budgets of the email and of the client
// address, or answers a *RateLimitError. Both budgets apply whether or not the email has an
// account, so a refusal tells nothing about it.
func (s *Service) AllowPasswordReset(ctx context.Context, email, ip string) error {
	checks := []struct {
		key   string
		limit Limit
	}{
		{"reset:email:" + digest(strings.ToLower(strings.TrimSpace(email))), perEmailReset},
		{"reset:ip:" + digest(AddressKey(ip)), perIPReset},
	}
	for _, c := range checks {
		if wait, ok := s.limiter.take(ctx, c.key, c.limit); !ok {
			return &RateLimitError{RetryAfter: wait, What: "password reset requests"}
		}
	}
	return nil
}
