package scim

import (
	"encoding/json"
	"slices"
	"strings"

	filter "github.com/scim2/filter-parser/v2"
)

// PatchOp is one operation of a PATCH request; Op is add, replace or remove in any case
// (Entra ID sends "Replace").
type PatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// Patch is a PATCH request's body.
type Patch struct {
	Schemas    []string  `json:"schemas"`
	Operations []PatchOp `json:"Operations"`
}

// maxOps bounds the operations of one request.
const maxOps = 100

// DecodePatch reads a PATCH request's body.
func DecodePatch(body []byte) (*Patch, error) {
	var p Patch
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, invalidSyntax("the body must be a PatchOp message: %v", err)
	}
	if len(p.Operations) == 0 {
		return nil, invalidValue("Operations must hold at least one operation")
	}
	if len(p.Operations) > maxOps {
		return nil, invalidValue("a request holds at most %d operations", maxOps)
	}
	for i, op := range p.Operations {
		p.Operations[i].Op = strings.ToLower(op.Op)
		switch p.Operations[i].Op {
		case "add", "replace", "remove":
		default:
			return nil, invalidSyntax("op must be add, replace or remove, not %q", op.Op)
		}
	}
	return &p, nil
}

// attrPath is an operation's path, lower case: name, sub-attribute, and the filter inside
// brackets (emails[type eq "work"]).
type attrPath struct {
	name   string
	sub    string
	filter filter.Expression
	// ignored: an attribute of the enterprise extension, which Shortlink does not keep.
	ignored bool
}

func parsePath(raw, schema string) (attrPath, error) {
	raw = strings.TrimSpace(raw)
	lower := strings.ToLower(raw)
	if strings.HasPrefix(lower, strings.ToLower(SchemaEnterprise)) {
		return attrPath{ignored: true}, nil
	}
	p, err := filter.ParsePath([]byte(raw))
	if err != nil {
		return attrPath{}, invalidPath("path %q does not parse: %v", raw, err)
	}
	if p.AttributePath.URIPrefix != nil && !strings.EqualFold(*p.AttributePath.URIPrefix, schema) {
		return attrPath{}, invalidPath("path %q names another schema", raw)
	}
	out := attrPath{name: strings.ToLower(p.AttributePath.AttributeName), filter: p.ValueExpression}
	if s := p.AttributePath.SubAttributeName(); s != "" {
		out.sub = strings.ToLower(s)
	}
	if s := p.SubAttributeName(); s != "" {
		out.sub = strings.ToLower(s)
	}
	return out, nil
}

// ApplyUserPatch applies ops to u: add and replace of userName, externalId, displayName,
// name (or its parts), active (a boolean, or "True"/"False" as Entra ID sends it) and emails;
// remove of the optional ones; operations without a path carry an object of attributes
// ({"op":"replace","value":{"active":false}}).
func ApplyUserPatch(u *User, ops []PatchOp) error {
	for _, op := range ops {
		if err := applyOne(op, SchemaUser, func(p attrPath, v any) error { return setUser(u, op.Op, p, v) }); err != nil {
			return err
		}
	}
	return nil
}

// ApplyGroupPatch applies ops to g: displayName, externalId, and members added, removed
// (members[value eq "…"], or members with the ones to remove as value) or replaced.
func ApplyGroupPatch(g *Group, ops []PatchOp) error {
	for _, op := range ops {
		if err := applyOne(op, SchemaGroup, func(p attrPath, v any) error { return setGroup(g, op.Op, p, v) }); err != nil {
			return err
		}
	}
	return nil
}

func applyOne(op PatchOp, schema string, set func(attrPath, any) error) error {
	var v any
	if len(op.Value) > 0 {
		if err := json.Unmarshal(op.Value, &v); err != nil {
			return invalidSyntax("an operation's value is not JSON")
		}
	}
	if strings.TrimSpace(op.Path) == "" {
		if op.Op == "remove" {
			return missingTarget("remove needs a path")
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return invalidValue("an operation without a path must carry an object of attributes")
		}
		for k, x := range obj {
			p, err := parsePath(k, schema)
			if err != nil {
				return err
			}
			if err := set(p, x); err != nil {
				return err
			}
		}
		return nil
	}
	p, err := parsePath(op.Path, schema)
	if err != nil {
		return err
	}
	if op.Op != "remove" && v == nil {
		return invalidValue("%s of %s needs a value", op.Op, op.Path)
	}
	return set(p, v)
}

func missingTarget(msg string) error {
	return invalidPathType(msg, "scim_no_target")
}

func str(v any, what string) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case nil:
		return "", nil
	}
	return "", invalidValue("%s must be a string", what)
}

// boolean reads a boolean, or a string "true"/"false" in any case (Entra ID's "False").
func boolean(v any, what string) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, invalidValue("%s must be true or false", what)
}

func setUser(u *User, op string, p attrPath, v any) error {
	if p.ignored || ignoredUserAttrs[p.name] {
		return nil
	}
	remove := op == "remove"
	switch p.name {
	case "username":
		if remove {
			return mutability("userName cannot be removed")
		}
		s, err := str(v, "userName")
		if err != nil {
			return err
		}
		u.UserName = strings.TrimSpace(s)
	case "externalid":
		s, err := str(v, "externalId")
		if err != nil {
			return err
		}
		if remove {
			s = ""
		}
		u.ExternalID = s
	case "displayname":
		s, err := str(v, "displayName")
		if err != nil {
			return err
		}
		if remove {
			s = ""
		}
		u.DisplayName = s
	case "active":
		if remove {
			return mutability("active cannot be removed: set it to false")
		}
		b, err := boolean(v, "active")
		if err != nil {
			return err
		}
		u.Active = b
	case "name":
		return setName(u, op, p.sub, v)
	case "emails":
		return setEmails(u, op, p, v)
	default:
		return invalidPath("attribute %q is unknown", p.name)
	}
	return nil
}

