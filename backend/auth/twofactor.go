package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/seal"
)

// TOTP parameters of RFC 6238 as every authenticator app reads them: 30-second steps, six
// digits, SHA-1.
const (
	totpPeriod = 30
	totpDigits = otp.DigitsSix
	// totpSkew is how many steps before and after the current one a code is still taken,
	// for clocks that drift and codes typed as they turn over.
	totpSkew = 1
	// RecoveryCodes is how many one-time recovery codes a confirmed enrolment gets.
	RecoveryCodes = 10
	// MFATTL is how long the token of a sign-in's second step is good for.
	MFATTL = 5 * time.Minute
	// totpIssuer names the service in the authenticator app.
	totpIssuer = "Shortlink"
)

// TOTPState is what the store keeps of a person's TOTP secret.
type TOTPState struct {
	// Sealed is the secret, encrypted (sealSecret).
	Sealed []byte
	// Enabled is set once the enrolment was confirmed with a code.
	Enabled bool
	// LastStep is the newest time step whose code was accepted (0: none).
	LastStep int64
}

// TwoFactorStore keeps TOTP secrets, recovery codes (by SHA-256) and the tokens of sign-ins
// waiting for their second step (by SHA-256).
type TwoFactorStore interface {
	// PendingTOTP stores a new unconfirmed secret for the user, replacing any unconfirmed one.
	// Returns conflict (two_factor_enabled) when the user's 2FA is on.
	PendingTOTP(ctx context.Context, userID int64, sealed []byte) error
	// TOTP returns the user's secret and its state; not_found when there is none.
	TOTP(ctx context.Context, userID int64) (TOTPState, error)
	// EnableTOTP turns the user's pending secret on with step accepted, and replaces their
	// recovery codes, at once. Returns conflict (two_factor_not_pending) when nothing is pending.
	EnableTOTP(ctx context.Context, userID, step int64, recovery [][]byte) error
	// AcceptStep records step as the user's newest accepted one if it is newer than the one
	// recorded and 2FA is on; it reports whether it did.
	AcceptStep(ctx context.Context, userID, step int64) (bool, error)
	// DisableTOTP forgets the user's secret and recovery codes.
	DisableTOTP(ctx context.Context, userID int64) error
	// UseRecoveryCode marks the user's unused recovery code used and reports whether there
	// was one.
	UseRecoveryCode(ctx context.Context, userID int64, hash []byte) (bool, error)
	// CreateChallenge stores the token of a sign-in waiting for its second step.
	CreateChallenge(ctx context.Context, hash []byte, step SecondStep, expires time.Time) error
	// Challenge returns the sign-in of a live (unused, unexpired) challenge; not_found
	// otherwise.
	Challenge(ctx context.Context, hash []byte) (SecondStep, error)
	// UseChallenge marks a live challenge used and reports whether it was live.
	UseChallenge(ctx context.Context, hash []byte) (bool, error)
	// GuardCodes calls decide with the user's code guard (zero when there is none), held
	// against every other GuardCodes and ClearCodeGuard of the user until it is written, and
	// stores what decide answers, in one transaction. The guard outlives turning 2FA off.
	GuardCodes(ctx context.Context, userID int64, decide func(CodeGuard) CodeGuard) error
	// ClearCodeGuard forgets the user's wrong codes and lockouts: a code of theirs was right.
	ClearCodeGuard(ctx context.Context, userID int64) error
}

// twoFactor is the Service's part for two-factor sign-in.
type twoFactor struct {
	store TwoFactorStore
	// box seals the secrets at rest, under a key derived from the service's secret.
	box *seal.Box
	// now is the clock of the codes and the lockouts (UseClock).
	now func() time.Time
	// locked is told of each lockout that starts (OnSecondFactorLocked); nil: nobody.
	locked func(ctx context.Context, userID int64, until time.Time)
}

// UseTwoFactor lets the service enrol people in TOTP and check their codes. The secrets are
// sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the service's secret: a new
// JWT_SECRET makes every enrolment unreadable.
func (s *Service) UseTwoFactor(store TwoFactorStore) {
	s.twoFactor = &twoFactor{store: store, box: seal.New(s.opts.Secret, "shortlink totp secret v1"), now: time.Now}
}

