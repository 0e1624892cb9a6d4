package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// auditEventJSON is an event of the workspace audit log as the API shows it.
type auditEventJSON struct {
	At    string `json:"at"`
	Actor struct {
		Type  string `json:"type"`
		ID    int64  `json:"id"`
		Email string `json:"email"`
	} `json:"actor"`
	Action      string         `json:"action"`
	Target      string         `json:"target"`
	Details     map[string]any `json:"details"`
	AddressHash string         `json:"address_hash"`
}

type auditPageJSON struct {
	Events     []auditEventJSON `json:"events"`
	NextCursor string           `json:"next_cursor"`
}

// auditAll reads every page of a workspace's audit log, newest first, size events a page.
func (s *server) auditAll(t *testing.T, token string, ws int64, size int) []auditEventJSON {
	t.Helper()
	var all []auditEventJSON
	cursor := ""
	for range 100 {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/audit?limit=%d&cursor=%s", ws, size, cursor), token, nil)
		page := answer[auditPageJSON](t, r, http.StatusOK, "audit page")
		if len(page.Events) > size {
			t.Fatalf("a page of %d holds %d events", size, len(page.Events))
		}
		all = append(all, page.Events...)
		if page.NextCursor == "" {
			return all
		}
		cursor = page.NextCursor
	}
	t.Fatal("the audit log's pages never end")
	return nil
}

// joinedByAPI is joined without the web app's verification page: the mailed token is posted
// to the API directly.
func (s *server) joinedByAPI(t *testing.T, owner tenant, email, role string) tenant {
	t.Helper()
	tn := s.signup(email)
	link := s.mailbox.WaitSubject(t, email, "Confirm your email address").Link(t)
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	if r := s.do("POST", "/api/v1/auth/verify-email", "", map[string]string{"token": u.Query().Get("token")}); r.Status != http.StatusOK {
		t.Fatalf("verify %s: %d %s", email, r.Status, r.Body)
	}
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", owner.WorkspaceID), owner.Token, map[string]any{"email": email, "role": role})
	inv := answer[struct{ ID int64 }](t, r, http.StatusCreated, "invite "+email)
	if r = s.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID), tn.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	return tn
}

