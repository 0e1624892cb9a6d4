package httpapi

import (
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/qr"
)

// codeInput is a TOTP code, or a recovery code where one may stand in for it.
type codeInput struct {
	Code         string `json:"code"`
	RecoveryCode string `json:"recovery_code"`
}

type recoveryCodesResponse struct {
	RecoveryCodes []string `json:"recovery_codes"`
}

// enrolTwoFactor starts an enrolment: a new secret, kept unconfirmed until a code of it comes
// back to confirmTwoFactor.
func (s *Server) enrolTwoFactor(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	ctx := c.Request.Context()
	u, err := s.accounts.User(ctx, userID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	e, err := s.auth.Enrol(ctx, u.ID, u.Email)
	if err != nil {
		s.fail(c, err)
		return
	}
	img, err := qr.Draw(e.URL, qr.SVG, 256)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, enrolmentResponse{Enrolment: e, QRSVG: string(img.Data)})
}

// enrolmentResponse is the enrolment with its otpauth URL drawn as a QR code (an SVG
// document), so an app can show it without drawing codes itself.
type enrolmentResponse struct {
	auth.Enrolment
	QRSVG string `json:"qr_svg"`
}

// codeAttempt spends a login attempt of the signed-in person on a code, as a password
// confirmation does; check tells whether the code was right.
func (s *Server) codeAttempt(c *gin.Context, check func() error) bool {
	ctx, ip := c.Request.Context(), s.clientIP(c)
	u, err := s.accounts.User(ctx, userID(c))
	if err != nil {
		s.fail(c, err)
		return false
	}
	if s.limited(c, s.auth.AllowLogin(ctx, u.Email, ip)) {
		return false
	}
	err = check()
	if err != nil && !apperr.Is(err, apperr.Invalid) {
		// Not a guess: nothing pending, 2FA off, or a failure of ours.
		s.auth.LoginUnchecked(ctx, u.Email, ip)
	}
	if err != nil {
		s.fail(c, err)
		return false
	}
	s.auth.LoginSucceeded(ctx, u.Email, ip)
	return true
}

// confirmTwoFactor turns 2FA on with a code of the pending secret and answers the ten
// recovery codes, shown this once.
func (s *Server) confirmTwoFactor(c *gin.Context) {
	var in codeInput
	if !s.requireUser(c) || !s.bind(c, &in) {
		return
	}
	if in.Code == "" {
		s.fail(c, apperr.Errorf(apperr.Invalid, "code is required").For("code_required", "code"))
		return
	}
	var codes []string
	if !s.codeAttempt(c, func() (err error) {
		codes, err = s.auth.ConfirmTOTP(c.Request.Context(), userID(c), in.Code)
		return err
	}) {
		return
	}
	// Every other session was opened by the password alone: the second factor now guards the
	// account, so they end and each signs in again with both.
	if keep := callerOf(c).Session; keep != uuid.Nil {
		if _, err := s.auth.EndOtherSessions(c.Request.Context(), userID(c), keep); err != nil && !apperr.Is(err, apperr.Unavailable) {
			s.log.Warn("end other sessions after 2FA confirmation", "user", userID(c), "err", err)
		}
	}
	c.JSON(http.StatusOK, recoveryCodesResponse{RecoveryCodes: codes})
}

// disableTwoFactor turns 2FA off with a current code (or a recovery code), counted towards
// the account's lockout as at sign-in.
func (s *Server) disableTwoFactor(c *gin.Context) {
	var in codeInput
	if !s.requireUser(c) || !s.bind(c, &in) {
		return
	}
	if in.Code == "" && in.RecoveryCode == "" {
		s.fail(c, apperr.Errorf(apperr.Invalid, "code is required").For("code_required", "code"))
		return
	}
	ctx, uid := c.Request.Context(), userID(c)
	if !s.codeAttempt(c, func() error {
		if in.Code == "" {
			return s.auth.UseCode(ctx, uid, in.RecoveryCode, true)
		}
		return s.auth.UseCode(ctx, uid, in.Code, false)
	}) {
		return
	}
	s.noContent(c, s.auth.DisableTOTP(ctx, uid))
}

