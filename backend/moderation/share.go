package moderation

import (
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Destinations normalise destinations so that links to one page share one review (docs/moderation.md#moderation-at-scale,
// verdicts shared by destination): two links whose destinations differ only in tracking
// parameters, in the order of their query parameters, in the case of the scheme and host, in
// a default port or in a fragment are the same page to moderation. A different path, or any
// parameter that is not a tracking one, is a different page.
type Destinations struct {
	// Tracking are parameter names dropped besides DefaultTracking
	// (MODERATION_TRACKING_PARAMS); a name ending in "*" is a prefix.
	Tracking []string
}

// DefaultTracking are the tracking parameters always dropped.
var DefaultTracking = []string{"utm_*", "fbclid", "gclid", "mc_*", "ref"}

// Normalise is the destination as moderation shares it, "" when raw is not an absolute http or
// https URL (such a link is reviewed on its own).
func (d Destinations) Normalise(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	var kept []string
	for p := range strings.SplitSeq(u.RawQuery, "&") {
		if p == "" {
			continue
		}
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if d.tracking(name) {
			continue
		}
		kept = append(kept, p)
	}
	slices.Sort(kept)
	out := scheme + "://"
	if u.User != nil {
		out += u.User.String() + "@"
	}
	out += host + path
	if len(kept) > 0 {
		out += "?" + strings.Join(kept, "&")
	}
	return out
}

// tracking says whether a query parameter of that name only tracks the visitor.
func (d Destinations) tracking(name string) bool {
	name = strings.ToLower(name)
	for _, list := range [][]string{DefaultTracking, d.Tracking} {
		for _, t := range list {
			t = strings.ToLower(strings.TrimSpace(t))
			if p, ok := strings.CutSuffix(t, "*"); ok {
				if p != "" && strings.HasPrefix(name, p) {
					return true
				}
			} else if t != "" && name == t {
				return true
			}
		}
	}
	return false
}

// MayShare says whether a review asked for that reason may take a recent review of the same
// destination instead of opening the browser: a new link, or a new destination, may. A visit
// milestone never does (it is there to catch pages that changed after they were reviewed), nor
// does a moderator's request or an appeal.
func MayShare(reason string) bool {
	return reason == "created" || reason == "target_changed" || reason == ReasonHeld
}

// ReasonHeld is the due reason of a held link (link.StatusHeld): a review of its own, served
// with LeadRequested, that may take a recent review of the very same destination but never
// its domain's record.
const ReasonHeld = "held"

// DefaultVerdictTTL is how long a review is shared with other links to its destination
// (MODERATION_VERDICT_TTL).
const DefaultVerdictTTL = 24 * time.Hour

// Shared is a recent review of a destination, taken by another link.
type Shared struct {
	ReviewID, LinkID, WorkspaceID int64
	ReviewedAt                    time.Time
	Verdict                       Verdict
}

// Reuse is what a link's owner is told of a review it took from another link: the review and
// its link only when both are in the owner's workspace, otherwise only that a shared review
// was reused, and when it was made.
type Reuse struct {
	ReviewID   *int64
	LinkID     *int64
	ReviewedAt time.Time
}

// ReuseFor is the Reuse a link of workspace ws is told of s.
func ReuseFor(s Shared, ws int64) Reuse {
	r := Reuse{ReviewedAt: s.ReviewedAt}
	if s.WorkspaceID == ws {
		r.ReviewID, r.LinkID = &s.ReviewID, &s.LinkID
	}
	return r
}
