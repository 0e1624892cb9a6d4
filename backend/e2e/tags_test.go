package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/visit"
)

type tagJSON struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// taggedJSON is a link with its tags as the API shows them.
type taggedJSON struct {
	ID     int64    `json:"id"`
	Code   string   `json:"code"`
	Status string   `json:"status"`
	Tags   []string `json:"tags"`
}

func (s *server) tagsOf(cred string, ws int64) []tagJSON {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/tags", ws), cred, nil)
	return answer[struct{ Tags []tagJSON }](s.t, r, http.StatusOK, "list tags").Tags
}

func (s *server) linkTags(cred string, ws, id int64) taggedJSON {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", ws, id), cred, nil)
	return answer[taggedJSON](s.t, r, http.StatusOK, "get link")
}

func tagNames(tags []tagJSON) []string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.Name
	}
	return out
}

// TestTags: a workspace's tags (names unique whatever their case, colours), tags on links at
// create, batch, edit and import, in every link answer and the links export; the listing's tag
// filter with its pages; renaming and deleting a tag; and no workspace ever seeing or changing
// another's tags.
func TestTags(t *testing.T) {
	s := newDeployment(t).start(t)
	alice, bob := s.signupOn("alice@example.com", "enterprise"), s.signupOn("bob@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	bws := fmt.Sprintf("/api/v1/workspaces/%d", bob.WorkspaceID)

	// Tags: trimmed, colour in lower case, one per name whatever its case.
	promo := answer[tagJSON](t, s.do("POST", ws+"/tags", alice.Key, map[string]any{"name": "  Promo ", "color": "#FF00aa"}), http.StatusCreated, "create tag")
	if promo.Name != "Promo" || promo.Color != "#ff00aa" || promo.ID == 0 {
		t.Fatalf("tag: %+v", promo)
	}
	if r := s.do("POST", ws+"/tags", alice.Key, map[string]any{"name": "PROMO"}); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Fatalf("same name in other case: %d %s", r.Status, r.Body)
	}
	spring := answer[tagJSON](t, s.do("POST", ws+"/tags", alice.Key, map[string]any{"name": "Spring"}), http.StatusCreated, "create tag")
	if !regexp.MustCompile(`^#[0-9a-f]{6}$`).MatchString(spring.Color) {
		t.Fatalf("palette colour: %+v", spring)
	}
	// The same name in another workspace is another tag.
	bobPromo := answer[tagJSON](t, s.do("POST", bws+"/tags", bob.Key, map[string]any{"name": "promo"}), http.StatusCreated, "bob's tag")

	// On create: names in any case find the tag, unknown ones make tags, each once.
	r := s.do("POST", ws+"/links", alice.Key, map[string]any{"url": "https://tags.example/1", "tags": []string{"promo", "New one", " new ONE "}})
	l1 := answer[taggedJSON](t, r, http.StatusCreated, "create tagged link")
	if !slices.Equal(l1.Tags, []string{"New one", "Promo"}) {
		t.Fatalf("created link's tags: %v (%s)", l1.Tags, r.Body)
	}
	if got := tagNames(s.tagsOf(alice.Key, alice.WorkspaceID)); !slices.Equal(got, []string{"New one", "Promo", "Spring"}) {
		t.Fatalf("tags after create: %v", got)
	}
	plain := answer[taggedJSON](t, s.do("POST", ws+"/links", alice.Key, map[string]any{"url": "https://tags.example/plain"}), http.StatusCreated, "plain link")
	if plain.Tags == nil || len(plain.Tags) != 0 {
		t.Fatalf("untagged link's tags: %v", plain.Tags)
	}
	if r := s.do("GET", fmt.Sprintf("%s/links/%d", ws, plain.ID), alice.Key, nil); !strings.Contains(string(r.Body), `"tags":[]`) {
		t.Fatalf("untagged link answers tags []: %s", r.Body)
	}

	// Batch: each row its own tags.
	r = s.do("POST", ws+"/links/batch", alice.Key, map[string]any{"links": []any{
		map[string]any{"url": "https://tags.example/b1", "tags": []string{"Promo", "batch"}},
		map[string]any{"url": "https://tags.example/b2", "tags": []string{"a;b"}},
		map[string]any{"url": "https://tags.example/b3"},
	}})
	batch := answer[struct {
		Results []struct {
			Link  *taggedJSON
			Error *struct{ Code, Reason string }
		}
	}](t, r, http.StatusOK, "batch")
	if b := batch.Results; len(b) != 3 || b[0].Link == nil || !slices.Equal(b[0].Link.Tags, []string{"batch", "Promo"}) ||
		b[1].Error == nil || b[1].Error.Reason != "tag_name_invalid" || b[2].Link == nil || len(b[2].Link.Tags) != 0 {
		t.Fatalf("batch: %s", r.Body)
	}
	b1 := batch.Results[0].Link

	// Edit: the tags are replaced; [] removes them.
	r = s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, plain.ID), alice.Key, map[string]any{"tags": []string{"spring", "Promo"}})
	if got := answer[taggedJSON](t, r, http.StatusOK, "edit tags"); !slices.Equal(got.Tags, []string{"Promo", "Spring"}) {
		t.Fatalf("edited tags: %s", r.Body)
	}
	if got := s.linkTags(alice.Key, alice.WorkspaceID, plain.ID); !slices.Equal(got.Tags, []string{"Promo", "Spring"}) {
		t.Fatalf("read back: %v", got.Tags)
	}
	r = s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, b1.ID), alice.Key, map[string]any{"title": "only the title"})
	if got := answer[taggedJSON](t, r, http.StatusOK, "edit title"); !slices.Equal(got.Tags, []string{"batch", "Promo"}) {
		t.Fatalf("an edit without tags keeps them: %s", r.Body)
	}

	// The listing's filter, in any case, with pages; with other filters; an unknown tag lists none.
	list := func(cred, query string) ([]taggedJSON, string) {
		t.Helper()
		out := answer[struct {
			Links      []taggedJSON
			NextCursor string `json:"next_cursor"`
		}](t, s.do("GET", ws+"/links?"+query, cred, nil), http.StatusOK, "list "+query)
		return out.Links, out.NextCursor
	}
	ids := func(ls []taggedJSON) []int64 {
		out := make([]int64, len(ls))
		for i, l := range ls {
			out[i] = l.ID
		}
		return out
	}
	want := []int64{b1.ID, plain.ID, l1.ID} // newest first
	if got, _ := list(alice.Key, "tag=PROMO"); !slices.Equal(ids(got), want) {
		t.Fatalf("tag=PROMO: %v, want %v", ids(got), want)
	}
	var paged []int64
	for cursor, n := "", 0; n < 5; n++ {
		got, next := list(alice.Key, "tag=promo&limit=2&cursor="+cursor)
		paged = append(paged, ids(got)...)
		if cursor = next; cursor == "" {
			break
		}
	}
	if !slices.Equal(paged, want) {
		t.Fatalf("pages of tag=promo: %v, want %v", paged, want)
	}
	if got, _ := list(alice.Key, "tag=promo&sort=created"); !slices.Equal(ids(got), []int64{l1.ID, plain.ID, b1.ID}) {
		t.Fatalf("tag=promo oldest first: %v", ids(got))
	}
	if got, _ := list(alice.Key, "tag=promo&sort=-visits"); len(got) != 3 {
		t.Fatalf("tag=promo by visits: %v", ids(got))
	}
	if got, _ := list(alice.Key, "tag=promo&q=plain"); !slices.Equal(ids(got), []int64{plain.ID}) {
		t.Fatalf("tag and q: %v", ids(got))
	}
	if got, _ := list(alice.Key, "tag=promo&status=disabled"); len(got) != 0 {
		t.Fatalf("tag and status: %v", ids(got))
	}
	if got, _ := list(alice.Key, "tag=nothing-like-it"); got == nil || len(got) != 0 {
		t.Fatalf("unknown tag: %v", got)
	}

	// Renaming shows on every link; a name taken in another case is refused.
	r = s.do("PATCH", fmt.Sprintf("%s/tags/%d", ws, promo.ID), alice.Key, map[string]any{"name": "Promo 2026", "color": "#00AA00"})
	if got := answer[tagJSON](t, r, http.StatusOK, "rename"); got.Name != "Promo 2026" || got.Color != "#00aa00" {
		t.Fatalf("renamed: %s", r.Body)
	}
	if got := s.linkTags(alice.Key, alice.WorkspaceID, l1.ID); !slices.Equal(got.Tags, []string{"New one", "Promo 2026"}) {
		t.Fatalf("after rename: %v", got.Tags)
	}
	if r := s.do("PATCH", fmt.Sprintf("%s/tags/%d", ws, promo.ID), alice.Key, map[string]any{"name": "SPRING"}); r.Status != http.StatusConflict {
		t.Fatalf("rename onto another tag: %d %s", r.Status, r.Body)
	}

	// Another workspace: sees none of alice's tags, cannot change or delete them, and its own
	// tag of the same name filters its own links only.
	if r := s.do("PATCH", fmt.Sprintf("%s/links/%d", bws, l1.ID), bob.Key, map[string]any{"tags": []string{"sneaky"}}); r.Status != http.StatusNotFound {
		t.Fatalf("bob tags alice's link through his workspace: %d %s", r.Status, r.Body)
	}
	if got := tagNames(s.tagsOf(bob.Key, bob.WorkspaceID)); !slices.Equal(got, []string{"promo"}) {
		t.Fatalf("bob's tags: %v", got)
	}
	for _, c := range []struct{ method, path string }{
		{"PATCH", fmt.Sprintf("%s/tags/%d", bws, promo.ID)},
		{"DELETE", fmt.Sprintf("%s/tags/%d", bws, promo.ID)},
	} {
		if r := s.do(c.method, c.path, bob.Key, map[string]any{"name": "stolen"}); r.Status != http.StatusNotFound {
			t.Fatalf("bob %s alice's tag in his workspace: %d %s", c.method, r.Status, r.Body)
		}
	}
	if r := s.do("GET", ws+"/tags", bob.Key, nil); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound {
		t.Fatalf("bob lists alice's tags: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/tags/%d", ws, promo.ID), bob.Key, nil); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound {
		t.Fatalf("bob deletes in alice's workspace: %d %s", r.Status, r.Body)
	}
	bl := answer[taggedJSON](t, s.do("POST", bws+"/links", bob.Key, map[string]any{"url": "https://bob.example/", "tags": []string{"Promo 2026", "PROMO"}}), http.StatusCreated, "bob's link")
	if !slices.Equal(bl.Tags, []string{"promo", "Promo 2026"}) {
		t.Fatalf("bob's link: %v", bl.Tags)
	}
	if got := answer[struct{ Links []taggedJSON }](t, s.do("GET", bws+"/links?tag=promo", bob.Key, nil), http.StatusOK, "bob's list").Links; !slices.Equal(ids(got), []int64{bl.ID}) {
		t.Fatalf("bob's tag=promo: %v", ids(got))
	}
	if got := s.linkTags(alice.Key, alice.WorkspaceID, l1.ID); !slices.Equal(got.Tags, []string{"New one", "Promo 2026"}) {
		t.Fatalf("alice's link after bob's: %v", got.Tags)
	}
	if got := tagNames(s.tagsOf(alice.Key, alice.WorkspaceID)); !slices.Equal(got, []string{"batch", "New one", "Promo 2026", "Spring"}) {
		t.Fatalf("alice's tags after bob's: %v", got)
	}
	if r := s.do("PATCH", fmt.Sprintf("%s/tags/%d", ws, bobPromo.ID), alice.Key, map[string]any{"name": "x"}); r.Status != http.StatusNotFound {
		t.Fatalf("alice renames bob's tag: %d %s", r.Status, r.Body)
	}

	// Deleting a tag takes it off its links; the links stay.
	if r := s.do("DELETE", fmt.Sprintf("%s/tags/%d", ws, promo.ID), alice.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete tag: %d %s", r.Status, r.Body)
	}
	if got := s.linkTags(alice.Key, alice.WorkspaceID, l1.ID); !slices.Equal(got.Tags, []string{"New one"}) {
		t.Fatalf("after delete: %v", got.Tags)
	}
	if got, _ := list(alice.Key, "tag="+url.QueryEscape("Promo 2026")); len(got) != 0 {
		t.Fatalf("deleted tag still filters: %v", ids(got))
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/tags/%d", ws, promo.ID), alice.Key, nil); r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "tag_not_found") {
		t.Fatalf("delete again: %d %s", r.Status, r.Body)
	}
	if got := s.linkTags(bob.Key, bob.WorkspaceID, bl.ID); !slices.Equal(got.Tags, []string{"promo", "Promo 2026"}) {
		t.Fatalf("bob's link after alice's delete: %v", got.Tags)
	}

	// Too many tags on one link.
	if r := s.do("POST", ws+"/links", alice.Key, map[string]any{"url": "https://tags.example/many", "tags": manyTags(21)}); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "tags_too_many") {
		t.Fatalf("21 tags: %d %s", r.Status, r.Body)
	}

	// Import: a tags column, separated by semicolons; the export writes them back the same way
	// and narrows to a tag.
	im := s.startImport(alice.Key, alice.WorkspaceID, []byte("url,title,tags\nhttps://imported.example/1,One,alpha; Beta\nhttps://imported.example/2,Two,\n"))
	if done := s.waitImport(alice.Key, alice.WorkspaceID, im.ID, 30*time.Second); done.Created != 2 {
		t.Fatalf("import: %+v", done)
	}
	imported, _ := list(alice.Key, "tag=ALPHA")
	if len(imported) != 1 || !slices.Equal(imported[0].Tags, []string{"alpha", "Beta"}) {
		t.Fatalf("imported with tags: %+v", imported)
	}
	rows := readCSV(t, s.do("GET", ws+"/links/export.csv", alice.Key, nil))
	head := index(rows[0])
	col, ok := head["tags"]
	if !ok {
		t.Fatalf("export header: %v", rows[0])
	}
	byID := map[string]string{}
	for _, row := range rows[1:] {
		byID[row[head["id"]]] = row[col]
	}
	if byID[fmt.Sprint(imported[0].ID)] != "alpha;Beta" || byID[fmt.Sprint(l1.ID)] != "New one" || byID[fmt.Sprint(b1.ID)] != "batch" {
		t.Fatalf("export tags: %v", byID)
	}
	rows = readCSV(t, s.do("GET", ws+"/links/export.csv?tag=beta", alice.Key, nil))
	if len(rows) != 2 || rows[1][head["id"]] != fmt.Sprint(imported[0].ID) {
		t.Fatalf("export narrowed to beta: %v", rows)
	}
	if rows = readCSV(t, s.do("GET", ws+"/links/export.csv?tag=none-such", alice.Key, nil)); len(rows) != 1 {
		t.Fatalf("export narrowed to an unknown tag: %v", rows)
	}
}

