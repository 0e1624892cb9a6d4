package httpapi

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/qr"
)

// TestLinkAnswerJSON: a plain link's answer written field by field is byte for byte what
// encoding/json writes; any other answer is left to encoding/json.
// linkAnswerFields is how many fields linkAnswer has, each known to appendJSON.
const linkAnswerFields = 37

func TestLinkAnswerJSON(t *testing.T) {
	// A field added to the answer must be written by appendJSON too (or make it decline).
	if n := reflect.TypeOf(linkAnswer{}).NumField(); n != linkAnswerFields {
		t.Fatalf("linkAnswer has %d fields, appendJSON knows %d: teach it the new ones", n, linkAnswerFields)
	}
	at := time.Date(2026, 3, 4, 5, 6, 7, 891011000, time.FixedZone("x", 5400))
	by := int64(42)
	score := 0.5
	strs := []string{"", "abc", "https://example.com/a?b=<c>&d='e'", "\"q\" \\ \b\f\n\r\t\x00\x1f\x7f",
		"é漢字😀", "\u2028\u2029", "\xff\xfe bad", "a\xe2\x80", "</script>"}
	var plain []*linkAnswer
	for i, s := range strs {
		plain = append(plain, &linkAnswer{ID: int64(i) << 40, WorkspaceID: 3, Domain: s, Code: s, ShortURL: s, Tags: strs[:i],
			URL: s, Title: s, RedirectStatus: 302, Status: s, CreatedAt: at, UpdatedAt: at.UTC(),
			Moderation: moderationAnswer{State: s, Category: s, Reason: s}})
	}
	plain = append(plain,
		&linkAnswer{ID: 1, DomainRemoved: true, IsAlias: true, ForwardQuery: true, HasPassword: true, WeChatGuide: true,
			ExpiresAt: &at, CreatedBy: &by, Moderation: moderationAnswer{State: "allowed", ReviewedAt: &at}},
		answerLink(&link.Link{ID: 9, Key: "k", URL: "https://example.com/", Status: link.StatusActive, CreatedAt: at, UpdatedAt: at}),
	)
	for _, a := range plain {
		want, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := a.appendJSON(nil)
		if !ok || string(got) != string(want) {
			t.Errorf("ok %v\n got %s\nwant %s", ok, got, want)
		}
	}
	maxVisits := int64(3)
	for i, a := range []*linkAnswer{
		{MaxVisits: &maxVisits},
		{Geo: &link.Geo{}},
		{DeviceTargets: map[string]string{}},
		{Variants: []link.Variant{}},
		{InactiveRules: []string{"geo"}},
		{Moderation: moderationAnswer{Score: &score}},
		{Visits: &maxVisits},
		{Visits7d: []int64{}},
		{Archived: true, ArchivedAt: &at},
		{QR: &qr.Look{FG: "#112233", BG: "#ffffff"}},
		{CreatedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("s", 30))},
	} {
		if got, ok := a.appendJSON(nil); ok {
			t.Errorf("answer %d: written field by field: %s", i, got)
		}
	}
}

func BenchmarkLinkAnswerJSON(b *testing.B) {
	at := time.Now()
	by := int64(42)
	a := answerLink(&link.Link{ID: 123456789, WorkspaceID: 17, Key: "Xb3kPq", ShortURL: "http://127.0.0.1:8080/Xb3kPq",
		URL: "https://example.com/bench/123456", RedirectStatus: 302, Status: link.StatusActive, CreatedBy: &by,
		CreatedAt: at, UpdatedAt: at})
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			a.appendJSON(make([]byte, 0, 768))
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			_, _ = json.Marshal(a)
		}
	})
}
