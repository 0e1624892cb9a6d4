package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
)

type tokenRequest struct {
	Token string `json:"token"`
}

type passwordResetRequest struct {
	Email string `json:"email"`
}

type passwordResetConfirm struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

type userResponse struct {
	User *account.User `json:"user"`
}

// verifyEmail takes the token of a verification link (the web app's /app/verify page posts
// it) and answers the user, now verified.
func (s *Server) verifyEmail(c *gin.Context) {
	var in tokenRequest
	if !s.bind(c, &in) {
		return
	}
	if in.Token == "" {
		s.fail(c, apperr.Errorf(apperr.Invalid, "token is required").For("email_link_invalid", "token"))
		return
	}
	u, err := s.accounts.VerifyEmail(c.Request.Context(), in.Token)
	s.reply(c, http.StatusOK, userResponse{User: u}, err)
}

// resendVerification mails the signed-in user a new verification link.
func (s *Server) resendVerification(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	ctx := c.Request.Context()
	if s.limited(c, s.auth.AllowVerificationMail(ctx, userID(c))) {
		return
	}
	s.replyStatus(c, http.StatusAccepted, s.accounts.ResendVerification(ctx, userID(c)))
}

// requestPasswordReset answers 202 whether or not the email has an account: the mail, if
// any, is sent in the background.
func (s *Server) requestPasswordReset(c *gin.Context) {
	var in passwordResetRequest
	if !s.bind(c, &in) {
		return
	}
	e, err := account.NormalizeEmail(in.Email)
	if err != nil {
		s.fail(c, err)
		return
	}
	if s.limited(c, s.auth.AllowPasswordReset(c.Request.Context(), e, s.clientIP(c))) {
		return
	}
	if err := s.passwordAllowed(c, e); err != nil {
		s.fail(c, err)
		return
	}
	s.replyStatus(c, http.StatusAccepted, s.accounts.RequestPasswordReset(e))
}

// confirmPasswordReset sets a new password with the token of a reset link; every session of
// the account ends, so the caller signs in again.
func (s *Server) confirmPasswordReset(c *gin.Context) {
	var in passwordResetConfirm
	if !s.bind(c, &in) {
		return
	}
	if in.Token == "" {
		s.fail(c, apperr.Errorf(apperr.Invalid, "token is required").For("email_link_invalid", "token"))
		return
	}
	err := s.accounts.ResetPassword(c.Request.Context(), in.Token, in.Password)
	if err == nil {
		s.auth.ForgetSessions()
	}
	s.noContent(c, err)
}
