package e2e

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// archivedLinkJSON is a link answer's archive fields.
type archivedLinkJSON struct {
	ID         int64   `json:"id"`
	Archived   bool    `json:"archived"`
	ArchivedAt *string `json:"archived_at"`
}

// listedIDs lists the workspace's links with query and returns their IDs.
func (s *server) listedIDs(t *testing.T, tn tenant, query string) []int64 {
	t.Helper()
	page := answer[struct{ Links []archivedLinkJSON }](t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?%s", tn.WorkspaceID, query), tn.Key, nil),
		http.StatusOK, "list "+query)
	var ids []int64
	for _, l := range page.Links {
		ids = append(ids, l.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestLinkArchive: archiving on create, edit and bulk edit hides a link from the default list
// and shows it with archived=true or all, while it keeps redirecting; bad values are 400 in
// the error shape, a viewer cannot archive, and another workspace cannot reach the link.
func TestLinkArchive(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("archive@example.com")
	other := s.signup("archive-other@example.com")
	viewer := s.joined(owner, "archive-viewer@example.com", "viewer")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	kept := s.createLink(owner, map[string]any{"url": "https://archive.example/kept"})
	old := s.createLink(owner, map[string]any{"url": "https://archive.example/old"})
	born := answer[archivedLinkJSON](t, s.do("POST", ws+"/links", owner.Key, map[string]any{"url": "https://archive.example/born", "archived": true}),
		http.StatusCreated, "create archived")
	if !born.Archived || born.ArchivedAt == nil {
		t.Fatalf("created archived: %+v", born)
	}
	fresh := answer[archivedLinkJSON](t, s.do("GET", fmt.Sprintf("%s/links/%d", ws, kept.ID), owner.Key, nil), http.StatusOK, "get")
	if fresh.Archived || fresh.ArchivedAt != nil {
		t.Fatalf("a new link is archived: %+v", fresh)
	}

	got := answer[archivedLinkJSON](t, s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, old.ID), owner.Key, map[string]any{"archived": true}),
		http.StatusOK, "archive")
	if !got.Archived || got.ArchivedAt == nil {
		t.Fatalf("archived: %+v", got)
	}
	for query, want := range map[string][]int64{
		"":                           {kept.ID},
		"archived=false":             {kept.ID},
		"archived=true":              {old.ID, born.ID},
		"archived=all":               {kept.ID, old.ID, born.ID},
		"archived=true&sort=-visits": {old.ID, born.ID},
		"archived=true&q=old":        {old.ID},
	} {
		slices.Sort(want)
		if ids := s.listedIDs(t, owner, query); !slices.Equal(ids, want) {
			t.Errorf("list %q: %v, want %v", query, ids, want)
		}
	}
	// Still redirecting.
	if r := s.visit("GET", "/"+old.Code); r.Status != http.StatusFound || r.Header.Get("Location") != "https://archive.example/old" {
		t.Fatalf("archived link's visit: %d %s", r.Status, r.Header.Get("Location"))
	}

	// Bulk edit brings both back.
	r := s.do("PATCH", ws+"/links", owner.Key, map[string]any{"ids": []int64{old.ID, born.ID}, "set": map[string]any{"archived": false}})
	bulk := answer[struct {
		Results []struct {
			Link *archivedLinkJSON `json:"link"`
		} `json:"results"`
	}](t, r, http.StatusOK, "bulk unarchive")
	for _, row := range bulk.Results {
		if row.Link == nil || row.Link.Archived {
			t.Fatalf("bulk unarchive: %s", r.Body)
		}
	}
	if ids := s.listedIDs(t, owner, ""); len(ids) != 3 {
		t.Fatalf("after the bulk edit the list holds %v", ids)
	}

	// Bad input: a clear 400 in the error shape.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", ws + "/links?archived=maybe", nil},
		{"PATCH", fmt.Sprintf("%s/links/%d", ws, old.ID), map[string]any{"archived": "yes"}},
		{"PATCH", ws + "/links", map[string]any{"ids": []int64{old.ID}, "set": map[string]any{"archived": 1}}},
		{"POST", ws + "/links", map[string]any{"url": "https://archive.example/x", "archived": "true"}},
	} {
		r := s.do(c.method, c.path, owner.Key, c.body)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s %s %v: %d %s, want 400", c.method, c.path, c.body, r.Status, r.Body)
			continue
		}
		if d := r.errorDetail(t); d.Code != "invalid" {
			t.Errorf("%s %s: %+v", c.method, c.path, d)
		}
	}

	// A viewer cannot archive; another workspace does not find the link.
	if r := s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, kept.ID), viewer.Token, map[string]any{"archived": true}); r.Status != http.StatusForbidden {
		t.Fatalf("viewer archives: %d %s", r.Status, r.Body)
	}
	if r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, kept.ID), other.Key, map[string]any{"archived": true}); r.Status != http.StatusNotFound {
		t.Fatalf("another workspace archives: %d %s", r.Status, r.Body)
	}
	if r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links", other.WorkspaceID), other.Key,
		map[string]any{"ids": []int64{kept.ID}, "set": map[string]any{"archived": true}}); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "link_not_found") {
		t.Fatalf("another workspace's bulk archive: %d %s", r.Status, r.Body)
	}
	if ids := s.listedIDs(t, owner, "archived=true"); len(ids) != 0 {
		t.Fatalf("refused archives archived %v", ids)
	}
}

