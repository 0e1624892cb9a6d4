package scim

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/sso"
)

// TokenPrefix starts every SCIM token, so secret scanners and people tell them apart.
const TokenPrefix = "sl_scim_"

// tokenDisplayLen is how much of a token is kept in clear to tell tokens apart.
const tokenDisplayLen = 14

// Plans answers whether a workspace's plan has a feature (plan.Service).
type Plans interface {
	Require(ctx context.Context, workspaceID int64, f plan.Feature) error
}

// Settings returns a workspace's single sign-on settings (sso.Store).
type Settings interface {
	Get(ctx context.Context, workspaceID int64) (*sso.Settings, error)
}

// Service runs provisioning for the workspaces whose plan has single sign-on.
type Service struct {
	store    Store
	plans    Plans
	settings Settings
}

// NewService returns the service over its store.
func NewService(store Store, plans Plans, settings Settings) *Service {
	return &Service{store: store, plans: plans, settings: settings}
}

func hashToken(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// CreateToken makes a token of the workspace and returns it with its secret, shown this once.
// Returns plan_required when the workspace's plan lacks sso.
func (s *Service) CreateToken(ctx context.Context, workspaceID, by int64, name string) (*Token, string, error) {
	if err := s.plans.Require(ctx, workspaceID, plan.SSO); err != nil {
		return nil, "", err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = "SCIM"
	}
	if len(name) > 100 || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return nil, "", apperr.Errorf(apperr.Invalid, "name must be at most 100 characters of text").For("value_invalid", "name")
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, "", fmt.Errorf("scim token: %w", err)
	}
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	t := &Token{WorkspaceID: workspaceID, Name: name, Prefix: secret[:tokenDisplayLen]}
	if by != 0 {
		t.CreatedBy = &by
	}
	t, err := s.store.CreateToken(ctx, t, hashToken(secret))
	if err != nil {
		return nil, "", err
	}
	return t, secret, nil
}

// Tokens lists the workspace's tokens, never their secrets.
func (s *Service) Tokens(ctx context.Context, workspaceID int64) ([]*Token, error) {
	return s.store.Tokens(ctx, workspaceID)
}

// DeleteToken revokes a token at once; not_found when the workspace has none with id.
func (s *Service) DeleteToken(ctx context.Context, workspaceID, id int64) error {
	return s.store.DeleteToken(ctx, workspaceID, id)
}

// Authenticate admits a SCIM request to workspaceID with the bearer secret: a token of
// that workspace (a token of another answers like a wrong one), whose plan still has sso
// (plan_required otherwise: a downgraded workspace's provider is refused, its tokens and
// people kept).
func (s *Service) Authenticate(ctx context.Context, workspaceID int64, secret string) (*Token, error) {
	if !strings.HasPrefix(secret, TokenPrefix) || len(secret) > 128 {
		return nil, ErrTokenInvalid
	}
	hash := hashToken(secret)
	t, err := s.store.TokenByHash(ctx, hash)
	if apperr.Is(err, apperr.NotFound) {
		return nil, ErrTokenInvalid
	}
	if err != nil {
		return nil, fmt.Errorf("scim token: %w", err)
	}
	same := subtle.ConstantTimeEq(int32(t.WorkspaceID>>32), int32(workspaceID>>32)) &
		subtle.ConstantTimeEq(int32(t.WorkspaceID), int32(workspaceID))
	if same != 1 {
		return nil, ErrTokenInvalid
	}
	if err := s.plans.Require(ctx, workspaceID, plan.SSO); err != nil {
		return nil, err
	}
	return t, nil
}

// checkAddress normalises a userName and requires it in the workspace's proven email domain:
// a provisioned person signs in through the provider, whose domain that is.
func (s *Service) checkAddress(ctx context.Context, workspaceID int64, userName string) (string, error) {
	email, err := account.NormalizeEmail(userName)
	if err != nil {
		return "", invalidValue("userName must be an email address: %s", apperr.MessageOf(err))
	}
	st, err := s.settings.Get(ctx, workspaceID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && !st.Verified()) {
		return "", errNotConfigured
	}
	if err != nil {
		return "", fmt.Errorf("scim: sso settings: %w", err)
	}
	if sso.EmailDomain(email) != st.EmailDomain {
		return "", invalidValue("userName %q is outside the workspace's email domain %s", userName, st.EmailDomain)
	}
	return email, nil
}

// allowAccount refuses operators' and moderators' accounts: a customer's provider must not
// open or close them.
func allowAccount(systemRole string) error {
	if systemRole != account.SystemUser {
		return apperr.Errorf(apperr.Conflict, "this address belongs to a staff account, which is not provisioned").For("scim_uniqueness", "")
	}
	return nil
}

