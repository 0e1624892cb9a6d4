package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppWorkspace walks an invitation and a workspace's life: the invited person opens the
// mail's link signed out, is told who invites them to what, signs up and lands in the inviting
// workspace with none of their own; the owner is warned before inviting past the plan, renames
// the workspace, hands it to the newcomer, who deletes it.
func TestWebAppWorkspace(t *testing.T) {
	s := newDeployment(t).start(t, "PLAN_LIMITS", "free.members=2")
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		ownerEmail, inviteeEmail := l.name+"-owner@example.com", l.name+"-invitee@example.com"
		owner := s.signup(ownerEmail)
		wsName := l.name + "-owner's workspace"
		id, token := s.invitationLink(t, owner, inviteeEmail, "member")

		// The invited person, without an account, opens the link signed out: the sign-up page
		// says what the invitation is; logging in instead stays possible.
		in := walk(t, s, l)
		in.open(fmt.Sprintf("/invitations/%d?token=%s", id, url.QueryEscape(token)), "")
		in.at("/signup")
		context := in.text(l.tr(fmt.Sprintf("You are invited to join %s by %s as Member.", wsName, ownerEmail),
			fmt.Sprintf("%s 邀请你以成员身份加入 %s。", ownerEmail, wsName)))
		in.see(context)
		in.click(in.link(l.tr("Log in", "登录")))
		in.at("/login")
		in.see(context)
		in.click(in.link(l.tr("Sign up", "注册")))
		in.at("/signup")
		in.see(context)
		if err := expectLocator(in.textbox(l.tr("Email", "邮箱"))).ToHaveValue(inviteeEmail); err != nil {
			t.Errorf("[%s] the invited address is not filled in: %v", l.name, err)
		}
		// The page has read the invitation again (the form is filled from it): the password is
		// typed into the form that stays.
		_ = in.p.WaitForLoadState(playwright.PageWaitForLoadStateOptions{State: playwright.LoadStateNetworkidle})
		in.fill(in.p.GetByLabel(l.tr("Password", "密码")).First(), "correct horse battery")
		in.shoot("workspace-invited-signup")
		in.click(in.button(l.tr("Sign up", "注册")))
		// A sign-up hashes a password: a busy machine may take longer than a click's wait.
		if err := reachURL(in.p, in.base+"/links", time.Minute); err != nil {
			alert, _ := in.p.GetByRole("alert").AllInnerTexts()
			invalid, _ := in.p.Locator("[aria-invalid=true]").Count()
			t.Fatalf("[%s] after signing up: %v (at %s, alerts %q, %d fields marked invalid, API calls unanswered: %q, answered: %q)",
				l.name, err, in.p.URL(), alert, invalid, in.pending(), in.lastAnswered())
		}
		// Straight into the inviting workspace, and no workspace of their own.
		r := s.do("POST", "/api/v1/auth/login", "", map[string]any{"email": inviteeEmail, "password": "correct horse battery"})
		invitee := answer[struct {
			AccessToken string `json:"access_token"`
		}](t, r, http.StatusOK, "log in as the invitee")
		var mine struct {
			Workspaces []struct {
				ID   int64
				Role string
			}
		}
		s.do("GET", "/api/v1/workspaces", invitee.AccessToken, nil).json(t, &mine)
		if len(mine.Workspaces) != 1 || mine.Workspaces[0].ID != owner.WorkspaceID || mine.Workspaces[0].Role != "member" {
			t.Errorf("[%s] the invitee's workspaces: %+v, want only %d as member", l.name, mine.Workspaces, owner.WorkspaceID)
		}

		// The owner: both places of the plan are taken, and inviting a third is warned of.
		o := walk(t, s, l)
		o.signIn(ownerEmail, "correct horse battery")
		o.open("/members", l.tr("Members", "成员"))
		o.see(o.text(l.tr("Members on this plan: 2 of 2", "当前套餐成员：2 / 2")))
		o.fill(o.textbox(l.tr("Email", "邮箱")), l.name+"-third@example.com")
		// Said in words that fit the case: no "0 invitations waiting", no "1 members".
		o.see(o.p.GetByTestId("member-limit-warning").GetByText(l.tr(
			"Inviting is held: every member place of your plan is taken. Upgrade the plan to invite more.",
			"暂时无法邀请：套餐的成员名额已全部占用。升级套餐后才能继续邀请。")))
		if err := expectLocator(o.button(l.tr("Invite", "邀请"))).ToBeDisabled(); err != nil {
			t.Errorf("[%s] inviting past the plan is offered: %v", l.name, err)
		}
		wholeBadges(t, o)
		o.shoot("workspace-member-limit")

		// Rename, with a toast.
		o.open("/settings", l.tr("Workspace settings", "工作区设置"))
		renamed := "Team " + l.name
		o.fill(o.p.GetByRole("textbox", playwright.PageGetByRoleOptions{Name: l.tr("Workspace name", "工作区名称"), Exact: playwright.Bool(true)}), renamed)
		o.click(o.button(l.tr("Save name", "保存名称")))
		o.see(o.text(l.tr("Workspace renamed to "+renamed, "工作区已改名为 "+renamed)))

		// Hand the workspace to the newcomer; the old owner stays as an admin.
		if _, err := o.role("combobox", l.tr("New owner", "新所有者")).SelectOption(playwright.SelectOptionValues{
			Labels: &[]string{inviteeEmail + " · " + l.tr("Member", "成员")}}); err != nil {
			t.Fatalf("[%s] choose the new owner: %v", l.name, err)
		}
		transfer := l.tr("Transfer ownership", "转让所有权")
		o.click(o.button(transfer))
		o.click(o.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: transfer}))
		o.see(o.text(l.tr(inviteeEmail+" now owns the workspace", inviteeEmail+" 现在是工作区的所有者")))
		o.see(o.text(l.tr("Only an owner hands over or deletes the workspace.", "只有所有者可以转让或删除工作区。")))
		o.shoot("workspace-transferred")

		// The new owner deletes it, typing its name first; nothing of theirs is left.
		in.open("/settings", l.tr("Workspace settings", "工作区设置"))
		del := l.tr("Delete workspace", "删除工作区")
		if err := expectLocator(in.button(del)).ToBeDisabled(); err != nil {
			t.Errorf("[%s] delete offered before the name is typed: %v", l.name, err)
		}
		in.fill(in.textbox(l.tr("Type the workspace's name, "+renamed+", to confirm", "输入工作区名称 "+renamed+" 以确认")), renamed)
		in.click(in.button(del))
		in.click(in.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: del}))
		in.see(in.text(l.tr("Workspace "+renamed+" deleted", "已删除工作区 "+renamed)))
		in.see(in.heading(l.tr("You are not in any workspace", "你还不在任何工作区中")))
		in.shoot("workspace-deleted")
		if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID), owner.Token, nil); r.Status != http.StatusNotFound {
			t.Errorf("[%s] the deleted workspace answers %d", l.name, r.Status)
		}
	})
}