// TestLinkDuplicate: a duplicate is a new link with a new code and the source's settings; bad
// IDs, viewers, other workspaces and banned links are refused.
func TestLinkDuplicate(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signupOn("duplicate@example.com", "enterprise")
	other := s.signup("duplicate-other@example.com")
	viewer := s.joined(owner, "duplicate-viewer@example.com", "viewer")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	src := s.createLink(owner, map[string]any{"url": "https://dup.example/landing", "title": "Summer", "tags": []string{"Promo", "q3"},
		"utm": map[string]string{"source": "mail", "campaign": "summer"}, "redirect_status": 301, "forward_query": true,
		"max_visits": 50, "og": map[string]any{"title": "Summer sale", "description": "Half off"}, "password": "open sesame"})
	type dupJSON struct {
		ID             int64             `json:"id"`
		Code           string            `json:"code"`
		URL            string            `json:"url"`
		Title          string            `json:"title"`
		Tags           []string          `json:"tags"`
		UTM            map[string]string `json:"utm"`
		RedirectStatus int               `json:"redirect_status"`
		ForwardQuery   bool              `json:"forward_query"`
		MaxVisits      *int64            `json:"max_visits"`
		OG             map[string]any    `json:"og"`
		HasPassword    bool              `json:"has_password"`
		Archived       bool              `json:"archived"`
		Visits         *int64            `json:"visits"`
	}
	want := answer[dupJSON](t, s.do("GET", fmt.Sprintf("%s/links/%d", ws, src.ID), owner.Key, nil), http.StatusOK, "source")
	got := answer[dupJSON](t, s.do("POST", fmt.Sprintf("%s/links/%d/duplicate", ws, src.ID), owner.Key, nil), http.StatusCreated, "duplicate")
	if got.ID == src.ID || got.Code == src.Code || got.Code == "" {
		t.Fatalf("the duplicate is no new link: %+v", got)
	}
	want.ID, want.Code = got.ID, got.Code
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("duplicate %+v, want the source's settings %+v", got, want)
	}
	// The copy redirects, behind the same password.
	if r := s.visitor("192.0.2.7", uaDesktop).get("/" + got.Code); r.Status != http.StatusOK || !strings.Contains(strings.ToLower(string(r.Body)), "password") {
		t.Fatalf("the duplicate's visit: %d %.200s", r.Status, r.Body)
	}

	for _, c := range []struct {
		name, path, token string
		status            int
	}{
		{"no such link", fmt.Sprintf("%s/links/999999999/duplicate", ws), owner.Key, http.StatusNotFound},
		{"not an ID", ws + "/links/abc/duplicate", owner.Key, http.StatusNotFound},
		{"viewer", fmt.Sprintf("%s/links/%d/duplicate", ws, src.ID), viewer.Token, http.StatusForbidden},
		{"another workspace", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/duplicate", other.WorkspaceID, src.ID), other.Key, http.StatusNotFound},
		{"another workspace's member", fmt.Sprintf("%s/links/%d/duplicate", ws, src.ID), other.Token, http.StatusNotFound},
	} {
		r := s.do("POST", c.path, c.token, nil)
		if r.Status != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.status)
			continue
		}
		r.errorDetail(t)
	}

	bad := s.createLink(owner, map[string]any{"url": "https://dup.example/bad"})
	if r := s.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", bad.ID), s.operatorToken(), map[string]any{"action": "ban", "reason": "spam"}); r.Status != http.StatusOK {
		t.Fatalf("ban: %d %s", r.Status, r.Body)
	}
	r := s.do("POST", fmt.Sprintf("%s/links/%d/duplicate", ws, bad.ID), owner.Key, nil)
	if r.Status != http.StatusForbidden || r.errorDetail(t).Reason != "link_banned" {
		t.Fatalf("duplicate a banned link: %d %s", r.Status, r.Body)
	}
}

// shareJSON is a share as its link's owners see it.
type shareJSON struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	LinkID int64  `json:"link_id"`
}

