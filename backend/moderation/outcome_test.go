package moderation

import (
	"errors"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

func TestReviewOutcome(t *testing.T) {
	rules := Verdict{Score: 0.9, Category: "phishing", Scorer: "heuristic",
		Reason: "card-form 0.90: desktop is asked for a payment card on a look-alike host; look-alike 0.60: …"}
	for _, c := range []struct {
		name     string
		r        Review
		s        State
		by, code string
	}{
		{"the rules' strongest signal", Review{Verdict: rules}, Banned, DecidedByReview, "card_form"},
		{"scam words are not the scam category", Review{Verdict: Verdict{Category: "scam", Scorer: "heuristic", Reason: "scam 0.45: …"}}, Flagged, DecidedByReview, "scam_words"},
		{"the model's category", Review{Verdict: Verdict{Score: 0.95, Category: "Malware", Scorer: "model", Reason: "drops an exe"}}, Banned, DecidedByReview, "malware"},
		{"an unknown signal falls back to the category", Review{Verdict: Verdict{Category: "spam", Scorer: "heuristic", Reason: "new-kind 0.70: …"}}, Flagged, DecidedByReview, "spam"},
		{"a page the reviewer could not see", Review{Verdict: Verdict{Category: "incomplete", Scorer: "heuristic"}}, Flagged, DecidedByReview, "incomplete"},
		{"a pass says nothing", Review{Verdict: Verdict{Category: "benign", Scorer: "heuristic"}}, Passed, DecidedByReview, ""},
		{"a moderator's ban of the domain", Review{Verdict: rules, SharedHow: "domain"}, Banned, DecidedByDomain, ReasonDomainBanned},
		{"the domain's record", Review{Verdict: rules, SharedHow: "domain", Shared: &Shared{}}, Banned, DecidedByDomain, ReasonDomainRecord},
		{"the same destination's review is a review", Review{Verdict: rules, SharedHow: "destination", Shared: &Shared{}}, Banned, DecidedByReview, "card_form"},
	} {
		if by, code := ReviewOutcome(c.r, c.s); by != c.by || code != c.code {
			t.Errorf("%s: %s %s, want %s %s", c.name, by, code, c.by, c.code)
		}
	}
}

func TestAppealAnswers(t *testing.T) {
	for a, want := range map[Action]string{Approve: AppealUpheld, Unban: AppealUpheld, Ban: AppealRejected, KeepBan: AppealRejected} {
		if got := AppealOutcome(a); got != want {
			t.Errorf("%s: %s, want %s", a, got, want)
		}
	}
	if err := CheckAction(Facts{Status: link.StatusBanned}, KeepBan); err != nil {
		t.Errorf("keep the ban of a banned link: %v", err)
	}
	var e *apperr.Error
	if err := CheckAction(Facts{Status: link.StatusActive}, KeepBan); !errors.As(err, &e) || e.Code != apperr.Conflict || e.Reason != "link_not_banned" {
		t.Errorf("keep the ban of an active link: %v", err)
	}
	r := Decide(Facts{Status: link.StatusBanned, URL: "https://a.example/", ReviewedURL: "https://a.example/"}, Judgement{Action: KeepBan}, DefaultThresholds)
	if r.State != Banned || r.Status != link.StatusBanned || r.StatusChanged || r.Action != "keep_ban" {
		t.Errorf("keep the ban: %+v", r)
	}
}
