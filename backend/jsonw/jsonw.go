// Package jsonw writes the JSON of the few hot answers byte for byte as encoding/json would,
// without its reflection: strings and times.
package jsonw

import (
	"time"
	"unicode/utf8"
)

// TimeOK reports whether time.Time.MarshalJSON writes t without error: a four-digit year
// and a zone offset of whole minutes.
func TimeOK(t time.Time) bool {
	_, off := t.Zone()
	y := t.Year()
	return y >= 0 && y <= 9999 && off%60 == 0
}

// AppendTime appends t as time.Time.MarshalJSON does (when TimeOK): RFC 3339 with nanoseconds, quoted.
func AppendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// AppendTimeOrNull is AppendTime, or null for nil.
func AppendTimeOrNull(b []byte, t *time.Time) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	return AppendTime(b, *t)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as encoding/json writes a string: with <, > and & escaped for HTML,
// U+2028 and U+2029 escaped, and invalid UTF-8 as U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
