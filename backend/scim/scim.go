// Package scim is SCIM 2.0 provisioning (RFC 7643, RFC 7644) of a workspace's people by its
// identity provider: the workspace's bearer tokens, Users (an account, its membership and its
// name), Groups (whose names map to roles), the filters and PATCH operations Okta and Entra ID
// send, and the resources' wire shapes (docs/scim.md).
//
// github.com/elimity-com/scim is not used: it is an http.Handler of its own that owns the
// routes, the request decoding and the error answers, while here HTTP stays in httpapi (gin,
// its rate limits, body limits and error table) and SQL in postgres, where deprovisioning ends
// the membership, the sessions and the API keys in one transaction. Filters are parsed by
// github.com/scim2/filter-parser/v2.
package scim

import (
	"context"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// The schemas and message URNs of RFC 7643 and RFC 7644.
const (
	SchemaUser       = "urn:ietf:params:scim:schemas:core:2.0:User"
	SchemaGroup      = "urn:ietf:params:scim:schemas:core:2.0:Group"
	SchemaEnterprise = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
	SchemaList       = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
	SchemaPatch      = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
	SchemaError      = "urn:ietf:params:scim:api:messages:2.0:Error"
	SchemaSPConfig   = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
	SchemaResource   = "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
	SchemaSchema     = "urn:ietf:params:scim:schemas:core:2.0:Schema"
)

// ContentType is the media type of SCIM's requests and answers.
const ContentType = "application/scim+json"

// Token is a workspace's SCIM bearer token; its secret is shown once and kept hashed.
type Token struct {
	ID          int64      `json:"id"`
	WorkspaceID int64      `json:"-"`
	Name        string     `json:"name"`
	Prefix      string     `json:"prefix"`
	CreatedBy   *int64     `json:"created_by"`
	CreatedAt   time.Time  `json:"created_at"`
	LastUsedAt  *time.Time `json:"last_used_at"`
}

// User is a person the provider provisioned into a workspace: an account (UserID, whose email
// is UserName) and, while Active, a membership with Role.
type User struct {
	ID          string
	WorkspaceID int64
	UserID      int64
	ExternalID  string
	UserName    string
	GivenName   string
	FamilyName  string
	Formatted   string
	DisplayName string
	Active      bool
	// Role is the membership's role while active, and the one it gets back on reactivation.
	Role    string
	Groups  []Ref
	Created time.Time
	Updated time.Time
}

// Ref names a resource from another: a group's member, a user's group.
type Ref struct {
	Value   string
	Display string
}

// Group is a group of the provider; its members are Users of the same workspace.
type Group struct {
	ID          string
	WorkspaceID int64
	DisplayName string
	ExternalID  string
	Members     []Ref
	Created     time.Time
	Updated     time.Time
}

// Query selects resources: Attr is "" (all), "userName", "externalId", "email" (a user's
// address) or "displayName" (a group's name), compared for equality with Value.
type Query struct {
	Attr  string
	Value string
}

// Page is a list request's window: StartIndex is 1-based, Count at most MaxCount.
type Page struct {
	StartIndex int
	Count      int
}

// Paging of lists.
const (
	DefaultCount = 100
	MaxCount     = 200
)

// Changed is what a change to a User or Group did beyond the resource: the accounts whose
// sessions it ended and the API keys it revoked (to be forgotten at once), and the
// memberships it ended, restored or changed (for the audit log).
type Changed struct {
	EndedSessionsOf []int64
	RevokedKeys     []int64
	Deprovisioned   []int64
	Restored        []int64
	// Roles are the members whose role changed, with the new role.
	Roles map[int64]string
}

// Merge adds what o did to c.
func (c *Changed) Merge(o Changed) {
	c.EndedSessionsOf = append(c.EndedSessionsOf, o.EndedSessionsOf...)
	c.RevokedKeys = append(c.RevokedKeys, o.RevokedKeys...)
	c.Deprovisioned = append(c.Deprovisioned, o.Deprovisioned...)
	c.Restored = append(c.Restored, o.Restored...)
	for k, v := range o.Roles {
		if c.Roles == nil {
			c.Roles = map[int64]string{}
		}
		c.Roles[k] = v
	}
}

// RoleOf decides a member's role from the names of their groups (RoleFor with the
// workspace's mapping); the store calls it whenever a person's groups change.
type RoleOf func(groups []string) string

// Store keeps tokens, users and groups (package postgres). Every method takes the workspace
// and touches nothing of another.
type Store interface {
	// CreateToken keeps a new token by the hash of its secret.
	CreateToken(ctx context.Context, t *Token, hash []byte) (*Token, error)
	// Tokens lists the workspace's tokens, newest first.
	Tokens(ctx context.Context, workspaceID int64) ([]*Token, error)
	// DeleteToken removes a token; not_found when the workspace has no such token.
	DeleteToken(ctx context.Context, workspaceID, id int64) error
	// TokenByHash returns the token with the hash and records its use; not_found when none.
	TokenByHash(ctx context.Context, hash []byte) (*Token, error)

	// CreateUser provisions u.UserName into the workspace, in one transaction: an account
	// (verified address, no password) when there is none, else allow is asked about the
	// existing one; a membership with u.Role when u.Active (an existing membership keeps
	// its role). Conflict (scim_uniqueness) when the account or externalId is provisioned
	// already.
	CreateUser(ctx context.Context, workspaceID int64, u *User, allow func(systemRole string) error) (*User, Changed, error)
	// User returns a provisioned user; not_found when the workspace has none with id.
	User(ctx context.Context, workspaceID int64, id string) (*User, error)
	// Users lists the workspace's provisioned users matching q, by creation, and the total.
	Users(ctx context.Context, workspaceID int64, q Query, p Page) ([]*User, int, error)
	// UpdateUser changes a user in one transaction: apply changes a copy of it; a change of
	// Active ends (Deprovision) or restores the membership; a new UserName becomes the
	// account's address (conflict when another account has it).
	UpdateUser(ctx context.Context, workspaceID int64, id string, apply func(*User) error) (*User, Changed, error)
	// DeleteUser deprovisions the user and forgets it; not_found when none.
	DeleteUser(ctx context.Context, workspaceID int64, id string) (Changed, error)

	// CreateGroup makes a group with members (Users' IDs); roleOf gives them their roles.
	CreateGroup(ctx context.Context, workspaceID int64, g *Group, roleOf RoleOf) (*Group, Changed, error)
	// Group returns a group with its members; not_found when none.
	Group(ctx context.Context, workspaceID int64, id string) (*Group, error)
	// Groups lists the workspace's groups matching q (members left out when
	// withoutMembers), and the total.
	Groups(ctx context.Context, workspaceID int64, q Query, p Page, withoutMembers bool) ([]*Group, int, error)
	// UpdateGroup changes a group in one transaction (apply changes a copy) and the roles
	// of the members it gained or lost.
	UpdateGroup(ctx context.Context, workspaceID int64, id string, apply func(*Group) error, roleOf RoleOf) (*Group, Changed, error)
	// DeleteGroup removes a group and gives its members their roles without it.
	DeleteGroup(ctx context.Context, workspaceID int64, id string, roleOf RoleOf) (Changed, error)
	// RoleMapping returns the owner's mapping of group names (lower case) to roles; empty
	// when the owner set none.
	RoleMapping(ctx context.Context, workspaceID int64) (map[string]string, error)
	// SetRoleMapping replaces it, and gives every provisioned person the role roleOf (over
	// the new mapping) decides.
	SetRoleMapping(ctx context.Context, workspaceID int64, m map[string]string, roleOf RoleOf) (Changed, error)
}

// Errors of the protocol; their reasons map to SCIM's scimType (docs/scim.md).
var (
	ErrTokenInvalid  = apperr.Errorf(apperr.Unauthorized, "the SCIM token is invalid, revoked, or of another workspace").For("scim_token_invalid", "")
	errNotConfigured = apperr.Errorf(apperr.Conflict,
		"provisioning needs single sign-on with a proven email domain: set it up in the workspace's settings").For("scim_sso_not_configured", "")
	errUserMissing  = apperr.Errorf(apperr.NotFound, "no such user").For("scim_user_not_found", "")
	errGroupMissing = apperr.Errorf(apperr.NotFound, "no such group").For("scim_group_not_found", "")
)

// invalidValue is a 400 with scimType invalidValue.
func invalidValue(format string, args ...any) error {
	return apperr.Errorf(apperr.Invalid, format, args...).For("scim_invalid_value", "")
}

// invalidPath is a 400 with scimType invalidPath.
func invalidPath(format string, args ...any) error {
	return apperr.Errorf(apperr.Invalid, format, args...).For("scim_invalid_path", "")
}

// invalidPathType is a 400 with the reason given (scim_no_target, scim_mutability).
func invalidPathType(msg, reason string) error {
	return apperr.Errorf(apperr.Invalid, "%s", msg).For(reason, "")
}

// ErrorType is SCIM's name for an error's reason ("" when it has none).
func ErrorType(reason string) string {
	switch reason {
	case "scim_invalid_filter":
		return "invalidFilter"
	case "scim_invalid_value", "value_invalid":
		return "invalidValue"
	case "scim_invalid_path":
		return "invalidPath"
	case "scim_no_target":
		return "noTarget"
	case "scim_invalid_syntax", "json_invalid":
		return "invalidSyntax"
	case "scim_uniqueness":
		return "uniqueness"
	case "scim_mutability":
		return "mutability"
	case "scim_too_many":
		return "tooMany"
	}
	return ""
}
