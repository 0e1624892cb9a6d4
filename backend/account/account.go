// Package account holds users, workspaces (the tenants), members and their roles,
// invitations and workspace API keys, and the Service that manages them.
package account

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/locale"
)

// System roles, across tenants.
const (
	SystemUser      = "user"
	SystemModerator = "moderator"
	SystemOperator  = "operator"
)

// Workspace roles, strongest first.
const (
	RoleOwner  = "owner"
	RoleAdmin  = "admin"
	RoleMember = "member"
	RoleViewer = "viewer"
)

// Plans a workspace may be on; what each unlocks is the plan package's business.
const (
	PlanFree       = "free"
	PlanTrial      = "trial"
	PlanPersonal   = "personal"
	PlanEnterprise = "enterprise"
)

// Plans lists every plan, cheapest first.
var Plans = []string{PlanFree, PlanTrial, PlanPersonal, PlanEnterprise}

// API-key scopes.
const (
	ScopeLinksRead  = "links:read"
	ScopeLinksWrite = "links:write"
	ScopeStatsRead  = "stats:read"
)

// Scopes lists every API-key scope.
var Scopes = []string{ScopeLinksRead, ScopeLinksWrite, ScopeStatsRead}

// Permission is something a caller may do inside a workspace.
type Permission int

// The permissions; roles and API-key scopes grant them.
const (
	PermRead       Permission = iota + 1 // see the workspace and its members
	PermLinksRead                        // list and read links
	PermLinksWrite                       // create, edit and delete links
	PermStatsRead                        // read statistics
	PermManage                           // members, invitations, API keys, rename
	PermOwn                              // delete the workspace
)

// rolePerms is the whole role model: each role has what the one below it has, and more.
var rolePerms = map[string][]Permission{
	RoleViewer: {PermRead, PermLinksRead, PermStatsRead},
	RoleMember: {PermRead, PermLinksRead, PermStatsRead, PermLinksWrite},
	RoleAdmin:  {PermRead, PermLinksRead, PermStatsRead, PermLinksWrite, PermManage},
	RoleOwner:  {PermRead, PermLinksRead, PermStatsRead, PermLinksWrite, PermManage, PermOwn},
}

// ValidRole reports whether role is a workspace role.
func ValidRole(role string) bool { _, ok := rolePerms[role]; return ok }

// RoleAllows reports whether a member with role may do p.
func RoleAllows(role string, p Permission) bool { return slices.Contains(rolePerms[role], p) }

// ScopeFor names the API-key scope that grants p, "" when no scope can (keys never manage).
func ScopeFor(p Permission) string {
	switch p {
	case PermLinksRead:
		return ScopeLinksRead
	case PermLinksWrite:
		return ScopeLinksWrite
	case PermStatsRead:
		return ScopeStatsRead
	}
	return ""
}

// ScopesAllow reports whether an API key with scopes may do p. A key reaches only what its
// scopes name: links:write implies links:read; no scope grants seeing the workspace and its
// members, managing or owning.
func ScopesAllow(scopes []string, p Permission) bool {
	switch p {
	case PermLinksRead:
		return slices.Contains(scopes, ScopeLinksRead) || slices.Contains(scopes, ScopeLinksWrite)
	case PermLinksWrite, PermStatsRead:
		return slices.Contains(scopes, ScopeFor(p))
	}
	return false
}

// KeyAllowedFor reports whether a member with role may hold an API key with scopes: making
// keys needs the manage permission, and the role must grant what every scope names. A key
// whose creator's role no longer allows it stops working.
func KeyAllowedFor(role string, scopes []string) bool {
	if !RoleAllows(role, PermManage) {
		return false
	}
	for _, sc := range scopes {
		for _, p := range []Permission{PermLinksRead, PermLinksWrite, PermStatsRead} {
			if ScopeFor(p) == sc && !RoleAllows(role, p) {
				return false
			}
		}
	}
	return true
}

// Why an API key was revoked (APIKey.RevokedReason).
const (
	// RevokedByManager: an owner or admin revoked the key.
	RevokedByManager = "revoked"
	// RevokedCreatorRemoved: the key's creator left or was removed from the workspace.
	RevokedCreatorRemoved = "creator_removed"
	// RevokedCreatorDemoted: the creator's new role may not make keys.
	RevokedCreatorDemoted = "creator_demoted"
	// RevokedCreatorDeleted: the creator's account was deleted.
	RevokedCreatorDeleted = "creator_deleted"
	// RevokedCreatorPromoted: its creator was given a system role (moderator or operator),
	// and nothing made before the promotion carries over.
	RevokedCreatorPromoted = "creator_promoted"
	// RevokedCreatorTakenOver: its creator's address was never verified, and its proven owner
	// signed in through single sign-on: what the unproven holder made does not carry over.
	RevokedCreatorTakenOver = "creator_taken_over"
	// RevokedCreatorDeprovisioned: the workspace's identity provider deprovisioned its creator
	// (docs/scim.md).
	RevokedCreatorDeprovisioned = "creator_deprovisioned"
)

