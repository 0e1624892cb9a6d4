package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Options configure the Service.
type Options struct {
	// Secret signs access tokens (HS256).
	Secret []byte
	// AccessTTL is how long an access token is good for.
	AccessTTL time.Duration
	// RefreshTTL is how long a refresh token is good for; each rotation starts it again.
	RefreshTTL time.Duration
	// RefreshGrace is how long after its use a refresh token presented again still gets the
	// same successor instead of revoking its family: two tabs of one browser refreshing at
	// once. Zero turns it off.
	RefreshGrace time.Duration
}

// RefreshUse is what a store knows of a refresh token presented for rotation.
type RefreshUse struct {
	UserID int64
	Family uuid.UUID
	// Reused is set when the token had already been used or revoked, and nothing was marked.
	Reused bool
	// Revoked is set, with Reused, when the token or any token of its family was revoked.
	Revoked bool
	// UsedAgo is, with Reused, how long ago the token was used.
	UsedAgo time.Duration
	// Successor is, with Reused, the SHA-256 of the token that replaced it.
	Successor []byte
}

// Via is how a session began: what a workspace that enforces single sign-on looks at when it
// ends its people's sessions (docs/security.md#single-sign-on).
type Via string

// The ways a session begins.
const (
	// ViaPassword: a password, with its second factor when 2FA is on (sign-up and login).
	ViaPassword Via = "password"
	// ViaSSO: a workspace's identity provider, with the second factor when 2FA is on.
	ViaSSO Via = "sso"
)

// RefreshStore keeps refresh tokens, by the SHA-256 of the token.
type RefreshStore interface {
	// CreateRefresh stores a new token of the family, which began via; its successors keep
	// via.
	CreateRefresh(ctx context.Context, userID int64, family uuid.UUID, hash []byte, expires time.Time, via Via) error
	// RotateRefresh marks a live (unused, unrevoked, unexpired) token used and stores its
	// successor (hash next, same owner and family, expiring at expires), atomically, and
	// returns the owner and family; for a token used or revoked before it stores nothing and
	// returns what it knows with Reused set. Returns not_found for unknown and expired tokens.
	RotateRefresh(ctx context.Context, hash, next []byte, expires time.Time) (RefreshUse, error)
	// RevokeFamily revokes every token of the family.
	RevokeFamily(ctx context.Context, family uuid.UUID) error
	// RevokeFamilyOf revokes every token of the family the token belongs to, if any.
	RevokeFamilyOf(ctx context.Context, hash []byte) error
}

// Service issues and checks the credentials of signed-in users.
type Service struct {
	opts    Options
	store   RefreshStore
	limiter *Limiter
	log     *slog.Logger
	// successorKey derives each refresh token's successor from it (see successor).
	successorKey []byte
	// addressKey keys the hash a session's address is shown as (HashAddress).
	addressKey []byte
	// sessions lists and ends sessions (UseSessions); nil: not kept.
	sessions *sessions
	// twoFactor enrols people in TOTP and checks their codes (UseTwoFactor); nil: off.
	twoFactor *twoFactor
}

// NewService returns the auth service. Login attempts are counted in buckets; buckets may be
// nil, and the count then stays in-process.
func NewService(o Options, store RefreshStore, buckets Buckets, log *slog.Logger) *Service {
	return &Service{opts: o, store: store, limiter: NewLimiter(buckets, log), log: log,
		successorKey: DeriveKey(o.Secret, "shortlink refresh-token successor v1"),
		addressKey:   DeriveKey(o.Secret, "shortlink session address v1")}
}

// DeriveKey gives each use of the secret its own key, so that a value made for one purpose
// (an access token's signature) is never valid for another.
func DeriveKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// Claims are what an access token says about its bearer.
type Claims struct {
	UserID     int64
	SystemRole string
	// IssuedAt is when the token was signed, to the millisecond.
	IssuedAt time.Time
	// Session is the session (refresh-token family) the token was issued to; uuid.Nil for a
	// token of none.
	Session uuid.UUID
}

type jwtClaims struct {
	Role string `json:"role"`
	// IssuedMs is iat in milliseconds: whole seconds cannot tell a token signed just before a
	// change of the account (such as its system role) from one signed just after.
	IssuedMs int64 `json:"iat_ms,omitempty"`
	// Sid names the session, so that signing it out stops its access tokens too.
	Sid string `json:"sid,omitempty"`
	jwt.RegisteredClaims
}

const issuer = "shortlink"

// AccessToken signs a short-lived token for the user, of no session, and says when it expires.
func (s *Service) AccessToken(userID int64, systemRole string) (string, time.Time, error) {
	return s.SessionAccessToken(userID, systemRole, uuid.Nil)
}

// SessionAccessToken signs a short-lived token for the user's session and says when it
// expires.
func (s *Service) SessionAccessToken(userID int64, systemRole string, session uuid.UUID) (string, time.Time, error) {
	now := time.Now()
	sid := ""
	if session != uuid.Nil {
		sid = session.String()
	}
	exp := now.Add(s.opts.AccessTTL)
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, jwtClaims{
		Role:     systemRole,
		IssuedMs: now.UnixMilli(),
		Sid:      sid,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   strconv.FormatInt(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
		},
	})
	signed, err := tok.SignedString(s.opts.Secret)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("sign access token: %w", err)
	}
	return signed, exp, nil
}

var errBadToken = apperr.Errorf(apperr.Unauthorized, "the access token is invalid or expired").For("token_invalid", "")