// CreateUser provisions a person: an account (no password; single sign-on only) when the
// address has none, and a membership (role member, or what their groups give) when active.
func (s *Service) CreateUser(ctx context.Context, workspaceID int64, u *User) (*User, Changed, error) {
	email, err := s.checkAddress(ctx, workspaceID, u.UserName)
	if err != nil {
		return nil, Changed{}, err
	}
	u.UserName, u.Role = email, account.RoleMember
	if err := checkText(u); err != nil {
		return nil, Changed{}, err
	}
	return s.store.CreateUser(ctx, workspaceID, u, allowAccount)
}

// User returns a provisioned person.
func (s *Service) User(ctx context.Context, workspaceID int64, id string) (*User, error) {
	u, err := s.store.User(ctx, workspaceID, id)
	if apperr.Is(err, apperr.NotFound) {
		return nil, errUserMissing
	}
	return u, err
}

// Users lists provisioned people matching q.
func (s *Service) Users(ctx context.Context, workspaceID int64, q Query, p Page) ([]*User, int, error) {
	return s.store.Users(ctx, workspaceID, q, p)
}

// ReplaceUser puts in the attributes of in (PUT): what it leaves out is cleared.
func (s *Service) ReplaceUser(ctx context.Context, workspaceID int64, id string, in *User) (*User, Changed, error) {
	return s.updateUser(ctx, workspaceID, id, func(u *User) error {
		u.UserName, u.ExternalID, u.DisplayName, u.Active = in.UserName, in.ExternalID, in.DisplayName, in.Active
		u.GivenName, u.FamilyName, u.Formatted = in.GivenName, in.FamilyName, in.Formatted
		return nil
	})
}

// PatchUser applies a PATCH request's operations.
func (s *Service) PatchUser(ctx context.Context, workspaceID int64, id string, ops []PatchOp) (*User, Changed, error) {
	return s.updateUser(ctx, workspaceID, id, func(u *User) error { return ApplyUserPatch(u, ops) })
}

func (s *Service) updateUser(ctx context.Context, workspaceID int64, id string, change func(*User) error) (*User, Changed, error) {
	u, ch, err := s.store.UpdateUser(ctx, workspaceID, id, func(u *User) error {
		before, wasActive := u.UserName, u.Active
		if err := change(u); err != nil {
			return err
		}
		if err := checkText(u); err != nil {
			return err
		}
		// Deactivating never needs the domain: access must end whatever the settings are.
		if !strings.EqualFold(before, u.UserName) || (u.Active && !wasActive) {
			email, err := s.checkAddress(ctx, workspaceID, u.UserName)
			if err != nil {
				return err
			}
			u.UserName = email
		} else {
			u.UserName = before
		}
		return nil
	})
	if apperr.Is(err, apperr.NotFound) {
		return nil, Changed{}, errUserMissing
	}
	return u, ch, err
}

// DeleteUser deprovisions a person and forgets the provisioning; the account stays.
func (s *Service) DeleteUser(ctx context.Context, workspaceID int64, id string) (Changed, error) {
	ch, err := s.store.DeleteUser(ctx, workspaceID, id)
	if apperr.Is(err, apperr.NotFound) {
		return Changed{}, errUserMissing
	}
	return ch, err
}

// maxText bounds the names and IDs a provider sends.
const maxText = 256

func checkText(u *User) error {
	for _, f := range []struct{ name, v string }{{"userName", u.UserName}, {"externalId", u.ExternalID},
		{"displayName", u.DisplayName}, {"name.givenName", u.GivenName}, {"name.familyName", u.FamilyName}, {"name.formatted", u.Formatted}} {
		if len(f.v) > maxText || strings.IndexFunc(f.v, unicode.IsControl) >= 0 {
			return invalidValue("%s must be at most %d characters of text", f.name, maxText)
		}
	}
	return nil
}

// Roles that groups may give; owners are made in the workspace, never by a provider.
var groupRoles = []string{account.RoleAdmin, account.RoleMember, account.RoleViewer}

// RoleFor is the role a person's groups give: the highest of the roles their groups' names
// map to (mapping, by lower-case name; without one, the names admin, member and viewer
// themselves), member when none maps.
func RoleFor(groups []string, mapping map[string]string) string {
	best := -1
	for _, g := range groups {
		name := strings.ToLower(strings.TrimSpace(g))
		role := name
		if len(mapping) > 0 {
			role = mapping[name]
		}
		for i, r := range groupRoles {
			if role == r && (best < 0 || i < best) {
				best = i
			}
		}
	}
	if best < 0 {
		return account.RoleMember
	}
	return groupRoles[best]
}

