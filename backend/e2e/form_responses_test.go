package e2e

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
)

// formAnswers records a visitor's answers to a link's form the way the visitor page does:
// the stored link, Form.Check, then RecordFormResponse.
type formAnswers struct {
	t         *testing.T
	links     *postgres.LinkStore
	responses *link.Responses
}

func newFormAnswers(t *testing.T, d *deployment) *formAnswers {
	t.Helper()
	db := d.db(t)
	return &formAnswers{t: t, links: postgres.NewLinkStore(db),
		responses: link.NewResponses(postgres.NewFormResponseStore(db), slog.New(slog.DiscardHandler))}
}

func (f *formAnswers) post(tn tenant, linkID int64, in url.Values) error {
	f.t.Helper()
	l, err := f.links.Get(context.Background(), tn.WorkspaceID, linkID)
	if err != nil {
		f.t.Fatal(err)
	}
	if l.Rules.Form == nil {
		return f.responses.RecordFormResponse(context.Background(), l, map[string]string{})
	}
	clean, problems := l.Rules.Form.Check(in, "CN")
	if len(problems) > 0 {
		f.t.Fatalf("answers %v: %v", in, problems)
	}
	return f.responses.RecordFormResponse(context.Background(), l, clean)
}

type formResponsePage struct {
	Responses []struct {
		Answers   map[string]string `json:"answers"`
		CreatedAt time.Time         `json:"created_at"`
	} `json:"responses"`
	NextCursor string `json:"next_cursor"`
}

func TestFormResponses(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	alice := s.signup("alice@example.com")
	bob := s.signup("bob@example.com")
	s.setPlan(alice, "enterprise")
	answers := newFormAnswers(t, d)

	l := s.createLink(alice, map[string]any{"url": "https://alice.example/after", "form": map[string]any{"fields": []any{
		map[string]any{"name": "name", "label": "Your name", "type": "text", "required": true},
		map[string]any{"name": "phone", "label": "Phone", "type": "phone"},
		map[string]any{"name": "size", "label": "Size", "type": "choice", "options": []string{"S", "M"}},
	}}})
	ws := fmt.Sprintf("/api/v1/workspaces/%d", alice.WorkspaceID)
	list := fmt.Sprintf("%s/links/%d/responses", ws, l.ID)

	r := s.do("GET", list, alice.Key, nil)
	if r.Status != http.StatusOK || string(r.Body) != `{"next_cursor":"","responses":[]}` {
		t.Fatalf("no answers yet: %d %s", r.Status, r.Body)
	}
	for _, in := range []url.Values{
		{"name": {"Ann"}, "phone": {"138 0013 8000"}, "size": {"S"}, "csrf": {"x"}},
		{"name": {"=HYPERLINK(\"http://evil.example\")"}},
		{"name": {"Li, \"Lei\" 李雷"}, "size": {"M"}},
	} {
		if err := answers.post(alice, l.ID, in); err != nil {
			t.Fatal(err)
		}
	}

	// Newest first, two at a time, with session and key alike.
	var p1, p2 formResponsePage
	s.do("GET", list+"?limit=2", alice.Token, nil).json(t, &p1)
	if len(p1.Responses) != 2 || p1.NextCursor == "" || p1.Responses[0].Answers["name"] != "Li, \"Lei\" 李雷" ||
		len(p1.Responses[1].Answers) != 1 || time.Since(p1.Responses[0].CreatedAt) > time.Minute {
		t.Fatalf("first page: %+v", p1)
	}
	s.do("GET", list+"?limit=2&cursor="+p1.NextCursor, alice.Key, nil).json(t, &p2)
	want := map[string]string{"name": "Ann", "phone": "+8613800138000", "size": "S"}
	if len(p2.Responses) != 1 || p2.NextCursor != "" || fmt.Sprint(p2.Responses[0].Answers) != fmt.Sprint(want) {
		t.Fatalf("second page: %+v", p2)
	}

	// The form changes: size goes, email comes. Old answers keep their size in the export.
	r = s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, l.ID), alice.Key, map[string]any{"form": map[string]any{"fields": []any{
		map[string]any{"name": "name", "label": "Your name", "type": "text", "required": true},
		map[string]any{"name": "email", "label": "Email", "type": "email"},
		map[string]any{"name": "phone", "label": "Phone", "type": "phone"},
	}}})
	if r.Status != http.StatusOK {
		t.Fatalf("edit form: %d %s", r.Status, r.Body)
	}
	if err := answers.post(alice, l.ID, url.Values{"name": {"-1+1"}, "email": {"zoe@example.com"}, "size": {"M"}}); err != nil {
		t.Fatal(err)
	}

	r = s.do("GET", list+".csv", alice.Key, nil)
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(r.Header.Get("Content-Disposition"), fmt.Sprintf(`filename="link-%d-responses.csv"`, l.ID)) {
		t.Fatalf("export: %d %v %s", r.Status, r.Header, r.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if err != nil {
		t.Fatalf("export is not CSV: %v\n%s", err, r.Body)
	}
	wantRows := [][]string{
		{"created_at", "name", "email", "phone", "size"},
		{"", "Ann", "", "'+8613800138000", "S"},
		{"", "'=HYPERLINK(\"http://evil.example\")", "", "", ""},
		{"", "Li, \"Lei\" 李雷", "", "", "M"},
		{"", "'-1+1", "zoe@example.com", "", ""},
	}
	expectRows(t, "export", rows, wantRows, 0)

	// Another workspace sees none of it, by its own path or by Alice's.
	for _, path := range []string{list, list + ".csv",
		fmt.Sprintf("/api/v1/workspaces/%d/links/%d/responses", bob.WorkspaceID, l.ID),
		fmt.Sprintf("/api/v1/workspaces/%d/links/%d/responses.csv", bob.WorkspaceID, l.ID)} {
		for _, cred := range []string{bob.Token, bob.Key} {
			if r := s.do("GET", path, cred, nil); r.Status != http.StatusNotFound || r.errorCode(t) != "not_found" {
				t.Errorf("bob GET %s: %d %s", path, r.Status, r.Body)
			}
		}
	}
	// Nor do answers reach a link of another workspace.
	bobs := s.createLink(bob, map[string]any{"url": "https://bob.example/"})
	if err := answers.responses.RecordFormResponse(context.Background(),
		&link.Link{ID: bobs.ID, WorkspaceID: alice.WorkspaceID, Rules: link.Rules{Form: &link.Form{Fields: []link.FormField{{Name: "name"}}}}},
		map[string]string{"name": "x"}); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("answers to B's link as A's: %v", err)
	}
	// A link without a form takes none.
	if err := answers.post(bob, bobs.ID, nil); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("answers to a link without a form: %v", err)
	}

	// On a plan without export the list stays, the CSV does not; personal has export.
	s.setPlan(alice, "free")
	if r := s.do("GET", list, alice.Key, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "zoe@example.com") {
		t.Errorf("list on free: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", list+".csv", alice.Key, nil); r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
		t.Errorf("export on free: %d %s", r.Status, r.Body)
	}
	s.setPlan(alice, "personal")
	if r := s.do("GET", list+".csv", alice.Token, nil); r.Status != http.StatusOK || strings.Count(string(r.Body), "\n") != 5 {
		t.Errorf("export on personal: %d %s", r.Status, r.Body)
	}

	// Deleting the link deletes its answers: a new link never shows them, and the link's
	// paths are not found.
	if r := s.do("DELETE", fmt.Sprintf("%s/links/%d", ws, l.ID), alice.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", list, alice.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("list of a deleted link: %d %s", r.Status, r.Body)
	}
	if err := answers.responses.RecordFormResponse(context.Background(),
		&link.Link{ID: l.ID, WorkspaceID: alice.WorkspaceID, Rules: link.Rules{Form: &link.Form{Fields: []link.FormField{{Name: "name"}}}}},
		map[string]string{"name": "late"}); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("answers to a deleted link: %v", err)
	}
}

