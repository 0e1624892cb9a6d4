package e2e

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// policyJSON is the session policy as a workspace's answer shows it.
type policyJSON struct {
	SessionMaxAge      *string `json:"session_max_age"`
	SessionIdleTimeout *string `json:"session_idle_timeout"`
}

// memberSessionJSON is a member's session as owners see it.
type memberSessionJSON struct {
	ID           string     `json:"id"`
	CreatedAt    time.Time  `json:"created_at"`
	LastActiveAt *time.Time `json:"last_active_at"`
	ExpiresAt    time.Time  `json:"expires_at"`
	Device       string     `json:"device"`
	IPHash       string     `json:"ip_hash"`
	Current      bool       `json:"current"`
}

type memberSessionsJSON struct {
	Sessions []memberSessionJSON `json:"sessions"`
}

// firefox is the user agent the tests' browsers sign in with.
const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"

// loginAs signs email in with the password from a Firefox on Linux and answers the tokens.
func (s *server) loginAs(t *testing.T, email string) loginJSON {
	t.Helper()
	req, err := http.NewRequest("POST", s.base+"/api/v1/auth/login",
		strings.NewReader(fmt.Sprintf(`{"email":%q,"password":"correct horse battery","token_pair":true}`, email)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", firefox)
	return answer[loginJSON](t, s.send(req), http.StatusOK, "login "+email)
}

// sessionOf is the session an access token names, as the person's own list marks it.
func (s *server) sessionOf(t *testing.T, token string) string {
	t.Helper()
	list := answer[struct {
		Sessions []struct {
			ID      string `json:"id"`
			Current bool   `json:"current"`
		} `json:"sessions"`
	}](t, s.do("GET", "/api/v1/me/sessions", token, nil), http.StatusOK, "own sessions")
	for _, ss := range list.Sessions {
		if ss.Current {
			return ss.ID
		}
	}
	t.Fatalf("no current session in %+v", list)
	return ""
}

// TestSessionPolicy walks a workspace's session policy: only an owner sets it, only on a plan
// with sso, within its bounds; a session past the maximum age or idle past the timeout is
// refused on that workspace's routes (renewing it changes nothing) and nowhere else, by the
// server's clock moved forward instead of waited out; a downgrade stops it applying; every
// change is audited.
func TestSessionPolicy(t *testing.T) {
	d := newDeployment(t)
	clock := &movingClock{}
	d.now = clock.Now
	s := d.start(t)
	owner := s.signup("owner@example.com")
	admin := s.joined(owner, "admin@example.com", "admin")
	member := s.joined(owner, "member@example.com", "member")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	policy := func(tn tenant, body string) response {
		t.Helper()
		return s.do("PATCH", ws, tn.Token, body)
	}

	// Below sso a limit is the plan gate's; clearing is not.
	wantError(t, policy(owner, `{"session_max_age":"12h"}`), http.StatusForbidden, "plan_required", "free plan")
	answer[policyJSON](t, policy(owner, `{"session_max_age":null,"session_idle_timeout":""}`), http.StatusOK, "clear on free")
	wantError(t, s.do("GET", fmt.Sprintf("%s/members/%d/sessions", ws, member.UserID), owner.Token, nil), http.StatusForbidden, "plan_required", "sessions on free")
	wantError(t, s.do("POST", ws+"/sessions/revoke", owner.Token, nil), http.StatusForbidden, "plan_required", "sign out everyone on free")
	s.setPlan(owner, "enterprise")

	// Bad durations and bounds are 400 with their own reasons, naming the field; only owners set it.
	for _, c := range []struct{ body, reason, field string }{
		{`{"session_max_age":"12 hours"}`, "duration_invalid", "session_max_age"},
		{`{"session_idle_timeout":"soon"}`, "duration_invalid", "session_idle_timeout"},
		{`{"session_max_age":"4m59s"}`, "session_limit_out_of_range", "session_max_age"},
		{`{"session_max_age":"2161h"}`, "session_limit_out_of_range", "session_max_age"},
		{`{"session_idle_timeout":"-30m"}`, "session_limit_out_of_range", "session_idle_timeout"},
	} {
		expectRefusal(t, policy(owner, c.body), http.StatusBadRequest, c.reason, c.field)
	}
	wantError(t, policy(admin, `{"session_max_age":"12h"}`), http.StatusForbidden, "owner_required", "admin")
	wantError(t, policy(member, `{"session_max_age":"12h"}`), http.StatusForbidden, "role_forbidden", "member")
	wantError(t, s.do("PATCH", ws, owner.Key, `{"session_max_age":"12h"}`), http.StatusForbidden, "api_key_not_allowed", "API key")

	// The maximum age: the session's start counts, not its last renewal.
	p := answer[policyJSON](t, policy(owner, `{"session_max_age":"1h"}`), http.StatusOK, "max age")
	if p.SessionMaxAge == nil || *p.SessionMaxAge != "1h" || p.SessionIdleTimeout != nil {
		t.Fatalf("answer %+v", p)
	}
	if p = answer[policyJSON](t, s.do("GET", ws, member.Token, nil), http.StatusOK, "get"); p.SessionMaxAge == nil || *p.SessionMaxAge != "1h" {
		t.Fatalf("GET %+v", p)
	}
	m := s.loginAs(t, "member@example.com")
	if r := s.do("GET", ws+"/links", m.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("a new session: %d %s", r.Status, r.Body)
	}
	clock.Add(59 * time.Minute)
	if r := s.do("GET", ws+"/links", m.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("59 minutes in: %d %s", r.Status, r.Body)
	}
	clock.Add(2 * time.Minute)
	wantError(t, s.do("GET", ws+"/links", m.AccessToken, nil), http.StatusUnauthorized, "session_max_age", "61 minutes in")
	renewed := answer[loginJSON](t, s.do("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": m.RefreshToken}), http.StatusOK, "renew")
	wantError(t, s.do("GET", ws+"/links", renewed.AccessToken, nil), http.StatusUnauthorized, "session_max_age", "renewed")
	// The member's own workspace, without a policy, and their own routes let the session in.
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", member.WorkspaceID), renewed.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("own workspace: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/me", renewed.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("/me: %d %s", r.Status, r.Body)
	}
	// Signing in again starts a session the policy lets in (the owner's too is past it).
	if r := s.do("GET", ws+"/links", s.loginAs(t, "member@example.com").AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("signed in again: %d %s", r.Status, r.Body)
	}
	wantError(t, s.do("GET", ws, owner.Token, nil), http.StatusUnauthorized, "session_max_age", "the owner's first session")
	owner.Token = s.loginAs(t, "owner@example.com").AccessToken

	// The idle timeout: each time the session is let in starts it again.
	p = answer[policyJSON](t, policy(owner, `{"session_max_age":"","session_idle_timeout":"30m"}`), http.StatusOK, "idle")
	if p.SessionMaxAge != nil || p.SessionIdleTimeout == nil || *p.SessionIdleTimeout != "30m" {
		t.Fatalf("answer %+v", p)
	}
	a := s.loginAs(t, "admin@example.com")
	for range 3 {
		if r := s.do("GET", ws+"/links", a.AccessToken, nil); r.Status != http.StatusOK {
			t.Fatalf("let in at %s: %d %s", clock.Now(), r.Status, r.Body)
		}
		clock.Add(20 * time.Minute)
	}
	// Past the timeout and the slack another node's activity may take to be known (65 s).
	clock.Add(12 * time.Minute) // 32 minutes since the last
	wantError(t, s.do("GET", ws+"/members", a.AccessToken, nil), http.StatusUnauthorized, "session_idle_timeout", "idle 32 minutes")
	// The refusal itself was no activity.
	wantError(t, s.do("GET", ws+"/links", a.AccessToken, nil), http.StatusUnauthorized, "session_idle_timeout", "idle, asked again")

	// What a node saw is written once for all its requests: the session's row holds the
	// clock's time of its last request.
	fresh := s.loginAs(t, "admin@example.com")
	for range 20 {
		if r := s.do("GET", ws+"/links", fresh.AccessToken, nil); r.Status != http.StatusOK {
			t.Fatalf("fresh: %d %s", r.Status, r.Body)
		}
	}
	last := clock.Now()
	if n, err := s.app.FlushSessionActivity(context.Background()); err != nil || n < 1 {
		t.Fatalf("flush: %d %v", n, err)
	}
	var written time.Time
	if err := d.db(t).Pool.QueryRow(context.Background(), `SELECT last_active_at FROM session_activity WHERE family = $1`,
		uuid.MustParse(s.sessionOf(t, fresh.AccessToken))).Scan(&written); err != nil {
		t.Fatal(err)
	}
	if written.Before(last.Add(-time.Second)) || written.After(last.Add(time.Second)) {
		t.Errorf("last active written %s, want about %s", written, last)
	}
	if n, err := s.app.FlushSessionActivity(context.Background()); err != nil || n != 0 {
		t.Errorf("a second flush with nothing new wrote %d (%v)", n, err)
	}

	// Below sso the policy is kept and not applied.
	s.setPlan(owner, "free")
	if r := s.do("GET", ws+"/links", a.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("idle session after a downgrade: %d %s", r.Status, r.Body)
	}
	if p = answer[policyJSON](t, s.do("GET", ws, owner.Token, nil), http.StatusOK, "kept"); p.SessionIdleTimeout == nil {
		t.Fatalf("the policy went with the downgrade: %+v", p)
	}

	// Every change was audited once, with the policy it left.
	s.setPlan(owner, "enterprise")
	owner.Token = s.loginAs(t, "owner@example.com").AccessToken // idle since the change
	var changes []map[string]any
	for _, e := range s.auditAll(t, owner.Token, owner.WorkspaceID, 50) {
		if e.Action == "workspace.session_policy_changed" {
			changes = append(changes, e.Details)
		}
	}
	if len(changes) != 2 || changes[0]["session_idle_timeout"] != "30m" || changes[0]["session_max_age"] != nil ||
		changes[1]["session_max_age"] != "1h" {
		t.Errorf("audited changes %v", changes)
	}
}

