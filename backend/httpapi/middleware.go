package httpapi

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/plan"
)

// Session cookies of the web app, and the header that proves a request came from it.
const (
	cookieAccess  = "sl_access"
	cookieRefresh = "sl_refresh"
	cookieCSRF    = "sl_csrf"
	headerCSRF    = "X-CSRF-Token"
)

// principal is who is calling: a user (by bearer token or cookie) or a workspace API key.
type principal struct {
	UserID     int64
	SystemRole string
	IssuedAt   time.Time // of the access token
	// Session is the access token's session; uuid.Nil for a token of none and API keys.
	Session uuid.UUID
	Key     *account.APIKey
}

// Keys of what the middleware leaves in the gin context for handlers.
const (
	principalKey = "principal"
	workspaceKey = "workspace_id"
	roleKey      = "role"
)

// authenticate admits a request with "Authorization: Bearer <JWT or API key>" or the
// sl_access cookie. Cookie sessions must echo the sl_csrf cookie in X-CSRF-Token on unsafe
// methods (double submit): another site can make the browser send the cookies, but cannot
// read them to set the header. A bearer header is never sent by a browser on its own, so it
// needs no such proof.
func (s *Server) authenticate(c *gin.Context) {
	token, fromCookie := "", false
	if h := c.GetHeader("Authorization"); h != "" {
		scheme, rest, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(rest) == "" {
			s.fail(c, apperr.Errorf(apperr.Unauthorized, `Authorization must be "Bearer <token>"`).For("auth_required", ""))
			return
		}
		token = strings.TrimSpace(rest)
	} else if v, err := c.Cookie(cookieAccess); err == nil && v != "" {
		token, fromCookie = v, true
	}
	if token == "" {
		s.fail(c, apperr.Errorf(apperr.Unauthorized, `sign in, or send a token or API key as "Authorization: Bearer <token>"`).For("auth_required", ""))
		return
	}
	if fromCookie && !safeMethod(c.Request.Method) {
		if err := checkCSRF(c); err != nil {
			s.fail(c, err)
			return
		}
	}
	var p principal
	if strings.HasPrefix(token, auth.APIKeyPrefix) {
		k, err := s.accounts.AuthenticateAPIKey(c.Request.Context(), token)
		if err != nil {
			s.fail(c, err)
			return
		}
		p.Key = k
	} else {
		claims, err := s.auth.VerifyAccess(token)
		if err != nil {
			s.fail(c, err)
			return
		}
		if err := s.auth.CheckSession(c.Request.Context(), claims); err != nil {
			s.fail(c, err)
			return
		}
		p.UserID, p.SystemRole, p.IssuedAt, p.Session = claims.UserID, claims.SystemRole, claims.IssuedAt, claims.Session
	}
	c.Set(principalKey, &p)
	c.Next()
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// checkCSRF compares the X-CSRF-Token header with the sl_csrf cookie.
func checkCSRF(c *gin.Context) error {
	want, err := c.Cookie(cookieCSRF)
	got := c.GetHeader(headerCSRF)
	if err != nil || want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		return apperr.Errorf(apperr.Forbidden, "missing or wrong %s header: send the value of the %s cookie", headerCSRF, cookieCSRF).For("csrf_invalid", "")
	}
	return nil
}

// callerOf is the principal authenticate admitted.
func callerOf(c *gin.Context) *principal {
	p, _ := c.Get(principalKey)
	return p.(*principal)
}

var errNoWorkspace = apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")

