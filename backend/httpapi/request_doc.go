package httpapi

import (
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
type bodySchemas map[string]*openapi3.Schema

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
			out[method+" "+routeShape(path)] = mt.Schema.Value
		}
	}
	return out, nil
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

// check refuses a decoded body v (as encoding/json reads into any) that the schema forbids in
// one of the ways the server's own types cannot see; the rest of the schema (lengths,
// patterns, formats) the services check with their own reasons.
func (b bodySchemas) check(method, route string, v any) error {
	schema := b[method+" "+routeShape(route)]
	if schema == nil {
		return nil
	}
	err := schema.VisitJSON(v, openapi3.MultiErrors())
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