// TestMemberSessions walks the owners' view of their members' sessions: listed with device,
// address hash and activity; one, all of a member's, or everyone's signed out (but the
// caller's own session); admins reach members but not owners; another workspace's owner
// reaches none of it; each sign-out audited.
func TestMemberSessions(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signupOn("owner@example.com", "enterprise")
	admin := s.joined(owner, "admin@example.com", "admin")
	member := s.joined(owner, "member@example.com", "member")
	other := s.signupOn("other@example.com", "enterprise") // owns a workspace of their own
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	sessionsOf := func(tn tenant, uid int64) response {
		t.Helper()
		return s.do("GET", fmt.Sprintf("%s/members/%d/sessions", ws, uid), tn.Token, nil)
	}

	m1 := s.loginAs(t, "member@example.com")
	m2 := s.loginAs(t, "member@example.com")
	if r := s.do("GET", ws+"/links", m1.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("member: %d %s", r.Status, r.Body)
	}
	list := answer[memberSessionsJSON](t, sessionsOf(owner, member.UserID), http.StatusOK, "member's sessions")
	if len(list.Sessions) != 3 { // the sign-up's and two logins
		t.Fatalf("sessions %+v", list)
	}
	hash := regexp.MustCompile(`^[0-9a-f]{32}$`)
	m1ID, m2ID := s.sessionOf(t, m1.AccessToken), s.sessionOf(t, m2.AccessToken)
	for _, ss := range list.Sessions {
		if ss.Current || !hash.MatchString(ss.IPHash) || !ss.ExpiresAt.After(time.Now()) || ss.CreatedAt.IsZero() {
			t.Errorf("session %+v", ss)
		}
		if (ss.ID == m1ID || ss.ID == m2ID) && ss.Device != "Firefox on Linux" {
			t.Errorf("device of %s: %q", ss.ID, ss.Device)
		}
		if (ss.ID == m1ID && ss.LastActiveAt == nil) || (ss.ID == m2ID && ss.LastActiveAt != nil) {
			t.Errorf("last active of %s (m1 %s, let in; m2 %s, not): %v", ss.ID, m1ID, m2ID, ss.LastActiveAt)
		}
	}
	own := answer[memberSessionsJSON](t, sessionsOf(owner, owner.UserID), http.StatusOK, "own")
	if len(own.Sessions) != 1 || !own.Sessions[0].Current {
		t.Errorf("owner's own %+v", own)
	}

	// Roles: admins see members and not owners; members see nothing; keys are refused.
	answer[memberSessionsJSON](t, sessionsOf(admin, member.UserID), http.StatusOK, "admin sees a member's")
	wantError(t, sessionsOf(admin, owner.UserID), http.StatusForbidden, "owner_required", "admin, owner's")
	wantError(t, s.do("DELETE", fmt.Sprintf("%s/members/%d/sessions", ws, owner.UserID), admin.Token, nil), http.StatusForbidden, "owner_required", "admin ends owner's")
	wantError(t, sessionsOf(member, admin.UserID), http.StatusForbidden, "role_forbidden", "member")
	wantError(t, s.do("GET", fmt.Sprintf("%s/members/%d/sessions", ws, member.UserID), owner.Key, nil), http.StatusForbidden, "api_key_not_allowed", "key")
	wantError(t, s.do("POST", ws+"/sessions/revoke", admin.Token, nil), http.StatusForbidden, "role_forbidden", "admin signs out everyone")

	// Tenancy: another workspace's owner reaches neither the workspace nor its people.
	otherWS := fmt.Sprintf("/api/v1/workspaces/%d", other.WorkspaceID)
	for _, c := range []struct{ method, path, reason string }{
		{"GET", fmt.Sprintf("%s/members/%d/sessions", ws, member.UserID), "workspace_not_found"},
		{"DELETE", fmt.Sprintf("%s/members/%d/sessions/%s", ws, member.UserID, m1ID), "workspace_not_found"},
		{"DELETE", fmt.Sprintf("%s/members/%d/sessions", ws, member.UserID), "workspace_not_found"},
		{"POST", ws + "/sessions/revoke", "workspace_not_found"},
		{"GET", fmt.Sprintf("%s/members/%d/sessions", otherWS, member.UserID), "member_not_found"},
		{"DELETE", fmt.Sprintf("%s/members/%d/sessions/%s", otherWS, member.UserID, m1ID), "member_not_found"},
		{"DELETE", fmt.Sprintf("%s/members/%d/sessions", otherWS, member.UserID), "member_not_found"},
	} {
		wantError(t, s.do(c.method, c.path, other.Token, nil), http.StatusNotFound, c.reason, "other owner "+c.method+" "+c.path)
	}
	// A session of someone else named under a member is not found.
	wantError(t, s.do("DELETE", fmt.Sprintf("%s/members/%d/sessions/%s", ws, member.UserID, s.sessionOf(t, admin.Token)), owner.Token, nil),
		http.StatusNotFound, "session_not_found", "admin's session under the member")
	if r := s.do("GET", "/api/v1/me", m1.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("the refused calls ended a session: %d %s", r.Status, r.Body)
	}

	// One session: its access tokens stop, the member's others go on.
	if r := s.do("DELETE", fmt.Sprintf("%s/members/%d/sessions/%s", ws, member.UserID, m1ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("end one: %d %s", r.Status, r.Body)
	}
	wantError(t, s.do("GET", ws+"/links", m1.AccessToken, nil), http.StatusUnauthorized, "session_ended", "ended session")
	wantError(t, s.do("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": m1.RefreshToken}), http.StatusUnauthorized, "refresh_invalid", "ended session's refresh")
	if r := s.do("GET", ws+"/links", m2.AccessToken, nil); r.Status != http.StatusOK {
		t.Fatalf("the member's other session: %d %s", r.Status, r.Body)
	}

	// All of a member's.
	ended := answer[struct{ Ended int }](t, s.do("DELETE", fmt.Sprintf("%s/members/%d/sessions", ws, member.UserID), admin.Token, nil), http.StatusOK, "end all")
	if ended.Ended != 2 {
		t.Errorf("ended %d, want the sign-up's and m2", ended.Ended)
	}
	wantError(t, s.do("GET", "/api/v1/me", m2.AccessToken, nil), http.StatusUnauthorized, "session_ended", "m2 after all")
	wantError(t, s.do("GET", "/api/v1/me", member.Token, nil), http.StatusUnauthorized, "session_ended", "sign-up session after all")

	// Everyone but the caller's own session: the owner's other session ends too.
	o2 := s.loginAs(t, "owner@example.com")
	m3 := s.loginAs(t, "member@example.com")
	everyone := answer[struct{ Ended, People int }](t, s.do("POST", ws+"/sessions/revoke", owner.Token, nil), http.StatusOK, "everyone")
	if everyone.Ended != 3 || everyone.People != 3 { // the owner's second, the admin's sign-up, the member's m3
		t.Errorf("everyone: %+v", everyone)
	}
	for name, tok := range map[string]string{"owner's second": o2.AccessToken, "admin": admin.Token, "member": m3.AccessToken} {
		wantError(t, s.do("GET", "/api/v1/me", tok, nil), http.StatusUnauthorized, "session_ended", name)
	}
	if r := s.do("GET", ws+"/members", owner.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("the caller's own session: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/me", other.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("a stranger to the workspace: %d %s", r.Status, r.Body)
	}

	// Audited: who ended what.
	counts := map[string]int{}
	for _, e := range s.auditAll(t, owner.Token, owner.WorkspaceID, 50) {
		switch e.Action {
		case "session.revoked":
			counts[e.Action]++
			if e.Target != fmt.Sprintf("user:%d", member.UserID) {
				t.Errorf("session.revoked target %s", e.Target)
			}
		case "workspace.sessions_revoked":
			counts[e.Action]++
			if e.Details["sessions"] != float64(3) || e.Actor.ID != owner.UserID {
				t.Errorf("workspace.sessions_revoked %+v", e)
			}
		}
	}
	if counts["session.revoked"] != 2 || counts["workspace.sessions_revoked"] != 1 {
		t.Errorf("audited %v", counts)
	}
}
