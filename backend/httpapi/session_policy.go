package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
)

// A workspace's session policy and its owners' view of its members' sessions
// (docs/security.md#session-policy).

// sessionPolicyUpdate is the part of a workspace's PATCH that sets its session policy: Go
// durations, null or "" for no limit, an absent field kept as it is.
type sessionPolicyUpdate struct {
	SessionMaxAge      link.Opt[string] `json:"session_max_age"`
	SessionIdleTimeout link.Opt[string] `json:"session_idle_timeout"`
}

func (u sessionPolicyUpdate) set() bool { return u.SessionMaxAge.Set || u.SessionIdleTimeout.Set }

// setSessionPolicy applies the update for the workspace's owner, recording a change in the
// audit log; false when it answered an error. A limit needs a plan with sso; clearing one
// does not.
func (s *Server) setSessionPolicy(c *gin.Context, u sessionPolicyUpdate) bool {
	ctx, id := c.Request.Context(), workspaceID(c)
	ws, err := s.accounts.Workspace(ctx, id)
	if err != nil {
		s.fail(c, err)
		return false
	}
	p := ws.SessionPolicyOf()
	limits := false
	for _, f := range []struct {
		name string
		in   link.Opt[string]
		to   *time.Duration
	}{{"session_max_age", u.SessionMaxAge, &p.MaxAge}, {"session_idle_timeout", u.SessionIdleTimeout, &p.IdleTimeout}} {
		if !f.in.Set {
			continue
		}
		d, err := auth.ParseSessionLimit(f.name, strings.TrimSpace(f.in.Value))
		if err != nil {
			s.fail(c, err)
			return false
		}
		*f.to = d
		limits = limits || d > 0
	}
	if limits {
		if err := s.plans.Require(ctx, id, plan.SSO); err != nil {
			s.fail(c, err)
			return false
		}
	}
	_, changed, err := s.accounts.SetSessionPolicy(ctx, id, roleOf(c), p)
	if err != nil {
		s.fail(c, err)
		return false
	}
	if changed {
		s.auditedHere(c, audit.SessionPolicyChanged, audit.Target("workspace", id), map[string]any{
			"session_max_age": limitDetail(p.MaxAge), "session_idle_timeout": limitDetail(p.IdleTimeout)})
	}
	return true
}

// limitDetail is a limit as the audit log shows it: nil for none.
func limitDetail(d time.Duration) any {
	if d <= 0 {
		return nil
	}
	return auth.FormatLimit(d)
}

// checkSessionPolicy refuses a person's session that the workspace's session policy no longer
// lets in (401), and otherwise records that the session was let in; false when it answered.
// The plan is read only for a workspace that has a policy; a plan below sso keeps the policy
// stored but not applied. What could not be read refuses, never lets through.
func (s *Server) checkSessionPolicy(c *gin.Context, id int64, who *principal, policy auth.SessionPolicy) bool {
	ctx := c.Request.Context()
	if policy.Limits() {
		planErr := s.plans.Require(ctx, id, plan.SSO)
		if planErr != nil && !apperr.Is(planErr, apperr.PlanRequired) {
			s.fail(c, planErr)
			return false
		}
		if planErr == nil {
			if err := s.auth.CheckSessionPolicy(ctx, policy, who.Session); err != nil {
				s.fail(c, err)
				return false
			}
		}
	}
	s.auth.SessionActive(who.Session)
	return true
}

// memberSessionRoutes are the owners' view of their members' sessions, and their sign-outs.
func (s *Server) memberSessionRoutes(ws *gin.RouterGroup) {
	ws.GET("/members/:user/sessions", s.inWorkspace(account.PermManage), s.listMemberSessions)
	ws.DELETE("/members/:user/sessions", s.inWorkspace(account.PermManage), s.endMemberSessions)
	ws.DELETE("/members/:user/sessions/:id", s.inWorkspace(account.PermManage), s.endMemberSession)
	ws.POST("/sessions/revoke", s.inWorkspace(account.PermOwn), s.endWorkspaceSessions)
}

// memberSession is one session of a member as owners see it.
type memberSession struct {
	ID           uuid.UUID  `json:"id"`
	CreatedAt    time.Time  `json:"created_at"`
	LastActiveAt *time.Time `json:"last_active_at"`
	ExpiresAt    time.Time  `json:"expires_at"`
	// Device is the user agent summarised: "Firefox on Linux", "" when unknown.
	Device  string `json:"device"`
	IPHash  string `json:"ip_hash"`
	Current bool   `json:"current"`
}

type memberSessionList struct {
	Sessions []memberSession `json:"sessions"`
}

