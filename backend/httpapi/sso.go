package httpapi

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/sso"
)

// cookieSSO carries a started sign-in's state from the browser that started it to the
// callback: a state link opened in another browser signs nobody in.
const cookieSSO = "sl_sso"

// ssoPath scopes cookieSSO to the sign-in's two endpoints.
const ssoPath = "/api/v1/auth/sso"

// ssoAnswer is a workspace's single sign-on as the API shows it; the client secret never.
type ssoAnswer struct {
	Issuer          string             `json:"issuer"`
	ClientID        string             `json:"client_id"`
	ClientSecretSet bool               `json:"client_secret_set"`
	EmailDomain     string             `json:"email_domain"`
	Enforce         bool               `json:"enforce"`
	Verified        bool               `json:"verified"`
	VerifiedAt      *time.Time         `json:"verified_at"`
	Verification    verificationAnswer `json:"verification"`
	// CallbackURL is the redirect URI to register with the provider.
	CallbackURL string    `json:"callback_url"`
	UpdatedAt   time.Time `json:"updated_at"`
	// Protocol is "oidc" or "saml"; SAML names its provider's metadata URL ("" when uploaded)
	// and the service provider to register with it.
	Protocol       string     `json:"protocol"`
	IdPMetadataURL string     `json:"idp_metadata_url"`
	SAML           samlAnswer `json:"saml"`
}

func (s *Server) answerSSO(st *sso.Settings, problem string) ssoAnswer {
	a := ssoAnswer{Issuer: st.Issuer, ClientID: st.ClientID, ClientSecretSet: len(st.SealedSecret) > 0,
		EmailDomain: st.EmailDomain, Enforce: st.Enforce, Verified: st.Verified(), VerifiedAt: st.VerifiedAt,
		Verification: verificationAnswer{Type: "TXT", Name: sso.RecordName(st.EmailDomain), Value: st.Token},
		CallbackURL:  s.sso.CallbackURL(), UpdatedAt: st.UpdatedAt,
		Protocol: st.Protocol, IdPMetadataURL: st.IdPMetadataURL, SAML: s.samlOf(st.WorkspaceID)}
	switch problem {
	case sso.ProblemMissing:
		a.Verification.Problem = "no TXT record " + a.Verification.Name + " holds the value"
	case sso.ProblemLookup:
		a.Verification.Problem = "the DNS lookup failed; try again later"
	}
	a.Verification.ProblemReason = problem
	return a
}

var errSSONotSet = apperr.Errorf(apperr.NotFound, "single sign-on is not set up for this workspace").For("sso_not_set", "")

func (s *Server) getSSO(c *gin.Context) {
	st, err := s.sso.Get(c.Request.Context(), workspaceID(c))
	if apperr.Is(err, apperr.NotFound) {
		err = errSSONotSet
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, s.answerSSO(st, ""))
}

func (s *Server) putSSO(c *gin.Context) {
	var in sso.Input
	if !s.bind(c, &in) {
		return
	}
	st, ended, err := s.sso.Put(c.Request.Context(), workspaceID(c), in)
	if err != nil {
		s.fail(c, err)
		return
	}
	if ended.Sessions > 0 {
		s.auth.ForgetSessions()
	}
	details := map[string]any{"issuer": st.Issuer, "client_id": st.ClientID,
		"email_domain": st.EmailDomain, "enforce": st.Enforce, "client_secret_changed": in.ClientSecret != "", "protocol": st.Protocol}
	if st.Protocol == sso.ProtocolSAML {
		details["idp_metadata_url"] = st.IdPMetadataURL
	}
	if st.Enforce {
		// What enforcing ended: the password sessions of the members it binds.
		details["members_bound"], details["password_sessions_ended"] = ended.Members, ended.Sessions
	}
	s.auditedHere(c, audit.SSOChanged, "sso", details)
	c.JSON(http.StatusOK, s.answerSSO(st, ""))
}

func (s *Server) deleteSSO(c *gin.Context) {
	err := s.sso.Delete(c.Request.Context(), workspaceID(c))
	if apperr.Is(err, apperr.NotFound) {
		err = errSSONotSet
	}
	if err == nil {
		s.auditedHere(c, audit.SSOChanged, "sso", map[string]any{"removed": true})
	}
	s.noContent(c, err)
}

