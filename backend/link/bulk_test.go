package link

import (
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/tag"
)

// TestBulkRefuse: a bulk edit never lifts a moderation ban, and never puts more than
// tag.MaxPerLink tags on a link; anything else goes through.
func TestBulkRefuse(t *testing.T) {
	status := BulkEdit{Status: Some(StatusActive)}
	tags := BulkEdit{AddTags: []int64{1}}
	for _, c := range []struct {
		name   string
		e      BulkEdit
		status string
		tags   int
		reason string
	}{
		{"enable an active link", status, StatusActive, 0, ""},
		{"enable a disabled link", status, StatusDisabled, 0, ""},
		{"enable a banned link", status, StatusBanned, 0, "link_banned"},
		{"disable a banned link", BulkEdit{Status: Some(StatusDisabled)}, StatusBanned, 0, "link_banned"},
		{"tag a banned link", tags, StatusBanned, 1, ""},
		{"expire a banned link", BulkEdit{ExpiresAt: Some[*time.Time](nil)}, StatusBanned, 0, ""},
		{"the last tag that fits", tags, StatusActive, tag.MaxPerLink, ""},
		{"one tag too many", tags, StatusActive, tag.MaxPerLink + 1, "tags_too_many"},
	} {
		err := c.e.Refuse(c.status, c.tags)
		if (c.reason == "" && err != nil) || (c.reason != "" && apperr.ReasonOf(err) != c.reason) {
			t.Errorf("%s: %v, want reason %q", c.name, err, c.reason)
		}
	}
}