func setName(u *User, op, sub string, v any) error {
	if sub == "" {
		if op == "remove" {
			u.GivenName, u.FamilyName, u.Formatted = "", "", ""
			return nil
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return invalidValue("name must be an object")
		}
		if op == "replace" {
			u.GivenName, u.FamilyName, u.Formatted = "", "", ""
		}
		for k, x := range obj {
			if err := setName(u, "add", strings.ToLower(k), x); err != nil {
				return err
			}
		}
		return nil
	}
	s, err := str(v, "name."+sub)
	if err != nil {
		return err
	}
	if op == "remove" {
		s = ""
	}
	switch sub {
	case "givenname":
		u.GivenName = s
	case "familyname":
		u.FamilyName = s
	case "formatted":
		u.Formatted = s
	case "middlename", "honorificprefix", "honorificsuffix":
	default:
		return invalidPath("attribute name.%s is unknown", sub)
	}
	return nil
}

// setEmails takes the address of a work or primary email as userName: a person has one
// address, the account's. Removing emails leaves it.
func setEmails(u *User, op string, p attrPath, v any) error {
	if op == "remove" {
		return nil
	}
	var addr string
	switch {
	case p.sub != "" && p.sub != "value":
		if p.sub == "type" || p.sub == "primary" || p.sub == "display" {
			return nil
		}
		return invalidPath("attribute emails.%s is unknown", p.sub)
	case p.sub == "value":
		s, err := str(v, "emails.value")
		if err != nil {
			return err
		}
		addr = s
	default:
		list, ok := v.([]any)
		if !ok {
			if obj, isObj := v.(map[string]any); isObj {
				list = []any{obj}
			} else {
				return invalidValue("emails must be a list of addresses")
			}
		}
		for i, x := range list {
			e, ok := x.(map[string]any)
			if !ok {
				return invalidValue("emails must be a list of objects with a value")
			}
			s, err := str(e["value"], "emails.value")
			if err != nil {
				return err
			}
			primary, _ := e["primary"].(bool)
			if primary || e["type"] == "work" || i == 0 && addr == "" {
				if addr == "" || primary {
					addr = s
				}
			}
		}
	}
	addr = strings.TrimSpace(addr)
	if addr == "" {
		return nil
	}
	if u.UserName == "" {
		u.UserName = addr
		return nil
	}
	if !strings.EqualFold(addr, u.UserName) {
		return invalidValue("the work address %q differs from userName %q: a person has one address, the userName", addr, u.UserName)
	}
	return nil
}

func mutability(msg string) error { return invalidPathType(msg, "scim_mutability") }

func setGroup(g *Group, op string, p attrPath, v any) error {
	if p.ignored || ignoredGroupAttrs[p.name] {
		return nil
	}
	remove := op == "remove"
	switch p.name {
	case "displayname":
		if remove {
			return mutability("displayName cannot be removed")
		}
		s, err := str(v, "displayName")
		if err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			return invalidValue("displayName must not be empty")
		}
		g.DisplayName = strings.TrimSpace(s)
	case "externalid":
		s, err := str(v, "externalId")
		if err != nil {
			return err
		}
		if remove {
			s = ""
		}
		g.ExternalID = s
	case "members":
		return setMembers(g, op, p, v)
	default:
		return invalidPath("attribute %q is unknown", p.name)
	}
	return nil
}

func memberIDs(v any) ([]string, error) {
	var list []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		list = x
	case map[string]any:
		list = []any{x}
	default:
		return nil, invalidValue("members must be a list of objects with a value")
	}
	var ids []string
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, invalidValue("members must be a list of objects with a value")
		}
		id, ok := m["value"].(string)
		if !ok || id == "" {
			return nil, invalidValue("a member's value must be a user's id")
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func setMembers(g *Group, op string, p attrPath, v any) error {
	if p.sub != "" && p.sub != "value" {
		return invalidPath("attribute members.%s cannot be changed", p.sub)
	}
	current := make([]string, 0, len(g.Members))
	for _, m := range g.Members {
		current = append(current, m.Value)
	}
	var ids []string
	if p.filter != nil {
		// members[value eq "…"]: the one member the filter names.
		e, ok := p.filter.(*filter.AttributeExpression)
		s, isStr := any(nil), false
		if ok {
			s = e.CompareValue
			_, isStr = s.(string)
		}
		if !ok || e.Operator != filter.EQ || !strings.EqualFold(e.AttributePath.AttributeName, "value") || !isStr {
			return invalidPath("members may be filtered only as members[value eq \"…\"]")
		}
		if op != "remove" {
			return invalidPath("members[value eq \"…\"] is for remove")
		}
		ids = []string{s.(string)}
	} else {
		var err error
		if ids, err = memberIDs(v); err != nil {
			return err
		}
	}
	switch op {
	case "add":
		for _, id := range ids {
			if !slices.Contains(current, id) {
				current = append(current, id)
			}
		}
	case "replace":
		current = nil
		for _, id := range ids {
			if !slices.Contains(current, id) {
				current = append(current, id)
			}
		}
	case "remove":
		if p.filter == nil && v == nil {
			current = nil
		}
		current = slices.DeleteFunc(current, func(id string) bool { return slices.Contains(ids, id) })
	}
	g.Members = g.Members[:0]
	for _, id := range current {
		g.Members = append(g.Members, Ref{Value: id})
	}
	return nil
}
