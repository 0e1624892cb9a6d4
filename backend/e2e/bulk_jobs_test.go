package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// bulkJobJSON is a bulk job answer.
type bulkJobJSON struct {
	ID              int64  `json:"id"`
	State           string `json:"state"`
	Total           int64  `json:"total"`
	Done            int64  `json:"done"`
	Failed          int64  `json:"failed"`
	Changed         int64  `json:"changed"`
	Delete          bool   `json:"delete"`
	CancelRequested bool   `json:"cancel_requested"`
}

// submitBulkJob posts a bulk job in tn's workspace and answers it as accepted.
func (s *server) submitBulkJob(tn tenant, body map[string]any) bulkJobJSON {
	s.t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/bulk-jobs", tn.WorkspaceID), tn.Key, body)
	j := answer[bulkJobJSON](s.t, r, http.StatusAccepted, fmt.Sprint("submit ", body))
	if r.Header.Get("Location") != fmt.Sprintf("/api/v1/workspaces/%d/links/bulk-jobs/%d", tn.WorkspaceID, j.ID) {
		s.t.Errorf("Location %q", r.Header.Get("Location"))
	}
	return j
}

// waitBulkJob polls the job until it has ended.
func (s *server) waitBulkJob(tn tenant, id int64) bulkJobJSON {
	s.t.Helper()
	var j bulkJobJSON
	eventually(s.t, 30*time.Second, fmt.Sprintf("bulk job %d ends", id), func() bool {
		r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/bulk-jobs/%d", tn.WorkspaceID, id), tn.Key, nil)
		j = answer[bulkJobJSON](s.t, r, http.StatusOK, "get bulk job")
		return j.State == "done" || j.State == "failed" || j.State == "canceled"
	})
	return j
}

