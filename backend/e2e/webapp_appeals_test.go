package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// An owner whose links the rules banned reads, in the look's language, the reason translated
// (never the scorer's English), who decided and what a ban means; appeals are answered on the
// desk both ways, "Keep the ban" and "Unban", each with words to the owner; the owner reads the
// outcome and the words on each link's page, and the desk has no appeal left open.
func TestWebAppAppealsAnswered(t *testing.T) {
	t.Parallel()
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		d := newSerialDeployment(t)
		s := d.start(t)
		owner := s.signup("owner@example.com")
		s.moderator("mod@example.com")
		rv := newReviewer(t, d)
		const scorer = "card-form 0.90: desktop is asked for a payment card on a look-alike host"
		rules := moderation.Verdict{Score: 0.9, Category: "phishing", Reason: scorer, Scorer: "heuristic"}
		kept := s.createLink(owner, map[string]any{"url": "https://pay-check.example/a"})
		lifted := s.createLink(owner, map[string]any{"url": "https://pay-check.example/b"})
		for _, ln := range []linkJSON{kept, lifted} {
			rv.recordVerdict(owner.WorkspaceID, ln, moderation.Review{Verdict: rules}, "created")
			r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/appeal", owner.WorkspaceID, ln.ID), owner.Token,
				map[string]any{"message": "This is our own checkout page."})
			if r.Status != http.StatusCreated {
				t.Fatalf("appeal: %d %s", r.Status, r.Body)
			}
		}

		// The owner: the reason in the look's language, who decided, no scorer's words.
		o := walk(t, s, l)
		o.signIn("owner@example.com", "correct horse battery")
		o.open(fmt.Sprintf("/links/%d", kept.ID), "")
		o.see(o.p.GetByTestId("moderation-alert"))
		if err := expectLocator(o.p.GetByTestId("moderation-reason")).ToContainText(o.tr(
			"asks for a payment card, PIN or ID number", "索要银行卡、密码或身份证号")); err != nil {
			t.Errorf("[%s] the reason: %v", l.name, err)
		}
		if err := expectLocator(o.p.GetByTestId("moderation-decided-by")).ToHaveText(o.tr(
			"Decided by our automatic review", "由自动审核决定")); err != nil {
			t.Errorf("[%s] who decided: %v", l.name, err)
		}
		if err := expectLocator(o.p.GetByTestId("moderation-alert")).ToContainText(o.tr(
			"Our automatic review banned this link", "自动审核封禁了这个链接")); err != nil {
			t.Errorf("[%s] what the ban means: %v", l.name, err)
		}
		if html, err := o.p.Content(); err != nil || strings.Contains(html, "card-form 0.90") {
			t.Errorf("[%s] the owner's page shows the scorer's words (%v)", l.name, err)
		}
		o.shoot("link-banned-by-review")

		// The moderator answers both appeals.
		const keepWords, unbanWords = "The page asks for card numbers on a copy of a bank's site.", "The bank confirmed the page is theirs."
		m := walk(t, s, l)
		m.signIn("mod@example.com", "correct horse battery")
		m.open(fmt.Sprintf("/moderation/links/%d", kept.ID), "")
		m.see(m.p.GetByTestId("appeal"))
		m.fill(m.textbox(m.tr("Answer to the owner's appeal", "对所有者申诉的答复")), keepWords)
		m.click(m.button(m.tr("Keep the ban", "维持封禁")))
		if err := expectLocator(m.p.GetByTestId("appeal")).ToHaveCount(0); err != nil {
			t.Errorf("[%s] the appeal stays open after keep the ban: %v", l.name, err)
		}
		m.see(m.button(m.tr("Unban", "解封")))
		m.open(fmt.Sprintf("/moderation/links/%d", lifted.ID), "")
		m.see(m.p.GetByTestId("appeal"))
		m.fill(m.textbox(m.tr("Answer to the owner's appeal", "对所有者申诉的答复")), unbanWords)
		m.click(m.button(m.tr("Unban", "解封")))
		if err := expectLocator(m.p.GetByTestId("appeal")).ToHaveCount(0); err != nil {
			t.Errorf("[%s] the appeal stays open after unban: %v", l.name, err)
		}
		// The answered appeal stays on the file with what the owner was told.
		if err := expectLocator(m.p.GetByTestId("appeal-resolved")).ToContainText(unbanWords); err != nil {
			t.Errorf("[%s] the answered appeal on the file: %v", l.name, err)
		}
		// Unbanned: who decided, and no longer the lifted ban's category.
		if err := expectLocator(m.p.GetByTestId("decision-in-force")).ToHaveText(
			m.tr("Decided by a moderator · mod@example.com", "由审核员决定 · mod@example.com")); err != nil {
			t.Errorf("[%s] the decision in force after unban: %v", l.name, err)
		}
		m.accessible("the desk with the appeal answered")
		m.shoot("moderation-appeal-answered")

		// The owner reads each answer.
		o.open(fmt.Sprintf("/links/%d", kept.ID), "")
		answer := o.p.GetByTestId("appeal-answer")
		if err := expectLocator(answer).ToContainText(o.tr("Your appeal was turned down", "你的申诉已于")); err != nil {
			t.Errorf("[%s] the kept ban's answer: %v", l.name, err)
		}
		if err := expectLocator(answer).ToContainText(keepWords); err != nil {
			t.Errorf("[%s] the kept ban's words: %v", l.name, err)
		}
		if err := expectLocator(o.p.GetByTestId("moderation-decided-by")).ToHaveText(o.tr("Decided by a moderator", "由审核员决定")); err != nil {
			t.Errorf("[%s] who decided the kept ban: %v", l.name, err)
		}
		o.open(fmt.Sprintf("/links/%d", lifted.ID), "")
		answer = o.p.GetByTestId("appeal-answer")
		if err := expectLocator(answer).ToContainText(o.tr("Your appeal was accepted", "通过")); err != nil {
			t.Errorf("[%s] the unban's answer: %v", l.name, err)
		}
		if err := expectLocator(answer).ToContainText(unbanWords); err != nil {
			t.Errorf("[%s] the unban's words: %v", l.name, err)
		}
		o.accessible("the banned link with the appeal answered")
		o.shoot("link-appeal-upheld")
	})
}
