package httpapi

import (
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
)

// TestLinkCursorRoundTrip: every listing's cursor reads back as it was written, including
// visits and IDs whose base 36 begins with "u" (30 is "u"), and a cursor of another order is
// refused, an update's in an order by visits too (its separator tells).
func TestLinkCursorRoundTrip(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 123000, time.UTC)
	for _, c := range []struct {
		sort link.Sort
		c    link.Cursor
	}{
		{link.SortMostVisited, link.Cursor{ID: 77, Visits: 30}},
		{link.SortLeastVisited, link.Cursor{ID: 30, Visits: 1080}},
		{link.SortNewest, link.Cursor{ID: 30}},
		{link.SortOldest, link.Cursor{ID: 1_400_000}},
		{link.SortRecentlyUpdated, link.Cursor{ID: 30, Updated: at}},
	} {
		s := linkCursor(&c.c, c.sort)
		got, err := parseLinkCursor(s, c.sort)
		if err != nil || *got != c.c {
			t.Errorf("%s: %q reads back as %+v, %v; want %+v", c.sort, s, got, err, c.c)
		}
	}
	// A cursor given before the update's separator changed still reads.
	if got, err := parseLinkCursor("u"+"1"+"."+"5", link.SortUpdated); err != nil || got.ID != 5 {
		t.Errorf("an update's cursor with a dot: %+v, %v", got, err)
	}
	for _, c := range []struct {
		cursor string
		sort   link.Sort
	}{
		{linkCursor(&link.Cursor{ID: 5, Updated: at}, link.SortUpdated), link.SortNewest},
		{linkCursor(&link.Cursor{ID: 5, Visits: 3}, link.SortMostVisited), link.SortUpdated},
		{linkCursor(&link.Cursor{ID: 5, Visits: 3}, link.SortMostVisited), link.SortNewest},
		{linkCursor(&link.Cursor{ID: 5}, link.SortNewest), link.SortMostVisited},
		{linkCursor(&link.Cursor{ID: 5, Updated: at}, link.SortUpdated), link.SortMostVisited},
		{linkCursor(&link.Cursor{ID: 5, Updated: at}, link.SortUpdated), link.SortLeastVisited},
	} {
		if _, err := parseLinkCursor(c.cursor, c.sort); err == nil {
			t.Errorf("%q accepted in the order %s", c.cursor, c.sort)
		}
	}
}
