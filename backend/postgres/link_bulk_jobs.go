package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/bulkjob"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/webhook"
)

// BulkJobStore implements bulkjob.Store (migration 00061).
type BulkJobStore struct{ db *DB }

// NewBulkJobStore returns the PostgreSQL store of bulk jobs.
func NewBulkJobStore(db *DB) *BulkJobStore { return &BulkJobStore{db: db} }

var _ bulkjob.Store = (*BulkJobStore)(nil)

const bulkJobColumns = `id, workspace_id, actor, state, filter, deletes, edit, snapshot, total, next_chunk, done, failed,
	coalesce(error, ''), cancel, claims, created_at, started_at, finished_at`

// storedFilter is link_bulk_jobs.filter: the filter as submitted and as resolved.
type storedFilter struct {
	bulkjob.Filter
	None     bool    `json:"none,omitempty"`
	DomainID *int64  `json:"domain_id,omitempty"`
	TagIDs   []int64 `json:"tag_ids,omitempty"`
}

// storedEdit is link_bulk_jobs.edit: the change as submitted, its tags resolved to IDs.
type storedEdit struct {
	Status     *string    `json:"status,omitempty"`
	Expires    bool       `json:"expires,omitempty"`
	ExpiresAt  *time.Time `json:"expires_at,omitempty"`
	Archived   *bool      `json:"archived,omitempty"`
	TagsAdd    []string   `json:"tags_add,omitempty"`
	TagsRemove []string   `json:"tags_remove,omitempty"`
	AddTags    []int64    `json:"add_tag_ids,omitempty"`
	RemoveTags []int64    `json:"remove_tag_ids,omitempty"`
}

func scanBulkJob(row pgx.Row) (*bulkjob.Job, error) {
	var j bulkjob.Job
	var actor, filter, edit []byte
	err := row.Scan(&j.ID, &j.WorkspaceID, &actor, &j.State, &filter, &j.Delete, &edit, &j.Snapshot, &j.Total,
		&j.NextChunk, &j.Done, &j.Failed, &j.Error, &j.Cancel, &j.Claims, &j.CreatedAt, &j.StartedAt, &j.FinishedAt)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(actor, &j.Actor); err != nil {
		return nil, fmt.Errorf("bulk job %d: actor: %w", j.ID, err)
	}
	var f storedFilter
	if err := json.Unmarshal(filter, &f); err != nil {
		return nil, fmt.Errorf("bulk job %d: filter: %w", j.ID, err)
	}
	j.Filter = f.Filter
	j.Match = bulkjob.Match{None: f.None, DomainID: f.DomainID, TagIDs: f.TagIDs,
		Filter: link.Filter{Query: f.Query, Status: f.Status, Health: f.Health, Archived: f.Archived, DomainID: f.DomainID}}
	if len(f.TagIDs) > 0 {
		j.Match.Filter.TagID, j.Match.Filter.AlsoTagIDs = &f.TagIDs[0], f.TagIDs[1:]
	}
	if edit != nil {
		var e storedEdit
		if err := json.Unmarshal(edit, &e); err != nil {
			return nil, fmt.Errorf("bulk job %d: edit: %w", j.ID, err)
		}
		if e.Status != nil {
			j.Set.Status, j.Edit.Status = link.Some(*e.Status), link.Some(*e.Status)
		}
		if e.Expires {
			j.Set.ExpiresAt, j.Edit.ExpiresAt = link.Some(e.ExpiresAt), link.Some(e.ExpiresAt)
		}
		if e.Archived != nil {
			j.Set.Archived, j.Edit.Archived = link.Some(*e.Archived), link.Some(*e.Archived)
		}
		j.Set.TagsAdd, j.Set.TagsRemove, j.Edit.AddTags, j.Edit.RemoveTags = e.TagsAdd, e.TagsRemove, e.AddTags, e.RemoveTags
	}
	return &j, nil
}

