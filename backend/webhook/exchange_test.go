package webhook

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAnswerText(t *testing.T) {
	long := strings.Repeat("a", MaxAnswerBody-1) + "é" // é's second byte is past the cap
	for _, c := range []struct {
		name      string
		in        []byte
		want      string
		truncated bool
	}{
		{"empty", nil, "", false},
		{"short", []byte(`{"ok":true}`), `{"ok":true}`, false},
		{"exactly the cap", []byte(strings.Repeat("b", MaxAnswerBody)), strings.Repeat("b", MaxAnswerBody), false},
		{"one byte more", []byte(strings.Repeat("b", MaxAnswerBody+1)), strings.Repeat("b", MaxAnswerBody), true},
		{"a character cut at the cap is dropped", []byte(long + "x"), strings.Repeat("a", MaxAnswerBody-1), true},
		{"invalid bytes and NULs", []byte("a\xff\xfeb\x00c"), "a?b?c", false},
	} {
		got, truncated := AnswerText(c.in)
		if got != c.want || truncated != c.truncated {
			t.Errorf("%s: %q %v, want %q %v", c.name, got, truncated, c.want, c.truncated)
		}
		if len(got) > MaxAnswerBody || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes, valid %v", c.name, len(got), utf8.ValidString(got))
		}
	}
}

func TestRecordedHeadersKeepNoSignature(t *testing.T) {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("webhook-id", "msg_1")
	h.Set(SignatureHeader, "v1,c2lnbmF0dXJl")
	got := recordedHeaders(h)
	if got["webhook-signature"] != "v1,…" || got["webhook-id"] != "msg_1" || got["content-type"] != "application/json" {
		t.Errorf("recorded %v", got)
	}
}
