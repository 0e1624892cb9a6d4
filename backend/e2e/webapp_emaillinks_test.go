package e2e

import (
	"fmt"
	"net/url"
	"testing"
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