// Create implements bulkjob.Store.
func (s *BulkJobStore) Create(ctx context.Context, j *bulkjob.Job, max int) error {
	actor, err := json.Marshal(j.Actor)
	if err != nil {
		return fmt.Errorf("create bulk job: %w", err)
	}
	filter, err := json.Marshal(storedFilter{Filter: j.Filter, None: j.Match.None, DomainID: j.Match.DomainID, TagIDs: j.Match.TagIDs})
	if err != nil {
		return fmt.Errorf("create bulk job: %w", err)
	}
	var edit []byte
	if !j.Delete {
		e := storedEdit{Expires: j.Set.ExpiresAt.Set, ExpiresAt: j.Set.ExpiresAt.Value, TagsAdd: j.Set.TagsAdd,
			TagsRemove: j.Set.TagsRemove, AddTags: j.Edit.AddTags, RemoveTags: j.Edit.RemoveTags}
		if j.Set.Status.Set {
			e.Status = &j.Set.Status.Value
		}
		if j.Set.Archived.Set {
			e.Archived = &j.Set.Archived.Value
		}
		if edit, err = json.Marshal(e); err != nil {
			return fmt.Errorf("create bulk job: %w", err)
		}
	}
	// The count and the insert in one statement; two submissions at once may both pass it.
	got, err := scanBulkJob(s.db.Pool.QueryRow(ctx, `
		INSERT INTO link_bulk_jobs (workspace_id, actor, filter, deletes, edit)
		SELECT $1, $2, $3, $4, $5
		WHERE (SELECT count(*) FROM link_bulk_jobs WHERE workspace_id = $1 AND state IN ('queued', 'running')) < $6
		RETURNING `+bulkJobColumns, j.WorkspaceID, actor, filter, j.Delete, edit, max))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return apperr.Errorf(apperr.Conflict, "the workspace has %d bulk jobs under way already; wait for one to end", max).For("bulk_jobs_too_many", "")
	case err != nil && isForeignKeyViolation(err):
		return apperr.Missing("workspace")
	case err != nil:
		return fmt.Errorf("create bulk job: %w", err)
	}
	*j = *got
	return nil
}

