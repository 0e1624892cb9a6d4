package moderation

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// DomainHeld is the state of a domain its record of phishing bans holds (its new links are held
// for their own review), beside a moderator's DomainBanned and DomainCleared
// (docs/moderation.md#held-links).
const DomainHeld = "held"

// DomainEntry is a domain as the desk lists it: the moderator's decision (Actor, Note), or, held,
// the review whose ban holds it and until when; and how many links have a review of a page on it.
type DomainEntry struct {
	DomainDecision
	// Links counts the links with a review of a page on the domain.
	Links int64
	// HeldUntil is when a held domain's ban leaves its record; Review is that ban.
	HeldUntil *time.Time
	Review    *ReviewSummary
}

// Place is where the entry stands in the list: a page continues after its last entry's.
func (e *DomainEntry) Place() DomainCursor { return DomainCursor{At: e.UpdatedAt, Domain: e.Domain} }

// DomainCursor is a place in the list of domains: the latest first, then by name.
type DomainCursor struct {
	At     time.Time
	Domain string
}

// String encodes the cursor for clients, who treat it as opaque.
func (c DomainCursor) String() string {
	return strconv.FormatInt(c.At.UnixMicro(), 36) + "." + c.Domain
}

// ParseDomainCursor decodes a cursor made by String; "" is the first page (a zero cursor).
func ParseDomainCursor(s string) (DomainCursor, error) {
	if s == "" {
		return DomainCursor{}, nil
	}
	at, domain, ok := strings.Cut(s, ".")
	us, err := strconv.ParseInt(at, 36, 64)
	if !ok || err != nil || us <= 0 || domain == "" {
		return DomainCursor{}, apperr.Errorf(apperr.Invalid, "cursor %q is not valid", s).For("value_invalid", "cursor")
	}
	return DomainCursor{At: time.UnixMicro(us), Domain: domain}, nil
}

// DomainLister lists the domains in some states (package postgres).
type DomainLister interface {
	// DomainList returns up to limit entries in states after the cursor (zero: from the start),
	// the latest first.
	DomainList(ctx context.Context, states []string, after DomainCursor, limit int) ([]DomainEntry, error)
}

// DomainList returns a page of the domains in state (banned, held or cleared; "" lists banned
// and held, the domains whose new links are stopped), the latest first, and the cursor of the
// next page (nil when there is none).
func (d *Desk) DomainList(ctx context.Context, state string, after DomainCursor, limit int) ([]DomainEntry, *DomainCursor, error) {
	if err := checkLimit(limit); err != nil {
		return nil, nil, err
	}
	var states []string
	switch state {
	case "":
		states = []string{DomainBanned, DomainHeld}
	case DomainBanned, DomainHeld, DomainCleared:
		states = []string{state}
	default:
		return nil, nil, apperr.Errorf(apperr.Invalid, "state must be banned, held or cleared").For("value_invalid", "state")
	}
	dl, ok := d.store.(DomainLister)
	if !ok {
		return nil, nil, errors.New("domain decisions are not stored")
	}
	list, err := dl.DomainList(ctx, states, after, limit+1)
	if err != nil {
		return nil, nil, err
	}
	if len(list) > limit {
		next := list[limit-1].Place()
		return list[:limit], &next, nil
	}
	return list, nil, nil
}
