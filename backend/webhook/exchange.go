package webhook

import (
	"net/http"
	"strings"
	"unicode/utf8"
)

// MaxAnswerBody is how many bytes of a receiver's answer a delivery keeps: the first 4 KiB,
// as text (docs/api.md, "Webhooks").
const MaxAnswerBody = 4 << 10

// maxContentType bounds the answer's Content-Type a delivery keeps.
const maxContentType = 200

// SignatureHeader names the header that carries a delivery's signature; the log keeps its name
// and scheme, never the signature itself.
const SignatureHeader = "webhook-signature"

// Exchange is what one attempt of a delivery sent and got back: the request's headers (the
// signature reduced to its scheme) and the first MaxAnswerBody bytes of the answer. Its body
// is the delivery's Body, rebuilt from the stored event byte for byte.
type Exchange struct {
	RequestHeaders map[string]string
	// Answer is empty when no answer came.
	Answer            string
	AnswerTruncated   bool
	AnswerContentType string
}

// recordedHeaders answers the headers of a request as the log keeps them.
func recordedHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for name := range h {
		v := h.Get(name)
		if strings.EqualFold(name, SignatureHeader) {
			// "v1,<base64>": the scheme says how it was signed; the value is left out.
			scheme, _, _ := strings.Cut(v, ",")
			v = scheme + ",…"
		}
		out[strings.ToLower(name)] = v
	}
	return out
}

// AnswerText turns the first bytes of an answer into the text a delivery keeps: at most
// MaxAnswerBody bytes of valid UTF-8 without NUL bytes (PostgreSQL's text holds neither).
// read holds what was read, up to one byte more than MaxAnswerBody; truncated reports that the
// answer was longer than what is kept.
func AnswerText(read []byte) (text string, truncated bool) {
	if len(read) > MaxAnswerBody {
		read, truncated = read[:MaxAnswerBody], true
		// A character cut in two at the end is dropped, not replaced.
		for i := 1; i < utf8.UTFMax && i <= len(read); i++ {
			if utf8.RuneStart(read[len(read)-i]) {
				if !utf8.FullRune(read[len(read)-i:]) {
					read = read[:len(read)-i]
				}
				break
			}
		}
	}
	// Each run of invalid bytes, and each NUL, becomes one "?", so the text never grows.
	s := strings.ToValidUTF8(string(read), "?")
	s = strings.ReplaceAll(s, "\x00", "?")
	return s, truncated
}

// contentTypeOf answers an answer's Content-Type as the log keeps it.
func contentTypeOf(h http.Header) string {
	ct := strings.ToValidUTF8(h.Get("Content-Type"), "?")
	if len(ct) > maxContentType {
		ct = strings.ToValidUTF8(ct[:maxContentType], "")
	}
	return strings.ReplaceAll(ct, "\x00", "")
}
