package postgres_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// insertLink writes a plain link of the workspace with the given ID.
func insertLink(t *testing.T, s *postgres.LinkStore, workspaceID, id int64) {
	t.Helper()
	now := time.Now().UTC()
	errs, err := s.Insert(context.Background(), []*link.Link{{
		ID: id, WorkspaceID: workspaceID, Key: fmt.Sprintf("k%d", id), URL: "https://example.com/",
		RedirectStatus: 302, Status: link.StatusActive, CreatedAt: now, UpdatedAt: now,
	}})
	if err != nil || errs[0] != nil {
		t.Fatalf("insert link %d: %v %v", id, err, errs)
	}
}

func TestFormResponseStore(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	accounts, links, s := postgres.NewAccountStore(db), postgres.NewLinkStore(db), postgres.NewFormResponseStore(db)
	ctx := context.Background()
	_, a := newUser(t, accounts, "alice@example.com")
	_, b := newUser(t, accounts, "bob@example.com")
	insertLink(t, links, a.ID, 1)
	insertLink(t, links, a.ID, 2)
	insertLink(t, links, b.ID, 3)

	for i := range 5 {
		if err := s.AddFormResponse(ctx, a.ID, 1, map[string]string{"n": fmt.Sprint(i), "name": "Ann \"=1\" 大"}, 100); err != nil {
			t.Fatalf("add %d: %v", i, err)
		}
	}
	if err := s.AddFormResponse(ctx, a.ID, 2, map[string]string{"other": "x"}, 100); err != nil {
		t.Fatal(err)
	}
	if err := s.AddFormResponse(ctx, a.ID, 1, nil, 100); err != nil {
		t.Fatalf("add no answers: %v", err)
	}
	// Past its cap a link takes no answers, and keeps those it has.
	insertLink(t, links, a.ID, 4)
	for i := range 3 {
		if err := s.AddFormResponse(ctx, a.ID, 4, map[string]string{"n": fmt.Sprint(i)}, 2); (err != nil) != (i == 2) {
			t.Fatalf("add %d of a cap of 2: %v", i, err)
		}
	}
	wantCode(t, "add past the cap", s.AddFormResponse(ctx, a.ID, 4, map[string]string{"n": "x"}, 2), apperr.QuotaExceeded)
	if kept, _, err := s.FormResponses(ctx, a.ID, 4, 0, 10); err != nil || len(kept) != 2 {
		t.Errorf("answers kept under a cap of 2: %d, %v", len(kept), err)
	}
	// A link of another workspace, or none, takes no answers.
	wantCode(t, "add to B's link through A", s.AddFormResponse(ctx, a.ID, 3, map[string]string{"n": "x"}, 100), apperr.NotFound)
	wantCode(t, "add to a missing link", s.AddFormResponse(ctx, a.ID, 99, map[string]string{"n": "x"}, 100), apperr.NotFound)

	// Newest first, a page at a time.
	page, more, err := s.FormResponses(ctx, a.ID, 1, 0, 4)
	if err != nil || !more || len(page) != 4 {
		t.Fatalf("first page: %d, %v, %v", len(page), more, err)
	}
	if len(page[0].Answers) != 0 || page[1].Answers["n"] != "4" || page[1].Answers["name"] != "Ann \"=1\" 大" || page[3].Answers["n"] != "2" {
		t.Errorf("first page: %+v", page)
	}
	if time.Since(page[0].CreatedAt) > time.Minute || page[0].CreatedAt.Location() != time.UTC {
		t.Errorf("created_at %v", page[0].CreatedAt)
	}
	rest, more, err := s.FormResponses(ctx, a.ID, 1, page[3].ID, 4)
	if err != nil || more || len(rest) != 2 || rest[0].Answers["n"] != "1" || rest[1].Answers["n"] != "0" {
		t.Fatalf("second page: %+v, %v, %v", rest, more, err)
	}
	// B's workspace sees nothing of A's link, nor A of B's.
	if got, _, err := s.FormResponses(ctx, b.ID, 1, 0, 10); err != nil || len(got) != 0 {
		t.Errorf("B lists A's link: %+v, %v", got, err)
	}
	if got, err := s.FormResponseFields(ctx, b.ID, 1); err != nil || len(got) != 0 {
		t.Errorf("B's fields of A's link: %v, %v", got, err)
	}
	for r, err := range s.AllFormResponses(ctx, b.ID, 1) {
		t.Errorf("B exports A's link: %+v, %v", r, err)
	}

	fields, err := s.FormResponseFields(ctx, a.ID, 1)
	if err != nil || !slices.Equal(fields, []string{"n", "name"}) {
		t.Errorf("fields: %v, %v", fields, err)
	}

	// Deleting a link removes its answers, and only its.
	if _, err := links.Delete(ctx, a.ID, 2); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM form_responses WHERE link_id = 2`).Scan(&n); err != nil || n != 0 {
		t.Errorf("answers of a deleted link: %d, %v", n, err)
	}
	if page, _, _ := s.FormResponses(ctx, a.ID, 1, 0, 100); len(page) != 6 {
		t.Errorf("link 1 has %d answers after link 2 went", len(page))
	}

	// So does deleting the workspace, whose links go in batches.
	if err := accounts.MarkWorkspaceDeleted(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := accounts.DeleteWorkspaceLinks(ctx, a.ID, 1000); err != nil {
		t.Fatal(err)
	}
	if done, err := accounts.FinishWorkspaceDeletion(ctx, a.ID); err != nil || !done {
		t.Fatalf("finish: %v, %v", done, err)
	}
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM form_responses WHERE workspace_id = $1`, a.ID).Scan(&n); err != nil || n != 0 {
		t.Errorf("answers of a deleted workspace: %d, %v", n, err)
	}
}

func TestFormResponseStoreExport(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	accounts, links, s := postgres.NewAccountStore(db), postgres.NewLinkStore(db), postgres.NewFormResponseStore(db)
	ctx := context.Background()
	_, w := newUser(t, accounts, "carol@example.com")
	insertLink(t, links, w.ID, 7)
	// More than one page of the export.
	const total = 2345
	if _, err := db.Pool.Exec(ctx, `INSERT INTO form_responses (workspace_id, link_id, answers)
		SELECT $1, 7, jsonb_build_object('i', i::text) FROM generate_series(1, $2) AS i ORDER BY i`, w.ID, total); err != nil {
		t.Fatal(err)
	}
	i := 0
	for r, err := range s.AllFormResponses(ctx, w.ID, 7) {
		if err != nil {
			t.Fatal(err)
		}
		i++
		if want := map[string]string{"i": fmt.Sprint(i)}; !maps.Equal(r.Answers, want) {
			t.Fatalf("response %d: %v, want oldest first", i, r.Answers)
		}
	}
	if i != total {
		t.Errorf("exported %d of %d", i, total)
	}
	// Stopping early is fine.
	i = 0
	for _, err := range s.AllFormResponses(ctx, w.ID, 7) {
		if err != nil {
			t.Fatal(err)
		}
		if i++; i == 1500 {
			break
		}
	}
	// A failing read is yielded as an error.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	var got error
	for _, err := range s.AllFormResponses(cancelled, w.ID, 7) {
		got = err
	}
	if got == nil {
		t.Error("export with a cancelled context: no error")
	}
}
