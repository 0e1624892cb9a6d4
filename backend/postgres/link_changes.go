package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
)

// LinkChanges is the feed of committed link changes (written by a trigger on links) and of
// reserved IDs, which every node reads to keep its caches current.
type LinkChanges struct{ db *DB }

// NewLinkChanges returns the feeds over db.
func NewLinkChanges(db *DB) *LinkChanges { return &LinkChanges{db: db} }

var (
	_ cachesync.Feed         = (*LinkChanges)(nil)
	_ cachesync.Store        = (*LinkChanges)(nil)
	_ cachesync.Reservations = (*LinkChanges)(nil)
	_ cachesync.Replays      = (*LinkChanges)(nil)
)

// Latest implements cachesync.Feed.
func (s *LinkChanges) Latest(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.Pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM link_changes`).Scan(&n); err != nil {
		return 0, fmt.Errorf("latest link change: %w", err)
	}
	return n, nil
}

// After implements cachesync.Feed.
func (s *LinkChanges) After(ctx context.Context, after int64, gaps []int64, limit int) ([]cachesync.Change, error) {
	changes, err := queryAll(ctx, s.db.Pool, func(r pgx.CollectableRow) (cachesync.Change, error) {
		var c cachesync.Change
		return c, r.Scan(&c.Seq, &c.DomainID, &c.Key, &c.Version, &c.Deleted)
	}, `
		SELECT seq, domain_id, key, version, deleted FROM link_changes
		WHERE seq > $1 OR seq = ANY($2)
		ORDER BY seq LIMIT $3`, after, gaps, limit)
	if err != nil {
		return nil, fmt.Errorf("read link changes: %w", err)
	}
	return changes, nil
}

// ResolveMany implements cachesync.Store: the redirect lookup for many keys at once.
func (s *LinkChanges) ResolveMany(ctx context.Context, refs []cachesync.Ref) ([]*link.Link, error) {
	domains := make([]int64, len(refs))
	keys := make([]string, len(refs))
	for i, r := range refs {
		domains[i], keys[i] = r.DomainID, r.Key
	}
	links, err := queryAll(ctx, s.db.Pool, asRow(scanLink), `SELECT `+linkColumns+` FROM links
		WHERE (domain_id, key) IN (SELECT * FROM unnest($1::bigint[], $2::text[]))`, domains, keys)
	if err != nil {
		return nil, fmt.Errorf("resolve changed links: %w", err)
	}
	return links, nil
}

// FirstSince implements cachesync.Replays.
func (s *LinkChanges) FirstSince(ctx context.Context, age time.Duration) (int64, error) {
	var n int64
	err := s.db.Pool.QueryRow(ctx, `SELECT coalesce(
			(SELECT min(seq) FROM link_changes WHERE changed_at >= now() - make_interval(secs => $1)),
			(SELECT coalesce(max(seq), 0) + 1 FROM link_changes))`, age.Seconds()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("first link change since: %w", err)
	}
	return n, nil
}

// PurgeBefore deletes the changes older than t: every cache has applied them long since.
func (s *LinkChanges) PurgeBefore(ctx context.Context, t time.Time) (int64, error) {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM link_changes WHERE changed_at < $1`, t)
	if err != nil {
		return 0, fmt.Errorf("purge link changes: %w", err)
	}
	return tag.RowsAffected(), nil
}

// LatestReservation implements cachesync.Reservations.
func (s *LinkChanges) LatestReservation(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.Pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM reserved_ids`).Scan(&n); err != nil {
		return 0, fmt.Errorf("latest reservation: %w", err)
	}
	return n, nil
}

// ReservedAbove implements cachesync.Reservations.
func (s *LinkChanges) ReservedAbove(ctx context.Context, min int64) ([]int64, error) {
	ids, err := queryAll(ctx, s.db.Pool, pgx.RowTo[int64], `SELECT id FROM reserved_ids WHERE id > $1`, min)
	if err != nil {
		return nil, fmt.Errorf("list reserved ids: %w", err)
	}
	return ids, nil
}

// ReservedAfter implements cachesync.Reservations.
func (s *LinkChanges) ReservedAfter(ctx context.Context, after int64, gaps []int64, limit int) ([]cachesync.Reservation, error) {
	rs, err := queryAll(ctx, s.db.Pool, func(r pgx.CollectableRow) (cachesync.Reservation, error) {
		var x cachesync.Reservation
		return x, r.Scan(&x.Seq, &x.ID)
	}, `
		SELECT seq, id FROM reserved_ids WHERE seq > $1 OR seq = ANY($2) ORDER BY seq LIMIT $3`, after, gaps, limit)
	if err != nil {
		return nil, fmt.Errorf("read reservations: %w", err)
	}
	return rs, nil
}
