package audit

import (
	"net/url"
	"strconv"
	"strings"
)

// Names are what an event's actor and target are called when the log is read
// (docs/api.md#names-in-the-log). They are found within the event's workspace alone:
// a person is named while they are its member, a key or a link while it is the workspace's.
type Names struct {
	// ActorEmail is the acting user's address now, and ActorName the name the workspace's
	// identity provider gives them; both "" once they are no longer a member.
	ActorEmail string
	ActorName  string
	// KeyName is the acting API key's name.
	KeyName string
	// Target is what the event's target is called.
	Target TargetName
}

// TargetName names an event's target.
type TargetName struct {
	// Kind and ID are the parts of the event's Target ("link" and 7 of "link:7"); ID is 0
	// for a target without one.
	Kind string `json:"kind"`
	ID   int64  `json:"id"`
	// Label is what the target is called: a link's short URL, a member's or an invitation's
	// address, a workspace's, key's, template's or token's name, a domain's hostname, a
	// webhook's host; "" when nothing names it.
	Label string `json:"label"`
	// Detail says more: a link's destination host, a member's name.
	Detail string `json:"detail,omitempty"`
	// Exists says the target is still there; the label of one gone is what the events
	// recorded of it.
	Exists bool `json:"exists"`
}

// Found is a target as the store read it, before it is named.
type Found struct {
	Kind string
	ID   int64
	// Found says the target's row was found in the event's workspace; Label, Detail and
	// DomainID are then its columns (a link's key, destination and domain; a webhook's URL;
	// a member's address and name; another target's name). Exists says it is still in use
	// (a removed domain or a revoked key keeps its row).
	Found    bool
	Exists   bool
	Label    string
	Detail   string
	DomainID int64
	// Recorded are the details of the workspace's latest event that named the target (its
	// address, hostname, name, URL or short URL), for a target that is gone.
	Recorded map[string]any
}

// SplitTarget parses "<kind>:<id>"; a target without an ID gives the whole as kind and 0.
func SplitTarget(target string) (string, int64) {
	kind, id, ok := strings.Cut(target, ":")
	if !ok {
		return target, 0
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return target, 0
	}
	return kind, n
}

// NameTarget names a found target; shortURL is the short URL of a link's key on its domain.
func NameTarget(f Found, shortURL func(domainID int64, key string) string) TargetName {
	n := TargetName{Kind: f.Kind, ID: f.ID, Exists: f.Exists}
	if f.Found {
		switch f.Kind {
		case "link":
			n.Label, n.Detail = shortURL(f.DomainID, f.Label), Host(f.Detail)
		case "webhook":
			n.Label = Host(f.Label)
		default:
			n.Label, n.Detail = f.Label, f.Detail
		}
		return n
	}
	text := func(k string) string { s, _ := f.Recorded[k].(string); return s }
	switch {
	case text("short_url") != "":
		n.Label, n.Detail = text("short_url"), text("destination_host")
	case text("email") != "":
		n.Label = text("email")
	case text("hostname") != "":
		n.Label = text("hostname")
	case text("name") != "":
		n.Label = text("name")
	case text("url") != "":
		n.Label = Host(text("url"))
	}
	return n
}

// RecordedKeys are the details an event keeps that name its target once the target is gone.
var RecordedKeys = []string{"short_url", "email", "hostname", "name", "url"}

// Host is the host of an address, "" if it has none.
func Host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
