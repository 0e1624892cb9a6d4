package postgres

import (
	"fmt"
	"iter"

	"github.com/jackc/pgx/v5"
)

// pages yields the rows of a query read a page of size rows at a time, so the connection goes
// back to the pool between pages: query runs the page after last (nil for the first), scan
// reads a row, and a page shorter than size is the last. An error is wrapped with what and
// ends the sequence.
func pages[T any](size int, what string, query func(last *T) (pgx.Rows, error),
	scan func(pgx.Rows) (T, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var last *T
		for {
			rows, err := query(last)
			var page []T
			if err == nil {
				page, err = collect(rows, scan)
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
