package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

// FormResponseStore implements link.ResponseStore.
type FormResponseStore struct{ db *DB }

// NewFormResponseStore returns the PostgreSQL store of form responses.
func NewFormResponseStore(db *DB) *FormResponseStore { return &FormResponseStore{db: db} }

var _ link.ResponseStore = (*FormResponseStore)(nil)

// exportPage is how many responses AllFormResponses reads at a time: the connection goes back
// to the pool between pages, so a slow download holds none.
const exportPage = 1000

// AddFormResponse implements link.ResponseStore. The row takes its workspace from the link
// itself, found in the workspace named; the link's count of answers is taken in the same
// statement, under its row lock, so concurrent posts never pass max.
func (s *FormResponseStore) AddFormResponse(ctx context.Context, workspaceID, linkID int64, answers map[string]string, max int64) error {
	if answers == nil {
		answers = map[string]string{}
	}
	b, err := json.Marshal(answers)
	if err != nil {
		return fmt.Errorf("add form response: %w", err)
	}
	var found, added bool
	err = s.db.Pool.QueryRow(ctx, `
		WITH l AS (
			SELECT workspace_id, id FROM links WHERE workspace_id = $1 AND id = $2
		), taken AS (
			INSERT INTO form_response_counts (link_id, n) SELECT id, 1 FROM l
			ON CONFLICT (link_id) DO UPDATE SET n = form_response_counts.n + 1
				WHERE form_response_counts.n < $4
			RETURNING link_id
		), added AS (
			INSERT INTO form_responses (workspace_id, link_id, answers)
			SELECT l.workspace_id, l.id, $3::jsonb FROM l, taken
			RETURNING id
		)
		SELECT EXISTS (SELECT 1 FROM l), EXISTS (SELECT 1 FROM added)`,
		workspaceID, linkID, string(b), max).Scan(&found, &added)
	switch {
	case isForeignKeyViolation(err):
		// The link was deleted between the read and the check of the key.
		return apperr.Errorf(apperr.NotFound, "link not found").For("link_not_found", "")
	case err != nil:
		return fmt.Errorf("add form response: %w", err)
	case !found:
		return apperr.Errorf(apperr.NotFound, "link not found").For("link_not_found", "")
	case !added:
		return apperr.Errorf(apperr.QuotaExceeded, "the link's form has taken the %d answers it may keep", max).For("form_responses_full", "")
	}
	return nil
}

// FormResponses implements link.ResponseStore.
func (s *FormResponseStore) FormResponses(ctx context.Context, workspaceID, linkID, before int64, limit int) ([]link.FormResponse, bool, error) {
	if before <= 0 {
		before = math.MaxInt64
	}
	page, err := queryAll(ctx, s.db.Pool, scanFormResponse, `
		SELECT id, answers, created_at FROM form_responses
		WHERE workspace_id = $1 AND link_id = $2 AND id < $3
		ORDER BY id DESC LIMIT $4`, workspaceID, linkID, before, limit+1)
	if err != nil {
		return nil, false, fmt.Errorf("list form responses: %w", err)
	}
	page, more := trimPage(page, limit)
	return page, more, nil
}

// AllFormResponses implements link.ResponseStore.
func (s *FormResponseStore) AllFormResponses(ctx context.Context, workspaceID, linkID int64) iter.Seq2[link.FormResponse, error] {
	return pages(exportPage, "export form responses", func(last *link.FormResponse) (pgx.Rows, error) {
		var after int64
		if last != nil {
			after = last.ID
		}
		return s.db.Pool.Query(ctx, `
			SELECT id, answers, created_at FROM form_responses
			WHERE workspace_id = $1 AND link_id = $2 AND id > $3
			ORDER BY id LIMIT $4`, workspaceID, linkID, after, exportPage)
	}, scanFormResponse)
}

// FormResponseFields implements link.ResponseStore.
func (s *FormResponseStore) FormResponseFields(ctx context.Context, workspaceID, linkID int64) ([]string, error) {
	names, err := queryAll(ctx, s.db.Pool, pgx.RowTo[string], `
		SELECT DISTINCT k FROM form_responses, jsonb_object_keys(answers) AS k
		WHERE workspace_id = $1 AND link_id = $2 ORDER BY k`, workspaceID, linkID)
	if err != nil {
		return nil, fmt.Errorf("list form response fields: %w", err)
	}
	return names, nil
}

func scanFormResponse(row pgx.CollectableRow) (link.FormResponse, error) {
	var r link.FormResponse
	var created time.Time
	err := row.Scan(&r.ID, &r.Answers, &created)
	r.CreatedAt = created.UTC()
	return r, err
}
