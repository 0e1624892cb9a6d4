package visit

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// appendEntry appends a batch as the value of a stream entry: the JSON array json.Marshal makes
// of it, which is what consumers decode, written without reflection (the flusher encodes every
// visit of its node, and this takes it a third of json.Marshal's time).
func appendEntry(b []byte, batch []Event) []byte {
	b = append(b, '[')
	for i := range batch {
		if i > 0 {
			b = append(b, ',')
		}
		b = batch[i].appendJSON(b)
	}
	return append(b, ']')
}

// appendJSON appends the event as json.Marshal writes it (field order, omitempty), but for
// the escapes of <, > and & that only HTML needs.
func (e *Event) appendJSON(b []byte) []byte {
	b = append(b, `{"id":"`...)
	b = appendUUID(b, e.ID)
	b = append(b, `","at":"`...)
	b = e.At.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","l":`...)
	b = strconv.AppendInt(b, e.LinkID, 10)
	b = append(b, `,"w":`...)
	b = strconv.AppendInt(b, e.WorkspaceID, 10)
	b = append(b, `,"d":`...)
	b = strconv.AppendInt(b, e.DomainID, 10)
	b = append(b, `,"v":`...)
	b = strconv.AppendInt(b, int64(e.Variant), 10)
	b = appendField(b, `,"c":`, e.Country)
	b = appendField(b, `,"dv":`, e.Device)
	b = appendField(b, `,"os":`, e.OS)
	b = appendField(b, `,"b":`, e.Browser)
	b = appendField(b, `,"r":`, e.Referrer)
	b = appendField(b, `,"ia":`, e.InApp)
	if e.Crawler {
		b = append(b, `,"bot":true`...)
	}
	b = appendField(b, `,"us":`, e.UTMSource)
	b = appendField(b, `,"um":`, e.UTMMedium)
	b = appendField(b, `,"uc":`, e.UTMCampaign)
	if e.Visitor == nil {
		b = append(b, `,"vh":null`...)
	} else {
		b = append(b, `,"vh":"`...)
		b = base64.StdEncoding.AppendEncode(b, e.Visitor)
		b = append(b, '"')
	}
	return append(b, '}')
}

// appendField appends a string field that is left out when empty.
func appendField(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, name...), s)
}

// appendString appends s as a JSON string; the rare string that needs escapes goes through
// encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendUUID appends the UUID's canonical text, as its MarshalText.
func appendUUID(b []byte, id uuid.UUID) []byte {
	var buf [36]byte
	hex.Encode(buf[0:8], id[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], id[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], id[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], id[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], id[10:])
	return append(b, buf[:]...)
}
