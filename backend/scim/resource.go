package scim

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Meta is a resource's metadata.
type Meta struct {
	ResourceType string `json:"resourceType"`
	Created      string `json:"created,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
	Location     string `json:"location,omitempty"`
	Version      string `json:"version,omitempty"`
}

// Name is a user's name.
type Name struct {
	GivenName  string `json:"givenName,omitempty"`
	FamilyName string `json:"familyName,omitempty"`
	Formatted  string `json:"formatted,omitempty"`
}

// Email is one of a user's addresses; a user has one, userName.
type Email struct {
	Value   string `json:"value"`
	Type    string `json:"type,omitempty"`
	Primary bool   `json:"primary"`
}

// RefJSON is a Ref on the wire.
type RefJSON struct {
	Value   string `json:"value"`
	Display string `json:"display,omitempty"`
	Ref     string `json:"$ref,omitempty"`
}

// UserJSON is a User as SCIM shows it.
type UserJSON struct {
	Schemas     []string  `json:"schemas"`
	ID          string    `json:"id"`
	ExternalID  string    `json:"externalId,omitempty"`
	UserName    string    `json:"userName"`
	Name        Name      `json:"name"`
	DisplayName string    `json:"displayName,omitempty"`
	Active      bool      `json:"active"`
	Emails      []Email   `json:"emails"`
	Groups      []RefJSON `json:"groups"`
	Meta        Meta      `json:"meta"`
}

// GroupJSON is a Group as SCIM shows it.
type GroupJSON struct {
	Schemas     []string  `json:"schemas"`
	ID          string    `json:"id"`
	ExternalID  string    `json:"externalId,omitempty"`
	DisplayName string    `json:"displayName"`
	Members     []RefJSON `json:"members"`
	Meta        Meta      `json:"meta"`
}

// ListJSON is a list answer.
type ListJSON struct {
	Schemas      []string `json:"schemas"`
	TotalResults int      `json:"totalResults"`
	StartIndex   int      `json:"startIndex"`
	ItemsPerPage int      `json:"itemsPerPage"`
	Resources    []any    `json:"Resources"`
}

// ErrorJSON is an error answer; Status is the HTTP status as a string, as RFC 7644 has it.
type ErrorJSON struct {
	Schemas  []string `json:"schemas"`
	Status   string   `json:"status"`
	ScimType string   `json:"scimType,omitempty"`
	Detail   string   `json:"detail"`
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func version(t time.Time) string { return fmt.Sprintf(`W/"%d"`, t.UnixMicro()) }

// UserAnswer is u as SCIM shows it; base is the workspace's SCIM URL (…/scim/v2/{workspace}).
func UserAnswer(u *User, base string) UserJSON {
	a := UserJSON{Schemas: []string{SchemaUser}, ID: u.ID, ExternalID: u.ExternalID, UserName: u.UserName,
		Name: Name{GivenName: u.GivenName, FamilyName: u.FamilyName, Formatted: u.Formatted}, DisplayName: u.DisplayName,
		Active: u.Active, Emails: []Email{{Value: u.UserName, Type: "work", Primary: true}}, Groups: []RefJSON{},
		Meta: Meta{ResourceType: "User", Created: stamp(u.Created), LastModified: stamp(u.Updated),
			Location: base + "/Users/" + u.ID, Version: version(u.Updated)}}
	for _, g := range u.Groups {
		a.Groups = append(a.Groups, RefJSON{Value: g.Value, Display: g.Display, Ref: base + "/Groups/" + g.Value})
	}
	return a
}

// GroupAnswer is g as SCIM shows it.
func GroupAnswer(g *Group, base string) GroupJSON {
	a := GroupJSON{Schemas: []string{SchemaGroup}, ID: g.ID, ExternalID: g.ExternalID, DisplayName: g.DisplayName,
		Members: []RefJSON{}, Meta: Meta{ResourceType: "Group", Created: stamp(g.Created), LastModified: stamp(g.Updated),
			Location: base + "/Groups/" + g.ID, Version: version(g.Updated)}}
	for _, m := range g.Members {
		a.Members = append(a.Members, RefJSON{Value: m.Value, Display: m.Display, Ref: base + "/Users/" + m.Value})
	}
	return a
}

// List is a list answer of resources.
func List(total int, p Page, items []any) ListJSON {
	if items == nil {
		items = []any{}
	}
	return ListJSON{Schemas: []string{SchemaList}, TotalResults: total, StartIndex: p.StartIndex, ItemsPerPage: len(items), Resources: items}
}

// ignoredUserAttrs are attributes of RFC 7643's User (and the enterprise extension) that
// providers send and that Shortlink does not keep: accepted, not stored. password is among
// them: a provisioned person signs in through the provider only.
var ignoredUserAttrs = map[string]bool{
	"schemas": true, "id": true, "meta": true, "nickname": true, "profileurl": true, "title": true, "usertype": true,
	"preferredlanguage": true, "locale": true, "timezone": true, "password": true, "phonenumbers": true, "ims": true,
	"photos": true, "addresses": true, "groups": true, "entitlements": true, "roles": true, "x509certificates": true,
	strings.ToLower(SchemaEnterprise): true,
}

var ignoredGroupAttrs = map[string]bool{"schemas": true, "id": true, "meta": true}

// DecodeUser reads a User sent to create or replace one. Attributes Shortlink does not keep
// are accepted and dropped; unknown ones are refused (invalidSyntax).
func DecodeUser(body []byte) (*User, error) {
	obj, err := decodeObject(body)
	if err != nil {
		return nil, err
	}
	u := &User{Active: true}
	for k, v := range obj {
		if err := setUser(u, "replace", attrPath{name: strings.ToLower(k)}, v); err != nil {
			if apperr.ReasonOf(err) == "scim_invalid_path" {
				return nil, invalidSyntax("attribute %q is unknown", k)
			}
			return nil, err
		}
	}
	if u.UserName == "" {
		return nil, invalidValue("userName is required")
	}
	return u, nil
}

// DecodeGroup reads a Group sent to create or replace one.
func DecodeGroup(body []byte) (*Group, error) {
	obj, err := decodeObject(body)
	if err != nil {
		return nil, err
	}
	g := &Group{}
	for k, v := range obj {
		if err := setGroup(g, "replace", attrPath{name: strings.ToLower(k)}, v); err != nil {
			if apperr.ReasonOf(err) == "scim_invalid_path" {
				return nil, invalidSyntax("attribute %q is unknown", k)
			}
			return nil, err
		}
	}
	if strings.TrimSpace(g.DisplayName) == "" {
		return nil, invalidValue("displayName is required")
	}
	return g, nil
}

func invalidSyntax(format string, args ...any) error {
	return apperr.Errorf(apperr.Invalid, format, args...).For("scim_invalid_syntax", "")
}

func decodeObject(body []byte) (map[string]any, error) {
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, invalidSyntax("the body must be a JSON object")
	}
	return obj, nil
}