// Get implements bulkjob.Store.
func (s *BulkJobStore) Get(ctx context.Context, workspaceID, id int64) (*bulkjob.Job, error) {
	j, err := scanBulkJob(s.db.Pool.QueryRow(ctx, `SELECT `+bulkJobColumns+` FROM link_bulk_jobs
		WHERE workspace_id = $1 AND id = $2`, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("get bulk job: %w", notFound(err, "bulk job"))
	}
	return j, nil
}

// List implements bulkjob.Store.
func (s *BulkJobStore) List(ctx context.Context, workspaceID, before int64, limit int) ([]*bulkjob.Job, bool, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	list, err := queryAll(ctx, s.db.Pool, asRow(scanBulkJob), `SELECT `+bulkJobColumns+` FROM link_bulk_jobs
		WHERE workspace_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, workspaceID, before, limit+1)
	if err != nil {
		return nil, false, fmt.Errorf("list bulk jobs: %w", err)
	}
	list, more := trimPage(list, limit)
	return list, more, nil
}

// Cancel implements bulkjob.Store: a queued job ends here (and drops any IDs a node froze
// before giving it back); a running one is marked, and its node stops before its next batch.
func (s *BulkJobStore) Cancel(ctx context.Context, workspaceID, id int64) (*bulkjob.Job, error) {
	j, err := scanBulkJob(s.db.Pool.QueryRow(ctx, `
		WITH j AS (
			UPDATE link_bulk_jobs SET cancel = true,
				state = CASE WHEN state = 'queued' THEN 'canceled' ELSE state END,
				finished_at = CASE WHEN state = 'queued' THEN now() ELSE finished_at END
			WHERE workspace_id = $1 AND id = $2 AND state IN ('queued', 'running')
			RETURNING `+bulkJobColumns+`),
		d AS (DELETE FROM link_bulk_job_links WHERE job_id IN (SELECT id FROM j WHERE state = 'canceled'))
		SELECT * FROM j`, workspaceID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		j, err := s.Get(ctx, workspaceID, id)
		if err != nil {
			return nil, err
		}
		return nil, apperr.Errorf(apperr.Conflict, "bulk job %d has ended (%s)", j.ID, j.State).For("bulk_job_finished", "")
	}
	if err != nil {
		return nil, fmt.Errorf("cancel bulk job: %w", err)
	}
	return j, nil
}

// Claim implements bulkjob.Store: SKIP LOCKED lets nodes claim at once without waiting on each
// other; the lease decides who holds a job afterwards.
func (s *BulkJobStore) Claim(ctx context.Context, owner string, lease time.Duration) (*bulkjob.Job, error) {
	j, err := scanBulkJob(s.db.Pool.QueryRow(ctx, `
		UPDATE link_bulk_jobs SET state = 'running', lease_owner = $1, lease_until = now() + make_interval(secs => $2),
			claims = claims + 1, started_at = coalesce(started_at, now())
		WHERE id = (
			SELECT id FROM link_bulk_jobs
			WHERE state IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
			ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING `+bulkJobColumns, owner, lease.Seconds()))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claim bulk job: %w", err)
	}
	return j, nil
}

// Renew implements bulkjob.Store.
func (s *BulkJobStore) Renew(ctx context.Context, id int64, owner string, lease time.Duration) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE link_bulk_jobs SET lease_until = now() + make_interval(secs => $3)
		WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, id, owner, lease.Seconds())
	if err != nil {
		return fmt.Errorf("renew bulk job lease: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return bulkjob.ErrLeaseLost
	}
	return nil
}

// Release implements bulkjob.Store.
func (s *BulkJobStore) Release(ctx context.Context, id int64, owner string) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE link_bulk_jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL
		WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, id, owner)
	if err != nil {
		return fmt.Errorf("release bulk job: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return bulkjob.ErrLeaseLost
	}
	return nil
}

// hold checks inside tx that owner holds job id, and keeps the job's row from being claimed by
// another node until tx ends (FOR KEY SHARE: a claim's FOR UPDATE skips it, while the job's
// other batches, its counts and its lease's renewals go on beside it). A node whose lease ran
// out and was taken writes nothing. It answers whether a cancel was asked.
func hold(ctx context.Context, tx pgx.Tx, id int64, owner string) (canceled bool, err error) {
	err = tx.QueryRow(ctx, `SELECT cancel FROM link_bulk_jobs
		WHERE id = $1 AND lease_owner = $2 AND state = 'running' FOR KEY SHARE`, id, owner).Scan(&canceled)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, bulkjob.ErrLeaseLost
	}
	return canceled, err
}

// Freeze implements bulkjob.Store. The links are those the filter matches as the links list
// matches them (listQuery's conditions), made no later than the job was submitted, their IDs
// in ascending chunks of size.
func (s *BulkJobStore) Freeze(ctx context.Context, j *bulkjob.Job, owner string, size int, lease time.Duration) error {
	var total int64
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE link_bulk_jobs SET lease_until = now() + make_interval(secs => $3)
			WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, j.ID, owner, lease.Seconds()); err != nil {
			return err
		}
		if _, err := hold(ctx, tx, j.ID, owner); err != nil {
			return err
		}
		if !j.Match.None {
			var a sqlArgs
			job, ws, created, per := a.add(j.ID), a.add(j.WorkspaceID), a.add(j.CreatedAt), a.add(size)
			where := matchConditions(&a, ws, j.Match.Filter)
			err := tx.QueryRow(ctx, `WITH m AS (
					SELECT l.id, (row_number() OVER (ORDER BY l.id) - 1) / `+per+` AS chunk
					FROM links l WHERE `+strings.Join(where, " AND ")+` AND l.created_at <= `+created+`),
				c AS (INSERT INTO link_bulk_job_links (job_id, chunk, link_ids)
					SELECT `+job+`, chunk, array_agg(id ORDER BY id) FROM m GROUP BY chunk)
				SELECT count(*) FROM m`, a...).Scan(&total)
			if err != nil {
				return fmt.Errorf("freeze links: %w", err)
			}
		}
		_, err := tx.Exec(ctx, `UPDATE link_bulk_jobs SET snapshot = true, total = $2, next_chunk = 0, done = 0, failed = 0
			WHERE id = $1`, j.ID, total)
		return err
	})
	if err != nil {
		return fmt.Errorf("bulk job %d: %w", j.ID, err)
	}
	j.Snapshot, j.Total, j.NextChunk, j.Done, j.Failed = true, total, 0, 0, 0
	return nil
}

// matchConditions are the conditions of a listing's filter f on links l of the workspace ws
// (a placeholder), as List applies them.
func matchConditions(a *sqlArgs, ws string, f link.Filter) []string {
	where := append([]string{"l.workspace_id = " + ws}, searchConditions(a, f.Query)...)
	where = append(where, statusConditions(a, f)...)
	if f.DomainID != nil {
		where = append(where, "l.domain_id = "+a.add(*f.DomainID))
	}
	switch f.Health {
	case "ok", "broken":
		where = append(where, "EXISTS (SELECT 1 FROM link_health h WHERE h.link_id = l.id AND h.state = "+a.add(f.Health)+" AND h.url = l.url)")
	}
	if f.TagID != nil {
		where = append(where, "EXISTS (SELECT 1 FROM link_tags lt WHERE lt.tag_id = "+a.add(*f.TagID)+" AND lt.link_id = l.id)")
	}
	return where
}

// Next implements bulkjob.Store: the lowest chunk of frozen IDs no batch holds (SKIP LOCKED),
// dropped in the batch's transaction once done.
func (s *BulkJobStore) Next(ctx context.Context, j *bulkjob.Job, owner string) (bulkjob.Batch, error) {
	var b bulkjob.Batch
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		b = bulkjob.Batch{}
		canceled, err := hold(ctx, tx, j.ID, owner)
		if err != nil || canceled {
			b.Canceled = canceled
			return err
		}
		var ids []int64
		err = tx.QueryRow(ctx, `SELECT chunk, link_ids FROM link_bulk_job_links WHERE job_id = $1
			ORDER BY chunk LIMIT 1 FOR UPDATE SKIP LOCKED`, j.ID).Scan(&b.Chunk, &ids)
		if errors.Is(err, pgx.ErrNoRows) {
			b.Last = true
			return nil
		}
		if err != nil {
			return fmt.Errorf("read frozen links: %w", err)
		}
		var changed int
		if j.Delete {
			changed, err = deleteBatch(ctx, tx, j.WorkspaceID, ids, &b)
		} else {
			changed, err = editBatch(ctx, tx, j.WorkspaceID, ids, j.Edit)
		}
		if err != nil {
			return err
		}
		b.Done, b.Failed = int64(len(ids)), int64(len(ids)-changed)
		if _, err := tx.Exec(ctx, `DELETE FROM link_bulk_job_links WHERE job_id = $1 AND chunk = $2`, j.ID, b.Chunk); err != nil {
			return fmt.Errorf("drop the chunk done: %w", err)
		}
		tag, err := tx.Exec(ctx, `UPDATE link_bulk_jobs SET next_chunk = greatest(next_chunk, $3 + 1), done = done + $4, failed = failed + $5
			WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, j.ID, owner, b.Chunk, b.Done, b.Failed)
		if err == nil && tag.RowsAffected() == 0 {
			err = bulkjob.ErrLeaseLost
		}
		return err
	})
	if err != nil {
		return bulkjob.Batch{}, fmt.Errorf("bulk job %d: chunk %d: %w", j.ID, b.Chunk, err)
	}
	return b, nil
}

