package cachesync

import (
	"context"
	"time"
)

// Reservation is one entry of the reservations feed: ID's code is a custom alias.
type Reservation struct {
	Seq int64
	ID  int64
}

// Reservations reads the reserved IDs, the codes that aliases took before they were issued.
type Reservations interface {
	// LatestReservation is the newest reservation's sequence number (0 if none).
	LatestReservation(ctx context.Context) (int64, error)
	// ReservedAbove lists every reserved ID above min.
	ReservedAbove(ctx context.Context, min int64) ([]int64, error)
	// ReservedAfter returns up to limit reservations numbered above after or in gaps.
	ReservedAfter(ctx context.Context, after int64, gaps []int64, limit int) ([]Reservation, error)
}

// Reserver is the redirect path's set of reserved IDs.
type Reserver interface {
	Reserve(id int64)
}

// ReservationSync reads the reservations feed incrementally: once in full at start, then only
// what is new, so that a thousand aliases cost one read each rather than one per round.
type ReservationSync struct {
	feed Reservations
	to   Reserver
	cur  cursor
}

// NewReservationSync returns the reader of feed into to.
func NewReservationSync(feed Reservations, to Reserver) *ReservationSync {
	return &ReservationSync{feed: feed, to: to}
}

// Start loads every reservation above issued (those below are never looked up) and positions
// the reader at the feed's end.
func (r *ReservationSync) Start(ctx context.Context, issued int64) error {
	latest, err := r.feed.LatestReservation(ctx)
	if err != nil {
		return err
	}
	ids, err := r.feed.ReservedAbove(ctx, issued)
	if err != nil {
		return err
	}
	for _, id := range ids {
		r.to.Reserve(id)
	}
	r.cur = newCursor(latest)
	return nil
}

// Round reads the reservations made since the last round.
func (r *ReservationSync) Round(ctx context.Context) error {
	for {
		rs, err := r.feed.ReservedAfter(ctx, r.cur.after, r.cur.gapList(), batch)
		if err != nil {
			return err
		}
		seqs := make([]int64, len(rs))
		for i, x := range rs {
			seqs[i] = x.Seq
			r.to.Reserve(x.ID)
		}
		_ = r.cur.advance(seqs, time.Now()) // a missed reservation is read again in full at the next start
		if len(rs) < batch {
			return nil
		}
	}
}
