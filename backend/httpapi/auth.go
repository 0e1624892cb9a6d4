package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/auth"
)

// device is what the request says of the device a session runs on.
func (s *Server) device(c *gin.Context) auth.Device {
	ip := s.clientIP(c)
	d := auth.Device{Network: auth.NetworkOf(ip), IPHash: s.auth.HashAddress(ip)}
	if s.visitors != nil {
		a := s.visitors.Agent(c.Request.UserAgent())
		d.Browser, d.OS = known(a.Browser), known(a.OS)
	}
	return d
}

// known is a family name the visitor package read, "" for "Other".
func known(family string) string {
	if family == "Other" || len(family) > 64 {
		return ""
	}
	return family
}

// liveUser is the account a session or a sign-in challenge names: unauthorized once it was
// deleted.
func (s *Server) liveUser(ctx context.Context, id int64) (*account.User, error) {
	u, err := s.accounts.User(ctx, id)
	if apperr.Is(err, apperr.NotFound) {
		err = apperr.Errorf(apperr.Unauthorized, "the account no longer exists").For("account_deleted", "")
	}
	return u, err
}

// refreshPath scopes the refresh cookie to the endpoints that read it.
const refreshPath = "/api/v1/auth"

type credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	// TokenPair asks for the refresh token in the answer's body too. Programs that keep
	// their own tokens set it; the web app never does, so its refresh token stays in the
	// HttpOnly cookie, out of reach of scripts on the page.
	TokenPair bool `json:"token_pair"`
}

// tokens is the part of a sign-in answer that API clients use; the web app uses the cookies.
// RefreshToken is filled only for programs that asked for the pair.
type tokens struct {
	AccessToken  string    `json:"access_token"`
	ExpiresAt    time.Time `json:"expires_at"`
	RefreshToken string    `json:"refresh_token,omitempty"`
}

// startSession issues an access token and a new refresh-token family for u, begun via, and
// sets the session cookies. The refresh token goes in the body only when pair is set.
func (s *Server) startSession(c *gin.Context, u *account.User, pair bool, via auth.Via) (tokens, error) {
	refresh, session, err := s.auth.StartSession(c.Request.Context(), u.ID, s.device(c), via)
	if err != nil {
		return tokens{}, err
	}
	t, err := s.sessionTokens(c, u, refresh, session)
	if !pair {
		t.RefreshToken = ""
	}
	return t, err
}

// sessionTokens signs an access token for u and sets the cookies of the session.
func (s *Server) sessionTokens(c *gin.Context, u *account.User, refresh string, session uuid.UUID) (tokens, error) {
	access, exp, err := s.auth.SessionAccessToken(u.ID, u.SystemRole, session)
	if err != nil {
		return tokens{}, err
	}
	s.setSessionCookies(c, access, exp, refresh)
	return tokens{AccessToken: access, ExpiresAt: exp, RefreshToken: refresh}, nil
}

