package moderation

import (
	"strings"
	"unicode/utf8"
)

// A review that saw nothing never passes (docs/moderation.md, "Captures that failed"). A
// capture that failed, timed out or came back nearly empty says nothing of what the
// destination shows its visitors: a cloaking site may fail on purpose for a reviewer. Such a
// review is tried again after a backoff while the link keeps its state, and after the last
// try the link goes to a moderator with the reason.

// CategoryIncomplete is the category of a review whose captures were incomplete after every
// try: the link is flagged for a moderator, whatever the scorer found in what there was.
const CategoryIncomplete = "incomplete"

// nearlyEmpty is the least a page shows to count as seen: visible characters of its title,
// description and text together, when it has no form either.
const nearlyEmpty = 10

// Blind lists, per visitor, why its capture is no evidence of what the destination is
// ("wechat: timeout", "desktop: nearly empty page"); nil when every visitor saw the page. A
// capture refused by the guard is not blind (the refusal is what there is to know: see
// Refused), nor is a download the browser stopped.
func Blind(captures []Capture) []string {
	var out []string
	for _, c := range captures {
		if why := blindness(c); why != "" {
			out = append(out, string(c.Profile)+": "+why)
		}
	}
	if len(captures) == 0 {
		out = append(out, "no capture")
	}
	return out
}

func blindness(c Capture) string {
	switch {
	case strings.HasPrefix(c.Error, "refused: "), strings.HasPrefix(c.Error, "download blocked"):
		return ""
	case c.Error != "":
		return cutText(c.Error, 120)
	case len(c.Forms) == 0 && utf8.RuneCountInString(strings.TrimSpace(c.Title+c.Description+c.Text)) < nearlyEmpty:
		return "nearly empty page"
	}
	return ""
}

// Refused lists, per visitor, the guard's refusals of the destination or of a hop on the way
// ("desktop: refused: private address 10.0.0.1"): a link the reviewer may not open never passes,
// and trying again changes nothing.
func Refused(captures []Capture) []string {
	var out []string
	for _, c := range captures {
		if strings.HasPrefix(c.Error, "refused: ") {
			out = append(out, string(c.Profile)+": "+cutText(c.Error, 120))
		}
	}
	return out
}

// Unseen is the verdict of the last try of a review that could not see the destination (why:
// Blind's or Refused's list): the scorer's verdict when it flags or bans the link on what there
// was, otherwise a flag for a moderator at the review score with the reason.
func Unseen(v Verdict, why []string, t Thresholds) Verdict {
	if len(why) == 0 || t.StateOf(v) != Passed {
		return v
	}
	reason := "the reviewer could not see the page (" + strings.Join(why, "; ") + ")"
	if v.Reason != "" {
		v.Notes = append(v.Notes, "the scorer, on what there was: "+cutText(v.Reason, 300))
	}
	v.Score, v.Category, v.Reason = t.Review, CategoryIncomplete, cutText(reason, 500)
	return v
}

// cutText is s cut to at most n runes, with "…" when cut.
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
