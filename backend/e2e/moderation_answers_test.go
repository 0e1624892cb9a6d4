package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
)

// answeredLink is a link's moderation as its owner reads it, with who decided, the reason code
// and the appeal's answer.
type answeredLink struct {
	ID         int64  `json:"id"`
	Status     string `json:"status"`
	Moderation struct {
		State      string `json:"state"`
		Category   string `json:"category"`
		Reason     string `json:"reason"`
		DecidedBy  string `json:"decided_by"`
		ReasonCode string `json:"reason_code"`
		Held       bool   `json:"held"`
		Appeal     *struct {
			State   string    `json:"state"`
			Message string    `json:"message"`
			Answer  string    `json:"answer"`
			At      time.Time `json:"at"`
		} `json:"appeal"`
	} `json:"moderation"`
}

// recordVerdict records a review of l with the verdict, as the worker would.
func (rv *reviewer) recordVerdict(ws int64, l linkJSON, r moderation.Review, reason string) moderation.Outcome {
	rv.t.Helper()
	job := moderation.Job{LinkID: l.ID, WorkspaceID: ws, URL: l.URL, Reason: reason, Seq: 1}
	r.Duration = time.Second
	out, err := rv.store.Record(context.Background(), job, r, moderation.DefaultThresholds)
	if err != nil {
		rv.t.Fatalf("record a review of %d: %v", l.ID, err)
	}
	return out
}

