package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Seeder writes generated links straight into the tables a batch create writes (links and
// link_tags, as LinkStore.Insert), with the rollups their visits would have made (visit_totals,
// workspace_visit_hours) and the health the checks would have given them (link_health), by
// COPY: the data of the scale benchmark (docs/benchmarks.md#workspaces-of-10-million-links).
// It is for benchmarks and never runs in the service.
type Seeder struct{ db *DB }

// NewSeeder returns a seeder writing to db.
func NewSeeder(db *DB) *Seeder { return &Seeder{db: db} }

// SeedLink is one link as Seeder.Links writes it.
type SeedLink struct {
	ID, WorkspaceID, DomainID int64
	Key, URL, Title           string
	Status                    string     // active, disabled, banned or held
	ExpiresAt                 *time.Time // nil for none
	CreatedAt                 time.Time
	UTM                       *string // the utm column's JSON, nil for none
	TagIDs                    []int64
	Visits                    int64  // people's visits since made: visit_totals
	Bots, Uniques             int64  // visit_totals' others; a fifth and seven tenths of Visits when 0
	Health                    string // "ok", "broken" or "" for no row yet
	Host                      string // the destination's host, for link_health
}

// ReserveIDs takes n consecutive values of link_ids in one step and returns the first: the
// seeded links' IDs, which no node will issue again. Nothing may take IDs meanwhile (the
// benchmark seeds before it creates).
func (s *Seeder) ReserveIDs(ctx context.Context, n int64) (int64, error) {
	var first int64
	err := s.db.Pool.QueryRow(ctx, `SELECT setval('link_ids', nextval('link_ids') + $1 - 1) - $1 + 1`, n).Scan(&first)
	if err != nil {
		return 0, fmt.Errorf("seed: reserve %d ids: %w", n, err)
	}
	return first, nil
}

// Workspaces makes n enterprise workspaces named after prefix and returns their IDs.
func (s *Seeder) Workspaces(ctx context.Context, prefix string, n int) ([]int64, error) {
	ids, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `
		INSERT INTO workspaces (name, plan) SELECT $1 || g, 'enterprise' FROM generate_series(1, $2) g
		RETURNING id`, prefix, n)
	if err != nil {
		return nil, fmt.Errorf("seed: workspaces: %w", err)
	}
	return ids, nil
}

// Tags makes the workspace's tags of these names (folded as tag.Fold does: the names given
// are lower case already) and returns their IDs in the same order.
func (s *Seeder) Tags(ctx context.Context, workspaceID int64, names []string) ([]int64, error) {
	ids, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `
		INSERT INTO tags (workspace_id, name, folded, color)
		SELECT $1, n, n, '#4f46e5' FROM unnest($2::text[]) WITH ORDINALITY AS t (n, i) ORDER BY i
		RETURNING id`, workspaceID, names)
	if err != nil {
		return nil, fmt.Errorf("seed: tags: %w", err)
	}
	return ids, nil
}

// Domains makes verified custom domains of the workspace and returns their IDs in order, then
// moves the domain epoch so that every node reloads its host table.
func (s *Seeder) Domains(ctx context.Context, workspaceID int64, hosts []string) ([]int64, error) {
	ids, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `
		INSERT INTO domains (workspace_id, hostname, token, verified_at)
		SELECT $1, h, 'seed-' || i, now() FROM unnest($2::text[]) WITH ORDINALITY AS t (h, i) ORDER BY i
		RETURNING id`, workspaceID, hosts)
	if err == nil {
		_, err = s.db.Pool.Exec(ctx, `UPDATE domain_epoch SET n = n + 1`)
	}
	if err != nil {
		return nil, fmt.Errorf("seed: domains: %w", err)
	}
	return ids, nil
}

