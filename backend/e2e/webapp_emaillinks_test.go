package e2e

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// TestWebAppEmailLinksSignedIn: a verification link opened while signed in ends on "Continue"
// into the app, not on "Log in"; an invitation link for an address that has an account opens
// the login page (one without an account opens sign-up: TestWebAppWorkspace).
func TestWebAppEmailLinksSignedIn(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("links-owner@example.com")
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "links-" + l.name + "@example.com"
		s.signup(email)
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.see(w.text(w.tr("Verify your email address", "请验证你的邮箱地址")))
		w.openMailLink(s.mailbox.WaitSubject(t, email, "Confirm your email address").Link(t))
		w.see(w.text(w.tr("Your email address is verified.", "你的邮箱地址已验证。")))
		if err := expectLocator(w.link(w.tr("Log in", "登录"))).ToHaveCount(0); err != nil {
			t.Errorf("[%s] a signed-in person is asked to log in: %v", l.name, err)
		}
		w.click(w.link(w.tr("Continue", "继续")))
		w.at("/links")
		if err := expectLocator(w.text(w.tr("Verify your email address", "请验证你的邮箱地址"))).ToBeHidden(); err != nil {
			t.Errorf("[%s] the banner after verifying: %v", l.name, err)
		}
		w.accessible("verified, signed in")
		w.signOut()

		id, token := s.invitationLink(t, owner, email, "member")
		w.open(fmt.Sprintf("/invitations/%d?token=%s", id, url.QueryEscape(token)), "")
		w.at("/login")
		w.see(w.p.GetByTestId("invitation-context"))
		if err := expectLocator(w.p.GetByTestId("email")).ToHaveValue(email); err != nil {
			t.Errorf("[%s] the invited address: %v", l.name, err)
		}
	})
}

// TestWebAppInvitationResend: the Members page of a workspace whose plan is full lists the
// waiting invitation with the day it was sent, when it expires and "Resend", which mails a new
// link; axe-core finds nothing serious on the page in either language (the pointer to the plans
// in its sentence included, underlined by app.css's rule for links in running text).
func TestWebAppInvitationResend(t *testing.T) {
	s := newDeployment(t).start(t, "PLAN_LIMITS", "free.members=2")
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := "resend-" + l.name + "@example.com"
		owner := s.signup(email)
		s.verify(email)
		invitee := "invitee-" + l.name + "@example.com"
		s.invitationLink(t, owner, invitee, "member")
		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.open("/members", w.tr("Members", "成员"))
		row := w.p.GetByTestId("invitation")
		w.see(row.GetByText(w.tr("Sent ", "发送于 ")))
		w.see(row.GetByTestId("invitation-expiry").GetByText(w.tr("Expires in 7 days", "7 天后过期")))
		w.see(w.p.GetByTestId("member-limit-warning").GetByRole("link"))
		w.accessible("members, full, an invitation waiting")
		wholeBadges(t, w)
		// The pointer to the plans is underlined, by the one rule for links in running text.
		if deco, err := w.p.GetByTestId("member-limit-warning").GetByRole("link").Evaluate(`a => getComputedStyle(a).textDecorationLine`, nil); err != nil || deco != "underline" {
			t.Errorf("[%s] the plans' link in the warning: %v %v", l.name, deco, err)
		}
		// axe-core in the other language too: the walk runs in one look, the page is checked in both.
		for _, other := range twoLooks {
			if other.zh() == l.zh() {
				continue
			}
			o := walk(t, s, other)
			o.signIn(email, "correct horse battery")
			o.open("/members", o.tr("Members", "成员"))
			o.see(o.p.GetByTestId("member-limit-warning").GetByRole("link"))
			o.accessible("members, full, an invitation waiting")
			wholeBadges(t, o)
		}
		w.click(row.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: w.tr("Send the invitation to "+invitee+" again", "重新发送给 "+invitee+" 的邀请")}))
		w.see(w.text(w.tr("Invitation to "+invitee+" sent again, with a new link", "已重新发送给 "+invitee+" 的邀请（新链接）")))
		s.mailbox.WaitSubject(t, invitee, "You are invited")
	})
}

// wholeBadges fails the test when a member's two-factor badge is cut ("未…" in a phone's narrow
// table), a member's role wraps inside its word ("所有" over "者") or its select shows part of
// it ("成" of "成员"), or a column's title wraps.
func wholeBadges(t *testing.T, w *walker) {
	t.Helper()
	w.see(w.p.GetByTestId("member-2fa").First())
	cut, err := w.p.Evaluate(`() => {
		const out = [];
		for (const cell of document.querySelectorAll('[data-testid="member-2fa"]')) {
			for (const label of cell.querySelectorAll('.mantine-Badge-label')) {
				if (label.scrollWidth > label.clientWidth) out.push('2FA badge "' + label.textContent + '"');
			}
			const role = cell.previousElementSibling;
			const select = role && role.querySelector('select');
			if (select) {
				const cs = getComputedStyle(select);
				const ctx = document.createElement('canvas').getContext('2d');
				ctx.font = cs.font;
				const need = ctx.measureText(select.selectedOptions[0].text).width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
				if (select.clientWidth + 0.5 < need) out.push('role select "' + select.selectedOptions[0].text + '" cut: ' + Math.round(select.clientWidth) + ' of ' + Math.round(need));
			} else if (role) {
				const r = document.createRange();
				r.selectNodeContents(role);
				if (r.getClientRects().length > 1) out.push('role "' + role.textContent + '" wraps');
			}
		}
		return out;
	}`)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := cut.([]any); len(s) > 0 {
		t.Errorf("[%s] the members' table cuts: %v", w.l.name, s)
	}
	w.wholeTitles("members")
}
