package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// A person's own account: password, address, sessions, deletion. Every change that needs the
// current password checks it under the login limits, as a login would.

type passwordChange struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

type emailChange struct {
	Email           string `json:"email"`
	CurrentPassword string `json:"current_password"`
}

type accountDeletion struct {
	CurrentPassword string `json:"current_password"`
}

type emailChangeResponse struct {
	PendingEmail string `json:"pending_email"`
}

type sessionsResponse struct {
	Sessions []auth.Session `json:"sessions"`
}

type sessionsEnded struct {
	Ended int `json:"ended"`
}

// confirmPassword checks the signed-in person's current password, spending the login budgets
// of their address and the client's like a login; it answers the failure itself.
func (s *Server) confirmPassword(c *gin.Context, password string) (*account.User, bool) {
	ctx, ip := c.Request.Context(), s.clientIP(c)
	u, err := s.accounts.User(ctx, userID(c))
	if err != nil {
		s.fail(c, err)
		return nil, false
	}
	if password == "" {
		s.fail(c, apperr.Errorf(apperr.Invalid, "current_password is required").For("current_password_required", "current_password"))
		return nil, false
	}
	if s.limited(c, s.auth.AllowLogin(ctx, u.Email, ip)) {
		return nil, false
	}
	err = s.accounts.CheckPassword(ctx, u.ID, password)
	if auth.IsBusy(err) {
		s.auth.LoginUnchecked(ctx, u.Email, ip)
	}
	if err != nil {
		s.fail(c, err)
		return nil, false
	}
	s.auth.LoginSucceeded(ctx, u.Email, ip)
	return u, true
}

// changePassword sets a new password; every other session of the person is signed out, the
// caller's stays.
func (s *Server) changePassword(c *gin.Context) {
	var in passwordChange
	if !s.requireUser(c) || !s.bind(c, &in) {
		return
	}
	if err := account.CheckNewPassword(in.NewPassword); err != nil {
		s.fail(c, err)
		return
	}
	// Before the current password: an account bound to its organisation's sign-on may have
	// none to give.
	if err := s.accounts.MayChangePassword(c.Request.Context(), userID(c)); err != nil {
		s.fail(c, err)
		return
	}
	if _, ok := s.confirmPassword(c, in.CurrentPassword); !ok {
		return
	}
	err := s.accounts.ChangePassword(c.Request.Context(), userID(c), in.NewPassword, callerOf(c).Session)
	if err == nil {
		s.auth.ForgetSessions()
	}
	s.noContent(c, err)
}

// changeEmail mails a confirmation link to the new address; the address changes when it is
// used. The person's budget of verification mails bounds how many addresses they can mail.
func (s *Server) changeEmail(c *gin.Context) {
	var in emailChange
	if !s.requireUser(c) || !s.bind(c, &in) {
		return
	}
	ctx := c.Request.Context()
	u, err := s.accounts.User(ctx, userID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	if _, err := account.CheckNewEmail(u.Email, in.Email); err != nil {
		s.fail(c, err)
		return
	}
	if err := s.accounts.MayChangeEmail(ctx, u.ID, in.Email); err != nil {
		s.fail(c, err)
		return
	}
	if _, ok := s.confirmPassword(c, in.CurrentPassword); !ok {
		return
	}
	if s.limited(c, s.auth.AllowVerificationMail(ctx, u.ID)) {
		return
	}
	e, err := s.accounts.RequestEmailChange(ctx, u.ID, in.Email)
	s.reply(c, http.StatusAccepted, emailChangeResponse{PendingEmail: e}, err)
}

// listSessions answers the person's signed-in sessions, the caller's marked current.
func (s *Server) listSessions(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	list, err := s.auth.Sessions(c.Request.Context(), userID(c), callerOf(c).Session)
	if list == nil {
		list = []auth.Session{}
	}
	s.replyNoStore(c, sessionsResponse{Sessions: list}, err)
}

// endSession signs out one session of the person's; another person's answers not found.
func (s *Server) endSession(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		s.fail(c, apperr.Errorf(apperr.NotFound, "session not found").For("session_not_found", "id"))
		return
	}
	s.noContent(c, s.auth.EndSession(c.Request.Context(), userID(c), id))
}

// endOtherSessions signs out every session of the person's but the caller's.
func (s *Server) endOtherSessions(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	n, err := s.auth.EndOtherSessions(c.Request.Context(), userID(c), callerOf(c).Session)
	s.reply(c, http.StatusOK, sessionsEnded{Ended: n}, err)
}

// deleteMe deletes the person's account (see account.Service.DeleteAccount) and ends the
// caller's session.
func (s *Server) deleteMe(c *gin.Context) {
	var in accountDeletion
	if !s.requireUser(c) || !s.bind(c, &in) {
		return
	}
	if _, ok := s.confirmPassword(c, in.CurrentPassword); !ok {
		return
	}
	if err := s.accounts.DeleteAccount(c.Request.Context(), userID(c)); err != nil {
		s.fail(c, err)
		return
	}
	s.auth.ForgetSessions()
	s.clearSessionCookies(c)
	c.Status(http.StatusNoContent)
}
