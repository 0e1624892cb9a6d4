package e2e

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"
)

type bulkResultJSON struct {
	ID   int64 `json:"id"`
	Link *struct {
		ID        int64      `json:"id"`
		Status    string     `json:"status"`
		ExpiresAt *time.Time `json:"expires_at"`
		Tags      []string   `json:"tags"`
	} `json:"link"`
	Error *struct {
		Code   string `json:"code"`
		Reason string `json:"reason"`
	} `json:"error"`
}

// TestBulkEdit: one call changes status, expiry and tags of many links, answering each ID in
// input order; IDs of another workspace or of no link answer not_found and are never touched;
// a banned link is never re-enabled; repeated IDs get the same answer; redirects follow at once.
func TestBulkEdit(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	alice, bob := s.signup("alice@example.com"), s.signup("bob@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	var links []linkJSON
	for i := range 4 {
		links = append(links, s.createLink(alice, map[string]any{"url": fmt.Sprintf("https://bulk.example/%d", i)}))
	}
	bobs := s.createLink(bob, map[string]any{"url": "https://bob.example/"})
	bulk := func(cred string, body map[string]any) []bulkResultJSON {
		t.Helper()
		return answer[struct{ Results []bulkResultJSON }](t, s.do("PATCH", ws+"/links", cred, body), http.StatusOK, fmt.Sprint("bulk ", body)).Results
	}
	// The first link redirects, and is in every cache now.
	if r := s.visit("GET", "/"+links[0].Code); r.Status != http.StatusFound {
		t.Fatalf("visit before: %d", r.Status)
	}

	// Disable and tag: rows in input order, the repeated ID answered twice, bob's and an unknown
	// ID not found.
	ids := []int64{links[1].ID, bobs.ID, links[0].ID, 987654321, links[1].ID}
	res := bulk(alice.Key, map[string]any{"ids": ids, "set": map[string]any{"status": "disabled", "tags_add": []string{"Old", "bulk"}}})
	if len(res) != len(ids) {
		t.Fatalf("results: %+v", res)
	}
	for i, r := range res {
		if r.ID != ids[i] {
			t.Errorf("result %d answers %d, want %d", i, r.ID, ids[i])
		}
		switch ids[i] {
		case links[0].ID, links[1].ID:
			if r.Link == nil || r.Error != nil || r.Link.ID != ids[i] || r.Link.Status != "disabled" || !slices.Equal(r.Link.Tags, []string{"bulk", "Old"}) {
				t.Errorf("result %d: %+v", i, r)
			}
		default:
			if r.Link != nil || r.Error == nil || r.Error.Code != "not_found" || r.Error.Reason != "link_not_found" {
				t.Errorf("result %d (another's or none): %+v %+v", i, r.Link, r.Error)
			}
		}
	}
	if got := s.linkTags(bob.Key, bob.WorkspaceID, bobs.ID); got.Status != "active" || len(got.Tags) != 0 {
		t.Fatalf("bob's link was touched: %+v", got)
	}
	if got := tagNames(s.tagsOf(bob.Key, bob.WorkspaceID)); len(got) != 0 {
		t.Fatalf("bob got tags: %v", got)
	}
	if got := s.linkTags(alice.Key, alice.WorkspaceID, links[2].ID); got.Status != "active" || len(got.Tags) != 0 {
		t.Fatalf("a link not named was touched: %+v", got)
	}
	// The caches follow: the disabled link no longer redirects.
	eventually(t, 3*time.Second, "the disabled link stops redirecting", func() bool {
		return s.visit("GET", "/"+links[0].Code).Status != http.StatusFound
	})

	// Expiry set and cleared, tags taken off (an unknown name is ignored), re-enabled.
	later := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	res = bulk(alice.Key, map[string]any{"ids": []int64{links[0].ID}, "set": map[string]any{"expires_at": later, "tags_remove": []string{"OLD", "never made"}, "status": "active"}})
	if r := res[0]; r.Link == nil || r.Link.ExpiresAt == nil || !r.Link.ExpiresAt.Equal(later) || !slices.Equal(r.Link.Tags, []string{"bulk"}) || r.Link.Status != "active" {
		t.Fatalf("expiry and removal: %+v", r)
	}
	if got := tagNames(s.tagsOf(alice.Key, alice.WorkspaceID)); !slices.Equal(got, []string{"bulk", "Old"}) {
		t.Fatalf("a removal made a tag: %v", got)
	}
	res = bulk(alice.Key, map[string]any{"ids": []int64{links[0].ID}, "set": map[string]any{"expires_at": nil}})
	if r := res[0]; r.Link == nil || r.Link.ExpiresAt != nil {
		t.Fatalf("expiry cleared: %+v", r)
	}
	eventually(t, 3*time.Second, "the re-enabled link redirects", func() bool {
		return s.visit("GET", "/"+links[0].Code).Status == http.StatusFound
	})

	// A banned link: a status is refused for it (and nothing else of that row changes), the
	// other rows go on; tags alone may change.
	conn := d.conn(t)
	if _, err := conn.Exec(context.Background(), `UPDATE links SET status = 'banned' WHERE id = $1`, links[3].ID); err != nil {
		t.Fatal(err)
	}
	res = bulk(alice.Key, map[string]any{"ids": []int64{links[3].ID, links[2].ID}, "set": map[string]any{"status": "active", "tags_add": []string{"x"}}})
	if r := res[0]; r.Link != nil || r.Error == nil || r.Error.Code != "forbidden" || r.Error.Reason != "link_banned" {
		t.Fatalf("banned row: %+v %+v", r.Link, r.Error)
	}
	if r := res[1]; r.Link == nil || r.Link.Status != "active" || !slices.Equal(r.Link.Tags, []string{"x"}) {
		t.Fatalf("row beside the banned one: %+v", r)
	}
	if got := s.linkTags(alice.Key, alice.WorkspaceID, links[3].ID); got.Status != "banned" || len(got.Tags) != 0 {
		t.Fatalf("the banned link changed: %+v", got)
	}
	res = bulk(alice.Key, map[string]any{"ids": []int64{links[3].ID}, "set": map[string]any{"tags_add": []string{"x"}}})
	if r := res[0]; r.Link == nil || r.Link.Status != "banned" || !slices.Equal(r.Link.Tags, []string{"x"}) {
		t.Fatalf("tags of a banned link: %+v", r)
	}

	// A link that would carry more than 20 tags is refused alone.
	r := s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, links[2].ID), alice.Key, map[string]any{"tags": manyTags(20)})
	if r.Status != http.StatusOK {
		t.Fatalf("20 tags: %d %s", r.Status, r.Body)
	}
	res = bulk(alice.Key, map[string]any{"ids": []int64{links[2].ID, links[1].ID}, "set": map[string]any{"tags_add": []string{"one more"}}})
	if r := res[0]; r.Error == nil || r.Error.Reason != "tags_too_many" {
		t.Fatalf("21st tag: %+v %+v", r.Link, r.Error)
	}
	if r := res[1]; r.Link == nil || !slices.Contains(r.Link.Tags, "one more") {
		t.Fatalf("row beside the full one: %+v", r)
	}
	// Swapping one tag for another on a full link fits.
	res = bulk(alice.Key, map[string]any{"ids": []int64{links[2].ID}, "set": map[string]any{"tags_add": []string{"one more"}, "tags_remove": []string{"tag0"}}})
	if r := res[0]; r.Link == nil || len(r.Link.Tags) != 20 || !slices.Contains(r.Link.Tags, "one more") {
		t.Fatalf("swap on a full link: %+v %+v", r.Link, r.Error)
	}

	// Limits: 1,000 IDs in one call; 1,001 refused.
	thousand := make([]int64, 1000)
	for i := range thousand {
		thousand[i] = links[i%4].ID
	}
	start := time.Now()
	res = bulk(alice.Key, map[string]any{"ids": thousand, "set": map[string]any{"tags_add": []string{"k"}}})
	t.Logf("bulk edit of 1,000 IDs (4 links): %v", time.Since(start))
	if len(res) != 1000 || res[999].Link == nil {
		t.Fatalf("1,000 IDs: %d results, last %+v", len(res), res[len(res)-1])
	}
	if r := s.do("PATCH", ws+"/links", alice.Key, map[string]any{"ids": manyIDs(1001), "set": map[string]any{"status": "disabled"}}); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Fatalf("1,001 IDs: %d %s", r.Status, r.Body)
	}

	// 1,000 distinct links in one call: every row changed, in order, and every cache told.
	s.setPlan(alice, "enterprise")
	var rows []any
	for i := range 1000 {
		rows = append(rows, map[string]any{"url": fmt.Sprintf("https://bulk.example/many/%d", i)})
	}
	made := answer[struct{ Results []struct{ Link *linkJSON } }](t, s.do("POST", ws+"/links/batch", alice.Key, map[string]any{"links": rows}), http.StatusOK, "batch of 1,000").Results
	many := make([]int64, len(made))
	for i, m := range made {
		if m.Link == nil {
			t.Fatalf("batch row %d failed", i)
		}
		many[i] = m.Link.ID
	}
	slices.Reverse(many) // any order: the answer follows it
	start = time.Now()
	res = bulk(alice.Key, map[string]any{"ids": many, "set": map[string]any{"status": "disabled", "expires_at": later, "tags_add": []string{"many", "more"}}})
	t.Logf("bulk edit of 1,000 distinct links (status, expiry, two tags): %v", time.Since(start))
	for i, r := range res {
		if r.ID != many[i] || r.Link == nil || r.Link.ID != many[i] || r.Link.Status != "disabled" || !slices.Equal(r.Link.Tags, []string{"many", "more"}) {
			t.Fatalf("row %d: %+v", i, r)
		}
	}
	last := made[0].Link.Code
	eventually(t, 3*time.Second, "a link of the thousand stops redirecting", func() bool {
		return s.visit("GET", "/"+last).Status != http.StatusFound
	})

	// Bob cannot edit alice's links through his own workspace or hers.
	r = s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links", bob.WorkspaceID), bob.Key, map[string]any{"ids": []int64{links[0].ID}, "set": map[string]any{"status": "disabled"}})
	if res := answer[struct{ Results []bulkResultJSON }](t, r, http.StatusOK, "bob's bulk").Results; res[0].Error == nil || res[0].Error.Code != "not_found" {
		t.Fatalf("bob's bulk of alice's link: %s", r.Body)
	}
	if r := s.do("PATCH", ws+"/links", bob.Key, map[string]any{"ids": []int64{links[0].ID}, "set": map[string]any{"status": "disabled"}}); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound {
		t.Fatalf("bob in alice's workspace: %d %s", r.Status, r.Body)
	}
	if got := s.linkTags(alice.Key, alice.WorkspaceID, links[0].ID); got.Status != "active" {
		t.Fatalf("alice's link after bob: %+v", got)
	}
}
