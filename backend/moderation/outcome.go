package moderation

import (
	"regexp"
	"strings"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

// What a link's owner is told of its moderation (docs/moderation.md#what-the-owner-is-told):
// who decided the state, and a reason code the web app translates. The scorer's own words
// (Verdict.Reason) are for moderators only.

// Who decided a link's moderation state.
const (
	// DecidedByReview: the automatic review of the link's page.
	DecidedByReview = "review"
	// DecidedByModerator: a moderator's decision on the link.
	DecidedByModerator = "moderator"
	// DecidedByDomain: its domain's record of phishing, or a moderator's ban of the whole domain.
	DecidedByDomain = "domain"
)

// The reason codes that are not a signal of the rules nor a category.
const (
	// ReasonDomainBanned: a moderator banned the link's whole domain.
	ReasonDomainBanned = "domain_banned"
	// ReasonDomainRecord: the link took its domain's recent record (a phishing ban or passes).
	ReasonDomainRecord = "domain_record"
	// ReasonIncomplete: the reviewer could not see the page (docs/moderation.md#captures-that-failed).
	ReasonIncomplete = "incomplete"
)

// signalCodes are the reason codes of the rules' signals (worker/score), by the signal's kind.
var signalCodes = map[string]string{
	"advance-fee": "advance_fee", "blocklist": "blocklist", "card-form": "card_form", "cloaking": "cloaking",
	"copied-page": "copied_page", "crypto-giveaway": "crypto_giveaway", "fake-alert": "fake_alert",
	"hidden-text": "hidden_text", "hop": "hops", "host-words": "host_words", "ip-literal": "ip_literal",
	"look-alike": "look_alike", "password-form": "password_form", "payment-form": "payment_form",
	"posts-elsewhere": "posts_elsewhere", "punycode": "punycode", "scam": "scam_words", "secret-form": "secret_form",
	"shortener": "shortener", "ultimatum": "ultimatum",
}

// ReasonCodes are every reason code an owner may be shown, besides a moderator's standard
// reasons (Reasons): the web app has a text for each.
func ReasonCodes() []string {
	out := []string{ReasonDomainBanned, ReasonDomainRecord, ReasonIncomplete, ReasonPhishing, ReasonMalware,
		ReasonScam, ReasonSpam, ReasonAdult, ReasonCloaking}
	for _, c := range signalCodes {
		out = append(out, c)
	}
	return out
}

// leadingSignal reads the strongest signal's kind at the head of the rules' reason
// ("card-form 0.90: …; …").
var leadingSignal = regexp.MustCompile(`^([a-z-]+) [01]\.\d\d: `)

// ReviewOutcome is who decided a review's state and its reason code: the domain for a verdict
// taken from the domain (a moderator's ban of it, or its record), the review otherwise, with
// the strongest signal of the rules when they decided, else the category. "" for a pass.
func ReviewOutcome(r Review, s State) (decidedBy, code string) {
	switch {
	case r.SharedHow == "domain" && r.Shared == nil:
		return DecidedByDomain, ReasonDomainBanned
	case r.SharedHow == "domain":
		return DecidedByDomain, ReasonDomainRecord
	case s == Passed:
		return DecidedByReview, ""
	}
	return DecidedByReview, VerdictCode(r.Verdict)
}

// VerdictCode is the reason code of a verdict: the strongest signal of the rules when the
// rules decided, else its category ("" for benign).
func VerdictCode(v Verdict) string {
	if v.Category == ReasonIncomplete {
		return ReasonIncomplete
	}
	if v.Scorer == "heuristic" {
		if m := leadingSignal.FindStringSubmatch(v.Reason); m != nil {
			if c, ok := signalCodes[m[1]]; ok {
				return c
			}
		}
	}
	switch c := strings.ToLower(v.Category); c {
	case ReasonPhishing, ReasonMalware, ReasonScam, ReasonSpam, ReasonAdult, ReasonCloaking:
		return c
	}
	return ""
}

// The outcomes of an appeal, as its owner reads them.
const (
	AppealOpen     = "open"
	AppealUpheld   = "upheld"
	AppealRejected = "rejected"
)

// AppealOutcome is what a moderator's action answers an open appeal: approving or lifting the
// ban upholds it; a ban, or the ban kept, rejects it.
func AppealOutcome(a Action) string {
	if s, _ := a.State(); s == Banned {
		return AppealRejected
	}
	return AppealUpheld
}

// CheckAction refuses an action the link's facts do not allow: only a banned link's ban can be
// kept.
func CheckAction(f Facts, a Action) error {
	if a == KeepBan && f.Status != link.StatusBanned {
		return apperr.Errorf(apperr.Conflict, "only a banned link's ban can be kept; this link is %s", f.Status).
			For("link_not_banned", "action")
	}
	return nil
}