// TestAuditLog changes an enterprise workspace in many ways and reads who did what back from
// its audit log, page by page and as CSV; a free workspace cannot read its log, a member or a
// key cannot read it, and another workspace never sees the events.
func TestAuditLog(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	owner := s.signupOn("audit-owner@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	// Members and invitations: invite, accept, role change, removal; a withdrawn invitation.
	member := s.joinedByAPI(t, owner, "audit-member@example.com", "member")
	if r := s.do("PATCH", fmt.Sprintf("%s/members/%d", ws, member.UserID), owner.Token, map[string]any{"role": "admin"}); r.Status != http.StatusOK {
		t.Fatalf("role: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/members/%d", ws, member.UserID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove: %d %s", r.Status, r.Body)
	}
	inv := answer[struct{ ID int64 }](t, s.do("POST", ws+"/invitations", owner.Token, map[string]any{"email": "nobody@example.com"}), http.StatusCreated, "invite")
	if r := s.do("DELETE", fmt.Sprintf("%s/invitations/%d", ws, inv.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("withdraw: %d %s", r.Status, r.Body)
	}
	// A key, revoked; a domain, removed; a rename; a link deleted through an API key, another
	// banned and unbanned by a moderator.
	key := answer[struct{ ID int64 }](t, s.do("POST", ws+"/api-keys", owner.Token, map[string]any{"name": "ci", "scopes": []string{"links:read"}}), http.StatusCreated, "key")
	if r := s.do("DELETE", fmt.Sprintf("%s/api-keys/%d", ws, key.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	dom := answer[struct{ ID int64 }](t, s.do("POST", ws+"/domains", owner.Token, map[string]any{"hostname": "go.audit-example.com"}), http.StatusCreated, "domain")
	if r := s.do("DELETE", fmt.Sprintf("%s/domains/%d", ws, dom.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove domain: %d %s", r.Status, r.Body)
	}
	if r := s.do("PATCH", ws, owner.Token, map[string]any{"name": "Audited"}); r.Status != http.StatusOK {
		t.Fatalf("rename: %d %s", r.Status, r.Body)
	}
	gone := s.createLink(owner, map[string]any{"url": "https://audit.example/gone"})
	if r := s.do("DELETE", fmt.Sprintf("%s/links/%d", ws, gone.ID), owner.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete link: %d %s", r.Status, r.Body)
	}
	bad := s.createLink(owner, map[string]any{"url": "https://audit.example/bad"})
	op := s.operatorToken()
	for _, action := range []string{"ban", "unban"} {
		if r := s.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", bad.ID), op, map[string]any{"action": action, "reason": "spam"}); r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", action, r.Status, r.Body)
		}
	}

	events := s.auditAll(t, owner.Token, owner.WorkspaceID, 3)
	if one := s.auditAll(t, owner.Token, owner.WorkspaceID, 200); len(one) != len(events) {
		t.Fatalf("pages of 3 hold %d events, one page %d", len(events), len(one))
	}
	// Newest first: reverse into the order of the changes.
	var got []string
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		got = append(got, e.Action+" "+e.Target)
	}
	want := []string{
		"api_key.created", // the key signup makes for the tests
		"plan.changed workspace:" + fmt.Sprint(owner.WorkspaceID),
		"invitation.sent",
		"invitation.accepted",
		fmt.Sprintf("member.role_changed user:%d", member.UserID),
		fmt.Sprintf("member.removed user:%d", member.UserID),
		fmt.Sprintf("invitation.sent invitation:%d", inv.ID),
		fmt.Sprintf("invitation.withdrawn invitation:%d", inv.ID),
		fmt.Sprintf("api_key.created api_key:%d", key.ID),
		fmt.Sprintf("api_key.revoked api_key:%d", key.ID),
		fmt.Sprintf("domain.added domain:%d", dom.ID),
		fmt.Sprintf("domain.removed domain:%d", dom.ID),
		fmt.Sprintf("workspace.renamed workspace:%d", owner.WorkspaceID),
		fmt.Sprintf("link.deleted link:%d", gone.ID),
		fmt.Sprintf("link.banned link:%d", bad.ID),
		fmt.Sprintf("link.unbanned link:%d", bad.ID),
	}
	if len(got) != len(want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d: %q, want %q", i, got[i], want[i])
		}
	}
	byAction := map[string]auditEventJSON{}
	for _, e := range events {
		byAction[e.Action] = e
	}
	if e := byAction["member.role_changed"]; e.Actor.Type != "user" || e.Actor.ID != owner.UserID || e.Actor.Email != "audit-owner@example.com" || e.Details["role"] != "admin" {
		t.Errorf("role change: %+v", e)
	}
	if e := byAction["invitation.accepted"]; e.Actor.Type != "user" || e.Actor.ID != member.UserID || e.Actor.Email != "audit-member@example.com" {
		t.Errorf("acceptance: %+v", e)
	}
	if e := byAction["link.deleted"]; e.Actor.Type != "api_key" || e.Actor.ID == 0 || e.Actor.Email != "" {
		t.Errorf("deletion through a key: %+v", e)
	}
	if e := byAction["link.banned"]; e.Actor.Type != "user" || e.Actor.Email != "operator@sho.rt" || e.Details["reason"] != "spam" {
		t.Errorf("ban: %+v", e)
	}
	if e := byAction["plan.changed"]; e.Actor.Email != "operator@sho.rt" || e.Details["plan"] != "enterprise" {
		t.Errorf("plan change: %+v", e)
	}
	// Every change came from the test's one address: one hash, never the address itself.
	for _, e := range events {
		if e.AddressHash != events[0].AddressHash || len(e.AddressHash) != 32 || strings.Contains(e.AddressHash, "127.0.0.1") {
			t.Errorf("address hash %q of %s (first %q)", e.AddressHash, e.Action, events[0].AddressHash)
		}
	}
	if e := byAction["domain.added"]; e.Details["hostname"] != "go.audit-example.com" {
		t.Errorf("domain: %+v", e)
	}

	// The CSV: a header and the same events, newest first.
	r := s.do("GET", ws+"/audit.csv", owner.Token, nil)
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", r.Status, r.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(events)+1 || strings.Join(rows[0], ",") != "at,actor_type,actor_id,actor_email,action,target,details,address_hash" {
		t.Fatalf("csv rows: %d, header %v", len(rows), rows[0])
	}
	if rows[1][4] != "link.unbanned" || rows[len(rows)-1][4] != "api_key.created" || rows[1][3] != "operator@sho.rt" {
		t.Errorf("csv order or cells: %v … %v", rows[1], rows[len(rows)-1])
	}

	// Who may read it: not a member, not an API key, not a free workspace.
	reader := s.joinedByAPI(t, owner, "audit-reader@example.com", "member")
	for _, path := range []string{ws + "/audit", ws + "/audit.csv"} {
		if r := s.do("GET", path, reader.Token, nil); r.Status != http.StatusForbidden {
			t.Errorf("a member reads %s: %d %s", path, r.Status, r.Body)
		}
		if r := s.do("GET", path, owner.Key, nil); r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), `"reason":"api_key_not_allowed"`) {
			t.Errorf("a key reads %s: %d %s", path, r.Status, r.Body)
		}
	}
	free := s.signup("audit-free@example.com")
	freeWS := fmt.Sprintf("/api/v1/workspaces/%d", free.WorkspaceID)
	for _, path := range []string{freeWS + "/audit", freeWS + "/audit.csv"} {
		if r := s.do("GET", path, free.Token, nil); r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
			t.Errorf("free plan reads %s: %d %s", path, r.Status, r.Body)
		}
	}
	// Another enterprise workspace sees only its own events, and nothing of the first one
	// through its path.
	other := s.signupOn("audit-other@example.com", "enterprise")
	theirs := s.auditAll(t, other.Token, other.WorkspaceID, 50)
	if len(theirs) != 2 || theirs[0].Action != "plan.changed" || theirs[0].Target != fmt.Sprintf("workspace:%d", other.WorkspaceID) {
		t.Errorf("the other workspace's log: %+v", theirs)
	}
	if r := s.do("GET", ws+"/audit", other.Token, nil); r.Status != http.StatusNotFound {
		t.Errorf("another workspace reads this log: %d %s", r.Status, r.Body)
	}

	events = s.auditAll(t, owner.Token, owner.WorkspaceID, 50) // with the reader's invitation
	// Append-only in the database: no update, no delete; the address is kept hashed only.
	conn := d.conn(t)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, `UPDATE audit_events SET action = 'nothing' WHERE workspace_id = $1`, owner.WorkspaceID); err == nil {
		t.Error("an UPDATE of audit_events succeeded")
	}
	if _, err := conn.Exec(ctx, `DELETE FROM audit_events WHERE workspace_id = $1`, owner.WorkspaceID); err == nil {
		t.Error("a DELETE of audit_events succeeded")
	}
	var n int
	var hash string
	if err := conn.QueryRow(ctx, `SELECT count(*), min(address_hash) FROM audit_events WHERE workspace_id = $1`, owner.WorkspaceID).Scan(&n, &hash); err != nil {
		t.Fatal(err)
	}
	if n != len(events) || len(hash) != 32 || strings.Contains(hash, ".") || strings.Contains(hash, ":") {
		t.Errorf("after the refused changes: %d events (want %d), address hash %q", n, len(events), hash)
	}
}

