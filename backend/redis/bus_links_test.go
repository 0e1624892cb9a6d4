package redis

import (
	"slices"
	"testing"

	"github.com/shortlink/shortlink/backend/cachesync"
)

// Many links' events travel as one message and come out as one event each, in order; a single
// event's message reads as before.
func TestLinkEventsInOneMessage(t *testing.T) {
	t.Parallel()
	refs := []cachesync.Ref{{DomainID: 1, Key: "Xb3kPq"}, {DomainID: 7, Key: "sale-2026"}, {DomainID: 1, Key: "a"}}
	got := decodeEvents(encodeLinkEvents(refs))
	want := make([]cachesync.Event, len(refs))
	for i, r := range refs {
		want[i] = cachesync.Event{Kind: cachesync.EventLink, DomainID: r.DomainID, Key: r.Key}
	}
	if !slices.Equal(got, want) {
		t.Errorf("decoded %v, want %v", got, want)
	}
	one := cachesync.Event{Kind: cachesync.EventLink, DomainID: 3, Key: "k"}
	if got := decodeEvents(encodeEvent(one)); !slices.Equal(got, []cachesync.Event{one}) {
		t.Errorf("one event: %v", got)
	}
	if got := decodeEvents("L\nnot-a-number k"); len(got) != 0 {
		t.Errorf("a line without a domain: %v", got)
	}
}
