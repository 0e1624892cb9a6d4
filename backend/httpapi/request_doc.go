package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/shortlink/shortlink/backend/apperr"
)

// bodySchemas holds the schema of each JSON request body in the API document, keyed by
// method and route shape (routeShape). The server holds a request to what the document
// forbids even where its own types would let it through: a null for a field that takes none
// (which Go reads as absent), an empty string (which an omitted field cannot be told from),
// a value outside an enum, a list longer than its maxItems.
type bodySchemas map[string]*bodySchema

// bodySchema is one route's request body schema and the quoted names of the properties that
// carry an enum anywhere in it (`"role"`), read once: what mayRefuse looks for.
type bodySchema struct {
	schema *openapi3.Schema
	enums  [][]byte
	// anyEnum says an enum sits where no property names it (the body itself, a map's values
	// at the top): every body is checked.
	anyEnum bool
}

// documentBodies are the request bodies of the served document, read once per process (a
// tenth of a second of CPU) and only read afterwards: every Server of the process shares them.
var documentBodies = sync.OnceValues(func() (bodySchemas, error) { return loadBodySchemas(openAPI) })

// loadBodySchemas reads the request bodies of the document doc.
func loadBodySchemas(doc []byte) (bodySchemas, error) {
	d, err := openapi3.NewLoader().LoadFromData(doc)
	if err != nil {
		return nil, fmt.Errorf("load openapi.json: %w", err)
	}
	out := bodySchemas{}
	for path, item := range d.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			mt := op.RequestBody.Value.Content.Get("application/json")
			if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
				continue
			}
			out[method+" "+routeShape(path)] = newBodySchema(mt.Schema.Value)
		}
	}
	return out, nil
}

// newBodySchema finds the properties of s that carry an enum, at any depth: a map's or a
// list's values are named by the property that holds them.
func newBodySchema(s *openapi3.Schema) *bodySchema {
	b := &bodySchema{schema: s}
	type visit struct {
		s    *openapi3.Schema
		name string
	}
	seen := map[visit]bool{}
	names := map[string]bool{}
	var walk func(s *openapi3.Schema, name string)
	walk = func(s *openapi3.Schema, name string) {
		if s == nil || seen[visit{s, name}] {
			return
		}
		seen[visit{s, name}] = true
		if len(s.Enum) > 0 {
			if name == "" {
				b.anyEnum = true
			}
			names[name] = true
		}
		for n, p := range s.Properties {
			walk(p.Value, n)
		}
		if s.Items != nil {
			walk(s.Items.Value, name)
		}
		if ap := s.AdditionalProperties.Schema; ap != nil {
			walk(ap.Value, name)
		}
		for _, group := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf, s.AllOf} {
			for _, r := range group {
				walk(r.Value, name)
			}
		}
		if s.Not != nil {
			walk(s.Not.Value, name)
		}
	}
	walk(s, "")
	for n := range names {
		if n != "" {
			b.enums = append(b.enums, []byte(strconv.Quote(n)))
		}
	}
	return b
}

// mayRefuse reports whether the body raw holds anything check may refuse: a null, a list
// (maxItems), an empty string (minLength), an escape (which could spell a name below) or an
// enum's property by its name. A body with none of them (most creates: a URL and a few plain
// fields) passes without being read a second time.
func (b *bodySchema) mayRefuse(raw []byte) bool {
	if b.anyEnum || bytes.Contains(raw, []byte("null")) || bytes.IndexByte(raw, '[') >= 0 ||
		bytes.IndexByte(raw, '\\') >= 0 || bytes.Contains(raw, []byte(`""`)) {
		return true
	}
	for _, name := range b.enums {
		if bytes.Contains(raw, name) {
			return true
		}
	}
	return false
}

// routeShape writes each parameter of a path as {}: the document's /links/{id} and gin's
// /links/:id have one shape.
func routeShape(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, "{") || strings.HasPrefix(p, ":") || strings.HasPrefix(p, "*") {
			parts[i] = "{}"
		}
	}
	return strings.Join(parts, "/")
}

// fieldReasons are the reasons the services give for a field the document bounds too, so
// that a refusal reads the same whichever checks it first: keyed by the schema's keyword and
// the field's last name.
var fieldReasons = map[string]string{
	"minLength alias":      "alias_invalid",
	"maxItems tags":        "tags_too_many",
	"maxItems tags_add":    "tags_too_many",
	"maxItems tags_remove": "tags_too_many",
	"maxItems links":       "batch_size",
	"maxItems ids":         "batch_size",
	"maxItems variants":    "variants_count",
	"maxItems fields":      "form_fields_count",
	"maxItems options":     "form_field_options_invalid",
	"maxItems allow":       "geo_invalid",
	"maxItems deny":        "geo_invalid",
	"enum reason":          "reason_unknown",
	"enum category":        "category_unknown",
	"enum scopes":          "scope_unknown",
	"enum events":          "webhook_event_unknown",
	"enum role":            "role_invalid",
	"enum system_role":     "role_invalid",
	"enum type":            "form_field_type_invalid",
	"enum protocol":        "sso_protocol_invalid",
	"enum mappings":        "role_invalid",
	"enum language":        "language_invalid",
}