// TestFormResponsesExportLarge streams more answers than one page of the store.
func TestFormResponsesExportLarge(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	tn := s.signupOn("many@example.com", "enterprise")
	l := s.createLink(tn, map[string]any{"url": "https://many.example/", "form": map[string]any{"fields": []any{
		map[string]any{"name": "n", "label": "N", "type": "text"},
	}}})
	db := d.db(t)
	const total = 3500
	if _, err := db.Pool.Exec(context.Background(), `INSERT INTO form_responses (workspace_id, link_id, answers)
		SELECT $1, $2, jsonb_build_object('n', i::text) FROM generate_series(1, $3) AS i ORDER BY i`,
		tn.WorkspaceID, l.ID, total); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/workspaces/%d/links/%d/responses.csv", s.base, tn.WorkspaceID, l.ID), nil)
	req.Header.Set("Authorization", "Bearer "+tn.Key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	checkAccepted(t, req, nil, res.StatusCode)
	rd := csv.NewReader(res.Body)
	if head, err := rd.Read(); err != nil || !slices.Equal(head, []string{"created_at", "n"}) {
		t.Fatalf("header %q, %v", head, err)
	}
	for i := 1; ; i++ {
		row, err := rd.Read()
		if err == io.EOF {
			if i-1 != total {
				t.Errorf("%d rows, want %d", i-1, total)
			}
			break
		}
		if err != nil || row[1] != fmt.Sprint(i) {
			t.Fatalf("row %d: %q, %v", i, row, err)
		}
	}
}