// TestModerationAnswersThroughAPI: the owner of a link the rules banned is told who decided and
// a reason code, never the scorer's words (moderators read those); an appeal is answered by
// keep_ban (rejected, the ban stays) or unban (upheld), each with the moderator's words and
// never the private note, and closed either way; keep_ban of a link that is not banned is
// refused; another workspace sees nothing. A link banned on its domain says so, and clearing
// the domain holds it again for a review of its own, which releases it.
func TestModerationAnswersThroughAPI(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signup("owner@example.com")
	other := s.signup("other@example.com")
	_, mod := s.moderator("mod@example.com")
	rv := newReviewer(t, d)
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	const scorer = "card-form 0.90: desktop is asked for a payment card on a look-alike host"
	const note = "PRIVATE: same kit as case 5120"
	get := func(id int64) answeredLink {
		t.Helper()
		return answer[answeredLink](t, s.do("GET", fmt.Sprintf("%s/links/%d", ws, id), owner.Token, nil), http.StatusOK, "the owner's link")
	}
	decide := func(id int64, body map[string]any) response {
		t.Helper()
		return s.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", id), mod, body)
	}
	rules := moderation.Verdict{Score: 0.9, Category: "phishing", Reason: scorer, Scorer: "heuristic"}

	// The rules ban two links.
	kept := s.createLink(owner, map[string]any{"url": "https://pay-check.example/a"})
	lifted := s.createLink(owner, map[string]any{"url": "https://pay-check.example/b"})
	for _, l := range []linkJSON{kept, lifted} {
		if out := rv.recordVerdict(owner.WorkspaceID, l, moderation.Review{Verdict: rules}, "created"); out.State != moderation.Banned {
			t.Fatalf("the rules' ban: %+v", out)
		}
	}
	got := get(kept.ID)
	if m := got.Moderation; got.Status != "banned" || m.State != "banned" || m.DecidedBy != "review" || m.ReasonCode != "card_form" ||
		m.Category != "phishing" || m.Reason != "" || m.Appeal != nil {
		t.Errorf("the owner's banned link: %+v", got)
	}
	for _, path := range []string{fmt.Sprintf("%s/links/%d", ws, kept.ID), ws + "/links"} {
		if r := s.do("GET", path, owner.Key, nil); r.Status != http.StatusOK || r.has("card-form 0.90") || !r.has(`"reason_code":"card_form"`) {
			t.Errorf("the owner's %s shows the scorer's words or no reason code: %d %s", path, r.Status, r.Body)
		}
	}
	// Moderators read the scorer's words in the link's file.
	if r := s.do("GET", fmt.Sprintf("/api/v1/moderation/links/%d", kept.ID), mod, nil); r.Status != http.StatusOK || !r.has(scorer) {
		t.Errorf("the moderator's file: %d %s", r.Status, r.Body)
	}
	// Another workspace sees nor appeals anything of the link.
	for _, c := range []struct{ method, path string }{{"GET", ""}, {"POST", "/appeal"}} {
		r := s.do(c.method, fmt.Sprintf("/api/v1/workspaces/%d/links/%d%s", other.WorkspaceID, kept.ID, c.path), other.Token,
			map[string]any{"message": "mine"})
		if r.Status != http.StatusNotFound {
			t.Errorf("another workspace's %s %s: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}

	// The owner appeals both; each reads its appeal open.
	for _, l := range []linkJSON{kept, lifted} {
		r := s.do("POST", fmt.Sprintf("%s/links/%d/appeal", ws, l.ID), owner.Token, map[string]any{"message": "This is our own checkout page."})
		if r.Status != http.StatusCreated {
			t.Fatalf("appeal: %d %s", r.Status, r.Body)
		}
		if a := get(l.ID).Moderation.Appeal; a == nil || a.State != "open" || a.Message != "This is our own checkout page." || a.Answer != "" {
			t.Errorf("the open appeal: %+v", a)
		}
	}

	// keep_ban: refused for a link that is not banned and for words too long; kept for a banned one.
	active := s.createLink(owner, map[string]any{"url": "https://fine.example/"})
	if r := decide(active.ID, map[string]any{"action": "keep_ban"}); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Errorf("keep_ban of an active link: %d %s", r.Status, r.Body)
	} else if reason, field := r.errorReasonField(t); reason != "link_not_banned" || field != "action" {
		t.Errorf("keep_ban of an active link: %s %s", reason, field)
	}
	if r := decide(kept.ID, map[string]any{"action": "keep_ban", "owner_message": strings.Repeat("x", 2001)}); r.Status != http.StatusBadRequest {
		t.Errorf("keep_ban with words too long: %d %s", r.Status, r.Body)
	} else if reason, field := r.errorReasonField(t); reason != "text_length" || field != "owner_message" {
		t.Errorf("keep_ban with words too long: %s %s", reason, field)
	}
	if a := get(kept.ID).Moderation.Appeal; a == nil || a.State != "open" {
		t.Fatalf("a refused keep_ban answered the appeal: %+v", a)
	}
	const keepWords = "The page asks for card numbers on a copy of a bank's site."
	r := decide(kept.ID, map[string]any{"action": "keep_ban", "note": note, "owner_message": keepWords})
	if r.Status != http.StatusOK || !r.has(`"action":"keep_ban"`) {
		t.Fatalf("keep_ban: %d %s", r.Status, r.Body)
	}
	got = get(kept.ID)
	if m := got.Moderation; got.Status != "banned" || m.State != "banned" || m.DecidedBy != "moderator" || m.ReasonCode != "card_form" ||
		m.Reason != "" || m.Appeal == nil || m.Appeal.State != "rejected" || m.Appeal.Answer != keepWords ||
		m.Appeal.Message != "This is our own checkout page." {
		t.Errorf("the owner's link after keep_ban: %+v %+v", got, got.Moderation.Appeal)
	}
	if r := s.do("GET", fmt.Sprintf("%s/links/%d", ws, kept.ID), owner.Token, nil); r.has("PRIVATE") || r.has("5120") {
		t.Errorf("the owner reads the private note: %s", r.Body)
	}
	eventually(t, 5*time.Second, "the kept ban's warning page", func() bool {
		return s.visit("GET", "/"+kept.Code).Status == http.StatusForbidden
	})

	// unban with words: upheld, the link works again.
	const unbanWords = "We checked with the bank: the page is theirs."
	if r := decide(lifted.ID, map[string]any{"action": "unban", "note": note, "owner_message": unbanWords}); r.Status != http.StatusOK {
		t.Fatalf("unban: %d %s", r.Status, r.Body)
	}
	got = get(lifted.ID)
	if m := got.Moderation; got.Status != "active" || m.State != "passed" || m.DecidedBy != "moderator" ||
		m.Appeal == nil || m.Appeal.State != "upheld" || m.Appeal.Answer != unbanWords {
		t.Errorf("the owner's link after unban: %+v %+v", got, got.Moderation.Appeal)
	}

	// Both appeals are closed: the desk has none open; each decision is in the audit logs.
	var c map[string]int
	s.do("GET", "/api/v1/moderation/counts", mod, nil).json(t, &c)
	if c["appealed"] != 0 {
		t.Errorf("open appeals after both answers: %v", c)
	}
	if r := s.do("GET", "/api/v1/admin/audit?limit=50", s.operatorToken(), nil); !r.has(`"action":"keep_ban"`) || !r.has(note) {
		t.Errorf("the moderators' audit log: %s", r.Body)
	}
	s.setPlan(owner, "enterprise")
	var kinds []string
	for _, e := range s.auditAll(t, owner.Token, owner.WorkspaceID, 50) {
		kinds = append(kinds, e.Action+" "+e.Target)
	}
	if all := strings.Join(kinds, "\n"); !strings.Contains(all, fmt.Sprintf("link.ban_kept link:%d", kept.ID)) ||
		!strings.Contains(all, fmt.Sprintf("link.unbanned link:%d", lifted.ID)) {
		t.Errorf("the workspace's audit log:\n%s", all)
	}

	// A moderator bans a domain: a new link there is held, then banned on the domain.
	if r := s.do("POST", "/api/v1/moderation/domains/held-shop.example/ban", mod, map[string]any{"note": note}); r.Status != http.StatusOK {
		t.Fatalf("ban the domain: %d %s", r.Status, r.Body)
	}
	onDomain := s.createLink(owner, map[string]any{"url": "https://held-shop.example/item"})
	if got := get(onDomain.ID); got.Status != "held" || !got.Moderation.Held {
		t.Fatalf("a link of a banned domain: %+v", got)
	}
	domainBan := moderation.Review{SharedHow: "domain", Domain: "held-shop.example", Destination: "https://held-shop.example/item",
		Verdict: moderation.Verdict{Score: 1, Category: "phishing", Scorer: "heuristic", Reason: "a moderator banned its domain held-shop.example"}}
	rv.recordVerdict(owner.WorkspaceID, onDomain, domainBan, "held")
	got = get(onDomain.ID)
	if m := got.Moderation; got.Status != "banned" || m.DecidedBy != "domain" || m.ReasonCode != "domain_banned" || m.Reason != "" {
		t.Errorf("a link banned on its domain: %+v", got)
	}
	// Cleared: held again (the warning page meanwhile) and due for a review of its own.
	if r := s.do("POST", "/api/v1/moderation/domains/held-shop.example/clear", mod, map[string]any{"note": "a real shop"}); r.Status != http.StatusOK {
		t.Fatalf("clear the domain: %d %s", r.Status, r.Body)
	}
	got = get(onDomain.ID)
	if m := got.Moderation; got.Status != "held" || !m.Held || m.State != "pending" {
		t.Errorf("a link of a cleared domain: %+v", got)
	}
	var reason string
	if err := d.db(t).Pool.QueryRow(context.Background(), `SELECT reason FROM moderation_due WHERE link_id = $1`, onDomain.ID).Scan(&reason); err != nil || reason != "held" {
		t.Errorf("the cleared domain's link is not due for its review: %q %v", reason, err)
	}
	if v := s.visit("GET", "/"+onDomain.Code); v.Status != http.StatusForbidden {
		t.Errorf("a held link redirects before its review: %d", v.Status)
	}
	// Its own review passes it: released.
	rv.recordVerdict(owner.WorkspaceID, onDomain, moderation.Review{Domain: "held-shop.example",
		Verdict: moderation.Verdict{Score: 0.05, Category: "benign", Scorer: "heuristic", Reason: "no heuristic signal"}}, "held")
	got = get(onDomain.ID)
	if m := got.Moderation; got.Status != "active" || m.State != "passed" || m.DecidedBy != "review" || m.ReasonCode != "" {
		t.Errorf("the cleared domain's link after its review: %+v", got)
	}
	eventually(t, 5*time.Second, "the released link redirects", func() bool {
		st := s.visit("GET", "/"+onDomain.Code).Status
		return st >= 300 && st < 400
	})
}