// deviceOf summarises a session's browser and system.
func deviceOf(browser, os string) string {
	switch {
	case browser != "" && os != "":
		return browser + " on " + os
	case browser != "":
		return browser
	}
	return os
}

// sessionsOfMember admits a request about the sessions of the member in the path: the caller
// is a person, the member is one of the workspace's (else not found, as for any other person),
// the workspace has sso on its plan, and only owners reach an owner's.
// Answers the member's ID; false when it answered.
func (s *Server) sessionsOfMember(c *gin.Context) (int64, bool) {
	if !s.requireUser(c) {
		return 0, false
	}
	uid, ok := s.pathID(c, "user", "member")
	if !ok {
		return 0, false
	}
	ctx, id := c.Request.Context(), workspaceID(c)
	// Whether the person is a member comes first: another workspace's people are not found,
	// whatever this workspace's plan.
	access, err := s.accounts.Access(ctx, id, uid)
	if apperr.Is(err, apperr.NotFound) {
		err = apperr.Errorf(apperr.NotFound, "member not found").For("member_not_found", "")
	}
	if err != nil {
		s.fail(c, err)
		return 0, false
	}
	if err := s.plans.Require(ctx, id, plan.SSO); err != nil {
		s.fail(c, err)
		return 0, false
	}
	if access.Role == account.RoleOwner && roleOf(c) != account.RoleOwner {
		s.fail(c, apperr.Errorf(apperr.Forbidden, "only an owner can see or end an owner's sessions").For("owner_required", ""))
		return 0, false
	}
	return uid, true
}

// listMemberSessions answers a member's live sessions, the caller's own marked current.
func (s *Server) listMemberSessions(c *gin.Context) {
	uid, ok := s.sessionsOfMember(c)
	if !ok {
		return
	}
	list, err := s.auth.MemberSessions(c.Request.Context(), uid, callerOf(c).Session)
	out := memberSessionList{Sessions: make([]memberSession, 0, len(list))}
	for _, ss := range list {
		m := memberSession{ID: ss.ID, CreatedAt: ss.CreatedAt, ExpiresAt: ss.ExpiresAt,
			Device: deviceOf(ss.Browser, ss.OS), IPHash: ss.IPHash, Current: ss.Current}
		if !ss.LastActiveAt.IsZero() {
			t := ss.LastActiveAt
			m.LastActiveAt = &t
		}
		out.Sessions = append(out.Sessions, m)
	}
	s.replyNoStore(c, out, err)
}

// endMemberSession signs out one session of a member; a session that is not the member's
// answers not found.
func (s *Server) endMemberSession(c *gin.Context) {
	uid, ok := s.sessionsOfMember(c)
	if !ok {
		return
	}
	sid, err := uuid.Parse(c.Param("id"))
	if err != nil {
		s.fail(c, apperr.Errorf(apperr.NotFound, "session not found").For("session_not_found", "id"))
		return
	}
	err = s.auth.EndSession(c.Request.Context(), uid, sid)
	if err == nil {
		s.auditedHere(c, audit.SessionRevoked, audit.Target("user", uid), map[string]any{"session": sid.String()})
	}
	s.noContent(c, err)
}

// endMemberSessions signs out every session of a member, the caller's own excepted.
func (s *Server) endMemberSessions(c *gin.Context) {
	uid, ok := s.sessionsOfMember(c)
	if !ok {
		return
	}
	n, err := s.auth.EndOtherSessions(c.Request.Context(), uid, callerOf(c).Session)
	if err == nil {
		s.auditedHere(c, audit.SessionRevoked, audit.Target("user", uid), map[string]any{"all": true, "sessions": n})
	}
	s.reply(c, http.StatusOK, sessionsEnded{Ended: n}, err)
}

// workspaceSessionsEnded is the answer of "sign out everyone".
type workspaceSessionsEnded struct {
	Ended  int `json:"ended"`
	People int `json:"people"`
}

// endWorkspaceSessions signs out every session of every member of the workspace but the
// caller's own.
func (s *Server) endWorkspaceSessions(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	ctx, id := c.Request.Context(), workspaceID(c)
	if err := s.plans.Require(ctx, id, plan.SSO); err != nil {
		s.fail(c, err)
		return
	}
	n, people, err := s.auth.EndMembersSessions(ctx, id, callerOf(c).Session)
	if err == nil {
		s.auditedHere(c, audit.SessionsRevoked, audit.Target("workspace", id), map[string]any{"sessions": n, "people": people})
	}
	s.reply(c, http.StatusOK, workspaceSessionsEnded{Ended: n, People: people}, err)
}
