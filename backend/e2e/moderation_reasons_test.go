package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// errorReasonField reads an error answer's finer reason and its field.
func (r response) errorReasonField(t *testing.T) (string, string) {
	t.Helper()
	var e struct {
		Error struct {
			Reason string `json:"reason"`
			Field  string `json:"field"`
		} `json:"error"`
	}
	r.json(t, &e)
	return e.Error.Reason, e.Error.Field
}

// TestModerationReasonsThroughAPI: a ban's reason is a standard one; the owner reads the
// reason and the moderator's words, never the private note (nor does the appeal's resolution
// carry it), and another workspace sees nothing of the link. The queue names each link's
// workspace, owner and visits; the desk's tabs are counted, open appeals among them.
func TestModerationReasonsThroughAPI(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signup("owner@example.com")
	other := s.signup("other@example.com")
	_, mod := s.moderator("mod@example.com")
	rv := newReviewer(t, d)
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	const note = "PRIVATE: same kit as case 4411"

	l := s.createLink(owner, map[string]any{"url": "https://bank-login.example/"})
	rv.review(owner.WorkspaceID, l, 0.6, "looks like a bank login")
	quiet := s.createLink(owner, map[string]any{"url": "https://quiet.example/"})
	rv.review(owner.WorkspaceID, quiet, 0.55, "a login form")
	if _, err := d.db(t).Pool.Exec(context.Background(),
		`INSERT INTO visit_totals (link_id, workspace_id, visits) VALUES ($1, $2, 37)`, l.ID, owner.WorkspaceID); err != nil {
		t.Fatal(err)
	}

	// The flagged queue says whose each link is, and how much it is visited.
	var q struct {
		Items []struct {
			Link      moderatedLink `json:"link"`
			Workspace struct {
				ID   int64
				Name string
			}
			OwnerEmail    string      `json:"owner_email"`
			OwnerLanguage string      `json:"owner_language"`
			Visits        int64       `json:"visits"`
			Appeal        *appealJSON `json:"appeal"`
		} `json:"items"`
	}
	s.do("GET", "/api/v1/moderation/queue?state=flagged", mod, nil).json(t, &q)
	if len(q.Items) != 2 || q.Items[1].Link.ID != l.ID || q.Items[1].Workspace.ID != owner.WorkspaceID ||
		q.Items[1].Workspace.Name == "" || q.Items[1].OwnerEmail != "owner@example.com" || q.Items[1].OwnerLanguage != "en" ||
		q.Items[1].Visits != 37 || q.Items[0].Visits != 0 {
		t.Fatalf("flagged queue: %+v", q)
	}
	// The owner reads Chinese: the queue and the link's file say so, for the words the
	// moderator writes to them.
	if r := s.do("PATCH", "/api/v1/me", owner.Token, map[string]any{"language": "zh"}); r.Status != http.StatusOK {
		t.Fatalf("the owner's language: %d %s", r.Status, r.Body)
	}
	s.do("GET", "/api/v1/moderation/queue?state=flagged", mod, nil).json(t, &q)
	var file struct {
		OwnerEmail    string `json:"owner_email"`
		OwnerLanguage string `json:"owner_language"`
	}
	s.do("GET", fmt.Sprintf("/api/v1/moderation/links/%d", l.ID), mod, nil).json(t, &file)
	if len(q.Items) != 2 || q.Items[1].OwnerLanguage != "zh" || file.OwnerEmail != "owner@example.com" || file.OwnerLanguage != "zh" {
		t.Errorf("the owner's language after the change: queue %+v, file %+v", q.Items, file)
	}
	counts := func() map[string]int {
		var c map[string]int
		r := s.do("GET", "/api/v1/moderation/counts", mod, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("counts: %d %s", r.Status, r.Body)
		}
		r.json(t, &c)
		return c
	}
	if c := counts(); c["flagged"] != 2 || c["banned"] != 0 || c["passed"] != 0 || c["appealed"] != 0 || c["cap"] != 1000 {
		t.Errorf("counts before: %v", c)
	}

	// A reason must be a standard one; "other" needs words; each refusal names its field.
	decide := fmt.Sprintf("/api/v1/moderation/links/%d/decision", l.ID)
	for _, tt := range []struct {
		body          map[string]any
		reason, field string
	}{
		{map[string]any{"action": "ban", "reason": "nasty", "note": note}, "reason_unknown", "reason"},
		{map[string]any{"action": "ban", "reason": "other", "note": note}, "reason_text_required", "reason_text"},
	} {
		r := s.do("POST", decide, mod, tt.body)
		if reason, field := r.errorReasonField(t); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" ||
			reason != tt.reason || field != tt.field {
			t.Errorf("decision %v: %d %s", tt.body, r.Status, r.Body)
		}
	}
	if got := s.getLink(owner, l.ID); got.Status != "active" || got.Moderation.State != "flagged" {
		t.Fatalf("a refused ban changed the link: %+v", got)
	}

	r := s.do("POST", decide, mod, map[string]any{"action": "ban", "reason": "phishing",
		"reason_text": "The page asks for bank passwords.", "note": note})
	if r.Status != http.StatusOK || !r.has(note) {
		t.Fatalf("ban: %d %s", r.Status, r.Body)
	}

	// The owner reads the reason and the words, in the link, the list and the appeal; never
	// the note.
	ownerReads := func(what string) {
		t.Helper()
		for _, path := range []string{fmt.Sprintf("%s/links/%d", ws, l.ID), ws + "/links"} {
			for _, cred := range []string{owner.Token, owner.Key} {
				r := s.do("GET", path, cred, nil)
				if r.Status != http.StatusOK || strings.Contains(string(r.Body), "PRIVATE") || strings.Contains(string(r.Body), "4411") {
					t.Errorf("%s: the owner's %s: %d %s", what, path, r.Status, r.Body)
				}
			}
		}
	}
	ownerReads("after the ban")
	got := s.getLink(owner, l.ID)
	if got.Status != "banned" || got.Moderation.State != "banned" || got.Moderation.Category != "phishing" ||
		got.Moderation.Reason != "The page asks for bank passwords." {
		t.Errorf("the ban as the owner sees it: %+v", got.Moderation)
	}

	// Another workspace sees nothing of it, and cannot appeal it.
	for _, cred := range []string{other.Token, other.Key} {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, l.ID), cred, nil)
		if r.Status != http.StatusNotFound || r.has("bank") || r.has("PRIVATE") {
			t.Errorf("another workspace reads the link: %d %s", r.Status, r.Body)
		}
		r = s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", other.WorkspaceID), cred, nil)
		if r.Status != http.StatusOK || r.has("bank") {
			t.Errorf("another workspace's list: %d %s", r.Status, r.Body)
		}
		r = s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", owner.WorkspaceID, l.ID), cred, nil)
		if r.Status != http.StatusForbidden && r.Status != http.StatusNotFound || r.has("bank") || r.has("PRIVATE") {
			t.Errorf("another workspace names the owner's: %d %s", r.Status, r.Body)
		}
	}
	if r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/appeal", other.WorkspaceID, l.ID), other.Token,
		map[string]any{"message": "mine"}); r.Status != http.StatusNotFound {
		t.Errorf("another workspace appeals: %d %s", r.Status, r.Body)
	}

	// The owner appeals: the appealed tab holds the link, and the counts follow.
	if r := s.do("POST", fmt.Sprintf("%s/links/%d/appeal", ws, l.ID), owner.Token, map[string]any{"message": "It is our own bank."}); r.Status != http.StatusCreated {
		t.Fatalf("appeal: %d %s", r.Status, r.Body)
	}
	s.do("GET", "/api/v1/moderation/queue?state=appealed", mod, nil).json(t, &q)
	if len(q.Items) != 1 || q.Items[0].Link.ID != l.ID || q.Items[0].Appeal == nil || q.Items[0].Appeal.Message != "It is our own bank." ||
		q.Items[0].OwnerEmail != "owner@example.com" {
		t.Errorf("appealed tab: %+v", q)
	}
	if c := counts(); c["flagged"] != 1 || c["banned"] != 1 || c["appealed"] != 1 {
		t.Errorf("counts after the ban and the appeal: %v", c)
	}

	// The unban resolves the appeal with the words for the owner, not the note.
	r = s.do("POST", decide, mod, map[string]any{"action": "unban", "note": note + " (false positive)",
		"reason_text": "We checked: the page is the bank's own."})
	if r.Status != http.StatusOK {
		t.Fatalf("unban: %d %s", r.Status, r.Body)
	}
	ownerReads("after the unban")
	got = s.getLink(owner, l.ID)
	if got.Status != "active" || got.Moderation.State != "passed" || got.Appeal == nil ||
		got.Appeal.Resolution != "unban: We checked: the page is the bank's own." {
		t.Errorf("the unban as the owner sees it: %+v %+v", got.Moderation, got.Appeal)
	}
	if c := counts(); c["banned"] != 0 || c["passed"] != 1 || c["appealed"] != 0 {
		t.Errorf("counts after the unban: %v", c)
	}

	// The audit log keeps the note and what the owner was told.
	var audit struct {
		Items []struct {
			LinkID     int64  `json:"link_id"`
			Action     string `json:"action"`
			Note       string `json:"note"`
			Reason     string `json:"reason"`
			ReasonText string `json:"reason_text"`
		} `json:"items"`
	}
	s.do("GET", "/api/v1/admin/audit", s.operatorToken(), nil).json(t, &audit)
	if len(audit.Items) < 2 || audit.Items[1].Action != "ban" || audit.Items[1].Note != note || audit.Items[1].Reason != "phishing" ||
		audit.Items[1].ReasonText != "The page asks for bank passwords." || audit.Items[0].Action != "unban" {
		t.Errorf("audit: %+v", audit.Items)
	}

	// A ban with the note alone (the decision's body before reasons) still bans; its owner is
	// told nothing of the note.
	r = s.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", quiet.ID), mod, map[string]any{"action": "ban", "note": note})
	if r.Status != http.StatusOK {
		t.Fatalf("a ban with the note alone: %d %s", r.Status, r.Body)
	}
	ownerReads("after a ban with the note alone")
	if got := s.getLink(owner, quiet.ID); got.Status != "banned" || got.Moderation.Reason != "" {
		t.Errorf("a ban with the note alone as the owner sees it: %+v", got.Moderation)
	}
}