// Links writes the links, their tags, visit totals and health in one transaction.
func (s *Seeder) Links(ctx context.Context, links []SeedLink) error {
	tx, err := s.db.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("seed: links: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.CopyFrom(ctx, pgx.Identifier{"links"}, []string{"id", "workspace_id", "domain_id", "key", "is_alias",
		"url", "url_hash", "title", "redirect_status", "forward_query", "status", "expires_at", "created_at", "updated_at", "utm"},
		pgx.CopyFromSlice(len(links), func(i int) ([]any, error) {
			l := &links[i]
			return []any{l.ID, l.WorkspaceID, l.DomainID, l.Key, false, l.URL, urlHash(l.URL), l.Title, int16(302), false,
				l.Status, l.ExpiresAt, l.CreatedAt, l.CreatedAt, l.UTM}, nil
		}))
	if err != nil {
		return fmt.Errorf("seed: copy links: %w", err)
	}
	var tagRows, totals, health [][]any
	for i := range links {
		l := &links[i]
		for _, t := range l.TagIDs {
			tagRows = append(tagRows, []any{t, l.ID, l.Visits})
		}
		if l.Visits > 0 {
			bots, uniques := l.Bots, l.Uniques
			if bots == 0 && uniques == 0 {
				bots, uniques = l.Visits/5, l.Visits*7/10
			}
			totals = append(totals, []any{l.ID, l.WorkspaceID, l.Visits, bots, uniques})
		}
		if l.Health != "" {
			var brokenAt any
			if l.Health == "broken" {
				brokenAt = l.CreatedAt
			}
			health = append(health, []any{l.ID, l.WorkspaceID, l.URL, l.Host, l.Health, l.CreatedAt, brokenAt,
				l.CreatedAt.Add(24 * time.Hour)})
		}
	}
	copies := []struct {
		table   string
		columns []string
		rows    [][]any
	}{
		{"link_tags", []string{"tag_id", "link_id", "visits"}, tagRows},
		{"visit_totals", []string{"link_id", "workspace_id", "visits", "bots", "uniques"}, totals},
		{"link_health", []string{"link_id", "workspace_id", "url", "host", "state", "checked_at", "broken_at", "next_at"}, health},
	}
	for _, c := range copies {
		if len(c.rows) == 0 {
			continue
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.columns, pgx.CopyFromRows(c.rows)); err != nil {
			return fmt.Errorf("seed: copy %s: %w", c.table, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("seed: links: commit: %w", err)
	}
	return nil
}

// WorkspaceHours adds visits to a workspace's hours (workspace_visit_hours, the dashboard's
// rollup), a fifth as many crawlers' beside them.
func (s *Seeder) WorkspaceHours(ctx context.Context, workspaceID int64, hours []time.Time, visits []int64) error {
	_, err := s.db.Pool.Exec(ctx, `
		INSERT INTO workspace_visit_hours AS w (workspace_id, hour, visits, bots, uniques)
		SELECT $1, h, v, v / 5, v * 7 / 10 FROM unnest($2::timestamptz[], $3::bigint[]) AS t (h, v)
		ON CONFLICT (workspace_id, hour) DO UPDATE SET visits = w.visits + EXCLUDED.visits,
			bots = w.bots + EXCLUDED.bots, uniques = w.uniques + EXCLUDED.uniques`, workspaceID, hours, visits)
	if err != nil {
		return fmt.Errorf("seed: workspace hours: %w", err)
	}
	return nil
}

// Analyze vacuums the seeded tables and refreshes the planner's statistics of them, as a bulk
// load ends: otherwise autovacuum does it in the middle of what is measured next, and index-only
// scans read the table until the visibility map is set.
func (s *Seeder) Analyze(ctx context.Context) error {
	if _, err := s.db.Pool.Exec(ctx, `VACUUM (ANALYZE) links, link_tags, tags, visit_totals, link_health, workspace_visit_hours,
		visit_hours, visit_key_hours, visit_key_days, visit_key_months`); err != nil {
		return fmt.Errorf("seed: analyze: %w", err)
	}
	return nil
}
