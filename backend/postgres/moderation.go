// The moderation store (moderation.Store, DomainStore, DeskStore) on PostgreSQL; its
// statements are in one file per aggregate: moderation_due.go, moderation_reviews.go,
// moderation_decisions.go, moderation_holds.go, moderation_domains.go, moderation_appeals.go.

package postgres

import (
	"github.com/shortlink/shortlink/backend/moderation"
)

// Moderation implements moderation.Store: the due list, the reviews and their decisions.
type Moderation struct {
	db *DB
	// afterDueInsert, when set (tests), runs inside DueCreated between its insert of new due
	// rows and its second look for reviews committed meanwhile.
	afterDueInsert func()
}

// NewModeration returns the PostgreSQL moderation store.
func NewModeration(db *DB) *Moderation { return &Moderation{db: db} }

var _ moderation.Store = (*Moderation)(nil)

var _ moderation.DomainStore = (*Moderation)(nil)

var _ moderation.DeskStore = (*Moderation)(nil)
