package moderation

import "time"

// The queue's order (docs/moderation.md): what is due is served by its score, the earliest
// first, and a reason's lead moves it ahead of what fell due at the same time. A moderator's
// request, an appeal and a held link go before a link that people visit, which goes before a new link; new
// links of one workspace are spread out by their rank among that workspace's new links in the
// batch, so that a big import does not starve another workspace's single create.
const (
	LeadRequested = time.Hour
	LeadVisits    = 10 * time.Minute
	// CreatedSpread is the distance between consecutive new links of one workspace.
	CreatedSpread = 20 * time.Millisecond
)

// Lead is how far ahead of its due time a review for that reason is served.
func Lead(reason string) time.Duration {
	switch reason {
	case "requested", "appeal", ReasonHeld:
		return LeadRequested
	case "visits":
		return LeadVisits
	}
	return 0
}

// Prioritise gives each due review its place in the queue: its due time less its reason's
// lead, and for new links, plus CreatedSpread times its rank among its workspace's new links
// in due (in the order given). It returns a copy.
func Prioritise(due []Due) []Due {
	out := make([]Due, len(due))
	rank := map[int64]int{}
	for i, d := range due {
		d.At = d.At.Add(-Lead(d.Reason))
		if d.Reason == "created" {
			d.At = d.At.Add(time.Duration(rank[d.WorkspaceID]) * CreatedSpread)
			rank[d.WorkspaceID]++
		}
		out[i] = d
	}
	return out
}