// deleteBatch deletes the workspace's links ids in one statement, each a link.deleted event
// for the workspace's webhooks; the change feed's trigger records them for every node's cache.
func deleteBatch(ctx context.Context, tx pgx.Tx, workspaceID int64, ids []int64, b *bulkjob.Batch) (int, error) {
	rows, err := tx.Query(ctx, `WITH l AS (DELETE FROM links WHERE workspace_id = $1 AND id = ANY($2) RETURNING `+linkColumns+`)`+
		linkOutbox(webhook.LinkDeleted)+` SELECT domain_id, key, updated_at FROM l`, workspaceID, ids)
	if err != nil {
		return 0, fmt.Errorf("delete links: %w", err)
	}
	b.Removed, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (*link.Link, error) {
		var l link.Link
		return &l, r.Scan(&l.DomainID, &l.Key, &l.UpdatedAt)
	})
	if err != nil {
		return 0, fmt.Errorf("delete links: %w", err)
	}
	return len(b.Removed), nil
}

// editBatch applies e to the workspace's links ids as a bulk edit does (UpdateMany): leave those
// e.Refuse refuses, then set status, expiry and archive in one statement (each link a
// link.updated event) and take tags off and put tags on in one each. A change of tags alone
// leaves the links' rows, and so their updated_at and the caches, as they are. It answers how
// many links changed.
func editBatch(ctx context.Context, tx pgx.Tx, workspaceID int64, ids []int64, e link.BulkEdit) (int, error) {
	add, remove := e.AddTags, e.RemoveTags
	if add == nil {
		add = []int64{}
	}
	if remove == nil {
		remove = []int64{}
	}
	ok, err := refuseBatch(ctx, tx, workspaceID, ids, e)
	if err != nil || len(ok) == 0 {
		return 0, err
	}
	if e.Status.Set || e.ExpiresAt.Set || e.Archived.Set {
		// The change feed's trigger records each link for every node's cache sync, which
		// rewrites the cached copies from the rows: the job writes none itself.
		if err := updateEdited(ctx, tx, workspaceID, ok, e); err != nil {
			return 0, err
		}
	}
	if err := setLinkTags(ctx, tx, workspaceID, ok, add, remove, false); err != nil {
		return 0, err
	}
	return len(ok), nil
}

