package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
)

// decode reads a JSON body into v strictly: one object, no unknown fields, size-limited.
func (s *Server) decode(c *gin.Context, v any) error {
	// A form on another site can post text/plain to us with the visitor's cookies but cannot
	// send application/json without asking first (CORS): insisting on it closes login CSRF
	// and any other cross-site post.
	if ct := c.GetHeader("Content-Type"); ct != "application/json" { // the usual value, without parsing
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return apperr.Errorf(apperr.Invalid, "send the body as JSON with Content-Type: application/json").For("json_invalid", "")
		}
	}
	raw, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, s.maxBody))
	if err != nil {
		return err
	}
	// encoding/json would read each invalid byte as U+FFFD: what was stored would not be what
	// was sent.
	if !utf8.Valid(raw) {
		return apperr.Errorf(apperr.Invalid, "request body is not valid UTF-8").For("body_not_utf8", "")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &mbe):
			return err
		case errors.Is(err, io.EOF):
			return apperr.Errorf(apperr.Invalid, "request body must be a JSON object").For("json_invalid", "")
		case errors.As(err, &syn):
			return apperr.Errorf(apperr.Invalid, "request body is not valid JSON (at byte %d)", syn.Offset).For("json_invalid", "")
		case errors.As(err, &typ):
			if typ.Field != "" {
				return apperr.Errorf(apperr.Invalid, "field %q must be %s", typ.Field, kindName(typ.Type.Kind().String())).For("value_invalid", typ.Field)
			}
			return apperr.Errorf(apperr.Invalid, "request body must be a JSON object").For("json_invalid", "")
		default:
			return undecodable(err)
		}
	}
	if dec.More() {
		return apperr.Errorf(apperr.Invalid, "request body must hold a single JSON object").For("json_invalid", "")
	}
	return s.bodies.check(c.Request.Method, c.FullPath(), raw)
}

func kindName(k string) string {
	switch k {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "ptr":
		return "a valid value"
	default:
		return "a number"
	}
}

func trimJSONPrefix(s string) string {
	const p = "json: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// int64Param parses a numeric path parameter; anything else is simply not found.
func int64Param(c *gin.Context, name, what string) (int64, error) {
	v, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || v <= 0 {
		return 0, apperr.Missing(what)
	}
	return v, nil
}

// intQuery parses an optional numeric query parameter.
func intQuery(c *gin.Context, name string, def int) (int, error) {
	raw, ok := c.GetQuery(name)
	if !ok || raw == "" {
		return def, nil
	}
	v, err := strconv.Atoi(raw)
	if err != nil {
		return 0, apperr.Errorf(apperr.Invalid, "%s must be a whole number", name).For("value_invalid", name)
	}
	return v, nil
}

// cursor encodes a page position for clients, who must treat it as opaque.
func cursor(id int64) string {
	if id == 0 {
		return ""
	}
	return strconv.FormatInt(id, 36)
}

func parseCursor(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 36, 64)
	if err != nil || v <= 0 {
		return 0, apperr.Errorf(apperr.Invalid, "cursor %q is not valid", s).For("value_invalid", "cursor")
	}
	return v, nil
}
