package postgres

import (
	"context"
	"fmt"
	"iter"

	"github.com/jackc/pgx/v5"
)

// pages yields the rows of a query read a page of size rows at a time, so the connection goes
// back to the pool between pages: query runs the page after last (nil for the first), scan
// reads a row, and a page shorter than size is the last. An error is wrapped with what and
// ends the sequence.
func pages[T any](size int, what string, query func(last *T) (pgx.Rows, error),
	scan pgx.RowToFunc[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var last *T
		for {
			rows, err := query(last)
			var page []T
			if err == nil {
				page, err = pgx.CollectRows(rows, scan)
			}
			if err != nil {
				var zero T
				yield(zero, fmt.Errorf("%s: %w", what, err))
				return
			}
			for _, v := range page {
				if !yield(v, nil) {
					return
				}
			}
			if len(page) < size {
				return
			}
			last = &page[len(page)-1]
		}
	}
}

// queryAll runs a query on q and scans every row it returns: an empty slice when there are
// none.
func queryAll[T any](ctx context.Context, q querier, scan pgx.RowToFunc[T], sql string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scan)
}

// trimPage cuts a page read with one row more than limit back to limit, and says whether that
// row was there: whether more pages follow.
func trimPage[T any](page []T, limit int) ([]T, bool) {
	if len(page) > limit {
		return page[:limit], true
	}
	return page, false
}

// asRow lets a scanner of one row read each row of a query.
func asRow[T any](scan func(pgx.Row) (T, error)) pgx.RowToFunc[T] {
	return func(r pgx.CollectableRow) (T, error) { return scan(r) }
}
