package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// auditNamedJSON is an event's names as the API shows them.
type auditNamedJSON struct {
	Action string `json:"action"`
	Target string `json:"target"`
	Actor  struct {
		Type  string `json:"type"`
		ID    int64  `json:"id"`
		Email string `json:"email"`
		Name  string `json:"name"`
	} `json:"actor"`
	TargetName struct {
		Kind   string `json:"kind"`
		ID     int64  `json:"id"`
		Label  string `json:"label"`
		Detail string `json:"detail"`
		Exists bool   `json:"exists"`
	} `json:"target_name"`
}

// auditNamed reads the newest page of a workspace's log with its names, keyed by "action target".
func (s *server) auditNamed(t *testing.T, token string, ws int64) (map[string]auditNamedJSON, string) {
	t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/audit?limit=200", ws), token, nil)
	page := answer[struct{ Events []auditNamedJSON }](t, r, http.StatusOK, "audit page")
	out := map[string]auditNamedJSON{}
	for _, e := range page.Events {
		if _, seen := out[e.Action+" "+e.Target]; !seen { // newest first: keep the newest
			out[e.Action+" "+e.Target] = e
		}
	}
	return out, string(r.Body)
}

// TestAuditNames: the log names each event's actor (a member's address, a key's name) and
// target (a link's short URL and destination host, a member's or invitation's address, the
// workspace's, a key's or a template's name, a domain's hostname, a webhook's host); a deleted
// link, a removed member, a removed domain and a withdrawn invitation keep the names their
// events recorded; and nothing of another workspace is ever named, even for an event whose
// target or actor is one of its rows.
func TestAuditNames(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signupOn("names-owner@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	kept := s.createLink(owner, map[string]any{"url": "https://kept.example/a"})
	if r := s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, kept.ID), owner.Token, map[string]any{"title": "t"}); r.Status != http.StatusOK {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	share := s.do("POST", fmt.Sprintf("%s/links/%d/share", ws, kept.ID), owner.Token, map[string]any{})
	if share.Status != http.StatusCreated {
		t.Fatalf("share: %d %s", share.Status, share.Body)
	}
	gone := s.createLink(owner, map[string]any{"url": "https://gone.example/b"})
	if r := s.do("DELETE", fmt.Sprintf("%s/links/%d", ws, gone.ID), owner.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete link: %d %s", r.Status, r.Body)
	}
	member := s.joinedByAPI(t, owner, "names-member@example.com", "member")
	if r := s.do("PATCH", fmt.Sprintf("%s/members/%d", ws, member.UserID), owner.Token, map[string]any{"role": "admin"}); r.Status != http.StatusOK {
		t.Fatalf("role: %d %s", r.Status, r.Body)
	}
	leaver := s.joinedByAPI(t, owner, "names-leaver@example.com", "member")
	if r := s.do("DELETE", fmt.Sprintf("%s/members/%d", ws, leaver.UserID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove: %d %s", r.Status, r.Body)
	}
	inv := answer[struct{ ID int64 }](t, s.do("POST", ws+"/invitations", owner.Token, map[string]any{"email": "names-withdrawn@example.com"}), http.StatusCreated, "invite")
	if r := s.do("DELETE", fmt.Sprintf("%s/invitations/%d", ws, inv.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("withdraw: %d %s", r.Status, r.Body)
	}
	waiting := answer[struct{ ID int64 }](t, s.do("POST", ws+"/invitations", owner.Token, map[string]any{"email": "names-waiting@example.com"}), http.StatusCreated, "invite")
	if r := s.do("PATCH", ws, owner.Token, map[string]any{"name": "Named Co"}); r.Status != http.StatusOK {
		t.Fatalf("rename: %d %s", r.Status, r.Body)
	}
	dom := answer[struct{ ID int64 }](t, s.do("POST", ws+"/domains", owner.Token, map[string]any{"hostname": "go.names-example.com"}), http.StatusCreated, "domain")
	removed := answer[struct{ ID int64 }](t, s.do("POST", ws+"/domains", owner.Token, map[string]any{"hostname": "old.names-example.com"}), http.StatusCreated, "domain")
	if r := s.do("DELETE", fmt.Sprintf("%s/domains/%d", ws, removed.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove domain: %d %s", r.Status, r.Body)
	}
	key := answer[struct{ ID int64 }](t, s.do("POST", ws+"/api-keys", owner.Token, map[string]any{"name": "deploy bot", "scopes": []string{"links:read"}}), http.StatusCreated, "key")
	hook := answer[struct{ ID int64 }](t, s.do("POST", ws+"/webhooks", owner.Token, map[string]any{"url": "https://93.184.216.34/in", "events": []string{"link.created"}}), http.StatusCreated, "webhook")
	tpl := answer[struct{ ID int64 }](t, s.do("POST", ws+"/utm-templates", owner.Token, map[string]any{"name": "Newsletter", "utm": map[string]any{"source": "mail"}}), http.StatusCreated, "template")

	events, _ := s.auditNamed(t, owner.Token, owner.WorkspaceID)
	for _, c := range []struct {
		event, label, detail string
		exists               bool
	}{
		{fmt.Sprintf("link.shared link:%d", kept.ID), kept.ShortURL, "kept.example", true},
		{fmt.Sprintf("link.deleted link:%d", gone.ID), gone.ShortURL, "gone.example", false},
		{fmt.Sprintf("member.role_changed user:%d", member.UserID), "names-member@example.com", "", true},
		{fmt.Sprintf("member.removed user:%d", leaver.UserID), "names-leaver@example.com", "", false},
		{fmt.Sprintf("invitation.withdrawn invitation:%d", inv.ID), "names-withdrawn@example.com", "", false},
		{fmt.Sprintf("invitation.sent invitation:%d", waiting.ID), "names-waiting@example.com", "", true},
		{fmt.Sprintf("workspace.renamed workspace:%d", owner.WorkspaceID), "Named Co", "", true},
		{fmt.Sprintf("domain.added domain:%d", dom.ID), "go.names-example.com", "", true},
		{fmt.Sprintf("domain.removed domain:%d", removed.ID), "old.names-example.com", "", false},
		{fmt.Sprintf("api_key.created api_key:%d", key.ID), "deploy bot", "", true},
		{fmt.Sprintf("webhook.created webhook:%d", hook.ID), "93.184.216.34", "", true},
		{fmt.Sprintf("utm_template.created utm_template:%d", tpl.ID), "Newsletter", "", true},
	} {
		e, ok := events[c.event]
		if !ok {
			t.Errorf("no %q event", c.event)
			continue
		}
		n := e.TargetName
		if n.Label != c.label || n.Detail != c.detail || n.Exists != c.exists || fmt.Sprintf("%s:%d", n.Kind, n.ID) != e.Target {
			t.Errorf("%s: named %+v, want %q %q exists %v", c.event, n, c.label, c.detail, c.exists)
		}
	}
	// The actors: a member by their address, an API key by its name.
	if e := events[fmt.Sprintf("member.role_changed user:%d", member.UserID)]; e.Actor.Email != "names-owner@example.com" {
		t.Errorf("a member's actor: %+v", e.Actor)
	}
	if e := events[fmt.Sprintf("link.deleted link:%d", gone.ID)]; e.Actor.Type != "api_key" || e.Actor.Name == "" {
		t.Errorf("a key's actor: %+v", e.Actor)
	}

	// Another workspace: its link, key, member and name are never named in this one's log,
	// even for events that point at them (written here behind the service's back, as a
	// forged or mistaken target would be).
	other := s.signupOn("names-other@example.com", "enterprise")
	ows := fmt.Sprintf("/api/v1/workspaces/%d", other.WorkspaceID)
	if r := s.do("PATCH", ows, other.Token, map[string]any{"name": "Secret Rival"}); r.Status != http.StatusOK {
		t.Fatalf("rename other: %d %s", r.Status, r.Body)
	}
	theirs := s.createLink(other, map[string]any{"url": "https://rival-secret.example/x"})
	theirKey := answer[struct{ ID int64 }](t, s.do("POST", ows+"/api-keys", other.Token, map[string]any{"name": "rival key", "scopes": []string{"links:read"}}), http.StatusCreated, "their key")
	conn := d.conn(t)
	for _, row := range []struct {
		actorType string
		actorID   int64
		target    string
	}{
		{"user", other.UserID, fmt.Sprintf("link:%d", theirs.ID)},
		{"api_key", theirKey.ID, fmt.Sprintf("workspace:%d", other.WorkspaceID)},
		{"user", owner.UserID, fmt.Sprintf("user:%d", other.UserID)},
		{"user", owner.UserID, fmt.Sprintf("api_key:%d", theirKey.ID)},
	} {
		if _, err := conn.Exec(context.Background(), `INSERT INTO audit_events (workspace_id, actor_type, actor_id, actor_email, action, target, details, address_hash)
			VALUES ($1, $2, $3, '', 'link.deleted', $4, '{}', '')`, owner.WorkspaceID, row.actorType, row.actorID, row.target); err != nil {
			t.Fatal(err)
		}
	}
	events, body := s.auditNamed(t, owner.Token, owner.WorkspaceID)
	for _, leak := range []string{"rival-secret.example", theirs.Code, "rival key", "Secret Rival", "names-other@example.com"} {
		if strings.Contains(body, leak) {
			t.Errorf("the log names %q of another workspace", leak)
		}
	}
	if e := events[fmt.Sprintf("link.deleted link:%d", theirs.ID)]; e.TargetName.Exists || e.TargetName.Label != "" || e.Actor.Email != "" {
		t.Errorf("another workspace's link: %+v", e)
	}
	if e := events[fmt.Sprintf("link.deleted workspace:%d", other.WorkspaceID)]; e.TargetName.Exists || e.Actor.Name != "" {
		t.Errorf("another workspace and its key: %+v", e)
	}
	// And the other workspace's owner sees none of this one's names in their log.
	_, theirBody := s.auditNamed(t, other.Token, other.WorkspaceID)
	for _, leak := range []string{"Named Co", "names-member@example.com", "deploy bot", kept.ShortURL} {
		if strings.Contains(theirBody, leak) {
			t.Errorf("another workspace's log names %q", leak)
		}
	}
}
