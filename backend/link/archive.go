// Archived links: hidden from the default listing, still redirecting (docs/api.md#archived-links).

package link

import "time"

// archivedAt is a new link's ArchivedAt: at when it is made archived, nil otherwise.
func archivedAt(archived bool, at time.Time) *time.Time {
	if !archived {
		return nil
	}
	return &at
}