// VerifyAccess checks an access token's signature, algorithm (HS256 only: no "none", no
// public-key confusion), issuer and expiry, and returns its claims; unauthorized otherwise.
func (s *Service) VerifyAccess(token string) (Claims, error) {
	var c jwtClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.opts.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithIssuer(issuer))
	if err != nil {
		return Claims{}, errBadToken
	}
	id, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil || id <= 0 {
		return Claims{}, errBadToken
	}
	var iat time.Time
	if c.IssuedMs > 0 {
		iat = time.UnixMilli(c.IssuedMs)
	} else if c.IssuedAt != nil {
		iat = c.IssuedAt.Time
	}
	var session uuid.UUID
	if c.Sid != "" {
		if session, err = uuid.Parse(c.Sid); err != nil {
			return Claims{}, errBadToken
		}
	}
	return Claims{UserID: id, SystemRole: c.Role, IssuedAt: iat, Session: session}, nil
}

// RefreshTTL is how long a refresh token is good for (the lifetime of its cookie).
func (s *Service) RefreshTTL() time.Duration { return s.opts.RefreshTTL }

// hashToken is how refresh tokens are stored: they are 256 random bits, so SHA-256 needs no
// salt or stretching.
func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// NewRefresh starts a password session (a refresh-token family) for the user and returns its
// first token: 32 random bytes, base64url.
func (s *Service) NewRefresh(ctx context.Context, userID int64) (string, error) {
	return s.issueRefresh(ctx, userID, uuid.New(), ViaPassword)
}

func (s *Service) issueRefresh(ctx context.Context, userID int64, family uuid.UUID, via Via) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("refresh token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	if err := s.store.CreateRefresh(ctx, userID, family, hashToken(token), time.Now().Add(s.opts.RefreshTTL), via); err != nil {
		return "", fmt.Errorf("refresh token: %w", err)
	}
	return token, nil
}

// successor is the token that replaces token when it is used: an HMAC of it under a key of
// the server's, the same shape as a random token. Deriving it, rather than drawing it, lets a
// second presentation of token within the grace window get the same successor back, without
// the successor ever being stored; without the key nobody can compute it.
func (s *Service) successor(token string) string {
	m := hmac.New(sha256.New, s.successorKey)
	m.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

var errBadRefresh = apperr.Errorf(apperr.Unauthorized, "the refresh token is invalid, expired or already used: sign in again").For("refresh_invalid", "")

// Rotate trades a live refresh token for the next one of its family and returns the user.
// The same token presented again within the grace window (two tabs refreshing at once)
// gets the same successor back, as long as the session was not revoked meanwhile. Later, a
// token presented a second time means two parties hold it: the whole family is revoked,
// which signs out the thief and the user alike, and the answer is unauthorized.
func (s *Service) Rotate(ctx context.Context, token string) (userID int64, next string, err error) {
	userID, _, next, err = s.rotate(ctx, token)
	return userID, next, err
}

func (s *Service) rotate(ctx context.Context, token string) (userID int64, family uuid.UUID, next string, err error) {
	if token == "" || len(token) > 128 {
		return 0, uuid.Nil, "", errBadRefresh
	}
	next = s.successor(token)
	nextHash := hashToken(next)
	use, err := s.store.RotateRefresh(ctx, hashToken(token), nextHash, time.Now().Add(s.opts.RefreshTTL))
	switch {
	case apperr.Is(err, apperr.NotFound):
		return 0, uuid.Nil, "", errBadRefresh
	case err != nil:
		return 0, uuid.Nil, "", fmt.Errorf("rotate refresh token: %w", err)
	case use.Reused && s.inGrace(use, nextHash):
		return use.UserID, use.Family, next, nil
	case use.Reused:
		s.log.Warn("refresh token reused: session revoked", "user", use.UserID)
		if err := s.store.RevokeFamily(ctx, use.Family); err != nil {
			return 0, uuid.Nil, "", fmt.Errorf("revoke reused refresh family: %w", err)
		}
		if s.sessions != nil {
			s.sessions.live.Invalidate(use.Family)
		}
		return 0, uuid.Nil, "", errBadRefresh
	}
	return use.UserID, use.Family, next, nil
}

// inGrace reports whether a reused token may have its successor again: used moments ago,
// its session not revoked, and replaced by the very successor derived now (a token rotated
// under another JWT_SECRET, or before successors were derived, is not).
func (s *Service) inGrace(use RefreshUse, nextHash []byte) bool {
	return !use.Revoked && use.UsedAgo < s.opts.RefreshGrace &&
		subtle.ConstantTimeCompare(use.Successor, nextHash) == 1
}

// Revoke ends the session a refresh token belongs to (logout). Unknown tokens are ignored:
// logging out twice is not an error.
func (s *Service) Revoke(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return nil
	}
	if err := s.store.RevokeFamilyOf(ctx, hashToken(token)); err != nil {
		return fmt.Errorf("revoke refresh token: %w", err)
	}
	return nil
}

// AllowLogin takes one attempt from the login budgets of the email, the client address and
// the pair of them, or answers a *RateLimitError (code rate_limited). Tell the outcome with
// LoginSucceeded or LoginUnchecked; an attempt told neither counts as a failure.
func (s *Service) AllowLogin(ctx context.Context, email, ip string) error {
	return s.limiter.Allow(ctx, email, ip)
}

// LoginSucceeded gives back what a successful login took from the budgets: only failures
// count.
func (s *Service) LoginSucceeded(ctx context.Context, email, ip string) {
	s.limiter.Succeeded(ctx, email, ip)
}

// LoginUnchecked gives back what a login took whose password was never checked.
func (s *Service) LoginUnchecked(ctx context.Context, email, ip string) {
	s.limiter.Unchecked(ctx, email, ip)
}

// AllowSignup applies the per-address login budget to a sign-up, which costs a password hash
// too and tells whether an email is taken.
func (s *Service) AllowSignup(ctx context.Context, ip string) error {
	return s.limiter.AllowSignup(ctx, ip)
}