// User is a person who logs in.
type User struct {
	ID         int64  `json:"id"`
	Email      string `json:"email"`
	SystemRole string `json:"system_role"`
	// EmailVerified is set once the user followed a link mailed to their address.
	EmailVerified bool `json:"email_verified"`
	// SystemRoleSince is when the system role last changed: access tokens issued before it
	// carry no system rights.
	SystemRoleSince time.Time `json:"-"`
	CreatedAt       time.Time `json:"created_at"`
	// Language is the one the user reads mails in (docs/web-app.md#language-errors-and-confirmations).
	Language locale.Tag `json:"language"`
}

// Workspace is a tenant. Role is the caller's role in it, where a listing shows it.
type Workspace struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Plan string `json:"plan"`
	Role string `json:"role,omitempty"`
	// Require2FA is the workspace's demand that its members sign in with a second factor; it
	// applies only while the plan has sso (see TwoFactorBlocks).
	Require2FA bool `json:"require_2fa"`
	// SessionMaxAge and SessionIdleTimeout are the workspace's session policy (nil: no
	// limit); like Require2FA they apply only while the plan has sso.
	SessionMaxAge      *Duration `json:"session_max_age"`
	SessionIdleTimeout *Duration `json:"session_idle_timeout"`
	CreatedAt          time.Time `json:"created_at"`
	// Billing is the workspace's subscription as operators see it; set only in their listing.
	Billing *BillingSummary `json:"billing,omitempty"`
}

// Access is what the service knows of a user's way into a workspace, read in one step.
type Access struct {
	Role string
	// MissingTwoFactor is set when the workspace requires 2FA and the user has not turned it on.
	MissingTwoFactor bool
	// SessionPolicy is the workspace's, whatever its plan.
	SessionPolicy auth.SessionPolicy
}

// TwoFactorBlocks decides whether a person is refused a workspace for lack of 2FA: the
// workspace requires it, the person has not turned it on, and the plan has sso (a
// downgrade below sso leaves the setting stored but ineffective). API keys are not persons
// and never reach this decision.
func TwoFactorBlocks(a Access, planHasSSO bool) bool { return a.MissingTwoFactor && planHasSSO }

// CheckRequire2FA decides whether a member with role, who has 2FA on or not, may set a
// workspace's 2FA requirement to on: only owners change it, and turning it on needs the
// owner's own 2FA first, so the owner is never locked out by their own switch.
func CheckRequire2FA(role string, ownTwoFactor, on bool) error {
	if role != RoleOwner {
		return apperr.Errorf(apperr.Forbidden, "only an owner can change whether the workspace requires two-factor sign-in").For("owner_required", "")
	}
	if on && !ownTwoFactor {
		return apperr.Errorf(apperr.Conflict, "turn on two-factor sign-in for your own account before requiring it of the workspace").For("own_2fa_required", "")
	}
	return nil
}

// BillingSummary is a workspace's billing at a glance: the subscription's status, the plan it
// grants (billed_plan, "" for none) and until when (nil: no end), and when a payment first
// failed.
type BillingSummary struct {
	Status       string     `json:"status"`
	BilledPlan   string     `json:"billed_plan"`
	BilledUntil  *time.Time `json:"billed_until"`
	PastDueSince *time.Time `json:"past_due_since"`
}

// Member is a user's membership of a workspace.
type Member struct {
	UserID    int64     `json:"user_id"`
	Email     string    `json:"email"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"created_at"`
	// TwoFactor says the member has two-factor sign-in on: a workspace that requires it
	// locks out the members without it.
	TwoFactor bool `json:"two_factor"`
}

// Invitation asks whoever has (or will have) an account with Email to join a workspace with
// a role. It says nothing of whether that account exists.
type Invitation struct {
	ID            int64     `json:"id"`
	WorkspaceID   int64     `json:"workspace_id"`
	WorkspaceName string    `json:"workspace_name"`
	Email         string    `json:"email"`
	Role          string    `json:"role"`
	CreatedAt     time.Time `json:"created_at"`
	// ExpiresAt is when the invitation stops being valid (InvitationValidity after it was
	// sent or last resent); Expired says that time has come.
	ExpiresAt time.Time `json:"expires_at"`
	Expired   bool      `json:"expired"`
	// InvitedBy is the email of whoever sent it; empty once their account is deleted.
	InvitedBy string `json:"invited_by"`
	// Token is the secret of the invitation mail's link; set only on the invitation just
	// made, for the mail, and never shown by the API.
	Token string `json:"-"`
}