func (s *Server) verifySSO(c *gin.Context) {
	ctx := c.Request.Context()
	before, err := s.sso.Get(ctx, workspaceID(c))
	if apperr.Is(err, apperr.NotFound) {
		err = errSSONotSet
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	st, problem, err := s.sso.Verify(ctx, workspaceID(c))
	if apperr.Is(err, apperr.NotFound) {
		err = errSSONotSet
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	if st.Verified() && !before.Verified() {
		s.auditedHere(c, audit.SSOChanged, "sso", map[string]any{"email_domain": st.EmailDomain, "verified": true})
	}
	c.JSON(http.StatusOK, s.answerSSO(st, problem))
}

// startSSO sends the browser to the provider of the email's domain.
func (s *Server) startSSO(c *gin.Context) {
	email := strings.TrimSpace(c.Query("email"))
	if email == "" {
		s.ssoFail(c, apperr.Errorf(apperr.Invalid, "email is required").For("email_required", "email"))
		return
	}
	started, err := s.sso.Start(c.Request.Context(), email, c.Query("return_to"), time.Now())
	if err != nil {
		s.ssoFail(c, err)
		return
	}
	if started.Protocol == sso.ProtocolSAML {
		s.setSAMLState(c, started.State, int(s.sso.StateTTL().Seconds()))
	} else {
		http.SetCookie(c.Writer, &http.Cookie{Name: cookieSSO, Value: started.State, Path: ssoPath,
			MaxAge: int(s.sso.StateTTL().Seconds()), HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	}
	c.Header("Cache-Control", "no-store")
	c.Redirect(http.StatusFound, started.URL)
}

// finishSSO is the provider's redirect back: the session cookies, as a password sign-in sets
// them, and a redirect into the web app. With 2FA on, the app's sign-in page asks for the
// code (the token of the second step rides in the fragment, which no server sees).
func (s *Server) finishSSO(c *gin.Context) {
	ctx := c.Request.Context()
	cookie, _ := c.Cookie(cookieSSO)
	http.SetCookie(c.Writer, &http.Cookie{Name: cookieSSO, Value: "", Path: ssoPath, MaxAge: -1,
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	c.Header("Cache-Control", "no-store")
	in, err := s.sso.Finish(ctx, c.Query("state"), cookie, c.Query("code"))
	if err != nil {
		s.ssoFail(c, err)
		return
	}
	s.ssoSignedIn(c, in)
}

// ssoSignedIn ends a sign-in a provider made, whatever the protocol: the session cookies, or
// the second step when 2FA is on, and the redirect into the web app.
func (s *Server) ssoSignedIn(c *gin.Context, in *sso.SignedIn) {
	ctx := c.Request.Context()
	s.accounts.KeysRevoked(ctx, in.RevokedKeys)
	if in.TookOver {
		s.auth.ForgetSessions()
	}
	if in.Member {
		s.auditedBy(c, audit.User(in.UserID, in.Email), in.WorkspaceID, audit.SSOMemberJoined, audit.Target("member", in.UserID),
			map[string]any{"role": "member", "created": in.Created})
	}
	u, err := s.liveUser(ctx, in.UserID)
	if err != nil {
		s.ssoFail(c, err)
		return
	}
	on, err := s.auth.TwoFactorOn(ctx, u.ID)
	if err != nil {
		s.ssoFail(c, err)
		return
	}
	if on || in.Pending {
		// The membership, when it waits (in.Pending), is made once the code passes.
		token, err := s.auth.StartChallenge(ctx, auth.SecondStep{UserID: u.ID, SSOWorkspace: in.WorkspaceID}, time.Now())
		if err != nil {
			s.ssoFail(c, err)
			return
		}
		c.Redirect(http.StatusFound, "/app/login#"+url.Values{"mfa_token": {token}, "return_to": {in.ReturnTo}}.Encode())
		return
	}
	if _, err := s.startSession(c, u, false, auth.ViaSSO); err != nil {
		s.ssoFail(c, err)
		return
	}
	c.Redirect(http.StatusFound, in.ReturnTo)
}

// ssoFail answers a failed sign-in: a browser (which asks for HTML) goes back to the web app's
// sign-in page with the error's reason; other clients get the error as JSON.
func (s *Server) ssoFail(c *gin.Context, err error) {
	if !strings.Contains(c.GetHeader("Accept"), "text/html") {
		s.fail(c, err)
		return
	}
	reason := "internal"
	var e *apperr.Error
	if errors.As(err, &e) && e.Reason != "" {
		reason = e.Reason
	} else {
		s.log.Error("sso sign-in", "err", err, "request_id", c.GetString(requestIDKey))
	}
	c.Redirect(http.StatusFound, "/app/login?"+url.Values{"sso_error": {reason}}.Encode())
}
