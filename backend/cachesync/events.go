package cachesync

// Event is one message on the invalidation bus, which every node listens to.
type Event struct {
	Kind     EventKind
	DomainID int64  // EventLink
	Key      string // EventLink
	ID       int64  // EventIssued, EventReserved, EventKeyRevoked, EventWorkspaceGone, EventDomain, EventSessionsEnded
}

// EventKind says what an Event announces.
type EventKind byte

// The events every node listens to.
const (
	// EventLink: the link at (DomainID, Key) changed or was deleted; drop local copies.
	EventLink EventKind = 'l'
	// EventIssued: IDs up to ID have been handed out to some node.
	EventIssued EventKind = 'h'
	// EventReserved: ID's code is now a custom alias.
	EventReserved EventKind = 'r'
	// EventKeyRevoked: the API key ID was revoked; drop cached copies.
	EventKeyRevoked EventKind = 'k'
	// EventWorkspaceGone: the workspace ID was deleted; its links stop answering.
	EventWorkspaceGone EventKind = 'w'
	// EventDomain: the custom domain ID was verified, edited or removed; reload the host table.
	EventDomain EventKind = 'd'
	// EventSessionsEnded: sessions were signed out; forget what is remembered of sessions being
	// live (ID is 0).
	EventSessionsEnded EventKind = 'e'
	// EventResync: the subscription was (re)established and messages may have been missed.
	EventResync EventKind = 's'
)