// UseClock makes the codes and their lockouts, and the session policies, read the time from
// now instead of time.Now, so that tests move it rather than wait. Call it after UseTwoFactor
// and UseSessions, before serving.
func (s *Service) UseClock(now func() time.Time) {
	if s.twoFactor != nil {
		s.twoFactor.now = now
	}
	if s.sessions != nil {
		s.sessions.now = now
	}
}

// OnSecondFactorLocked has fn told, after the code that started it proved wrong, of each
// lockout of a person's second factor: who, and until when no code of theirs is checked.
// Call it after UseTwoFactor, before serving.
func (s *Service) OnSecondFactorLocked(fn func(ctx context.Context, userID int64, until time.Time)) {
	if s.twoFactor != nil {
		s.twoFactor.locked = fn
	}
}

func (s *Service) tf() (*twoFactor, error) {
	if s.twoFactor == nil {
		return nil, errors.New("two-factor sign-in is not set up")
	}
	return s.twoFactor, nil
}

// seal encrypts a secret; the user's ID is bound to it, so a sealed secret copied to another
// row does not open.
func (t *twoFactor) seal(userID int64, secret string) []byte {
	return t.box.Seal([]byte(secret), userAD(userID))
}

func (t *twoFactor) open(userID int64, sealed []byte) (string, error) {
	plain, err := t.box.Open(sealed, userAD(userID))
	if err != nil {
		return "", fmt.Errorf("open 2fa secret: %w", err)
	}
	return string(plain), nil
}

func userAD(userID int64) []byte { return fmt.Appendf(nil, "user:%d", userID) }

// Enrolment is a new, unconfirmed TOTP secret and the otpauth:// URL an app scans.
type Enrolment struct {
	Secret string `json:"secret"`
	URL    string `json:"otpauth_url"`
}

var (
	errCodeRequired  = apperr.Errorf(apperr.Invalid, "code is required").For("code_required", "code")
	errCodeWrong     = apperr.Errorf(apperr.Invalid, "the code is wrong").For("code_invalid", "code")
	errCodeUsed      = apperr.Errorf(apperr.Invalid, "the code was used already: wait for the next one").For("code_used", "code")
	errNotEnabled    = apperr.Errorf(apperr.Conflict, "two-factor sign-in is off").For("two_factor_off", "")
	errNotPending    = apperr.Errorf(apperr.Conflict, "start the enrolment first").For("two_factor_not_pending", "")
	errMFATokenWrong = apperr.Errorf(apperr.Unauthorized, "the sign-in expired or was finished: sign in again").For("mfa_token_invalid", "mfa_token")
)