// TestBulkJobs: each action over a filter touches exactly the links of the workspace the filter
// matched when the job was submitted (not another workspace's, not one made afterwards), reports
// its counts, reaches the redirect path (a deleted or disabled link stops redirecting), and is
// recorded once in the audit log; bad requests answer 400 with their reason, viewers and keys
// without links:write 403, another workspace's job 404.
//
//nolint:gocyclo // one scenario, step by step
func TestBulkJobs(t *testing.T) {
	s := newDeployment(t).start(t)
	alice, bob := s.signupOn("bulkjobs@example.com", "enterprise"), s.signup("bulkjobs-bob@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	mk := func(tn tenant, n int, tags ...string) []linkJSON {
		var out []linkJSON
		body := map[string]any{"url": "https://bulkjobs.example/" + strings.Join(tags, "-")}
		if len(tags) > 0 {
			body["tags"] = tags
		}
		for range n {
			out = append(out, s.createLink(tn, body))
		}
		return out
	}
	promo, plain := mk(alice, 6, "promo"), mk(alice, 3)
	bobs := mk(bob, 2, "promo")
	status := func(tn tenant, l linkJSON) taggedJSON { return s.linkTags(tn.Key, tn.WorkspaceID, l.ID) }

	// Disable by tag: every promo link of Alice's, none of Bob's, none untagged.
	if r := s.visit("GET", "/"+promo[0].Code); r.Status != http.StatusFound {
		t.Fatalf("visit before: %d", r.Status)
	}
	j := s.submitBulkJob(alice, map[string]any{"filter": map[string]any{"tag": []string{"PROMO"}}, "set": map[string]any{"status": "disabled"}})
	if j.State != "queued" || j.Delete {
		t.Fatalf("submitted: %+v", j)
	}
	if j = s.waitBulkJob(alice, j.ID); j.State != "done" || j.Total != 6 || j.Done != 6 || j.Changed != 6 || j.Failed != 0 {
		t.Fatalf("disable: %+v", j)
	}
	for _, l := range promo {
		if got := status(alice, l); got.Status != "disabled" {
			t.Errorf("promo link %d: %s", l.ID, got.Status)
		}
	}
	for _, l := range plain {
		if got := status(alice, l); got.Status != "active" {
			t.Errorf("untagged link %d: %s", l.ID, got.Status)
		}
	}
	for _, l := range bobs {
		if got := status(bob, l); got.Status != "active" {
			t.Errorf("bob's link %d: %s", l.ID, got.Status)
		}
	}
	eventually(t, 3*time.Second, "the disabled link stops redirecting", func() bool {
		return s.visit("GET", "/"+promo[0].Code).Status != http.StatusFound
	})

	// Enable by status, add and remove tags by status: a filter of the list's own fields.
	j = s.waitBulkJob(alice, s.submitBulkJob(alice, map[string]any{"filter": map[string]any{"status": "disabled"}, "set": map[string]any{"status": "active"}}).ID)
	if j.Total != 6 || j.Changed != 6 {
		t.Fatalf("enable: %+v", j)
	}
	j = s.waitBulkJob(alice, s.submitBulkJob(alice, map[string]any{"filter": map[string]any{"tag": []string{"promo"}, "q": "bulkjobs.example"},
		"set": map[string]any{"tags_add": []string{"spring"}, "tags_remove": []string{"promo"}}}).ID)
	if j.Total != 6 || j.Changed != 6 {
		t.Fatalf("swap tags: %+v", j)
	}
	for _, l := range promo {
		if got := status(alice, l); !slices.Equal(got.Tags, []string{"spring"}) || got.Status != "active" {
			t.Errorf("link %d after the swap: %+v", l.ID, got)
		}
	}
	if got := status(bob, bobs[0]); !slices.Equal(got.Tags, []string{"promo"}) {
		t.Errorf("bob's tags: %v", got.Tags)
	}

	// Archive, then unarchive (archived links are matched only when the filter says so).
	j = s.waitBulkJob(alice, s.submitBulkJob(alice, map[string]any{"filter": map[string]any{"tag": []string{"spring"}}, "set": map[string]any{"archived": true}}).ID)
	if j.Changed != 6 {
		t.Fatalf("archive: %+v", j)
	}
	if j = s.waitBulkJob(alice, s.submitBulkJob(alice, map[string]any{"filter": map[string]any{"tag": []string{"spring"}}, "set": map[string]any{"archived": false}}).ID); j.Total != 0 {
		t.Fatalf("unarchive without archived=true matched %+v", j)
	}
	if got := archivedCount(t, s, alice, "archived=true"); got != 6 {
		t.Fatalf("%d archived", got)
	}
	j = s.waitBulkJob(alice, s.submitBulkJob(alice, map[string]any{"filter": map[string]any{"tag": []string{"spring"}, "archived": "true"}, "set": map[string]any{"archived": false}}).ID)
	if j.Changed != 6 || archivedCount(t, s, alice, "archived=true") != 0 {
		t.Fatalf("unarchive: %+v", j)
	}

	// A link made after the submission is never touched, whenever the job starts.
	j = s.submitBulkJob(alice, map[string]any{"filter": map[string]any{"tag": []string{"spring"}}, "delete": true})
	later := mk(alice, 1, "spring")[0]
	if j = s.waitBulkJob(alice, j.ID); j.State != "done" || j.Total != 6 || j.Changed != 6 {
		t.Fatalf("delete: %+v", j)
	}
	for _, l := range promo {
		if r := s.do("GET", fmt.Sprintf("%s/links/%d", ws, l.ID), alice.Key, nil); r.Status != http.StatusNotFound {
			t.Errorf("deleted link %d: %d", l.ID, r.Status)
		}
	}
	if got := status(alice, later); got.Status != "active" || !slices.Equal(got.Tags, []string{"spring"}) {
		t.Errorf("the link made after the submission: %+v", got)
	}
	for _, l := range append(plain, later) {
		if got := status(alice, l); got.ID != l.ID {
			t.Errorf("link %d: %+v", l.ID, got)
		}
	}
	for _, l := range bobs {
		status(bob, l)
	}
	// Deleted links stop redirecting, on the node that ran the job and through every cache.
	eventually(t, 3*time.Second, "the deleted links stop redirecting", func() bool {
		for _, l := range promo {
			if s.visit("GET", "/"+l.Code).Status != http.StatusNotFound {
				return false
			}
		}
		return true
	})
	if r := s.visit("GET", "/"+plain[0].Code); r.Status != http.StatusFound {
		t.Errorf("a link left: %d", r.Status)
	}

	// The list, newest first; one audit event a job, by whoever submitted it.
	list := answer[struct {
		Jobs []bulkJobJSON `json:"jobs"`
	}](t, s.do("GET", ws+"/links/bulk-jobs?limit=100", alice.Key, nil), http.StatusOK, "list")
	if len(list.Jobs) != 7 || list.Jobs[0].ID != j.ID || !list.Jobs[0].Delete {
		t.Fatalf("list: %+v", list.Jobs)
	}
	events := answer[struct {
		Events []struct {
			Action  string         `json:"action"`
			Target  string         `json:"target"`
			Details map[string]any `json:"details"`
		} `json:"events"`
	}](t, s.do("GET", ws+"/audit", alice.Token, nil), http.StatusOK, "audit").Events
	var jobEvents int
	for _, e := range events {
		if e.Action != "links.bulk_job" {
			continue
		}
		jobEvents++
		if e.Target == fmt.Sprintf("bulk_job:%d", j.ID) && (e.Details["action"] != "delete" || e.Details["changed"] != float64(6)) {
			t.Errorf("the deletion's event: %+v", e)
		}
	}
	if jobEvents != 7 {
		t.Errorf("%d audit events for 7 jobs", jobEvents)
	}

	// Bad requests: 400 in the API's error shape, with a reason.
	for _, bad := range []struct {
		body   map[string]any
		reason string
	}{
		{map[string]any{"filter": map[string]any{}}, "bulk_action_required"},
		{map[string]any{"filter": map[string]any{}, "delete": true, "set": map[string]any{"status": "disabled"}}, "bulk_action_required"},
		{map[string]any{"filter": map[string]any{"status": "sleeping"}, "delete": true}, ""},
		{map[string]any{"filter": map[string]any{"health": "meh"}, "delete": true}, ""},
		{map[string]any{"filter": map[string]any{}, "set": map[string]any{}}, ""},
		{map[string]any{"filter": map[string]any{}, "set": map[string]any{"status": "banned"}}, ""},
		{map[string]any{"filter": map[string]any{"domain": "not.hers.example"}, "delete": true}, ""},
		{map[string]any{"action": "explode"}, ""},
	} {
		r := s.do("POST", ws+"/links/bulk-jobs", alice.Key, bad.body)
		var e struct {
			Error struct{ Code, Message, Reason string } `json:"error"`
		}
		r.json(t, &e)
		if r.Status != http.StatusBadRequest || e.Error.Code != "invalid" || e.Error.Message == "" || e.Error.Reason == "" ||
			(bad.reason != "" && e.Error.Reason != bad.reason) {
			t.Errorf("%v: %d %s", bad.body, r.Status, r.Body)
		}
	}

	// Who may: a viewer and a links:read key read jobs but cannot submit one; another
	// workspace's member gets 404, naming the job through her own workspace too.
	viewer := s.joined(alice, "bulkjobs-viewer@example.com", "viewer")
	del := map[string]any{"filter": map[string]any{}, "delete": true}
	if r := s.do("POST", ws+"/links/bulk-jobs", viewer.Token, del); r.Status != http.StatusForbidden || r.errorCode(t) != "forbidden" {
		t.Errorf("viewer submits: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", fmt.Sprintf("%s/links/bulk-jobs/%d", ws, j.ID), viewer.Token, nil); r.Status != http.StatusOK {
		t.Errorf("viewer reads: %d %s", r.Status, r.Body)
	}
	readKey := answer[struct{ Key string }](t, s.do("POST", ws+"/api-keys", alice.Token, map[string]any{"name": "reader", "scopes": []string{"links:read"}}),
		http.StatusCreated, "read key").Key
	if r := s.do("POST", ws+"/links/bulk-jobs", readKey, del); r.Status != http.StatusForbidden {
		t.Errorf("links:read key submits: %d %s", r.Status, r.Body)
	}
	for _, path := range []string{fmt.Sprintf("%s/links/bulk-jobs/%d", ws, j.ID), fmt.Sprintf("/api/v1/workspaces/%d/links/bulk-jobs/%d", bob.WorkspaceID, j.ID)} {
		if r := s.do("GET", path, bob.Key, nil); r.Status != http.StatusNotFound {
			t.Errorf("bob GET %s: %d %s", path, r.Status, r.Body)
		}
		if r := s.do("POST", path+"/cancel", bob.Key, nil); r.Status != http.StatusNotFound {
			t.Errorf("bob cancels %s: %d %s", path, r.Status, r.Body)
		}
	}
	if got := len(plain); got != 3 || status(alice, plain[0]).Status != "active" {
		t.Fatalf("nothing refused changed anything")
	}
	// A job that has ended cannot be canceled.
	if r := s.do("POST", fmt.Sprintf("%s/links/bulk-jobs/%d/cancel", ws, j.ID), alice.Key, nil); r.Status != http.StatusConflict ||
		!strings.Contains(string(r.Body), `"reason":"bulk_job_finished"`) {
		t.Errorf("cancel an ended job: %d %s", r.Status, r.Body)
	}
}

// archivedCount is how many links of tn's workspace the listing with query answers.
func archivedCount(t *testing.T, s *server, tn tenant, query string) int {
	t.Helper()
	page := answer[struct{ Links []archivedLinkJSON }](t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?limit=100&%s", tn.WorkspaceID, query), tn.Key, nil),
		http.StatusOK, "list "+query)
	return len(page.Links)
}