// emptyIsAbsent are the fields whose "" the server's types read as the field left out; every
// other field's "" reaches the service, which refuses it with its own reason.
var emptyIsAbsent = map[string]bool{"alias": true}

// check refuses a JSON body raw that the schema forbids in one of the ways the server's own
// types cannot see; the rest of the schema (lengths, patterns, formats) the services check
// with their own reasons.
func (b bodySchemas) check(method, route string, raw []byte) error {
	body := b[method+" "+routeShape(route)]
	if body == nil || !body.mayRefuse(raw) {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return apperr.Errorf(apperr.Invalid, "request body is not valid JSON").For("json_invalid", "")
	}
	return body.refusal(v)
}

// refusal is check's verdict on the body v as encoding/json reads it into any.
func (b *bodySchema) refusal(v any) error {
	err := b.schema.VisitJSON(v, openapi3.MultiErrors())
	if err == nil {
		return nil
	}
	for _, e := range schemaErrors(err) {
		field := fieldPath(e.JSONPointer())
		name := field
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		refuse := func(reason, format string, args ...any) error {
			if r, ok := fieldReasons[e.SchemaField+" "+name]; ok {
				reason = r
			} else if r, ok := fieldReasons[e.SchemaField+" "+parentName(field)]; ok {
				reason = r // a map's value, named by its key: scim-roles' mappings.<group>
			}
			return apperr.Errorf(apperr.Invalid, format, args...).For(reason, field)
		}
		switch e.SchemaField {
		case "nullable":
			if e.Value == nil {
				return refuse("null_not_allowed", "%s must not be null: leave it out instead", field)
			}
		case "enum":
			return refuse("value_invalid", "%s must be one of %s", field, enumText(e.Schema.Enum))
		case "maxItems":
			if e.Schema.MaxItems != nil {
				return refuse("items_too_many", "%s holds at most %d items", field, *e.Schema.MaxItems)
			}
		case "minLength":
			if s, ok := e.Value.(string); ok && s == "" && emptyIsAbsent[name] {
				return refuse("alias_invalid", "%s must not be empty: leave it out instead", field)
			}
		}
	}
	return nil
}

// schemaErrors flattens the schema errors of a validation.
func schemaErrors(err error) []*openapi3.SchemaError {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		var out []*openapi3.SchemaError
		for _, e := range me {
			out = append(out, schemaErrors(e)...)
		}
		return out
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return []*openapi3.SchemaError{se}
	}
	return nil
}

// fieldPath writes a JSON pointer's parts as the API names fields, without list positions:
// utm.source, form.fields.name, links.alias.
func fieldPath(ptr []string) string {
	parts := make([]string, 0, len(ptr))
	for _, p := range ptr {
		if _, err := strconv.Atoi(p); err != nil {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "body"
	}
	return strings.Join(parts, ".")
}

func enumText(values []any) string {
	out := make([]string, len(values))
	for i, v := range values {
		switch v := v.(type) {
		case string:
			out[i] = v
		case float64:
			out[i] = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(out, ", ")
}

// undecodable explains a body encoding/json could not read into the route's type: unknown
// fields and malformed values (such as times), quoting at most apperr.MaxQuoted characters
// of what was sent.
func undecodable(err error) error {
	var pe *time.ParseError
	if errors.As(err, &pe) {
		return apperr.Errorf(apperr.Invalid, "%q is not a time such as 2030-01-31T12:00:00Z", strings.Trim(pe.Value, `"`)).For("json_invalid", "")
	}
	msg := trimJSONPrefix(err.Error())
	if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
		if n, err := strconv.Unquote(name); err == nil {
			return apperr.Errorf(apperr.Invalid, "request body: unknown field %q", n).For("json_invalid", "")
		}
	}
	return apperr.Errorf(apperr.Invalid, "request body: %s", apperr.Bound(msg)).For("json_invalid", "")
}

// parentName is the name of the field that holds field: "mappings" of "mappings.admins".
func parentName(field string) string {
	i := strings.LastIndexByte(field, '.')
	if i < 0 {
		return ""
	}
	parent := field[:i]
	return parent[strings.LastIndexByte(parent, '.')+1:]
}