// setSessionCookies: the access cookie goes with every request of the site (Lax, so links
// from elsewhere open signed in); the refresh cookie only to /api/v1/auth and never from
// another site (Strict); the CSRF cookie is readable by the app's script, which echoes it.
func (s *Server) setSessionCookies(c *gin.Context, access string, exp time.Time, refresh string) {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	session := int(s.auth.RefreshTTL().Seconds())
	http.SetCookie(c.Writer, &http.Cookie{Name: cookieAccess, Value: access, Path: "/", Expires: exp,
		MaxAge: int(time.Until(exp).Seconds()), HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	http.SetCookie(c.Writer, &http.Cookie{Name: cookieRefresh, Value: refresh, Path: refreshPath,
		MaxAge: session, HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteStrictMode})
	http.SetCookie(c.Writer, &http.Cookie{Name: cookieCSRF, Value: base64.RawURLEncoding.EncodeToString(b), Path: "/",
		MaxAge: session, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
}

func (s *Server) clearSessionCookies(c *gin.Context) {
	for _, ck := range []struct {
		name, path string
		same       http.SameSite
	}{{cookieAccess, "/", http.SameSiteLaxMode}, {cookieRefresh, refreshPath, http.SameSiteStrictMode}, {cookieCSRF, "/", http.SameSiteLaxMode}} {
		http.SetCookie(c.Writer, &http.Cookie{Name: ck.name, Value: "", Path: ck.path, MaxAge: -1,
			HttpOnly: ck.name != cookieCSRF, Secure: s.secureCookies, SameSite: ck.same})
	}
}

// limited answers err, if any, and reports whether it did; a refusal of the rate limiter is
// 429 with Retry-After.
func (s *Server) limited(c *gin.Context, err error) bool {
	if err == nil {
		return false
	}
	s.fail(c, err)
	return true
}

// signupRequest is credentials and, for a sign-up through an invitation mail's link, that
// link's invitation: the account then joins the inviting workspace instead of getting one.
type signupRequest struct {
	credentials
	Invitation *account.InvitationLink `json:"invitation"`
	// Language is the one the person reads mails in ("en", "zh"); the browser's
	// Accept-Language picks it when absent.
	Language *string `json:"language"`
}

type signupResponse struct {
	User      *account.User      `json:"user"`
	Workspace *account.Workspace `json:"workspace"`
	tokens
}

func (s *Server) signup(c *gin.Context) {
	var in signupRequest
	if !s.bind(c, &in) {
		return
	}
	// Sign-ups spend the address's login budget: each costs a password hash and tells
	// whether an email is taken.
	if s.limited(c, s.auth.AllowSignup(c.Request.Context(), s.clientIP(c))) {
		return
	}
	if err := s.passwordAllowed(c, in.Email); err != nil {
		s.fail(c, err)
		return
	}
	lang, err := signupLanguage(c, in.Language)
	if err != nil {
		s.fail(c, err)
		return
	}
	u, ws, err := s.accounts.Signup(c.Request.Context(), in.Email, in.Password, in.Invitation, lang)
	if err != nil {
		s.fail(c, err)
		return
	}
	if in.Invitation != nil {
		s.auditedBy(c, audit.User(u.ID, u.Email), ws.ID, audit.InvitationAccepted, audit.Target("invitation", in.Invitation.ID),
			map[string]any{"role": ws.Role, "signup": true})
	}
	t, err := s.startSession(c, u, in.TokenPair, auth.ViaPassword)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, signupResponse{User: u, Workspace: ws, tokens: t})
}

// passwordAllowed answers 403 sso_required for an address whose domain signs in only through
// its workspace's identity provider, unless its account is an operator's or a moderator's. An
// account that could not be looked up is refused (the error), not let through.
func (s *Server) passwordAllowed(c *gin.Context, email string) error {
	if s.sso == nil {
		return nil
	}
	e, err := account.NormalizeEmail(email)
	if err != nil {
		return nil // the sign-in's own checks answer it
	}
	ctx := c.Request.Context()
	u, err := s.accounts.UserByEmail(ctx, e)
	if apperr.Is(err, apperr.NotFound) {
		u, err = &account.User{Email: e, SystemRole: account.SystemUser}, nil
	}
	if err != nil {
		return err
	}
	return s.sso.PasswordAllowed(ctx, u)
}

type loginResponse struct {
	User *account.User `json:"user"`
	tokens
}

func (s *Server) login(c *gin.Context) {
	var in credentials
	if !s.bind(c, &in) {
		return
	}
	if in.Email == "" || in.Password == "" {
		field := "email"
		if in.Email != "" {
			field = "password"
		}
		s.fail(c, apperr.Errorf(apperr.Invalid, "email and password are required").For(field+"_required", field))
		return
	}
	ctx, ip := c.Request.Context(), s.clientIP(c)
	if s.limited(c, s.auth.AllowLogin(ctx, in.Email, ip)) {
		return
	}
	if err := s.passwordAllowed(c, in.Email); err != nil {
		s.auth.LoginUnchecked(ctx, in.Email, ip)
		s.fail(c, err)
		return
	}
	u, err := s.accounts.Login(ctx, in.Email, in.Password)
	if auth.IsBusy(err) {
		// 503 with Retry-After: the password was never checked, so it was no guess.
		s.auth.LoginUnchecked(ctx, in.Email, ip)
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	on, err := s.auth.TwoFactorOn(ctx, u.ID)
	if err != nil {
		s.auth.LoginUnchecked(ctx, in.Email, ip)
		s.fail(c, err)
		return
	}
	if on {
		// The password was right, yet this is no sign-in until the code comes: its tokens
		// come back, and the pair's budget is not started afresh, so the codes that follow
		// spend it.
		s.auth.LoginUnchecked(ctx, in.Email, ip)
		s.startSecondStep(c, auth.SecondStep{UserID: u.ID})
		return
	}
	s.auth.LoginSucceeded(ctx, in.Email, ip)
	t, err := s.startSession(c, u, in.TokenPair, auth.ViaPassword)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, loginResponse{User: u, tokens: t})
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token"`
}

// refreshToken reads the refresh token from the JSON body (API clients) or the sl_refresh
// cookie (the web app). A cookie must come with the CSRF header, like any cookie-authenticated
// change.
func (s *Server) refreshToken(c *gin.Context) (string, error) {
	var in refreshRequest
	if c.Request.ContentLength != 0 {
		if err := s.decode(c, &in); err != nil {
			return "", err
		}
	}
	if in.RefreshToken != "" {
		return in.RefreshToken, nil
	}
	token, err := c.Cookie(cookieRefresh)
	if err != nil || token == "" {
		return "", nil
	}
	if err := checkCSRF(c); err != nil {
		return "", err
	}
	return token, nil
}

func (s *Server) refresh(c *gin.Context) {
	token, err := s.refreshToken(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if token == "" {
		s.fail(c, apperr.Errorf(apperr.Unauthorized, "send the refresh token as {\"refresh_token\"} or in the %s cookie", cookieRefresh).For("refresh_invalid", ""))
		return
	}
	ctx := c.Request.Context()
	uid, session, next, err := s.auth.RotateSession(ctx, token, s.device(c))
	if err != nil {
		if apperr.Is(err, apperr.Unauthorized) {
			s.clearSessionCookies(c)
		}
		s.fail(c, err)
		return
	}
	u, err := s.liveUser(ctx, uid)
	if err != nil {
		s.fail(c, err)
		return
	}
	t, err := s.sessionTokens(c, u, next, session)
	if err != nil {
		s.fail(c, err)
		return
	}
	if cookie, err := c.Cookie(cookieRefresh); err == nil && cookie == token {
		// A cookie session keeps its refresh token in the HttpOnly cookie: a script on the
		// page could read it from the body.
		t.RefreshToken = ""
	}
	c.JSON(http.StatusOK, loginResponse{User: u, tokens: t})
}

func (s *Server) logout(c *gin.Context) {
	token, err := s.refreshToken(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := s.auth.Revoke(c.Request.Context(), token); err != nil {
		s.fail(c, err)
		return
	}
	s.clearSessionCookies(c)
	c.Status(http.StatusNoContent)
}
