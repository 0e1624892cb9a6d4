package redis

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/link"
)

// appendLinkJSON appends l's JSON form (link.Link's JSON encoding) to b. A link without rules,
// which is most links and every link a plain create makes, is written field by field; one with
// rules, or with a time JSON cannot hold, goes through encoding/json. Both forms decode alike.
func appendLinkJSON(b []byte, l *link.Link) []byte {
	if !l.Rules.IsZero() || !jsonTime(l.CreatedAt) || !jsonTime(l.UpdatedAt) ||
		(l.ExpiresAt != nil && !jsonTime(*l.ExpiresAt)) {
		j, _ := json.Marshal(l)
		return append(b, j...)
	}
	b = append(b, `{"i":`...)
	b = strconv.AppendInt(b, l.ID, 10)
	b = append(b, `,"w":`...)
	b = strconv.AppendInt(b, l.WorkspaceID, 10)
	b = append(b, `,"d":`...)
	b = strconv.AppendInt(b, l.DomainID, 10)
	b = append(b, `,"k":`...)
	b = appendJSONString(b, l.Key)
	if l.IsAlias {
		b = append(b, `,"a":true`...)
	}
	b = append(b, `,"u":`...)
	b = appendJSONString(b, l.URL)
	if l.Title != "" {
		b = append(b, `,"t":`...)
		b = appendJSONString(b, l.Title)
	}
	b = append(b, `,"r":`...)
	b = strconv.AppendInt(b, int64(l.RedirectStatus), 10)
	if l.ForwardQuery {
		b = append(b, `,"f":true`...)
	}
	b = append(b, `,"s":`...)
	b = appendJSONString(b, l.Status)
	if l.ExpiresAt != nil {
		b = append(b, `,"e":`...)
		b = appendJSONTime(b, *l.ExpiresAt)
	}
	if l.CreatedBy != nil {
		b = append(b, `,"b":`...)
		b = strconv.AppendInt(b, *l.CreatedBy, 10)
	}
	b = append(b, `,"c":`...)
	b = appendJSONTime(b, l.CreatedAt)
	b = append(b, `,"m":`...)
	b = appendJSONTime(b, l.UpdatedAt)
	return append(b, '}')
}

// jsonTime reports whether t has a JSON form: a year of four digits (time.Time.MarshalJSON).
func jsonTime(t time.Time) bool {
	y := t.Year()
	return y >= 0 && y <= 9999
}

// appendJSONTime appends t as time.Time.MarshalJSON does: RFC 3339 with nanoseconds, quoted.
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string: quotes, backslashes and control characters
// escaped, invalid UTF-8 as U+FFFD (as encoding/json does).
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
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
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