// mfaChallengeResponse is the answer to a right password of an account with 2FA on: no
// session yet, only the token of the second step.
type mfaChallengeResponse struct {
	MFARequired bool   `json:"mfa_required"`
	MFAToken    string `json:"mfa_token"`
}

type loginSecondStep struct {
	MFAToken     string `json:"mfa_token"`
	Code         string `json:"code"`
	RecoveryCode string `json:"recovery_code"`
	// TokenPair is the login's: the refresh token in the body too (see credentials).
	TokenPair bool `json:"token_pair"`
}

// loginTwoFactor is the second step of a sign-in with 2FA on: the token of the first step and
// a code, or a recovery code. Its answer is the login's, cookies included. Wrong codes spend
// the same budgets as wrong passwords, and count towards the account's lockout, during which
// every code is refused unchecked (docs/security.md#two-factor-sign-in).
func (s *Server) loginTwoFactor(c *gin.Context) {
	var in loginSecondStep
	if !s.bind(c, &in) {
		return
	}
	if in.Code == "" && in.RecoveryCode == "" {
		s.fail(c, apperr.Errorf(apperr.Invalid, "code or recovery_code is required").For("code_required", "code"))
		return
	}
	ctx, ip := c.Request.Context(), s.clientIP(c)
	step, err := s.auth.Challenge(ctx, in.MFAToken)
	if err != nil {
		s.fail(c, err)
		return
	}
	uid := step.UserID
	u, err := s.liveUser(ctx, uid)
	if err != nil {
		s.fail(c, err)
		return
	}
	if step.Via() == auth.ViaPassword && s.sso != nil {
		// A password that was right before the account's workspace enforced single sign-on
		// opens nothing after.
		if err := s.sso.PasswordAllowed(ctx, u); err != nil {
			s.fail(c, err)
			return
		}
	}
	if s.limited(c, s.auth.AllowLogin(ctx, u.Email, ip)) {
		return
	}
	if in.Code != "" {
		err = s.auth.UseCode(ctx, uid, in.Code, false)
	} else {
		err = s.auth.UseCode(ctx, uid, in.RecoveryCode, true)
	}
	if err == nil {
		err = s.auth.FinishChallenge(ctx, in.MFAToken)
	}
	if err != nil {
		if !apperr.Is(err, apperr.Invalid) {
			s.auth.LoginUnchecked(ctx, u.Email, ip)
		}
		s.fail(c, signInCodeError(err))
		return
	}
	s.auth.LoginSucceeded(ctx, u.Email, ip)
	if step.SSOWorkspace != 0 {
		// The membership of a sign-in through a workspace's provider is made only now that
		// the second factor passed.
		joined, err := s.sso.JoinAfterSecondStep(ctx, step.SSOWorkspace, u)
		if err != nil {
			s.fail(c, err)
			return
		}
		if joined {
			s.auditedBy(c, audit.User(u.ID, u.Email), step.SSOWorkspace, audit.SSOMemberJoined, audit.Target("member", u.ID),
				map[string]any{"role": "member", "created": false})
		}
	}
	t, err := s.startSession(c, u, in.TokenPair, step.Via())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, loginResponse{User: u, tokens: t})
}

// signInCodeError: at sign-in a wrong or used code is a failed sign-in (401), as a wrong
// password is; elsewhere it is a wrong input (400), like a wrong current password.
func signInCodeError(err error) error {
	var e *apperr.Error
	if errors.As(err, &e) && e.Code == apperr.Invalid && (e.Reason == "code_invalid" || e.Reason == "code_used") {
		c := *e
		c.Code = apperr.Unauthorized
		return &c
	}
	return err
}

// startSecondStep answers the token of a sign-in's second step: the password alone opens no
// session when 2FA is on.
func (s *Server) startSecondStep(c *gin.Context, step auth.SecondStep) {
	token, err := s.auth.StartChallenge(c.Request.Context(), step, time.Now())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, mfaChallengeResponse{MFARequired: true, MFAToken: token})
}
