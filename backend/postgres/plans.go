package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/plan"
)

// PlanStore implements plan.Store: plan and trial state of workspaces, monthly link usage.
type PlanStore struct{ db *DB }

// NewPlanStore returns the PostgreSQL plan store.
func NewPlanStore(db *DB) *PlanStore { return &PlanStore{db: db} }

var _ plan.Store = (*PlanStore)(nil)

const planStateColumns = `id, plan, trial_ends_at, trial_used, billed_plan, billed_until`

func scanPlanState(row pgx.Row, extra ...any) (plan.State, error) {
	var st plan.State
	err := row.Scan(append([]any{&st.WorkspaceID, &st.Plan, &st.TrialEndsAt, &st.TrialUsed, &st.BilledPlan, &st.BilledUntil}, extra...)...)
	return st, err
}

// State implements plan.Store.
func (s *PlanStore) State(ctx context.Context, workspaceID int64) (plan.State, error) {
	st, err := scanPlanState(s.db.Pool.QueryRow(ctx, `SELECT `+planStateColumns+` FROM workspaces
		WHERE id = $1 AND deleted_at IS NULL`, workspaceID))
	if err != nil {
		return plan.State{}, fmt.Errorf("plan state: %w", notFound(err, "workspace"))
	}
	return st, nil
}

// StartTrial implements plan.Store: the condition and the change are one statement, so two
// requests at once start one trial.
func (s *PlanStore) StartTrial(ctx context.Context, workspaceID int64, endsAt time.Time) (plan.State, bool, error) {
	st, err := scanPlanState(s.db.Pool.QueryRow(ctx, `UPDATE workspaces SET plan = 'trial', trial_ends_at = $2, trial_used = true
		WHERE id = $1 AND deleted_at IS NULL AND NOT trial_used AND plan = 'free'
		RETURNING `+planStateColumns, workspaceID, endsAt))
	if err == nil {
		return st, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return plan.State{}, false, fmt.Errorf("start trial: %w", err)
	}
	st, err = s.State(ctx, workspaceID)
	return st, false, err
}

// SetTrialEnd implements plan.Store.
func (s *PlanStore) SetTrialEnd(ctx context.Context, workspaceID int64, endsAt *time.Time) error {
	return exactlyOne(ctx, s.db, "set trial end", "workspace",
		`UPDATE workspaces SET trial_ends_at = $2 WHERE id = $1 AND deleted_at IS NULL`, workspaceID, endsAt)
}

// Members implements plan.Store.
func (s *PlanStore) Members(ctx context.Context, workspaceID int64) (int64, error) {
	var n int64
	if err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM members WHERE workspace_id = $1`, workspaceID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count members: %w", err)
	}
	return n, nil
}

// LinksCreated implements plan.Store.
func (s *PlanStore) LinksCreated(ctx context.Context, workspaceID int64, month time.Time) (int64, error) {
	var n int64
	err := s.db.Pool.QueryRow(ctx, `SELECT links FROM link_usage WHERE workspace_id = $1 AND month = $2`,
		workspaceID, month).Scan(&n)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("links created this month: %w", err)
	}
	return n, nil
}

// ChangeUsage implements plan.Store in one transaction. The first statement creates or locks
// the month's row of every workspace of the round, in workspace order (so two nodes' rounds
// cannot deadlock), and reads its count with the plan; grant decides in Go; the second
// statement writes the new counts. A round holds its rows for two round trips, whatever the
// number of creates in it.
func (s *PlanStore) ChangeUsage(ctx context.Context, month time.Time, changes []*plan.UsageChange, grant func(*plan.UsageChange) int64) error {
	ids := make([]int64, len(changes))
	byID := make(map[int64]*plan.UsageChange, len(changes))
	for i, c := range changes {
		ids[i] = c.WorkspaceID
		byID[c.WorkspaceID] = c
	}
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `WITH locked AS (
				INSERT INTO link_usage AS u (workspace_id, month, links)
				SELECT w.id, $2::date, 0 FROM workspaces w WHERE w.id = ANY($1) AND w.deleted_at IS NULL ORDER BY w.id
				ON CONFLICT (workspace_id, month) DO UPDATE SET links = u.links
				RETURNING u.workspace_id, u.links)
			SELECT w.id, w.plan, w.trial_ends_at, w.trial_used, w.billed_plan, w.billed_until, l.links
			FROM locked l JOIN workspaces w ON w.id = l.workspace_id`, ids, month)
		if err != nil {
			return err
		}
		var wsIDs, counts []int64
		_, err = collect(rows, func(r pgx.Rows) (struct{}, error) {
			var links int64
			st, err := scanPlanState(r, &links)
			if err != nil {
				return struct{}{}, err
			}
			c := byID[st.WorkspaceID]
			c.Found, c.State = true, st
			c.Used = max(0, links-c.Release)
			c.Granted = 0
			if c.Want > 0 {
				c.Granted = min(c.Want, max(0, grant(c)))
			}
			if n := c.Used + c.Granted; n != links {
				wsIDs, counts = append(wsIDs, st.WorkspaceID), append(counts, n)
			}
			return struct{}{}, nil
		})
		if err != nil || len(wsIDs) == 0 {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE link_usage u SET links = c.links
			FROM unnest($1::bigint[], $2::bigint[]) AS c (workspace_id, links)
			WHERE u.workspace_id = c.workspace_id AND u.month = $3`, wsIDs, counts, month)
		return err
	})
	if err != nil {
		for _, c := range changes {
			c.Found, c.Granted = false, 0
		}
		return fmt.Errorf("change link usage: %w", err)
	}
	return nil
}
