package redis

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
)

// linkFields is how many exported fields link.Link has, each known to appendLinkJSON (the
// unexported ones are never encoded, nor those tagged json:"-", such as Tags, Health and QR:
// never cached, nor ArchivedAt: archiving changes no redirect).
const linkFields = 26

// TestAppendLinkJSON: the field-by-field form of a link decodes to exactly what encoding/json's
// form of it decodes to, whatever its strings hold and whichever optional fields it has.
func TestAppendLinkJSON(t *testing.T) {
	t.Parallel()
	// A field added to link.Link must be written by appendLinkJSON too.
	if n := exportedFields(reflect.TypeOf(link.Link{})); n != linkFields {
		t.Fatalf("link.Link has %d fields, appendLinkJSON knows %d: teach it the new ones", n, linkFields)
	}
	at := time.Date(2026, 3, 4, 5, 6, 7, 891011, time.FixedZone("x", 3600))
	by := int64(42)
	maxVisits := int64(10)
	links := []*link.Link{
		{ID: 1, WorkspaceID: 2, Key: "abc", URL: "https://example.com/", RedirectStatus: 302,
			Status: link.StatusActive, CreatedAt: at, UpdatedAt: at},
		{ID: 1 << 50, WorkspaceID: 7, DomainID: 9, Key: "my-alias", IsAlias: true, ForwardQuery: true,
			URL: "https://example.com/a?b=\"c\"&d=<e>\\f\x01\n\t\r\u2028é漢字", Title: "T \"q\" \x7f \xff\xfe",
			RedirectStatus: 301, Status: link.StatusDisabled, ExpiresAt: &at, CreatedBy: &by,
			CreatedAt: at.UTC(), UpdatedAt: at.Add(time.Microsecond).UTC()},
		{ID: 3, Key: "zero", URL: "u", Status: "s"},
		{ID: 4, Key: "rules", URL: "https://example.com/", Status: link.StatusActive, CreatedAt: at, UpdatedAt: at,
			Rules: link.Rules{MaxVisits: &maxVisits}},
		{ID: 5, Key: "far", URL: "https://example.com/", Status: link.StatusActive,
			CreatedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), UpdatedAt: at},
	}
	for _, l := range links {
		want, err := json.Marshal(l)
		if err != nil {
			want = nil // a time JSON cannot hold: both must fail alike
		}
		got := appendLinkJSON(nil, l)
		if want == nil {
			if len(got) != 0 {
				t.Errorf("%s: %s, want nothing (encoding/json fails)", l.Key, got)
			}
			continue
		}
		var wantMap, gotMap map[string]any
		if err := json.Unmarshal(want, &wantMap); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &gotMap); err != nil {
			t.Fatalf("%s: %s is not JSON: %v", l.Key, got, err)
		}
		if !reflect.DeepEqual(gotMap, wantMap) {
			t.Errorf("%s:\n got %s\nwant %s", l.Key, got, want)
		}
		var back link.Link
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatal(err)
		}
		d, err := decodeLink("1:" + string(got))
		if err != nil || !reflect.DeepEqual(d, &back) {
			t.Errorf("%s: decodeLink = %+v, %v", l.Key, d, err)
		}
	}
}

func BenchmarkEncodeLink(b *testing.B) {
	at := time.Now()
	by := int64(42)
	l := &link.Link{ID: 123456789, WorkspaceID: 17, Key: "Xb3kPq", URL: "https://example.com/bench/123456",
		RedirectStatus: 302, Status: link.StatusActive, CreatedBy: &by, CreatedAt: at, UpdatedAt: at}
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			encodeLink(l)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			j, _ := json.Marshal(l)
			_ = string(j)
		}
	})
}

// exportedFields counts the fields of t that encoding/json may write.
func exportedFields(t reflect.Type) int {
	n := 0
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			n++
		}
	}
	return n
}
