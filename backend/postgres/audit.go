package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shortlink/shortlink/backend/audit"
)

// AuditStore implements audit.Store over the append-only audit_events table.
type AuditStore struct{ db *DB }

// NewAuditStore returns the PostgreSQL store of the workspace audit log.
func NewAuditStore(db *DB) *AuditStore { return &AuditStore{db: db} }

var _ audit.Store = (*AuditStore)(nil)

// Append implements audit.Store.
func (s *AuditStore) Append(ctx context.Context, e audit.Event) error {
	return appendAudit(ctx, s.db.Pool, e)
}

// auditExecer runs a statement: the pool, or a transaction whose change the event records.
type auditExecer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// appendAudit adds an event through q. Given a transaction, the event is written with the
// change it records or not at all.
func appendAudit(ctx context.Context, q auditExecer, e audit.Event) error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	details, err := json.Marshal(e.Details)
	if err != nil {
		return fmt.Errorf("append audit event: %w", err)
	}
	var actorID *int64
	if e.Actor.Type != audit.ActorSystem {
		actorID = &e.Actor.ID
	}
	_, err = q.Exec(ctx, `
		INSERT INTO audit_events (workspace_id, actor_type, actor_id, actor_email, action, target, details, address_hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
		e.WorkspaceID, string(e.Actor.Type), actorID, e.Actor.Email, string(e.Action), e.Target, string(details), e.AddressHash)
	if err != nil {
		return fmt.Errorf("append audit event: %w", err)
	}
	return nil
}

const auditColumns = `id, workspace_id, at, actor_type, actor_id, actor_email, action, target, details, address_hash`

func scanAuditEvent(row pgx.CollectableRow) (audit.Event, error) {
	var e audit.Event
	var actorType, action string
	var actorID *int64
	err := row.Scan(&e.ID, &e.WorkspaceID, &e.At, &actorType, &actorID, &e.Actor.Email, &action, &e.Target, &e.Details, &e.AddressHash)
	e.At = e.At.UTC()
	e.Actor.Type, e.Action = audit.ActorType(actorType), audit.Action(action)
	if actorID != nil {
		e.Actor.ID = *actorID
	}
	return e, err
}

// Events implements audit.Store (audit_names.go).
func (s *AuditStore) Events(ctx context.Context, workspaceID, before int64, limit int) ([]audit.Event, error) {
	return s.namedEvents(ctx, workspaceID, before, limit)
}

// AllEvents implements audit.Store, a page at a time so that a slow download holds no
// connection.
func (s *AuditStore) AllEvents(ctx context.Context, workspaceID int64) iter.Seq2[audit.Event, error] {
	return pages(exportPage, "export audit events", func(last *audit.Event) (pgx.Rows, error) {
		before := int64(1<<63 - 1)
		if last != nil {
			before = last.ID
		}
		return s.db.Pool.Query(ctx, `
			SELECT `+auditColumns+` FROM audit_events
			WHERE workspace_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, workspaceID, before, exportPage)
	}, scanAuditEvent)
}

// PurgeBefore implements audit.Store: the one delete the table's trigger lets through, marked
// by shortlink.audit_purge for this transaction alone.
func (s *AuditStore) PurgeBefore(ctx context.Context, t time.Time) (int64, error) {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("purge audit events: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.Exec(ctx, `SELECT set_config('shortlink.audit_purge', 'on', true)`); err != nil {
		return 0, fmt.Errorf("purge audit events: %w", err)
	}
	tag, err := tx.Exec(ctx, `
		DELETE FROM audit_events e WHERE e.at < $1
		OR NOT EXISTS (SELECT 1 FROM workspaces w WHERE w.id = e.workspace_id)`, t)
	if err != nil {
		return 0, fmt.Errorf("purge audit events: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("purge audit events: %w", err)
	}
	return tag.RowsAffected(), nil
}