// TestPlansListAuditFeatures: the plans listing names sso and audit_log, on enterprise only.
func TestPlansListAuditFeatures(t *testing.T) {
	s := newDeployment(t).start(t)
	var out struct {
		Plans []struct {
			ID       string          `json:"id"`
			Features map[string]bool `json:"features"`
		} `json:"plans"`
		Features []string `json:"features"`
	}
	s.do("GET", "/api/v1/plans", "", nil).json(t, &out)
	if !strings.Contains(strings.Join(out.Features, ","), "sso,audit_log") {
		t.Errorf("features: %v", out.Features)
	}
	for _, p := range out.Plans {
		if want := p.ID == "enterprise"; p.Features["sso"] != want || p.Features["audit_log"] != want {
			t.Errorf("%s: sso %v, audit_log %v", p.ID, p.Features["sso"], p.Features["audit_log"])
		}
	}
}

// TestAuditDomainsAndTrial: a domain verified by a person is theirs in the log, one the
// background checks verified is the system's; a started trial and a transfer are recorded.
func TestAuditDomainsAndTrial(t *testing.T) {
	ns := startDNS(t)
	// First a server whose background checks wait an hour, so that the person's verification is
	// theirs whatever the machine's pace; then one that checks every second.
	d := newDeployment(t)
	s := d.start(t, "DNS_RESOLVER", ns.Addr, "DOMAIN_CHECK_INTERVAL", "1h")
	tn := s.signup("audit-trial@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	if r := s.do("POST", ws+"/trial", tn.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("trial: %d %s", r.Status, r.Body)
	}
	s.setPlan(tn, "enterprise")
	mine := s.addDomain(tn, "mine.audit-example.com")
	ns.set(mine.Verification.Name, mine.Verification.Value)
	if got := s.verifyDomain(tn, mine.ID); !got.Verified {
		t.Fatalf("verify: %+v", got)
	}
	s.stop()
	s = d.start(t, "DNS_RESOLVER", ns.Addr, "DOMAIN_CHECK_INTERVAL", "1s")
	later := s.addDomain(tn, "later.audit-example.com")
	ns.set(later.Verification.Name, later.Verification.Value)
	eventually(t, 10*time.Second, "the background check verifies the second domain", func() bool {
		for _, e := range s.auditAll(t, tn.Token, tn.WorkspaceID, 50) {
			if e.Action == "domain.verified" && e.Target == fmt.Sprintf("domain:%d", later.ID) {
				return true
			}
		}
		return false
	})
	heir := s.joinedByAPI(t, tn, "audit-heir@example.com", "admin")
	if r := s.do("POST", ws+"/transfer", tn.Token, map[string]any{"user_id": heir.UserID}); r.Status != http.StatusOK {
		t.Fatalf("transfer: %d %s", r.Status, r.Body)
	}
	// An invitation taken up by signing up through its link.
	invID, token := s.invitationLink(t, tn, "audit-newcomer@example.com", "member")
	r := s.do("POST", "/api/v1/auth/signup", "", map[string]any{"email": "audit-newcomer@example.com", "password": "correct horse battery",
		"invitation": map[string]any{"id": invID, "token": token}})
	newcomer := answer[struct{ User struct{ ID int64 } }](t, r, http.StatusCreated, "signup through the invitation")
	// The former owner is an admin now, and still reads the log.
	events := s.auditAll(t, tn.Token, tn.WorkspaceID, 50)
	found := map[string]auditEventJSON{}
	for _, e := range events {
		found[e.Action+" "+e.Target] = e
	}
	check := func(key, actorType string, actorID int64) {
		t.Helper()
		e, ok := found[key]
		if !ok {
			t.Errorf("no %q event in %+v", key, events)
			return
		}
		if e.Actor.Type != actorType || e.Actor.ID != actorID {
			t.Errorf("%s: actor %+v, want %s %d", key, e.Actor, actorType, actorID)
		}
	}
	check(fmt.Sprintf("plan.trial_started workspace:%d", tn.WorkspaceID), "user", tn.UserID)
	check(fmt.Sprintf("domain.verified domain:%d", mine.ID), "user", tn.UserID)
	check(fmt.Sprintf("domain.verified domain:%d", later.ID), "system", 0)
	check(fmt.Sprintf("workspace.transferred user:%d", heir.UserID), "user", tn.UserID)
	check(fmt.Sprintf("invitation.accepted invitation:%d", invID), "user", newcomer.User.ID)
	if e := found[fmt.Sprintf("domain.verified domain:%d", later.ID)]; e.Actor.Email != "" || e.AddressHash != "" || e.Details["hostname"] != "later.audit-example.com" {
		t.Errorf("background verification: %+v", e)
	}
	// The former owner leaves; the new owner reads that they left.
	if r := s.do("DELETE", fmt.Sprintf("%s/members/%d", ws, tn.UserID), tn.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("leave: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", ws+"/audit", tn.Token, nil); r.Status != http.StatusNotFound {
		t.Errorf("a former member reads the log: %d %s", r.Status, r.Body)
	}
	if e := s.auditAll(t, heir.Token, tn.WorkspaceID, 50)[0]; e.Action != "member.left" || e.Target != fmt.Sprintf("user:%d", tn.UserID) ||
		e.Actor.ID != tn.UserID || e.Actor.Email != "audit-trial@example.com" {
		t.Errorf("leaving: %+v", e)
	}
}

// TestAuditLogLinkManagement: UTM templates, a domain's app-link files, the QR code logo and
// webhooks (made, changed, tested, deleted) are recorded with who did it; changes refused are
// not.
func TestAuditLogLinkManagement(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "WEBHOOK_ALLOW_LOOPBACK", "true")
	owner := s.signupOn("audit-mgmt@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	tpl := answer[struct{ ID int64 }](t, s.do("POST", ws+"/utm-templates", owner.Key, map[string]any{"name": "Mail",
		"utm": map[string]any{"source": "mail"}}), http.StatusCreated, "template")
	if r := s.do("POST", ws+"/utm-templates", owner.Key, map[string]any{"name": "Mail", "utm": map[string]any{"source": "x"}}); r.Status != http.StatusConflict {
		t.Fatalf("taken name: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/utm-templates/%d", ws, tpl.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete template: %d %s", r.Status, r.Body)
	}

	dom := s.addDomain(owner, "apps.audit-example.com")
	ns.set(dom.Verification.Name, dom.Verification.Value)
	if got := s.verifyDomain(owner, dom.ID); !got.Verified {
		t.Fatalf("not verified: %+v", got)
	}
	files := fmt.Sprintf("%s/domains/%d/app-links", ws, dom.ID)
	if r := s.do("PUT", files, owner.Token, map[string]any{"assetlinks": []any{map[string]any{"relation": []string{"x"},
		"target": map[string]any{"namespace": "android_app"}}}}); r.Status != http.StatusOK {
		t.Fatalf("app links: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", files, owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove app links: %d %s", r.Status, r.Body)
	}

	var logo bytes.Buffer
	if err := png.Encode(&logo, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	if r := s.do("PUT", ws+"/logo", owner.Token, logo.Bytes()); r.Status != http.StatusNoContent {
		t.Fatalf("logo: %d %s", r.Status, r.Body)
	}
	if r := s.do("PUT", ws+"/logo", owner.Token, "not a png"); r.Status != http.StatusBadRequest {
		t.Fatalf("bad logo: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", ws+"/logo", owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("remove logo: %d %s", r.Status, r.Body)
	}

	rcv := newHookReceiver(t)
	hook := s.createHook(owner, rcv.url("/hooks"), "link.created")
	rcv.setSecret(hook.Secret)
	if r := s.do("PATCH", fmt.Sprintf("%s/webhooks/%d", ws, hook.ID), owner.Token, map[string]any{"enabled": false, "events": []string{"link.created", "link.deleted"}}); r.Status != http.StatusOK {
		t.Fatalf("patch webhook: %d %s", r.Status, r.Body)
	}
	if d := s.testHook(owner, hook.ID); d.Status != "delivered" {
		t.Fatalf("test delivery: %+v", d)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/webhooks/%d", ws, hook.ID), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete webhook: %d %s", r.Status, r.Body)
	}

	events := s.auditAll(t, owner.Token, owner.WorkspaceID, 50)
	var got []string
	byAction := map[string]auditEventJSON{}
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		got = append(got, e.Action+" "+e.Target)
		byAction[e.Action] = e
	}
	want := []string{
		"api_key.created",
		"plan.changed workspace:" + fmt.Sprint(owner.WorkspaceID),
		fmt.Sprintf("utm_template.created utm_template:%d", tpl.ID),
		fmt.Sprintf("utm_template.deleted utm_template:%d", tpl.ID),
		fmt.Sprintf("domain.added domain:%d", dom.ID),
		fmt.Sprintf("domain.verified domain:%d", dom.ID),
		fmt.Sprintf("domain.app_links_set domain:%d", dom.ID),
		fmt.Sprintf("domain.app_links_removed domain:%d", dom.ID),
		fmt.Sprintf("workspace.logo_set workspace:%d", owner.WorkspaceID),
		fmt.Sprintf("workspace.logo_removed workspace:%d", owner.WorkspaceID),
		fmt.Sprintf("webhook.created webhook:%d", hook.ID),
		fmt.Sprintf("webhook.updated webhook:%d", hook.ID),
		fmt.Sprintf("webhook.tested webhook:%d", hook.ID),
		fmt.Sprintf("webhook.deleted webhook:%d", hook.ID),
	}
	if len(got) != len(want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("event %d: %q, want %q", i, got[i], want[i])
		}
	}
	if e := byAction["utm_template.created"]; e.Actor.Type != "api_key" || e.Details["name"] != "Mail" {
		t.Errorf("template made through a key: %+v", e)
	}
	if e := byAction["utm_template.deleted"]; e.Actor.Type != "user" || e.Actor.Email != "audit-mgmt@example.com" {
		t.Errorf("template deleted by the owner: %+v", e)
	}
	if e := byAction["domain.app_links_set"]; e.Details["assetlinks"] != true || e.Details["apple_app_site_association"] != false {
		t.Errorf("app links: %+v", e)
	}
	if e := byAction["workspace.logo_set"]; e.Details["bytes"] != float64(logo.Len()) {
		t.Errorf("logo: %+v", e)
	}
	if e := byAction["webhook.created"]; e.Details["url"] != rcv.url("/hooks") {
		t.Errorf("webhook created: %+v", e)
	}
	if e := byAction["webhook.updated"]; e.Details["enabled"] != false || e.Details["url"] != nil || fmt.Sprint(e.Details["events"]) != "[link.created link.deleted]" {
		t.Errorf("webhook changed: %+v", e)
	}
	if e := byAction["webhook.tested"]; e.Details["status"] != "delivered" || e.Details["response_code"] != float64(200) {
		t.Errorf("webhook tested: %+v", e)
	}
	for _, e := range events {
		if e.Details["secret"] != nil || strings.Contains(fmt.Sprint(e.Details), hook.Secret) {
			t.Errorf("%s keeps the webhook's secret: %v", e.Action, e.Details)
		}
	}
}
