package scim

import (
	"regexp"
	"strings"

	filter "github.com/scim2/filter-parser/v2"

	"github.com/shortlink/shortlink/backend/apperr"
)

// maxFilter bounds a filter's length: the ones providers send are a single comparison.
const maxFilter = 1024

func invalidFilter(format string, args ...any) error {
	return apperr.Errorf(apperr.Invalid, format, args...).For("scim_invalid_filter", "filter")
}

// userFilters are the attributes a Users filter may compare, by their lower-case path.
var userFilters = map[string]string{
	"username":     "userName",
	"externalid":   "externalId",
	"emails.value": "email",
	"emails":       "email",
	"id":           "id",
}

// groupFilters are the attributes a Groups filter may compare.
var groupFilters = map[string]string{
	"displayname": "displayName",
	"externalid":  "externalId",
	"id":          "id",
}

// ParseUserFilter reads a Users filter: an equality of userName, externalId or an address
// (emails.value, or emails[type eq "work"].value as Entra ID sends it). Anything else, or a
// filter that does not parse, is invalid (scimType invalidFilter).
func ParseUserFilter(raw string) (Query, error) { return parseFilter(raw, SchemaUser, userFilters) }

// ParseGroupFilter reads a Groups filter: an equality of displayName or externalId.
func ParseGroupFilter(raw string) (Query, error) {
	return parseFilter(raw, SchemaGroup, groupFilters)
}

func parseFilter(raw, schema string, attrs map[string]string) (Query, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Query{}, nil
	}
	if len(raw) > maxFilter {
		return Query{}, invalidFilter("the filter is longer than %d characters", maxFilter)
	}
	// Entra ID sends emails[type eq "work"].value eq "…", which RFC 7644's grammar lacks (a
	// value path ends at its bracket): it is read as emails[type eq "work" and value eq "…"].
	if m := subAttrAfterBracket.FindStringSubmatch(raw); m != nil {
		raw = m[1] + "[" + m[2] + " and " + m[3] + " " + m[4] + "]"
	}
	expr, err := filter.ParseFilter([]byte(raw))
	if err != nil {
		return Query{}, invalidFilter("the filter %q does not parse: %v", raw, err)
	}
	var path filter.AttributePath
	var value any
	switch e := expr.(type) {
	case *filter.AttributeExpression:
		if e.Operator != filter.EQ {
			return Query{}, invalidFilter("only the operator eq is supported, not %s", e.Operator)
		}
		path, value = e.AttributePath, e.CompareValue
	case *filter.ValuePath:
		// emails[type eq "work" and value eq "…"]: the address compared inside the brackets.
		q, err := valuePathQuery(e, attrs)
		if err != nil {
			return Query{}, err
		}
		return q, nil
	default:
		return Query{}, invalidFilter("only a single comparison such as userName eq \"…\" is supported")
	}
	if path.URIPrefix != nil && !strings.EqualFold(*path.URIPrefix, schema) {
		return Query{}, invalidFilter("attribute %s is unknown", path)
	}
	attr, ok := attrs[strings.ToLower(pathName(path))]
	if !ok {
		return Query{}, invalidFilter("attribute %s is unknown or cannot be filtered on", path)
	}
	s, ok := value.(string)
	if !ok {
		return Query{}, invalidFilter("compare %s with a string", path)
	}
	return Query{Attr: attr, Value: s}, nil
}

// subAttrAfterBracket matches attr[filter].sub op value.
var subAttrAfterBracket = regexp.MustCompile(`^([A-Za-z][\w$-]*)\[([^\[\]]+)\]\.([A-Za-z][\w$-]*)\s+(\S.*)$`)

func pathName(p filter.AttributePath) string {
	if p.SubAttribute != nil {
		return p.AttributeName + "." + *p.SubAttribute
	}
	return p.AttributeName
}

// valuePathQuery reads emails[type eq "work"].value eq "…", which the parser gives as a value
// path whose filter holds the comparisons, or emails[value eq "…"].
func valuePathQuery(e *filter.ValuePath, attrs map[string]string) (Query, error) {
	if !strings.EqualFold(e.AttributePath.AttributeName, "emails") || attrs["emails"] == "" {
		return Query{}, invalidFilter("attribute %s cannot be filtered on", e.AttributePath)
	}
	var q Query
	var walk func(x filter.Expression) error
	walk = func(x filter.Expression) error {
		switch c := x.(type) {
		case *filter.LogicalExpression:
			if c.Operator != filter.AND {
				return invalidFilter("only and may join the comparisons of emails[…]")
			}
			if err := walk(c.Left); err != nil {
				return err
			}
			return walk(c.Right)
		case *filter.AttributeExpression:
			s, ok := c.CompareValue.(string)
			if c.Operator != filter.EQ || !ok {
				return invalidFilter("emails[…] supports only eq with a string")
			}
			switch strings.ToLower(pathName(c.AttributePath)) {
			case "type", "primary":
			case "value":
				q = Query{Attr: "email", Value: s}
			default:
				return invalidFilter("attribute emails.%s is unknown", pathName(c.AttributePath))
			}
			return nil
		}
		return invalidFilter("emails[…] supports only comparisons joined by and")
	}
	if err := walk(e.ValueFilter); err != nil {
		return Query{}, err
	}
	if q.Attr == "" {
		return Query{}, invalidFilter("emails[…] must compare value")
	}
	return q, nil
}