// InvitationPreview is what the holder of an invitation link's secret is told before signing
// in or up: which workspace, who invited them, the role and the invited address, and nothing
// else of the workspace.
type InvitationPreview struct {
	ID            int64  `json:"id"`
	WorkspaceID   int64  `json:"-"`
	WorkspaceName string `json:"workspace_name"`
	// InvitedBy is the inviter's email; empty once their account is deleted.
	InvitedBy string `json:"invited_by"`
	Role      string `json:"role"`
	Email     string `json:"email"`
	// HasAccount says the invited address has an account already: the link's holder logs in
	// rather than signs up.
	HasAccount bool `json:"has_account"`
	// ExpiresAt is when the invitation stops being valid; Expired says that time has come,
	// and the holder asks InvitedBy to resend it.
	ExpiresAt time.Time `json:"expires_at"`
	Expired   bool      `json:"expired"`
}

// InvitationLink names an invitation by its ID and the secret of its mail's link.
type InvitationLink struct {
	ID    int64  `json:"id"`
	Token string `json:"token"`
}

// APIKey is a workspace's key for the API; only a hash of its secret is kept. Its rights
// follow its creator's: see KeyAllowedFor.
type APIKey struct {
	ID          int64    `json:"id"`
	WorkspaceID int64    `json:"workspace_id"`
	Name        string   `json:"name"`
	Prefix      string   `json:"prefix"`
	Scopes      []string `json:"scopes"`
	// CreatedBy is the member who made the key; nil once their account is deleted.
	CreatedBy  *int64     `json:"created_by"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
	// RevokedReason is one of the Revoked* reasons, for a revoked key.
	RevokedReason *string `json:"revoked_reason,omitempty"`
	// CreatorRole is the creator's role in the workspace now, "" if they are no member; only
	// APIKeyByHash fills it.
	CreatorRole string `json:"-"`
}

// LinkRef is where a link of a deleted workspace was: the caches of the redirect path must
// forget it.
type LinkRef struct {
	DomainID int64
	Key      string
}

// Store keeps accounts. Every method taking a workspace ID touches nothing outside that
// workspace: an ID of another workspace's member, invitation or key is simply not found.
// Methods return apperr not_found and conflict errors where noted; anything else is internal.
type Store interface {
	// CreateUser creates a user, a workspace named wsName and the user's ownership of it, in
	// one transaction. Returns conflict if the email is taken.
	CreateUser(ctx context.Context, email, passwordHash, wsName string) (*User, *Workspace, error)
	// UserByEmail returns a user and their password hash; not_found if there is none.
	UserByEmail(ctx context.Context, email string) (*User, string, error)
	// User returns a user; not_found if there is none.
	User(ctx context.Context, id int64) (*User, error)
	// SetLanguage sets the language the user reads mails in; not_found if there is no user.
	SetLanguage(ctx context.Context, userID int64, lang locale.Tag) (*User, error)
	// LanguageOf is the language of the account that uses email; ok is false when none does.
	LanguageOf(ctx context.Context, email string) (lang locale.Tag, ok bool, err error)
	// UpsertOperator makes the user with email an operator with that password and a verified
	// address, creating the user (and a workspace of their own) if needed. Promoting an
	// existing user revokes, in the same transaction, every session of theirs and every API
	// key they created; the revoked keys' IDs are returned.
	UpsertOperator(ctx context.Context, email, passwordHash string) (*User, []int64, error)

	// WorkspacesOf lists the user's workspaces with their role in each.
	WorkspacesOf(ctx context.Context, userID int64) ([]*Workspace, error)
	// CreateWorkspace creates a free workspace owned by the user; quota_exceeded when they own
	// maxOwned already.
	CreateWorkspace(ctx context.Context, ownerID int64, name string, maxOwned int) (*Workspace, error)
	// Workspace returns a workspace; not_found if there is none.
	Workspace(ctx context.Context, id int64) (*Workspace, error)
	// RenameWorkspace returns not_found if there is no such workspace.
	RenameWorkspace(ctx context.Context, id int64, name string) (*Workspace, error)
	// MarkWorkspaceDeleted takes a workspace from everyone at once (members, invitations and
	// API keys go); not_found if there is none or it is already deleted.
	MarkWorkspaceDeleted(ctx context.Context, id int64) error
	// DeleteWorkspaceLinks deletes up to limit links of a workspace marked deleted and returns
	// where they were, for the caches; ErrPurgeBusy while another batch of it runs.
	DeleteWorkspaceLinks(ctx context.Context, id int64, limit int) ([]LinkRef, error)
	// FinishWorkspaceDeletion deletes a workspace marked deleted once no link is left in it,
	// and reports whether the workspace is gone.
	FinishWorkspaceDeletion(ctx context.Context, id int64) (bool, error)
	// DeletedWorkspaces lists the workspaces marked deleted at least minAge ago and not yet
	// removed.
	DeletedWorkspaces(ctx context.Context, minAge time.Duration) ([]int64, error)

	// Role is the user's role in the workspace; not_found if they are not a member.
	Role(ctx context.Context, workspaceID, userID int64) (string, error)
	// Access is the user's role in the workspace and whether the workspace requires a 2FA
	// the user lacks, in one read; not_found if they are not a member.
	Access(ctx context.Context, workspaceID, userID int64) (Access, error)
	// SetRequire2FA sets the workspace's 2FA requirement and reports whether it changed;
	// not_found if there is no such workspace.
	SetRequire2FA(ctx context.Context, id int64, on bool) (*Workspace, bool, error)
	// SetSessionPolicy sets the workspace's session policy and reports whether it changed;
	// not_found for a missing workspace.
	SetSessionPolicy(ctx context.Context, id int64, p auth.SessionPolicy) (*Workspace, bool, error)
	// Members lists the workspace's members, oldest first.
	Members(ctx context.Context, workspaceID int64) ([]*Member, error)
	// SetRole changes a member's role. Returns not_found if the user is not a member and
	// conflict if the workspace would be left without an owner.
	SetRole(ctx context.Context, workspaceID, userID int64, role string) (*Member, error)
	// RemoveMember ends a membership, with the same errors as SetRole.
	RemoveMember(ctx context.Context, workspaceID, userID int64) error
	// TransferOwnership makes the member to an owner and the owner from an admin, in one
	// transaction, and returns the new owner's membership. Returns not_found if to is not a
	// member and conflict if from is not an owner.
	TransferOwnership(ctx context.Context, workspaceID, from, to int64) (*Member, error)

	// IsMemberByEmail reports whether the user with that (normalised) email is a member of
	// the workspace.
	IsMemberByEmail(ctx context.Context, workspaceID int64, email string) (bool, error)
	// CreateInvitation invites a normalised email, keeping tokenHash, the hash of the secret
	// of the mail's link, valid until expiresAt; conflict if it is already invited to the
	// workspace.
	CreateInvitation(ctx context.Context, workspaceID int64, email, role string, by int64, tokenHash []byte, expiresAt time.Time) (*Invitation, error)
	// ReplaceExpiredInvitation makes the workspace's invitation to a normalised email, when it
	// expired by now, a new one: role, by, tokenHash, sent at now and valid until expiresAt
	// (the old link stops working). Returns not_found when the workspace has no invitation to
	// email that expired by now.
	ReplaceExpiredInvitation(ctx context.Context, workspaceID int64, email, role string, by int64, tokenHash []byte, now, expiresAt time.Time) (*Invitation, error)
	// InvitationPreview returns the invitation with id whose link's secret has tokenHash;
	// not_found otherwise (an invitation made before links carried a secret has none).
	InvitationPreview(ctx context.Context, id int64, tokenHash []byte) (*InvitationPreview, error)
	// CreateInvitedUser creates a user with email, verified, and turns the invitation with id
	// and tokenHash, addressed to that email, into their membership, in one transaction: the
	// user gets no workspace of their own. Returns not_found if there is no such invitation
	// and conflict if the email is taken.
	CreateInvitedUser(ctx context.Context, email, passwordHash string, id int64, tokenHash []byte) (*User, *Workspace, error)
	// Invitations lists the workspace's pending invitations.
	Invitations(ctx context.Context, workspaceID int64) ([]*Invitation, error)
	// InvitationsFor lists the invitations addressed to the user's email.
	InvitationsFor(ctx context.Context, userID int64) ([]*Invitation, error)
	// AcceptInvitation turns the user's invitation into a membership and returns the
	// workspace; not_found unless the invitation is addressed to that user's email and has
	// not expired by the database's clock.
	AcceptInvitation(ctx context.Context, userID, id int64) (*Workspace, error)
	// DeclineInvitation returns not_found unless the invitation is addressed to that user's
	// email.
	DeclineInvitation(ctx context.Context, userID, id int64) error
	// DeleteInvitation withdraws the workspace's invitation; not_found if it has none with id.
	DeleteInvitation(ctx context.Context, workspaceID, id int64) error
	// RenewInvitation gives the workspace's invitation id a new link secret, tokenHash (the
	// old link stops working) valid until expiresAt; not_found if the workspace has none
	// with id.
	RenewInvitation(ctx context.Context, workspaceID, id int64, tokenHash []byte, expiresAt time.Time) (*Invitation, error)

	// CreateAPIKey stores k (workspace, name, prefix, scopes, creator) with the secret's hash.
	CreateAPIKey(ctx context.Context, k *APIKey, hash []byte) (*APIKey, error)
	// APIKeys lists the workspace's keys that are not revoked, or all of them withRevoked.
	APIKeys(ctx context.Context, workspaceID int64, withRevoked bool) ([]*APIKey, error)
	// RevokeAPIKey revokes a key for RevokedByManager; not_found if the workspace has no live
	// key with id.
	RevokeAPIKey(ctx context.Context, workspaceID, id int64) error
	// RevokeKeysCreatedBy revokes, for reason, the live keys the user made in the workspace
	// (in every workspace when workspaceID is 0), and returns their IDs.
	RevokeKeysCreatedBy(ctx context.Context, userID, workspaceID int64, reason string) ([]int64, error)
	// APIKeyByHash returns the key with that hash, revoked or not, with its creator's role;
	// not_found if there is none.
	APIKeyByHash(ctx context.Context, hash []byte) (*APIKey, error)
	// TouchAPIKey records that the key was used at the given time.
	TouchAPIKey(ctx context.Context, workspaceID, id int64, at time.Time) error

	// ListWorkspaces pages through every workspace, newest first, IDs below before (0: from
	// the newest).
	ListWorkspaces(ctx context.Context, before int64, limit int) ([]*Workspace, error)
	// SetPlan returns not_found if there is no such workspace.
	SetPlan(ctx context.Context, workspaceID int64, plan string) (*Workspace, error)
	// ListUsers pages through every user like ListWorkspaces.
	ListUsers(ctx context.Context, before int64, limit int) ([]*User, error)
	// SetSystemRole changes a user's system role and, in the same transaction, revokes every
	// session of theirs; granting moderator or operator also revokes every API key they
	// created, whose IDs are returned. Returns not_found if there is no such user.
	SetSystemRole(ctx context.Context, userID int64, role string) (*User, []int64, error)

	// CreateEmailToken stores the hash of a single-use token mailed to email for purpose
	// (PurposeVerify or PurposeReset).
	CreateEmailToken(ctx context.Context, userID int64, purpose, email string, hash []byte, expires time.Time) error
	// VerifyEmail uses up the live verification token with that hash and marks the address it
	// was sent to verified; not_found if there is no such token (unknown, used or expired).
	VerifyEmail(ctx context.Context, tokenHash []byte) (*User, error)
	// EmailToken returns the user and the address of the live (unused, unexpired) token of
	// purpose with that hash, without using it; not_found if there is none.
	EmailToken(ctx context.Context, purpose string, tokenHash []byte) (int64, string, error)
	// ResetPassword uses up the live reset token with that hash and, in one transaction, sets
	// the password, marks the address verified, revokes every session of the user and uses up
	// their other reset tokens; not_found if there is no such token.
	ResetPassword(ctx context.Context, tokenHash []byte, passwordHash string) (*User, error)

	// PasswordHash returns the user's password hash; not_found if there is no such user.
	PasswordHash(ctx context.Context, userID int64) (string, error)
	// SetPassword sets the user's password and, in the same transaction, revokes every
	// session of theirs but keep (uuid.Nil: every one); not_found if there is no such user.
	SetPassword(ctx context.Context, userID int64, passwordHash string, keep uuid.UUID) error
	// PendingEmail is the address of the user's newest live email-change link, "" if none.
	PendingEmail(ctx context.Context, userID int64) (string, error)
	// ChangeEmail uses up the live email-change token with that hash and makes the address it
	// was sent to the user's, verified, and answers the user and their former address;
	// not_found if there is no such token, conflict if another account has the address now.
	ChangeEmail(ctx context.Context, tokenHash []byte) (*User, string, error)
	// DeleteUser deletes the user and marks deleted, in the same transaction, the workspaces
	// they alone belong to, whose IDs it answers (their links are removed afterwards). It
	// refuses with conflict, deleting nothing, while the user is the only owner of a workspace
	// that has other members, naming those workspaces; not_found if there is no such user.
	DeleteUser(ctx context.Context, userID int64) ([]int64, error)
}
