package moderation

import (
	"net"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"
)

// RegistrableDomain is the domain a destination's host was registered under, by the public
// suffix list with its private section: "a.example.co.uk" is "example.co.uk", and each site of
// github.io is its own ("alice.github.io"). An IP address is itself; "" when raw has no host.
func RegistrableDomain(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return ""
	}
	if net.ParseIP(host) != nil {
		return host
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}

// DomainVerdict is one recent review of a domain that opened the browser (a shared one never
// counts: a domain's reputation rests on what was seen).
type DomainVerdict struct {
	Shared
	State State
}

// Reputation is how a domain's recent verdicts shape the review of a new link to it.
type Reputation struct {
	// Run is how many passes in a row, and nothing flagged or banned among the recent
	// verdicts, make a domain trusted (MODERATION_DOMAIN_RUN, default 5).
	Run int
	// Sample is one in how many new links of a trusted domain are still reviewed at creation
	// (MODERATION_DOMAIN_SAMPLE, default 10); the rest pass on the domain's record and are
	// reviewed at their first visit milestone, as every link is.
	Sample int
	// TTL is how old a verdict may be and still count (MODERATION_VERDICT_TTL).
	TTL time.Duration
}

// DefaultReputation are the defaults.
var DefaultReputation = Reputation{Run: 5, Sample: 10, TTL: DefaultVerdictTTL}

// Plan is what is done with a due review before the browser is opened.
type Plan int

// The plans: open the browser; pass on the domain's record; ban on the domain's record.
const (
	PlanReview Plan = iota
	PlanPass
	PlanBan
)

// Plan decides a due review from its domain's recent verdicts (newest first, within TTL).
// Only a new link or a new destination is ever decided on the record: a visit milestone, a
// moderator's request or an appeal always opens the browser. A domain whose newest verdict is
// a phishing ban, and no pass among its recent verdicts (Holds), has the new links that were
// queued before that ban banned on it (the warning page; the owner may appeal, a moderator may
// clear the domain); links made after it are held at their creation and reviewed themselves
// (reason ReasonHeld, below). A domain
// that also passed pages (a platform whose users publish pages: one form phishing among many
// honest ones) has its new links reviewed one by one instead. A domain with Run
// passes in a row and nothing flagged or banned among its recent verdicts has one link in Sample
// reviewed and the rest passed. The verdict returned is the one the link takes.
//
// A moderator's decision on the domain (decided: DomainBanned, DomainCleared or "") comes
// first: a banned domain's new links are banned (with no verdict to take: the moderator's ban
// is the reason), a cleared domain's phishing bans no longer ban its new links.
//
// A held link (reason ReasonHeld: made while Holds said its domain is held) is never decided on
// the record: it was held so that it is reviewed itself. Only a moderator's ban of its domain
// bans it at once.
func (r Reputation) Plan(reason string, linkID int64, decided string, recent []DomainVerdict) (Plan, *DomainVerdict) {
	if !MayShare(reason) {
		return PlanReview, nil
	}
	if decided == DomainBanned {
		return PlanBan, nil
	}
	if len(recent) == 0 || reason == ReasonHeld {
		return PlanReview, nil
	}
	latest := recent[0]
	if latest.State == Banned && latest.Verdict.Category == "phishing" {
		if !r.Holds(decided, recent) {
			return PlanReview, nil
		}
		return PlanBan, &latest
	}
	run := max(r.Run, 1)
	if len(recent) < run {
		return PlanReview, nil
	}
	for _, v := range recent {
		if v.State != Passed {
			return PlanReview, nil
		}
	}
	if r.Sample > 1 && linkID%int64(r.Sample) != 0 {
		return PlanPass, &latest
	}
	return PlanReview, nil
}

// Holds says whether a domain's new links are held at their creation (link.StatusHeld), by its
// recent verdicts (newest first, within TTL) and a moderator's decision on it: the newest is a
// phishing ban, none passed, and no moderator cleared the domain. A moderator's ban holds them
// too, but that is read from the decision itself, not from here.
func (r Reputation) Holds(decided string, recent []DomainVerdict) bool {
	if decided == DomainCleared || len(recent) == 0 {
		return false
	}
	latest := recent[0]
	return latest.State == Banned && latest.Verdict.Category == "phishing" && !anyPassed(recent)
}

// RecordSize is how many of a domain's newest verdicts Plan and Holds are given.
func (r Reputation) RecordSize() int { return max(r.Run, 1) * 2 }

// anyPassed says whether one of the verdicts passed its page.
func anyPassed(recent []DomainVerdict) bool {
	for _, v := range recent {
		if v.State == Passed {
			return true
		}
	}
	return false
}