// Enrol makes a new TOTP secret for the user and keeps it, unconfirmed, until ConfirmTOTP.
// Returns conflict (two_factor_enabled) when the user's 2FA is on.
func (s *Service) Enrol(ctx context.Context, userID int64, email string) (Enrolment, error) {
	t, err := s.tf()
	if err != nil {
		return Enrolment{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: email,
		Period: totpPeriod, Digits: totpDigits, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return Enrolment{}, fmt.Errorf("generate totp secret: %w", err)
	}
	if err := t.store.PendingTOTP(ctx, userID, t.seal(userID, key.Secret())); err != nil {
		return Enrolment{}, err
	}
	return Enrolment{Secret: key.Secret(), URL: key.URL()}, nil
}

// ConfirmTOTP turns on the user's pending secret when code is one of its current codes, and
// answers the new recovery codes (each shown only now). Its codes are not counted against the
// lockout: the secret was just shown to this same signed-in person, and guards nothing yet.
func (s *Service) ConfirmTOTP(ctx context.Context, userID int64, code string) ([]string, error) {
	t, err := s.tf()
	if err != nil {
		return nil, err
	}
	st, err := t.store.TOTP(ctx, userID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && st.Enabled) {
		return nil, errNotPending
	}
	if err != nil {
		return nil, err
	}
	secret, err := t.open(userID, st.Sealed)
	if err != nil {
		return nil, err
	}
	step, err := CheckTOTP(secret, code, t.now(), 0)
	if err != nil {
		return nil, err
	}
	codes, hashes := newRecoveryCodes()
	if err := t.store.EnableTOTP(ctx, userID, step, hashes); err != nil {
		return nil, err
	}
	return codes, nil
}

// TwoFactorOn reports whether the user signs in with a second factor.
func (s *Service) TwoFactorOn(ctx context.Context, userID int64) (bool, error) {
	t := s.twoFactor
	if t == nil {
		return false, nil
	}
	st, err := t.store.TOTP(ctx, userID)
	if apperr.Is(err, apperr.NotFound) {
		return false, nil
	}
	return err == nil && st.Enabled, err
}

// UseCode accepts one of the user's current TOTP codes, once; or, with recovery set, one of
// their recovery codes, once. Every code counts against the user's bound on wrong codes
// (CodeGuard, kept in the store): during a lockout it is refused unchecked with a
// *LockoutError (rate_limited, second_factor_locked), and a store that cannot count it refuses
// it too. Returns conflict (two_factor_off) when 2FA is off, invalid (code_invalid, code_used)
// for a wrong or already used code.
func (s *Service) UseCode(ctx context.Context, userID int64, code string, recovery bool) error {
	t, err := s.tf()
	if err != nil {
		return err
	}
	if strings.TrimSpace(code) == "" {
		if recovery {
			return errCodeRequired.For("code_required", "recovery_code")
		}
		return errCodeRequired
	}
	st, err := t.store.TOTP(ctx, userID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && !st.Enabled) {
		return errNotEnabled
	}
	if err != nil {
		return err
	}
	// An unreadable secret (JWT_SECRET changed) fails before the count: it is no guess.
	var secret string
	if !recovery {
		if secret, err = t.open(userID, st.Sealed); err != nil {
			return err
		}
	}
	now := t.now()
	var v CodeVerdict
	if err := t.store.GuardCodes(ctx, userID, func(g CodeGuard) CodeGuard {
		g, v = g.Take(now)
		return g
	}); err != nil {
		return err
	}
	if !v.Allowed {
		return &LockoutError{RetryAfter: v.RetryAfter}
	}
	err = t.check(ctx, userID, secret, st.LastStep, code, recovery, now)
	if err == nil {
		// A right code: the count starts afresh. Should the store fail here, the count stays
		// as it was, which only ever refuses sooner.
		if err := t.store.ClearCodeGuard(ctx, userID); err != nil {
			s.log.Warn("second-factor count not cleared after a right code", "user", userID, "err", err)
		}
		return nil
	}
	if v.Locks {
		s.log.Warn("second factor locked after wrong codes", "user", userID, "codes", MaxWrongCodes,
			"until", v.LockedUntil.UTC().Format(time.RFC3339))
		if t.locked != nil {
			t.locked(ctx, userID, v.LockedUntil)
		}
	}
	return err
}

// check is the decision on one code once it was counted.
func (t *twoFactor) check(ctx context.Context, userID int64, secret string, lastStep int64, code string, recovery bool, now time.Time) error {
	if recovery {
		ok, err := t.store.UseRecoveryCode(ctx, userID, RecoveryHash(code))
		if err != nil {
			return err
		}
		if !ok {
			return errCodeWrong.For("code_invalid", "recovery_code")
		}
		return nil
	}
	step, err := CheckTOTP(secret, code, now, lastStep)
	if err != nil {
		return err
	}
	ok, err := t.store.AcceptStep(ctx, userID, step)
	if err != nil {
		return err
	}
	if !ok { // another request took this code (or a later one) meanwhile
		return errCodeUsed
	}
	return nil
}

// DisableTOTP turns the user's 2FA off after UseCode accepted a code.
func (s *Service) DisableTOTP(ctx context.Context, userID int64) error {
	t, err := s.tf()
	if err != nil {
		return err
	}
	return t.store.DisableTOTP(ctx, userID)
}

// SecondStep is a sign-in whose first step passed and that waits for its second factor.
type SecondStep struct {
	UserID int64
	// SSOWorkspace is the workspace whose identity provider signed the person in; 0 for a
	// password. That sign-in's membership waits for the code (docs/security.md#single-sign-on).
	SSOWorkspace int64
}

// Via is how the session this sign-in opens begins.
func (st SecondStep) Via() Via {
	if st.SSOWorkspace != 0 {
		return ViaSSO
	}
	return ViaPassword
}

// StartChallenge answers the token of a sign-in whose first step (a password, or a workspace's
// identity provider) passed and that waits for its second factor; it is good for MFATTL and one
// successful code.
func (s *Service) StartChallenge(ctx context.Context, step SecondStep, now time.Time) (string, error) {
	t, err := s.tf()
	if err != nil {
		return "", err
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token := "mfa_" + base64.RawURLEncoding.EncodeToString(b)
	if err := t.store.CreateChallenge(ctx, hashToken(token), step, now.Add(MFATTL)); err != nil {
		return "", err
	}
	return token, nil
}

// Challenge answers the sign-in a live sign-in token belongs to, or unauthorized
// (mfa_token_invalid).
func (s *Service) Challenge(ctx context.Context, token string) (SecondStep, error) {
	t, err := s.tf()
	if err != nil {
		return SecondStep{}, err
	}
	if token == "" {
		return SecondStep{}, apperr.Errorf(apperr.Invalid, "mfa_token is required").For("mfa_token_required", "mfa_token")
	}
	step, err := t.store.Challenge(ctx, hashToken(token))
	if apperr.Is(err, apperr.NotFound) {
		return SecondStep{}, errMFATokenWrong
	}
	return step, err
}

// FinishChallenge uses up a sign-in token whose code was accepted, or answers unauthorized
// (mfa_token_invalid) when another request finished it first.
func (s *Service) FinishChallenge(ctx context.Context, token string) error {
	t, err := s.tf()
	if err != nil {
		return err
	}
	ok, err := t.store.UseChallenge(ctx, hashToken(token))
	if err != nil {
		return err
	}
	if !ok {
		return errMFATokenWrong
	}
	return nil
}

// CheckTOTP is the decision on a code: the time step (now's, or one next to it) whose code it
// is, or invalid: code_required, code_invalid (no such code), code_used (a code of a step no
// newer than lastStep, accepted already).
func CheckTOTP(secret, code string, now time.Time, lastStep int64) (int64, error) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if code == "" {
		return 0, errCodeRequired
	}
	if len(code) != totpDigits.Length() {
		return 0, errCodeWrong
	}
	current := now.Unix() / totpPeriod
	for d := int64(-totpSkew); d <= totpSkew; d++ {
		step := current + d
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), totp.ValidateOpts{
			Period: totpPeriod, Digits: totpDigits, Algorithm: otp.AlgorithmSHA1})
		if err != nil {
			return 0, fmt.Errorf("totp code: %w", err)
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			if step <= lastStep {
				return 0, errCodeUsed
			}
			return step, nil
		}
	}
	return 0, errCodeWrong
}

// recoveryAlphabet leaves out letters and digits that read alike (0/o, 1/l/i).
const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// newRecoveryCodes makes RecoveryCodes codes such as "k7m2q-x9tpa" (about 49 bits each) and
// their hashes.
func newRecoveryCodes() ([]string, [][]byte) {
	codes, hashes := make([]string, RecoveryCodes), make([][]byte, RecoveryCodes)
	for i := range codes {
		b := make([]byte, 10)
		_, _ = rand.Read(b)
		var sb strings.Builder
		for j, x := range b {
			if j == 5 {
				sb.WriteByte('-')
			}
			// 256 % 31 leaves a tiny bias toward the first letters; it costs a fraction of a bit.
			sb.WriteByte(recoveryAlphabet[int(x)%len(recoveryAlphabet)])
		}
		codes[i] = sb.String()
		hashes[i] = RecoveryHash(codes[i])
	}
	return codes, hashes
}

// RecoveryHash is the stored form of a recovery code: case, spaces and dashes do not count.
func RecoveryHash(code string) []byte {
	norm := strings.NewReplacer("-", "", " ", "").Replace(strings.ToLower(strings.TrimSpace(code)))
	h := sha256.Sum256([]byte(norm))
	return h[:]
}