func (s *Service) roleOf(ctx context.Context, workspaceID int64) (RoleOf, error) {
	m, err := s.store.RoleMapping(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	return func(groups []string) string { return RoleFor(groups, m) }, nil
}

// CreateGroup makes a group; its members get the role its name maps to.
func (s *Service) CreateGroup(ctx context.Context, workspaceID int64, g *Group) (*Group, Changed, error) {
	if len(g.DisplayName) > maxText || len(g.ExternalID) > maxText {
		return nil, Changed{}, invalidValue("displayName and externalId must be at most %d characters", maxText)
	}
	roleOf, err := s.roleOf(ctx, workspaceID)
	if err != nil {
		return nil, Changed{}, err
	}
	return s.store.CreateGroup(ctx, workspaceID, g, roleOf)
}

// Group returns a group with its members.
func (s *Service) Group(ctx context.Context, workspaceID int64, id string) (*Group, error) {
	g, err := s.store.Group(ctx, workspaceID, id)
	if apperr.Is(err, apperr.NotFound) {
		return nil, errGroupMissing
	}
	return g, err
}

// Groups lists groups matching q.
func (s *Service) Groups(ctx context.Context, workspaceID int64, q Query, p Page, withoutMembers bool) ([]*Group, int, error) {
	return s.store.Groups(ctx, workspaceID, q, p, withoutMembers)
}

// ReplaceGroup puts in the name, externalId and members of in (PUT).
func (s *Service) ReplaceGroup(ctx context.Context, workspaceID int64, id string, in *Group) (*Group, Changed, error) {
	return s.updateGroup(ctx, workspaceID, id, func(g *Group) error {
		g.DisplayName, g.ExternalID, g.Members = in.DisplayName, in.ExternalID, in.Members
		return nil
	})
}

// PatchGroup applies a PATCH request's operations: members added or removed change their
// roles at once.
func (s *Service) PatchGroup(ctx context.Context, workspaceID int64, id string, ops []PatchOp) (*Group, Changed, error) {
	return s.updateGroup(ctx, workspaceID, id, func(g *Group) error { return ApplyGroupPatch(g, ops) })
}

func (s *Service) updateGroup(ctx context.Context, workspaceID int64, id string, change func(*Group) error) (*Group, Changed, error) {
	roleOf, err := s.roleOf(ctx, workspaceID)
	if err != nil {
		return nil, Changed{}, err
	}
	g, ch, err := s.store.UpdateGroup(ctx, workspaceID, id, func(g *Group) error {
		if err := change(g); err != nil {
			return err
		}
		if len(g.DisplayName) > maxText || len(g.ExternalID) > maxText {
			return invalidValue("displayName and externalId must be at most %d characters", maxText)
		}
		return nil
	}, roleOf)
	if apperr.Is(err, apperr.NotFound) && apperr.ReasonOf(err) != "scim_user_not_found" {
		return nil, Changed{}, errGroupMissing
	}
	return g, ch, err
}

// DeleteGroup removes a group; its members lose the role it gave them.
func (s *Service) DeleteGroup(ctx context.Context, workspaceID int64, id string) (Changed, error) {
	roleOf, err := s.roleOf(ctx, workspaceID)
	if err != nil {
		return Changed{}, err
	}
	ch, err := s.store.DeleteGroup(ctx, workspaceID, id, roleOf)
	if apperr.Is(err, apperr.NotFound) {
		return Changed{}, errGroupMissing
	}
	return ch, err
}

// maxMappings bounds an owner's mapping of group names to roles.
const maxMappings = 100

// RoleMapping returns the owner's mapping of group names (lower case) to roles; empty when
// the names admin, member and viewer map to themselves.
func (s *Service) RoleMapping(ctx context.Context, workspaceID int64) (map[string]string, error) {
	return s.store.RoleMapping(ctx, workspaceID)
}

// SetRoleMapping replaces the owner's mapping (empty: back to the names admin, member and
// viewer) and gives every provisioned person the role it decides, at once.
func (s *Service) SetRoleMapping(ctx context.Context, workspaceID int64, m map[string]string) (map[string]string, Changed, error) {
	if err := s.plans.Require(ctx, workspaceID, plan.SSO); err != nil {
		return nil, Changed{}, err
	}
	if len(m) > maxMappings {
		return nil, Changed{}, apperr.Errorf(apperr.Invalid, "at most %d group names may be mapped", maxMappings).For("value_invalid", "mappings")
	}
	clean := make(map[string]string, len(m))
	for name, role := range m {
		n := strings.ToLower(strings.TrimSpace(name))
		if n == "" || len(n) > maxText || strings.IndexFunc(n, unicode.IsControl) >= 0 {
			return nil, Changed{}, apperr.Errorf(apperr.Invalid, "a group name must be 1 to %d characters of text", maxText).For("value_invalid", "mappings")
		}
		role = strings.ToLower(strings.TrimSpace(role))
		if role != account.RoleAdmin && role != account.RoleMember && role != account.RoleViewer {
			return nil, Changed{}, apperr.Errorf(apperr.Invalid, "group %q: a role must be admin, member or viewer (owners are made in the workspace)", name).For("role_invalid", "mappings")
		}
		clean[n] = role
	}
	ch, err := s.store.SetRoleMapping(ctx, workspaceID, clean, func(groups []string) string { return RoleFor(groups, clean) })
	if err != nil {
		return nil, Changed{}, err
	}
	return clean, ch, nil
}
