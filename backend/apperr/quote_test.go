package apperr

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestErrorfQuotesAtMostMaxQuotedCharacters(t *testing.T) {
	type name string
	long := strings.Repeat("界", 1<<20)
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{"short"}, `"short" and 7`},
		{[]any{long}, `"` + strings.Repeat("界", MaxQuoted) + `…" and 7`},
		{[]any{name(long)}, `"` + strings.Repeat("界", MaxQuoted) + `…" and 7`},
		{[]any{[]byte(strings.Repeat("a", 200))}, `"` + strings.Repeat("a", MaxQuoted) + `…" and 7`},
	} {
		got := Errorf(Invalid, "%q and %d", append(tc.args, 7)...).Message
		if got != tc.want {
			t.Errorf("message %.200q, want %.200q", got, tc.want)
		}
	}
	// %s is the server's own words (lists, messages of other errors): written in full.
	words := strings.Repeat("w", 300)
	if got := Errorf(Invalid, "%s", words).Message; got != words {
		t.Errorf("%%s was cut to %d characters", utf8.RuneCountInString(got))
	}
}
