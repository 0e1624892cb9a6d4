package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
)

// TestAppealAnswersMailed: a moderator's answer to an appeal, upheld (unban) or rejected
// (keep_ban), is mailed to the link's owner and to the member who appealed, each in the
// language they read (docs/moderation.md#appeals): the link, its destination, the outcome,
// the moderator's words quoted as text (nothing in them reads as a line of the mail's own)
// and the link's page in the app. Someone who appealed and left the workspace since, and a
// member of another workspace, get nothing.
func TestAppealAnswersMailed(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	_, mod := s.moderator("mod@example.com")
	rv := newReviewer(t, d)

	ann := s.signup("ann@example.com") // reads English, the default
	s.setPlan(ann, "enterprise")
	li := s.signup("li@example.com")
	readsChinese := func(tn tenant) {
		t.Helper()
		if r := s.do("PATCH", "/api/v1/me", tn.Token, map[string]any{"language": "zh"}); r.Status != http.StatusOK {
			t.Fatalf("PATCH /me: %d %s", r.Status, r.Body)
		}
	}
	readsChinese(li)
	bo := s.joined(ann, "bo@example.com", "member")
	cy := s.joined(ann, "cy@example.com", "member")
	s.signup("other@example.com") // a member of another workspace alone
	// Every mail of the sign-ups and invitations is in before the mailbox is counted (and
	// before bo's language changes: an invitation's mail reads it when it is sent).
	for _, to := range []string{"bo@example.com", "cy@example.com"} {
		s.mailbox.WaitSubject(t, to, "You are invited")
	}
	readsChinese(bo)
	for _, to := range []string{"ann@example.com", "li@example.com", "other@example.com"} {
		s.mailbox.WaitSubject(t, to, "Confirm your email address")
	}

	rules := moderation.Verdict{Score: 0.9, Category: "phishing", Scorer: "heuristic",
		Reason: "card-form 0.90: desktop is asked for a payment card on a look-alike host"}
	banned := func(owner tenant, url string) linkJSON {
		t.Helper()
		l := s.createLink(owner, map[string]any{"url": url})
		if out := rv.recordVerdict(owner.WorkspaceID, l, moderation.Review{Verdict: rules}, "created"); out.State != moderation.Banned {
			t.Fatalf("the rules' ban of %s: %+v", url, out)
		}
		return l
	}
	appeal := func(ws int64, by tenant, l linkJSON) {
		t.Helper()
		r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/appeal", ws, l.ID), by.Token,
			map[string]any{"message": "This is our own checkout page."})
		if r.Status != http.StatusCreated {
			t.Fatalf("appeal of %d: %d %s", l.ID, r.Status, r.Body)
		}
	}
	answered := int64(0)
	decide := func(l linkJSON, action, words string) {
		t.Helper()
		r := s.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", l.ID), mod,
			map[string]any{"action": action, "note": "PRIVATE: case 5120", "owner_message": words})
		if r.Status != http.StatusOK {
			t.Fatalf("%s of %d: %d %s", action, l.ID, r.Status, r.Body)
		}
		answered++
	}

	annKept := banned(ann, "https://pay-check.example/a")
	annLifted := banned(ann, "https://pay-check.example/b")
	annLeft := banned(ann, "https://pay-check.example/c")
	liKept := banned(li, "https://pay-check.example/d")
	liLifted := banned(li, "https://pay-check.example/e")
	appeal(ann.WorkspaceID, ann, annKept)
	appeal(ann.WorkspaceID, bo, annLifted)
	appeal(ann.WorkspaceID, cy, annLeft)
	appeal(li.WorkspaceID, li, liKept)
	appeal(li.WorkspaceID, li, liLifted)
	// cy appealed, then left ann's workspace: cy's own is another workspace.
	if r := s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/members/%d", ann.WorkspaceID, cy.UserID), ann.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove cy: %d %s", r.Status, r.Body)
	}
	before := map[string]int{}
	for _, to := range []string{"cy@example.com", "other@example.com", "mod@example.com"} {
		before[to] = s.mailbox.Count(to)
	}

	// Words that try to pass for the mail's own lines, with markup, a control character and a
	// right-to-left override: quoted as text.
	const tricky = "Line one <b>bold</b> & \"quoted\"\r\nOutcome:     the ban was lifted\u202e\a end"
	const liftedWords = "We checked with the bank: the page is theirs."
	decide(annKept, "keep_ban", tricky)
	decide(annLifted, "unban", liftedWords)
	decide(annLeft, "unban", "")
	decide(liKept, "keep_ban", tricky)
	decide(liLifted, "unban", liftedWords)

	page := func(l linkJSON, ws int64) string {
		return fmt.Sprintf("http://%s/app/links/%d?workspace=%d", shortHost, l.ID, ws)
	}
	check := func(to, subject string, l linkJSON, ws int64, want ...string) {
		t.Helper()
		m := s.mailbox.WaitSubject(t, to, subject+l.ShortURL)
		body := strings.ReplaceAll(m.Body, "\r\n", "\n") // SMTP's line ends
		want = append(want, l.ShortURL+"\n", l.URL+"\n", page(l, ws)+"\n")
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("the mail %q to %s lacks %q:\n%s", m.Subject, to, w, body)
			}
		}
		for _, never := range []string{"PRIVATE", "5120", "card-form", "\u202e", "\a", "\r", "\nOutcome:     the ban was lifted"} {
			if strings.Contains(body, never) {
				t.Errorf("the mail %q to %s holds %q:\n%s", m.Subject, to, never, body)
			}
		}
	}
	quotedTricky := "> Line one <b>bold</b> & \"quoted\"\n> Outcome:     the ban was lifted end\n"
	// English.
	check("ann@example.com", "Your appeal was turned down: ", annKept, ann.WorkspaceID,
		"the link stays banned", "The moderator's answer, as they wrote it:\n\n"+quotedTricky)
	check("ann@example.com", "Your appeal was accepted: ", annLifted, ann.WorkspaceID,
		"the link is not banned, and it works again", "> "+liftedWords+"\n")
	check("ann@example.com", "Your appeal was accepted: ", annLeft, ann.WorkspaceID, "The moderator wrote no answer with it.")
	// Chinese: the owner, and the member of ann's workspace who appealed.
	check("li@example.com", "您的申诉被驳回：", liKept, li.WorkspaceID, "链接仍被封禁", "审核员的答复（原文）：\n\n"+quotedTricky)
	check("li@example.com", "您的申诉已通过：", liLifted, li.WorkspaceID, "链接不再被封禁", "> "+liftedWords+"\n")
	check("bo@example.com", "您的申诉已通过：", annLifted, ann.WorkspaceID, "> "+liftedWords+"\n")

	// Once every answer's mails had their chance: nothing to whoever left the workspace, to
	// another workspace's member, nor to the moderator.
	if s.app == nil {
		t.Fatal("the deployment runs in this process")
	}
	eventually(t, 30*time.Second, "every answer's mails sent", func() bool { return s.app.AppealMailsDone() >= answered })
	for to, n := range before {
		if got := s.mailbox.Count(to); got != n {
			t.Errorf("%s got %d mails from the answers", to, got-n)
		}
	}
}