// refuseBatch locks the workspace's links ids and answers those e.Refuse lets through. A change
// that adds no tags needs only the links' statuses, and only when it sets one: the lock is then
// left to the update itself.
func refuseBatch(ctx context.Context, tx pgx.Tx, workspaceID int64, ids []int64, e link.BulkEdit) ([]int64, error) {
	var query string
	args := []any{workspaceID, ids}
	switch {
	case len(e.AddTags) > 0:
		query = `SELECT l.id, l.status, (SELECT count(*) FROM link_tags lt WHERE lt.link_id = l.id AND NOT lt.tag_id = ANY($3) AND NOT lt.tag_id = ANY($4))
			FROM links l WHERE l.workspace_id = $1 AND l.id = ANY($2) ORDER BY l.id FOR UPDATE OF l`
		remove := e.RemoveTags
		if remove == nil {
			remove = []int64{}
		}
		args = append(args, e.AddTags, remove)
	case e.Status.Set:
		// A banned or held link keeps its status (the update's CASE says so too).
		query = `SELECT l.id, l.status, 0 FROM links l WHERE l.workspace_id = $1 AND l.id = ANY($2)`
	default:
		query = `SELECT l.id, '', 0 FROM links l WHERE l.workspace_id = $1 AND l.id = ANY($2)`
	}
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("lock links: %w", err)
	}
	defer rows.Close()
	ok := make([]int64, 0, len(ids))
	for rows.Next() {
		var id, n int64
		var status string
		if err := rows.Scan(&id, &status, &n); err != nil {
			return nil, fmt.Errorf("lock links: %w", err)
		}
		if e.Refuse(status, int(n)+len(e.AddTags)) == nil {
			ok = append(ok, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("lock links: %w", err)
	}
	return ok, nil
}

// Finish implements bulkjob.Store.
func (s *BulkJobStore) Finish(ctx context.Context, id int64, owner, state, why string) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE link_bulk_jobs SET state = $3, error = nullif($4, ''), finished_at = now(),
				lease_owner = NULL, lease_until = NULL
			WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, id, owner, state, why)
		if err != nil {
			return fmt.Errorf("finish bulk job: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return bulkjob.ErrLeaseLost
		}
		if _, err := tx.Exec(ctx, `DELETE FROM link_bulk_job_links WHERE job_id = $1`, id); err != nil {
			return fmt.Errorf("finish bulk job: drop frozen links: %w", err)
		}
		return nil
	})
}
