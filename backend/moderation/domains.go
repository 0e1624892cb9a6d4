package moderation

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/apperr"
)

// A moderator's decision on a whole registrable domain (docs/moderation.md#moderation-at-scale): banned,
// its new links are banned at once; cleared, its record of phishing bans no longer bans its new
// links (each is reviewed). Both are audited in the moderators' audit log.
const (
	DomainBanned  = "banned"
	DomainCleared = "cleared"
)

// The audit log's actions of a domain decision.
const (
	ActionBanDomain   = "ban_domain"
	ActionClearDomain = "clear_domain"
)

// DomainDecision is a domain's standing decision.
type DomainDecision struct {
	Domain string
	State  string
	// Category is what a banned domain's links are banned as (one of Reasons); "" when cleared.
	Category  string
	Note      string
	Actor     *Actor
	UpdatedAt time.Time
}

// DefaultDomainCategory is the category of a domain ban that names none: what every domain ban
// was before a ban named its own.
const DefaultDomainCategory = ReasonPhishing

// DomainCategory is the category a ban of a whole domain gives its links: one of a link ban's
// standard reasons (Reasons), DefaultDomainCategory when category is "" (category_unknown
// otherwise).
func DomainCategory(category string) (string, error) {
	c := strings.TrimSpace(category)
	if c == "" {
		return DefaultDomainCategory, nil
	}
	if !slices.Contains(Reasons, c) {
		return "", apperr.Errorf(apperr.Invalid, "category must be one of %s", strings.Join(Reasons, ", ")).
			For("category_unknown", "category")
	}
	return c, nil
}

// DomainStore keeps the domain decisions (package postgres).
type DomainStore interface {
	// SetDomain records the decision, with the category of a ban ("" for a clear), and its
	// audit log entry in one transaction.
	SetDomain(ctx context.Context, domain, state, category string, actorID int64, note string) (*DomainDecision, error)
}

// ParseDomain is the registrable domain a moderator names: a bare host name already
// registrable ("example.com", "alice.github.io"), in any case; hostname_invalid otherwise.
func ParseDomain(s string) (string, error) {
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	bad := d == "" || len(d) > 253 || strings.ContainsAny(d, "/:@?#[] \\") || !strings.Contains(d, ".") ||
		net.ParseIP(d) != nil
	if !bad {
		etld1, err := publicsuffix.EffectiveTLDPlusOne(d)
		bad = err != nil || etld1 != d
	}
	if bad {
		return "", apperr.Errorf(apperr.Invalid, "the domain must be a registrable domain name such as example.com (a site of a shared host such as alice.github.io counts as one)").For("hostname_invalid", "domain")
	}
	return d, nil
}

// SetDomain bans or clears a whole domain; note is the moderator's private note (at most
// MaxNote characters); category, of a ban only, what its links are banned as (DomainCategory).
func (d *Desk) SetDomain(ctx context.Context, actorID int64, domain, state, category, note string) (*DomainDecision, error) {
	name, err := ParseDomain(domain)
	if err != nil {
		return nil, err
	}
	if err := checkText("note", note, 0, MaxNote); err != nil {
		return nil, err
	}
	switch {
	case state == DomainBanned:
		if category, err = DomainCategory(category); err != nil {
			return nil, err
		}
	case category != "":
		return nil, apperr.Errorf(apperr.Invalid, "only a ban of a domain takes a category").For("value_invalid", "category")
	}
	ds, ok := d.store.(DomainStore)
	if !ok {
		return nil, errors.New("domain decisions are not stored")
	}
	return ds.SetDomain(ctx, name, state, category, actorID, note)
}
