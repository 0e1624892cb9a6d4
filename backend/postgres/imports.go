package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/imports"
)

// ImportStore implements imports.Store.
type ImportStore struct{ db *DB }

// NewImportStore returns the PostgreSQL import store.
func NewImportStore(db *DB) *ImportStore { return &ImportStore{db: db} }

var _ imports.Store = (*ImportStore)(nil)

// importPart is the size of the parts a file is stored in: what a reader or writer holds.
const importPart = 1 << 20

// resultsPage is how many rows' results one query of Results reads.
const resultsPage = 5000

const importColumns = `id, workspace_id, created_by, state, filename, format, bytes, rows, next_row, done, failed,
	coalesce(error, ''), claims, created_at, started_at, finished_at`

func scanImport(row pgx.Row) (*imports.Import, error) {
	var im imports.Import
	err := row.Scan(&im.ID, &im.WorkspaceID, &im.CreatedBy, &im.State, &im.Filename, &im.Format, &im.Bytes,
		&im.Rows, &im.NextRow, &im.Done, &im.Failed, &im.Error, &im.Claims, &im.CreatedAt, &im.StartedAt, &im.FinishedAt)
	return &im, err
}

// Create implements imports.Store: the import row and the file's parts are written in one
// transaction, part by part as write produces them.
func (s *ImportStore) Create(ctx context.Context, im *imports.Import, write func(w io.Writer) error) error {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("create import: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	err = tx.QueryRow(ctx, `
		INSERT INTO imports (workspace_id, created_by, filename, format, bytes, rows)
		VALUES ($1, $2, $3, '', 0, 0) RETURNING id`, im.WorkspaceID, im.CreatedBy, im.Filename).Scan(&im.ID)
	if err != nil {
		if isForeignKeyViolation(err) {
			return apperr.Errorf(apperr.NotFound, "workspace not found").For("workspace_not_found", "")
		}
		return fmt.Errorf("create import: %w", err)
	}
	pw := &partWriter{ctx: ctx, tx: tx, im: im, buf: make([]byte, 0, importPart)}
	if err := write(pw); err != nil {
		return err
	}
	if err := pw.flush(); err != nil {
		return err
	}
	err = tx.QueryRow(ctx, `
		UPDATE imports SET format = $2, bytes = $3, rows = $4 WHERE id = $1
		RETURNING `+importColumns, im.ID, im.Format, pw.total, im.Rows).Scan(
		&im.ID, &im.WorkspaceID, &im.CreatedBy, &im.State, &im.Filename, &im.Format, &im.Bytes,
		&im.Rows, &im.NextRow, &im.Done, &im.Failed, &im.Error, &im.Claims, &im.CreatedAt, &im.StartedAt, &im.FinishedAt)
	if err != nil {
		return fmt.Errorf("create import: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("create import: commit: %w", err)
	}
	return nil
}

// partWriter stores what is written to it as parts of importPart bytes.
type partWriter struct {
	ctx   context.Context
	tx    pgx.Tx
	im    *imports.Import
	buf   []byte
	seq   int
	total int64
	err   error
}

func (w *partWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), importPart-len(w.buf))
		w.buf = append(w.buf, p[:k]...)
		p = p[k:]
		if len(w.buf) == importPart {
			if err := w.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

func (w *partWriter) flush() error {
	if w.err != nil || len(w.buf) == 0 {
		return w.err
	}
	_, err := w.tx.Exec(w.ctx, `INSERT INTO import_parts (import_id, workspace_id, seq, data) VALUES ($1, $2, $3, $4)`,
		w.im.ID, w.im.WorkspaceID, w.seq, w.buf)
	if err != nil {
		w.err = fmt.Errorf("store import file: %w", err)
		return w.err
	}
	w.seq++
	w.total += int64(len(w.buf))
	w.buf = w.buf[:0]
	return nil
}

// Get implements imports.Store.
func (s *ImportStore) Get(ctx context.Context, workspaceID, id int64) (*imports.Import, error) {
	im, err := scanImport(s.db.Pool.QueryRow(ctx, `SELECT `+importColumns+` FROM imports WHERE workspace_id = $1 AND id = $2`, workspaceID, id))
	if err != nil {
		return nil, fmt.Errorf("get import: %w", notFound(err, "import"))
	}
	return im, nil
}

// List implements imports.Store.
func (s *ImportStore) List(ctx context.Context, workspaceID, before int64, limit int) ([]*imports.Import, bool, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	list, err := queryAll(ctx, s.db.Pool, asRow(scanImport), `SELECT `+importColumns+` FROM imports
		WHERE workspace_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, workspaceID, before, limit+1)
	if err != nil {
		return nil, false, fmt.Errorf("list imports: %w", err)
	}
	list, more := trimPage(list, limit)
	return list, more, nil
}

