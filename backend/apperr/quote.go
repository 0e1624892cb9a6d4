package apperr

import (
	"fmt"
	"reflect"
)

// MaxQuoted is how many characters of a client's input a message quotes at most: a 1 MB
// value sent back twice in an error is a cost to both sides and helps no one read it.
const MaxQuoted = 100

// Bound returns s cut to MaxQuoted characters, with "…" when something was cut.
func Bound(s string) string {
	if len(s) <= MaxQuoted { // bytes ≥ characters: short enough either way
		return s
	}
	n := 0
	for i := range s {
		if n == MaxQuoted {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// quoted formats a string argument of Errorf as written, cutting it to MaxQuoted characters
// when it is quoted (%q): messages quote what the client sent, so every quotation of input
// is bounded here rather than at each message.
type quoted struct{ s string }

func (q quoted) Format(f fmt.State, verb rune) {
	s := q.s
	if verb == 'q' {
		s = Bound(s)
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), s)
}

// boundArgs wraps the string arguments of a message (of any string type) in quoted.
func boundArgs(args []any) []any {
	out := args
	for i, a := range args {
		var s string
		switch v := a.(type) {
		case string:
			s = v
		case []byte:
			s = string(v)
		default:
			rv := reflect.ValueOf(a)
			if !rv.IsValid() || rv.Kind() != reflect.String {
				continue
			}
			s = rv.String()
		}
		if len(s) <= MaxQuoted {
			continue
		}
		if &out[0] == &args[0] {
			out = append([]any(nil), args...)
		}
		out[i] = quoted{s}
	}
	return out
}