// inWorkspace admits callers of the :workspace in the path that may do p, and records the
// workspace and the caller's role for the handlers. A workspace the caller does not belong
// to (or, for an API key, not the key's own) answers exactly like one that does not exist,
// so IDs cannot be probed.
func (s *Server) inWorkspace(p account.Permission) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := int64Param(c, "workspace", "workspace")
		if err != nil {
			s.fail(c, errNoWorkspace)
			return
		}
		who := callerOf(c)
		if who.Key != nil {
			if who.Key.WorkspaceID != id {
				s.fail(c, errNoWorkspace)
				return
			}
			if !account.ScopesAllow(who.Key.Scopes, p) {
				if sc := account.ScopeFor(p); sc != "" {
					s.fail(c, apperr.Errorf(apperr.Forbidden, "this API key lacks the %s scope", sc).For("scope_missing", ""))
				} else {
					s.fail(c, apperr.Errorf(apperr.Forbidden, "API keys reach only what their scopes name (%s): sign in to do this",
						strings.Join(account.Scopes, ", ")).For("api_key_not_allowed", ""))
				}
				return
			}
			c.Set(workspaceKey, id)
			c.Next()
			return
		}
		ctx := c.Request.Context()
		access, err := s.accounts.Access(ctx, id, who.UserID)
		if err != nil {
			if apperr.Is(err, apperr.NotFound) {
				err = errNoWorkspace
			}
			s.fail(c, err)
			return
		}
		role := access.Role
		// The plan is read only for a member the workspace requires 2FA of and who lacks it.
		if access.MissingTwoFactor {
			var planErr error
			if s.plans != nil {
				planErr = s.plans.Require(ctx, id, plan.SSO)
			}
			if planErr != nil && !apperr.Is(planErr, apperr.PlanRequired) {
				s.fail(c, planErr)
				return
			}
			if account.TwoFactorBlocks(access, planErr == nil) {
				s.fail(c, errTwoFactorRequired)
				return
			}
		}
		if !s.checkSessionPolicy(c, id, who, access.SessionPolicy) {
			return
		}
		if !account.RoleAllows(role, p) {
			s.fail(c, roleForbidden(role))
			return
		}
		c.Set(workspaceKey, id)
		c.Set(roleKey, role)
		if !s.count(c, s.workspaceBudget(c, id)) {
			return
		}
		c.Next()
	}
}

// roleForbidden is the refusal of a member whose role does not allow what they asked.
func roleForbidden(role string) error {
	return apperr.Errorf(apperr.Forbidden, "your role in this workspace (%s) does not allow this", role).For("role_forbidden", "")
}

var errTwoFactorRequired = apperr.Errorf(apperr.Forbidden,
	"this workspace requires two-factor sign-in: turn it on in your account's security settings").For("2fa_required", "")

// operatorOnly admits signed-in operators, never API keys.
func (s *Server) operatorOnly(c *gin.Context) {
	s.systemRole(c, "only operators may do this", account.SystemOperator)
}

// moderatorOnly admits signed-in moderators and operators, never API keys.
func (s *Server) moderatorOnly(c *gin.Context) {
	s.systemRole(c, "only moderators and operators may do this", account.SystemModerator, account.SystemOperator)
}

// systemRole admits signed-in users of one of the system roles, never API keys. The role is
// read from the database rather than trusted from the token, so taking it away works at once;
// and a token signed before the role was given carries none of it (see issuedAfterRoleChange).
func (s *Server) systemRole(c *gin.Context, refusal string, roles ...string) {
	who := callerOf(c)
	if who.Key == nil {
		u, err := s.accounts.User(c.Request.Context(), who.UserID)
		if err != nil && !apperr.Is(err, apperr.NotFound) {
			s.fail(c, err)
			return
		}
		if err == nil && slices.Contains(roles, u.SystemRole) {
			if !issuedAfterRoleChange(who.IssuedAt, u.SystemRoleSince) {
				s.fail(c, apperr.Errorf(apperr.Unauthorized, "your system role changed after this token was issued: sign in again").For("role_changed", ""))
				return
			}
			c.Next()
			return
		}
	}
	s.fail(c, apperr.Errorf(apperr.Forbidden, "%s", refusal).For("system_role_required", ""))
}

// issuedAfterRoleChange reports whether an access token signed at iat (milliseconds) was
// certainly signed after the system role changed at since. A token of the same millisecond is
// refused: it may come from a session the change revoked (such as one of the person who
// registered the operator's address first).
func issuedAfterRoleChange(iat, since time.Time) bool {
	return iat.After(since.Truncate(time.Millisecond))
}

// workspaceID is the workspace of a request that passed inWorkspace.
func workspaceID(c *gin.Context) int64 { return c.GetInt64(workspaceKey) }

// userID is the signed-in user; 0 when an API key is calling.
func userID(c *gin.Context) int64 { return callerOf(c).UserID }

// roleOf is the caller's role in the workspace; "" when an API key is calling.
func roleOf(c *gin.Context) string { return c.GetString(roleKey) }

// requireUser refuses API keys on endpoints about a person (their workspaces, invitations).
func (s *Server) requireUser(c *gin.Context) bool {
	if callerOf(c).Key != nil {
		s.fail(c, apperr.Errorf(apperr.Forbidden, "API keys cannot do this: sign in as a user").For("api_key_not_allowed", ""))
		return false
	}
	return true
}