// Results implements imports.Store, a page of rows at a time.
func (s *ImportStore) Results(ctx context.Context, workspaceID, id int64) iter.Seq2[imports.Result, error] {
	return pages(resultsPage, "import results", func(last *imports.Result) (pgx.Rows, error) {
		after := 0
		if last != nil {
			after = last.Row
		}
		return s.db.Pool.Query(ctx, `
			SELECT row_no, line, url, coalesce(link_id, 0), coalesce(short_url, ''), coalesce(error_code, ''), coalesce(error, '')
			FROM import_rows WHERE workspace_id = $1 AND import_id = $2 AND row_no > $3
			ORDER BY row_no LIMIT $4`, workspaceID, id, after, resultsPage)
	}, scanResult)
}

func scanResult(r pgx.CollectableRow) (imports.Result, error) {
	var res imports.Result
	err := r.Scan(&res.Row, &res.Line, &res.URL, &res.LinkID, &res.ShortURL, &res.ErrorCode, &res.Error)
	res.ErrorCode, res.ErrorReason, _ = strings.Cut(res.ErrorCode, "/")
	if res.ErrorReason == "" {
		res.ErrorReason = res.ErrorCode
	}
	return res, err
}

// errorCodeColumn is what import_rows.error_code holds: the code, and after a slash the finer
// reason when there is one ("conflict/alias_taken"); rows written before reasons existed
// hold the code alone, which reads as its own reason.
func errorCodeColumn(r *imports.Result) string {
	if r.ErrorReason == "" || r.ErrorReason == r.ErrorCode {
		return r.ErrorCode
	}
	return r.ErrorCode + "/" + r.ErrorReason
}

// Claim implements imports.Store: SKIP LOCKED lets nodes claim at once without waiting on each
// other; the lease decides who holds a job afterwards.
func (s *ImportStore) Claim(ctx context.Context, owner string, lease time.Duration) (*imports.Import, error) {
	im, err := scanImport(s.db.Pool.QueryRow(ctx, `
		UPDATE imports SET state = 'running', lease_owner = $1, lease_until = now() + make_interval(secs => $2),
			claims = claims + 1, started_at = coalesce(started_at, now())
		WHERE id = (
			SELECT id FROM imports
			WHERE state IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
			ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING `+importColumns, owner, lease.Seconds()))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claim import: %w", err)
	}
	return im, nil
}

// Renew implements imports.Store.
func (s *ImportStore) Renew(ctx context.Context, id int64, owner string, lease time.Duration) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE imports SET lease_until = now() + make_interval(secs => $3)
		WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, id, owner, lease.Seconds())
	if err != nil {
		return fmt.Errorf("renew import lease: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return imports.ErrLeaseLost
	}
	return nil
}

// Release implements imports.Store.
func (s *ImportStore) Release(ctx context.Context, id int64, owner string) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE imports SET state = 'queued', lease_owner = NULL, lease_until = NULL
		WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, id, owner)
	if err != nil {
		return fmt.Errorf("release import: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return imports.ErrLeaseLost
	}
	return nil
}

