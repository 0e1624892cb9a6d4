package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// An owner on the enterprise plan sets the session policy on the settings page (a bad duration
// said at its field), opens a member's sessions from the members page, signs one out (its
// token refused at once) and signs everyone out.
func TestWebAppMemberSessions(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, []look{enDesktop}, func(t *testing.T, l look) {
		owner := "sessions-owner-" + l.name + "@example.com"
		memberEmail := "sessions-member-" + l.name + "@example.com"
		tn := s.signupOn(owner, "enterprise")
		member := s.joined(tn, memberEmail, "member")
		ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
		m := s.loginAs(t, memberEmail)
		if r := s.do("GET", ws+"/links", m.AccessToken, nil); r.Status != http.StatusOK {
			t.Fatalf("member: %d %s", r.Status, r.Body)
		}
		w := walk(t, s, l)
		w.signIn(owner, "correct horse battery")

		w.open("/settings", w.tr("Workspace settings", "工作区设置"))
		policy := w.p.GetByTestId("session-policy")
		w.see(policy)
		w.fill(w.p.GetByTestId("session-max-age"), "a day")
		w.refused(http.StatusBadRequest)
		w.click(w.p.GetByTestId("session-policy-save"))
		w.see(w.text(w.tr("Enter a duration such as 12h or 30m.", "请输入时长，例如 12h 或 30m。")))
		w.fill(w.p.GetByTestId("session-max-age"), "12h")
		w.fill(w.p.GetByTestId("session-idle-timeout"), "30m")
		w.click(w.p.GetByTestId("session-policy-save"))
		w.see(w.text(w.tr("Session policy saved.", "会话策略已保存。")))
		p := answer[policyJSON](t, s.do("GET", ws, tn.Token, nil), http.StatusOK, "policy")
		if p.SessionMaxAge == nil || *p.SessionMaxAge != "12h" || p.SessionIdleTimeout == nil || *p.SessionIdleTimeout != "30m" {
			t.Fatalf("policy saved %+v", p)
		}

		w.open("/members", w.tr("Members", "成员"))
		w.click(w.link(w.tr("Sessions of "+memberEmail, memberEmail+" 的会话")))
		w.at(fmt.Sprintf("/members/%d/sessions", member.UserID))
		w.see(w.heading(w.tr("Sessions of "+memberEmail, memberEmail+" 的会话")))
		firefoxRow := w.p.GetByTestId("member-session").Filter(playwright.LocatorFilterOptions{HasText: "Firefox on Linux"})
		w.see(firefoxRow)
		w.accessible("member-sessions")
		w.shoot("member-sessions")
		w.click(firefoxRow.GetByRole("button"))
		w.see(w.text(w.tr("Session signed out.", "会话已退出登录。")))
		wantError(t, s.do("GET", ws+"/links", m.AccessToken, nil), http.StatusUnauthorized, "session_ended", "the signed-out session")

		w.open("/members", w.tr("Members", "成员"))
		w.click(w.p.GetByTestId("sign-out-everyone"))
		w.click(w.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Sign out everyone", "让所有人退出登录")}))
		w.see(w.text(w.tr("2 sessions of 2 people signed out.", "已让 2 人的 2 个会话退出登录。")))
		wantError(t, s.do("GET", "/api/v1/me", member.Token, nil), http.StatusUnauthorized, "session_ended", "the member after everyone")
	})
}