// TestLinkShare: a share's page and its public JSON show the link's statistics to anyone
// holding the address, and nothing else of the link; revoking it, deleting or banning the link
// make it 404. Viewers cannot share, another workspace cannot share, list or revoke, a plan
// without the dashboard cannot share, and both actions are audited.
func TestLinkShare(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signupOn("share@example.com", "enterprise")
	other := s.signupOn("share-other@example.com", "enterprise")
	free := s.signup("share-free@example.com")
	viewer := s.joined(owner, "share-viewer@example.com", "viewer")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)

	l := s.createLink(owner, map[string]any{"url": "https://share.example/secret/path?token=abc", "title": "Private title"})
	if status, _ := s.sendHit(l.Code, hit{from: "192.0.2.8", ua: uaDesktop, referer: "https://news.example/post"}); status != http.StatusFound {
		t.Fatalf("visit: %d", status)
	}
	sharePath := fmt.Sprintf("%s/links/%d/share", ws, l.ID)
	sh := answer[shareJSON](t, s.do("POST", sharePath, owner.Token, nil), http.StatusCreated, "share")
	if len(sh.ID) != 22 || sh.URL != strings.TrimSuffix(l.ShortURL, l.Code)+"share/"+sh.ID || sh.LinkID != l.ID {
		t.Fatalf("share: %+v", sh)
	}
	second := answer[shareJSON](t, s.do("POST", sharePath, owner.Key, nil), http.StatusCreated, "second share")
	if second.ID == sh.ID {
		t.Fatal("two shares, one ID")
	}
	list := answer[struct{ Shares []shareJSON }](t, s.do("GET", sharePath, viewer.Token, nil), http.StatusOK, "viewer lists")
	if len(list.Shares) != 2 || list.Shares[0].ID != sh.ID {
		t.Fatalf("shares: %+v", list)
	}

	public := "/api/v1/share/" + sh.ID + "/stats"
	eventually(t, 30*time.Second, "the visit in the shared statistics", func() bool {
		var st struct{ Visits int64 }
		r := s.do("GET", public, "", nil)
		if r.Status != http.StatusOK {
			t.Fatalf("public stats: %d %s", r.Status, r.Body)
		}
		r.json(t, &st)
		return st.Visits == 1
	})
	r := s.do("GET", public+"?tz=Asia/Shanghai", "", nil)
	var st map[string]any
	r.json(t, &st)
	if st["short_url"] != l.ShortURL || st["destination_host"] != "share.example" || st["tz"] != "Asia/Shanghai" {
		t.Fatalf("public stats: %s", r.Body)
	}
	for _, secret := range []string{"secret", "token", "Private", "link_id", "workspace", `"id":`} {
		if strings.Contains(string(r.Body), secret) {
			t.Errorf("the public answer shows %q: %s", secret, r.Body)
		}
	}
	if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
		t.Errorf("public stats Cache-Control %q", cc)
	}
	if page := s.do("GET", "/share/"+sh.ID, "", nil); page.Status != http.StatusOK || !strings.Contains(string(page.Body), "<html") {
		t.Fatalf("the share's page: %d %.100s", page.Status, page.Body)
	}

	// Bad input and other workspaces.
	for _, c := range []struct {
		name, method, path, token string
		status                    int
	}{
		{"unknown share", "GET", "/api/v1/share/AAAAAAAAAAAAAAAAAAAAAA/stats", "", http.StatusNotFound},
		{"malformed share", "GET", "/api/v1/share/nope/stats", "", http.StatusNotFound},
		{"bad zone", "GET", public + "?tz=Mars/Olympus", "", http.StatusBadRequest},
		{"bad range", "GET", public + "?from=yesterday", "", http.StatusBadRequest},
		{"share a missing link", "POST", ws + "/links/999999999/share", owner.Key, http.StatusNotFound},
		{"viewer shares", "POST", sharePath, viewer.Token, http.StatusForbidden},
		{"viewer revokes", "DELETE", sharePath + "/" + sh.ID, viewer.Token, http.StatusForbidden},
		{"other shares", "POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/share", other.WorkspaceID, l.ID), other.Key, http.StatusNotFound},
		{"other lists", "GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/share", other.WorkspaceID, l.ID), other.Key, http.StatusNotFound},
		{"other revokes", "DELETE", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/share/%s", other.WorkspaceID, l.ID, sh.ID), other.Key, http.StatusNotFound},
		{"other revokes here", "DELETE", sharePath + "/" + sh.ID, other.Token, http.StatusNotFound},
		{"malformed revoke", "DELETE", sharePath + "/nope", owner.Key, http.StatusNotFound},
	} {
		r := s.do(c.method, c.path, c.token, nil)
		if r.Status != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.status)
			continue
		}
		r.errorDetail(t)
	}
	// The other workspace's share of its own link does not reach this one's.
	otherLink := s.createLink(other, map[string]any{"url": "https://share.example/other"})
	if r := s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/share/%s", other.WorkspaceID, otherLink.ID, sh.ID), other.Key, nil); r.Status != http.StatusNotFound {
		t.Fatalf("revoke through another link: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", public, "", nil); r.Status != http.StatusOK {
		t.Fatalf("after the refused revokes: %d %s", r.Status, r.Body)
	}

	// A plan without the dashboard does not share.
	freeLink := s.createLink(free, map[string]any{"url": "https://share.example/free"})
	r = s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/share", free.WorkspaceID, freeLink.ID), free.Key, nil)
	if r.Status != http.StatusForbidden || r.errorDetail(t).Code != "plan_required" {
		t.Fatalf("free plan shares: %d %s", r.Status, r.Body)
	}

	// Revoked: 404 on the route and the revoke again; the other share still answers.
	if r := s.do("DELETE", sharePath+"/"+sh.ID, owner.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", public, "", nil); r.Status != http.StatusNotFound || r.errorDetail(t).Reason != "share_not_found" {
		t.Fatalf("revoked share: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", sharePath+"/"+sh.ID, owner.Key, nil); r.Status != http.StatusNotFound {
		t.Fatalf("revoke twice: %d %s", r.Status, r.Body)
	}
	secondPublic := "/api/v1/share/" + second.ID + "/stats"
	if r := s.do("GET", secondPublic, "", nil); r.Status != http.StatusOK {
		t.Fatalf("the other share: %d %s", r.Status, r.Body)
	}

	// Banned: 404, and back after the ban is lifted; deleted: 404.
	op := s.operatorToken()
	for _, c := range []struct {
		action string
		status int
	}{{"ban", http.StatusNotFound}, {"unban", http.StatusOK}} {
		if r := s.do("POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", l.ID), op, map[string]any{"action": c.action, "reason": "spam"}); r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.action, r.Status, r.Body)
		}
		if r := s.do("GET", secondPublic, "", nil); r.Status != c.status {
			t.Fatalf("share after %s: %d %s, want %d", c.action, r.Status, r.Body, c.status)
		}
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/links/%d", ws, l.ID), owner.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d", r.Status)
	}
	if r := s.do("GET", secondPublic, "", nil); r.Status != http.StatusNotFound {
		t.Fatalf("deleted link's share: %d %s", r.Status, r.Body)
	}

	var shared, revoked int
	for _, e := range s.auditAll(t, owner.Token, owner.WorkspaceID, 100) {
		if e.Target != fmt.Sprintf("link:%d", l.ID) {
			continue
		}
		switch e.Action {
		case "link.shared":
			shared++
		case "link.share_revoked":
			revoked++
			if e.Details["share"] != sh.ID[:6] {
				t.Errorf("revoke audited with %v", e.Details)
			}
		}
	}
	if shared != 2 || revoked != 1 {
		t.Fatalf("audited %d shares and %d revokes", shared, revoked)
	}
}

