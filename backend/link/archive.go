// Archived links: hidden from the default listing, still redirecting (docs/api.md#archived-links).

package link

import (
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// archivedAt is a new link's ArchivedAt: at when it is made archived, nil otherwise.
func archivedAt(archived bool, at time.Time) *time.Time {
	if !archived {
		return nil
	}
	return &at
}

// checkStates refuses a listing's health or archived filter that is none of their values.
func (f *Filter) checkStates() error {
	switch f.Health {
	case "", "ok", "broken":
	default:
		return apperr.Errorf(apperr.Invalid, "health must be ok or broken").For("value_invalid", "health")
	}
	switch f.Archived {
	case "", ArchivedNo, ArchivedOnly, ArchivedAll:
	default:
		return apperr.Errorf(apperr.Invalid, "archived must be true, false or all").For("value_invalid", "archived")
	}
	return nil
}