// TestTagStats: the workspace dashboard and the visits export narrowed to a tag count the
// tagged links only; an unknown tag counts nothing.
func TestTagStats(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	alice := s.signupOn("alice@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	tagged := answer[taggedJSON](t, s.do("POST", ws+"/links", alice.Key, map[string]any{"url": "https://stats.example/t", "tags": []string{"Launch"}}), http.StatusCreated, "tagged")
	other := answer[taggedJSON](t, s.do("POST", ws+"/links", alice.Key, map[string]any{"url": "https://stats.example/o"}), http.StatusCreated, "other")
	at := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	var evs []visit.Event
	for i := range 3 {
		evs = append(evs, visitOf(t, at, alice.WorkspaceID, tagged.ID, fmt.Sprint("t", i)))
	}
	for i := range 5 {
		evs = append(evs, visitOf(t, at, alice.WorkspaceID, other.ID, fmt.Sprint("o", i)))
	}
	storeVisits(t, d, evs...)

	for _, c := range []struct {
		query          string
		visits, links  int64
		top            []int64
		exportedVisits int
	}{
		{"", 8, 2, []int64{other.ID, tagged.ID}, 8},
		{"tag=launch", 3, 1, []int64{tagged.ID}, 3},
		{"tag=" + url.QueryEscape("no such tag"), 0, 0, nil, 0},
	} {
		dash := answer[dashboardJSON](t, s.do("GET", ws+"/stats?tz=UTC&"+c.query, alice.Key, nil), http.StatusOK, "dashboard "+c.query)
		var top []int64
		for _, l := range dash.TopLinks {
			top = append(top, l.ID)
		}
		if dash.Today.Visits != c.visits || dash.Today.Links != c.links || !slices.Equal(top, c.top) {
			t.Errorf("dashboard %q: today %+v, top %v; want %d visits, %d links, top %v", c.query, dash.Today, top, c.visits, c.links, c.top)
		}
		rows := readCSV(t, s.do("GET", ws+"/visits/export.csv?"+c.query, alice.Key, nil))
		if len(rows)-1 != c.exportedVisits {
			t.Errorf("visits export %q: %d rows, want %d", c.query, len(rows)-1, c.exportedVisits)
		}
	}
}