// Finish implements imports.Store.
func (s *ImportStore) Finish(ctx context.Context, id int64, owner, state, why string) error {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("finish import: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	tag, err := tx.Exec(ctx, `UPDATE imports SET state = $3, error = nullif($4, ''), finished_at = now(),
			lease_owner = NULL, lease_until = NULL
		WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, id, owner, state, why)
	if err != nil {
		return fmt.Errorf("finish import: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return imports.ErrLeaseLost
	}
	if _, err := tx.Exec(ctx, `DELETE FROM import_parts WHERE import_id = $1`, id); err != nil {
		return fmt.Errorf("finish import: drop file: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("finish import: commit: %w", err)
	}
	return nil
}

// Open implements imports.Store: one part is read at a time.
func (s *ImportStore) Open(ctx context.Context, id int64) io.Reader {
	return &partReader{ctx: ctx, db: s.db, id: id}
}

type partReader struct {
	ctx  context.Context
	db   *DB
	id   int64
	seq  int
	part []byte
	eof  bool
}

func (r *partReader) Read(p []byte) (int, error) {
	for len(r.part) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		err := r.db.Pool.QueryRow(r.ctx, `SELECT data FROM import_parts WHERE import_id = $1 AND seq = $2`, r.id, r.seq).Scan(&r.part)
		if errors.Is(err, pgx.ErrNoRows) {
			r.eof = true
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("read import file: %w", err)
		}
		r.seq++
	}
	n := copy(p, r.part)
	r.part = r.part[n:]
	return n, nil
}

// Planned implements imports.Store.
func (s *ImportStore) Planned(ctx context.Context, id int64, from, to int) (map[int]imports.Result, error) {
	list, err := queryAll(ctx, s.db.Pool, scanResult, `
		SELECT row_no, line, url, coalesce(link_id, 0), coalesce(short_url, ''), coalesce(error_code, ''), coalesce(error, '')
		FROM import_rows WHERE import_id = $1 AND row_no BETWEEN $2 AND $3`, id, from, to)
	if err != nil {
		return nil, fmt.Errorf("read planned import rows: %w", err)
	}
	out := make(map[int]imports.Result, len(list))
	for _, r := range list {
		out[r.Row] = r
	}
	return out, nil
}

// holdLease renews owner's lease of job id inside tx, locking the job's row until tx ends, or
// answers imports.ErrLeaseLost.
func holdLease(ctx context.Context, tx pgx.Tx, id int64, owner string, lease time.Duration) error {
	tag, err := tx.Exec(ctx, `UPDATE imports SET lease_until = now() + make_interval(secs => $3)
		WHERE id = $1 AND lease_owner = $2 AND state = 'running'`, id, owner, lease.Seconds())
	if err != nil {
		return fmt.Errorf("import lease: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return imports.ErrLeaseLost
	}
	return nil
}

// Plan implements imports.Store: one statement over arrays writes a chunk's rows.
func (s *ImportStore) Plan(ctx context.Context, im *imports.Import, owner string, rows []imports.Result, lease time.Duration) error {
	if len(rows) == 0 {
		return nil
	}
	n := len(rows)
	nums, lines, linkIDs := make([]int32, n), make([]int32, n), make([]*int64, n)
	urls, shorts, codes, msgs := make([]string, n), make([]*string, n), make([]*string, n), make([]*string, n)
	for i := range rows {
		r := &rows[i]
		nums[i], lines[i], urls[i] = int32(r.Row), int32(r.Line), r.URL
		if r.LinkID != 0 {
			linkIDs[i], shorts[i] = &r.LinkID, &r.ShortURL
		}
		if r.ErrorCode != "" {
			code := errorCodeColumn(r)
			codes[i], msgs[i] = &code, &r.Error
		}
	}
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("plan import rows: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if err := holdLease(ctx, tx, im.ID, owner, lease); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `
		INSERT INTO import_rows (import_id, workspace_id, row_no, line, url, link_id, short_url, error_code, error)
		SELECT $1, $2, t.* FROM unnest($3::int[], $4::int[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[])
			AS t(row_no, line, url, link_id, short_url, error_code, error)
		ON CONFLICT (import_id, row_no) DO UPDATE SET link_id = EXCLUDED.link_id, short_url = EXCLUDED.short_url,
			error_code = EXCLUDED.error_code, error = EXCLUDED.error`,
		im.ID, im.WorkspaceID, nums, lines, urls, linkIDs, shorts, codes, msgs)
	if err != nil {
		return fmt.Errorf("plan import rows: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("plan import rows: commit: %w", err)
	}
	return nil
}

// Checkpoint implements imports.Store.
func (s *ImportStore) Checkpoint(ctx context.Context, id int64, owner string, failed []imports.Result, next, done, failedRows int, lease time.Duration) error {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("import checkpoint: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if err := holdLease(ctx, tx, id, owner, lease); err != nil {
		return err
	}
	if len(failed) > 0 {
		nums, codes, msgs := make([]int32, len(failed)), make([]string, len(failed)), make([]string, len(failed))
		for i, r := range failed {
			nums[i], codes[i], msgs[i] = int32(r.Row), errorCodeColumn(&r), r.Error
		}
		_, err := tx.Exec(ctx, `
			UPDATE import_rows r SET link_id = NULL, short_url = NULL, error_code = t.code, error = t.msg
			FROM unnest($2::int[], $3::text[], $4::text[]) AS t(row_no, code, msg)
			WHERE r.import_id = $1 AND r.row_no = t.row_no`, id, nums, codes, msgs)
		if err != nil {
			return fmt.Errorf("import checkpoint: failed rows: %w", err)
		}
	}
	tag, err := tx.Exec(ctx, `UPDATE imports SET next_row = $2, done = done + $3, failed = failed + $4
		WHERE id = $1 AND next_row < $2`, id, next, done, failedRows)
	if err != nil {
		return fmt.Errorf("import checkpoint: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return imports.ErrLeaseLost
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("import checkpoint: commit: %w", err)
	}
	return nil
}

// Existing implements imports.Store.
func (s *ImportStore) Existing(ctx context.Context, workspaceID int64, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	found, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64],
		`SELECT id FROM links WHERE workspace_id = $1 AND id = ANY($2)`, workspaceID, ids)
	if err != nil {
		return nil, fmt.Errorf("find imported links: %w", err)
	}
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}