// TestTagLinkCount: the tags listing says how many links carry each tag, and only the
// workspace's own links count.
func TestTagLinkCount(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signup("tagcount@example.com")
	other := s.signup("tagcount-other@example.com")
	s.createLink(tn, map[string]any{"url": "https://count.example/a", "tags": []string{"Promo", "Q3"}})
	s.createLink(tn, map[string]any{"url": "https://count.example/b", "tags": []string{"promo"}})
	s.createLink(other, map[string]any{"url": "https://count.example/c", "tags": []string{"Promo"}})
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	if r := s.do("POST", ws+"/tags", tn.Key, map[string]any{"name": "unused"}); r.Status != http.StatusCreated {
		t.Fatalf("create tag: %d %s", r.Status, r.Body)
	}
	list := answer[struct {
		Tags []struct {
			Name      string `json:"name"`
			LinkCount *int64 `json:"link_count"`
		} `json:"tags"`
	}](t, s.do("GET", ws+"/tags", tn.Key, nil), http.StatusOK, "tags")
	got := map[string]int64{}
	for _, tg := range list.Tags {
		if tg.LinkCount == nil {
			t.Fatalf("tag %s without link_count", tg.Name)
		}
		got[tg.Name] = *tg.LinkCount
	}
	if want := map[string]int64{"Promo": 2, "Q3": 1, "unused": 0}; !reflect.DeepEqual(got, want) {
		t.Fatalf("counts %v, want %v", got, want)
	}
}
