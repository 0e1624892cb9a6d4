package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/maypok86/otter/v2"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// keyCacheTTL bounds how long a key revoked on another node keeps working here.
const keyCacheTTL = 5 * time.Second

// touchEvery bounds how often a key's last-used time is written.
const touchEvery = time.Minute

// MaxOwnedWorkspaces bounds the workspaces one account owns: each may hold custom aliases that
// every node keeps in memory, and workspaces cost nothing to make.
const MaxOwnedWorkspaces = 20

// MaxPage is the largest page of an operator listing.
const MaxPage = 100

// Service manages users, workspaces, members, invitations and API keys.
type Service struct {
	store Store
	// hasher hashes and checks every password, within its bound on concurrent hashes.
	hasher *auth.Hasher
	log    *slog.Logger
	// keys caches API keys by the hash of their secret, so a busy integration costs no
	// database round trip per request.
	keys *otter.Cache[string, *APIKey]

	// linksRemoved hears of the links a workspace deletion took with it.
	linksRemoved func(context.Context, []LinkRef)
	// keyRevoked hears of each revoked API key, to tell the other nodes.
	keyRevoked func(context.Context, int64)
	// deletions removes the rows of deleted workspaces in the background.
	deletions deletions
	// memberCheck refuses members past the workspace's plan (CheckMembersWith); nil: no limit.
	memberCheck func(ctx context.Context, workspaceID, adding int64) error
	// guard refuses changes of password and address that single sign-on forbids
	// (GuardCredentials); nil: none is refused.
	guard CredentialGuard

	// mailer sends verification and password-reset links pointing at appBase.
	mailer  Mailer
	appBase *url.URL

	// invites, when set, bounds the invitations of each workspace to invitesPerHour.
	invites        Limiter
	invitesPerHour int

	mu      sync.Mutex
	touched map[int64]time.Time // when each key's use was last written
	pending sync.WaitGroup      // last-used writes and mails in flight
	// bg is the context of background work; Close cancels it.
	bg     context.Context
	stopBG context.CancelFunc
}

// NewService returns the account service; every password goes through hasher.
func NewService(store Store, hasher *auth.Hasher, log *slog.Logger) *Service {
	bg, stop := context.WithCancel(context.Background())
	s := &Service{
		store:  store,
		hasher: hasher,
		log:    log,
		keys: otter.Must(&otter.Options[string, *APIKey]{
			MaximumSize:      100_000,
			ExpiryCalculator: otter.ExpiryWriting[string, *APIKey](keyCacheTTL),
		}),
		touched:   map[int64]time.Time{},
		deletions: newDeletions(),
		bg:        bg,
		stopBG:    stop,
	}
	s.UseMail(nil, nil)
	return s
}

// Limiter takes one attempt from a budget of n per period shared by every node, or answers
// rate_limited (an *auth.RateLimitError, which says when to come back).
type Limiter interface {
	Take(ctx context.Context, key, what string, n int, period time.Duration) error
}

// LimitInvitations bounds the invitations each workspace sends to perHour.
func (s *Service) LimitInvitations(l Limiter, perHour int) { s.invites, s.invitesPerHour = l, perHour }

// OnLinksRemoved sets what is told of each batch of links a workspace deletion removed; the
// redirect caches use it so those links are dropped everywhere at once.
func (s *Service) OnLinksRemoved(fn func(context.Context, []LinkRef)) { s.linksRemoved = fn }

// OnKeyRevoked sets what is told of each revoked API key (after this node forgot it), so that
// other nodes can forget their cached copies at once rather than when those expire.
func (s *Service) OnKeyRevoked(fn func(ctx context.Context, keyID int64)) { s.keyRevoked = fn }

// ForgetKey drops this node's cached copy of an API key, revoked elsewhere.
func (s *Service) ForgetKey(id int64) { s.forgetKeys(func(k *APIKey) bool { return k.ID == id }) }

// ForgetAllKeys drops every cached API key (news of revocations may have been missed).
func (s *Service) ForgetAllKeys() { s.keys.InvalidateAll() }

// Close gives up on mails still being sent (their users can ask again), waits for the
// last-used times still being written, and stops removing deleted workspaces (any node resumes
// that later).
func (s *Service) Close() {
	s.stopBG()
	s.pending.Wait()
	s.deletions.stop()
}

// NormalizeEmail trims and lower-cases an address and checks its syntax.
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	if e == "" {
		return "", apperr.Errorf(apperr.Invalid, "email is required").For("email_required", "email")
	}
	if len(e) > 254 {
		return "", apperr.Errorf(apperr.Invalid, "email must be at most 254 characters").For("email_invalid", "email")
	}
	// ParseAddress also accepts "Name <a@b.c>"; only a bare address that parses to itself
	// is an address we can store and compare.
	a, err := mail.ParseAddress(e)
	at := strings.LastIndexByte(e, '@')
	if err != nil || a.Address != e || at < 1 || !validDomain(e[at+1:]) {
		return "", apperr.Errorf(apperr.Invalid, "email %q is not a valid address", email).For("email_invalid", "email")
	}
	return e, nil
}

func validDomain(d string) bool {
	if !strings.Contains(d, ".") || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || strings.Contains(d, "..") {
		return false
	}
	return !strings.ContainsAny(d, "[]\"\\ ")
}

// ValidatePassword checks a new password's length, in characters.
func ValidatePassword(p string) error {
	if n := utf8.RuneCountInString(p); n < 8 || n > 256 {
		return apperr.Errorf(apperr.Invalid, "password must be 8 to 256 characters").For("password_length", "password")
	}
	return nil
}

// ValidateName trims a workspace or API-key name and checks it is 1 to 100 characters.
func ValidateName(name string) (string, error) {
	n := strings.TrimSpace(name)
	if n == "" || !utf8.ValidString(n) || strings.IndexByte(n, 0) >= 0 || utf8.RuneCountInString(n) > 100 {
		return "", apperr.Errorf(apperr.Invalid, "name must be 1 to 100 characters").For("name_invalid", "name")
	}
	return n, nil
}

// defaultWorkspaceName names a new user's first workspace after their address.
func defaultWorkspaceName(email string) string {
	const suffix = "'s workspace"
	local := email[:strings.LastIndexByte(email, '@')]
	if r := []rune(local); len(r) > 100-len(suffix) {
		local = string(r[:100-len(suffix)])
	}
	return local + suffix
}

// Signup creates a user with a free workspace of their own that they own, and mails them a
// link to verify their address (in the background: a slow mail server delays nothing).
//
// With inv, the link of an invitation mail, the user instead joins the inviting workspace
// with the invited role and gets no workspace of their own; the address must be the invited
// one, and counts as verified: the link's secret was mailed to it.
func (s *Service) Signup(ctx context.Context, email, password string, inv *InvitationLink) (*User, *Workspace, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, nil, err
	}
	if err := ValidatePassword(password); err != nil {
		return nil, nil, err
	}
	var preview *InvitationPreview
	if inv != nil {
		if preview, err = s.invitationForSignup(ctx, e, inv); err != nil {
			return nil, nil, err
		}
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return nil, nil, fmt.Errorf("sign up: %w", err)
	}
	var u *User
	var ws *Workspace
	if preview != nil {
		u, ws, err = s.store.CreateInvitedUser(ctx, e, hash, preview.ID, auth.HashEmailToken(inv.Token))
		if apperr.Is(err, apperr.NotFound) {
			return nil, nil, errInvitationLink
		}
	} else {
		u, ws, err = s.store.CreateUser(ctx, e, hash, defaultWorkspaceName(e))
	}
	if apperr.Is(err, apperr.Conflict) {
		return nil, nil, apperr.Errorf(apperr.Conflict, "an account with this email already exists").For("email_taken", "email")
	}
	if err != nil {
		return nil, nil, err
	}
	if !u.EmailVerified {
		s.sendVerification(u)
	}
	return u, ws, nil
}

var errInvitationLink = apperr.Errorf(apperr.Invalid,
	"the invitation was withdrawn or used, or its link is incomplete: sign up without it, or ask for a new one").
	For("invitation_invalid", "invitation")

// invitationForSignup checks that a sign-up through an invitation link may join: the link is
// live, the address is the invited one and the workspace has room.
func (s *Service) invitationForSignup(ctx context.Context, email string, inv *InvitationLink) (*InvitationPreview, error) {
	p, err := s.PreviewInvitation(ctx, inv.ID, inv.Token)
	if apperr.Is(err, apperr.NotFound) {
		return nil, errInvitationLink
	}
	if err != nil {
		return nil, err
	}
	if p.Email != email {
		return nil, apperr.Errorf(apperr.Invalid, "the invitation is for %s: sign up with that address, or without the invitation", p.Email).
			For("invitation_email_mismatch", "email")
	}
	if s.memberCheck != nil {
		if err := s.memberCheck(ctx, p.WorkspaceID, 1); err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Code == apperr.QuotaExceeded {
				return nil, ae.For("invitation_workspace_full", "invitation")
			}
			return nil, err
		}
	}
	return p, nil
}

var errNoInvitation = apperr.Errorf(apperr.NotFound, "no such invitation: it was withdrawn or used, or the link is incomplete").
	For("invitation_not_found", "")

// PreviewInvitation tells the holder of an invitation link's secret what the invitation is;
// not_found for anything else, alike whether the ID exists.
func (s *Service) PreviewInvitation(ctx context.Context, id int64, token string) (*InvitationPreview, error) {
	if !auth.IsEmailToken(token) {
		return nil, errNoInvitation
	}
	p, err := s.store.InvitationPreview(ctx, id, auth.HashEmailToken(token))
	if apperr.Is(err, apperr.NotFound) {
		return nil, errNoInvitation
	}
	return p, err
}

// errLogin is the one answer to a wrong email or a wrong password, so the login form does not
// tell which addresses have accounts.
var errLogin = apperr.Errorf(apperr.Unauthorized, "wrong email or password").For("login_failed", "")

// Login checks an email and password. An unknown email costs a password check too, queue
// included, so the two failures take about the same time. Returns unauthorized for either,
// and unavailable (an *auth.BusyError) when the password could not be checked in time.
func (s *Service) Login(ctx context.Context, email, password string) (*User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, s.spendCheck(ctx, password)
	}
	u, hash, err := s.store.UserByEmail(ctx, e)
	if apperr.Is(err, apperr.NotFound) {
		return nil, s.spendCheck(ctx, password)
	}
	if err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	ok, err := s.hasher.Verify(ctx, hash, password)
	if err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	if !ok {
		return nil, errLogin
	}
	return u, nil
}

// spendCheck spends a password check on no one and answers a failed login.
func (s *Service) spendCheck(ctx context.Context, password string) error {
	if err := s.hasher.SpendCheck(ctx, password); err != nil {
		return fmt.Errorf("login: %w", err)
	}
	return errLogin
}

// EnsureOperator creates the configured operator account (verified: the deployer chose the
// address), or gives an existing account of that email the operator role and the configured
// password. It runs at start-up. An existing account that is not an operator yet is promoted
// only if its address is verified, or if takeover is set (OPERATOR_TAKEOVER): otherwise
// whoever signed up first with that address would become operator. Promotion revokes every
// session of the account and every API key it created, so nothing issued before carries over.
func (s *Service) EnsureOperator(ctx context.Context, email, password string, takeover bool) (*User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, fmt.Errorf("OPERATOR_EMAIL: %w", err)
	}
	if err := ValidatePassword(password); err != nil {
		return nil, fmt.Errorf("OPERATOR_PASSWORD: %w", err)
	}
	existing, _, err := s.store.UserByEmail(ctx, e)
	switch {
	case err == nil && existing.SystemRole != SystemOperator && !existing.EmailVerified && !takeover:
		return nil, fmt.Errorf("OPERATOR_EMAIL: %s belongs to an account whose address was never verified, "+
			"so whoever signed up with it would become operator: verify that account's address, or set "+
			"OPERATOR_TAKEOVER=true to take it over (its sessions and API keys are revoked)", e)
	case err != nil && !apperr.Is(err, apperr.NotFound):
		return nil, fmt.Errorf("operator account: %w", err)
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return nil, fmt.Errorf("operator password: %w", err)
	}
	u, revoked, err := s.store.UpsertOperator(ctx, e, hash)
	if err != nil {
		return nil, err
	}
	if existing != nil && existing.SystemRole != SystemOperator {
		s.log.Warn("existing account made operator at start-up: its sessions and API keys are revoked",
			"user", u.ID, "was_verified", existing.EmailVerified, "keys_revoked", len(revoked))
	}
	s.keysRevoked(ctx, revoked)
	return u, nil
}

// UserByEmail returns the user with the (normalised) address; not_found if there is none.
func (s *Service) UserByEmail(ctx context.Context, email string) (*User, error) {
	u, _, err := s.store.UserByEmail(ctx, email)
	return u, err
}

// User returns a user by ID; not_found if there is none.
func (s *Service) User(ctx context.Context, id int64) (*User, error) { return s.store.User(ctx, id) }

// WorkspacesOf lists the user's workspaces with their role in each.
func (s *Service) WorkspacesOf(ctx context.Context, userID int64) ([]*Workspace, error) {
	return s.store.WorkspacesOf(ctx, userID)
}

// CreateWorkspace makes a new free workspace owned by the user.
func (s *Service) CreateWorkspace(ctx context.Context, userID int64, name string) (*Workspace, error) {
	n, err := ValidateName(name)
	if err != nil {
		return nil, err
	}
	return s.store.CreateWorkspace(ctx, userID, n, MaxOwnedWorkspaces)
}

// Workspace returns a workspace; callers have checked the caller may see it.
func (s *Service) Workspace(ctx context.Context, id int64) (*Workspace, error) {
	return s.store.Workspace(ctx, id)
}

// RenameWorkspace changes a workspace's name.
func (s *Service) RenameWorkspace(ctx context.Context, id int64, name string) (*Workspace, error) {
	n, err := ValidateName(name)
	if err != nil {
		return nil, err
	}
	return s.store.RenameWorkspace(ctx, id, n)
}

// Access is the user's role in the workspace and whether it requires a 2FA they lack.
func (s *Service) Access(ctx context.Context, workspaceID, userID int64) (Access, error) {
	return s.store.Access(ctx, workspaceID, userID)
}

// SetRequire2FA sets the workspace's 2FA requirement on behalf of a member with role, who has
// 2FA on or not (CheckRequire2FA); the plan is the caller's to check. Reports whether the
// setting changed.
func (s *Service) SetRequire2FA(ctx context.Context, id int64, role string, ownTwoFactor, on bool) (*Workspace, bool, error) {
	if err := CheckRequire2FA(role, ownTwoFactor, on); err != nil {
		return nil, false, err
	}
	return s.store.SetRequire2FA(ctx, id, on)
}

// Role is the user's role in the workspace; not_found if they are not a member.
func (s *Service) Role(ctx context.Context, workspaceID, userID int64) (string, error) {
	return s.store.Role(ctx, workspaceID, userID)
}

// Members lists a workspace's members.
func (s *Service) Members(ctx context.Context, workspaceID int64) ([]*Member, error) {
	return s.store.Members(ctx, workspaceID)
}

var errNoMember = apperr.Errorf(apperr.NotFound, "member not found").For("member_not_found", "")

// memberRole is the role of a member of the workspace, not_found naming the member.
func (s *Service) memberRole(ctx context.Context, workspaceID, userID int64) (string, error) {
	role, err := s.store.Role(ctx, workspaceID, userID)
	if apperr.Is(err, apperr.NotFound) {
		return "", errNoMember
	}
	return role, err
}

// SetMemberRole changes a member's role on behalf of a manager whose role is actorRole. Only
// owners make owners or change an owner's role; the last owner cannot step down.
func (s *Service) SetMemberRole(ctx context.Context, workspaceID int64, actorRole string, userID int64, role string) (*Member, error) {
	if !ValidRole(role) {
		return nil, apperr.Errorf(apperr.Invalid, "role must be owner, admin, member or viewer").For("role_invalid", "role")
	}
	if !RoleAllows(actorRole, PermManage) {
		return nil, apperr.Errorf(apperr.Forbidden, "only owners and admins change roles").For("role_forbidden", "")
	}
	current, err := s.memberRole(ctx, workspaceID, userID)
	if err != nil {
		return nil, err
	}
	if actorRole != RoleOwner && (current == RoleOwner || role == RoleOwner) {
		return nil, apperr.Errorf(apperr.Forbidden, "only an owner can change an owner's role or make an owner").For("owner_required", "")
	}
	m, err := s.store.SetRole(ctx, workspaceID, userID, role)
	if err != nil {
		return nil, err
	}
	// Making keys needs the manage permission, which every scope's permission comes with: a
	// role without it may hold none of the keys its member made.
	if !RoleAllows(role, PermManage) {
		if _, err := s.RevokeKeysCreatedBy(ctx, userID, workspaceID, RevokedCreatorDemoted); err != nil {
			return nil, fmt.Errorf("set member role: %w", err)
		}
	}
	return m, nil
}

// RemoveMember removes userID from the workspace on behalf of actorID. Anyone may leave;
// owners and admins remove others, but only owners remove owners; the last owner stays.
func (s *Service) RemoveMember(ctx context.Context, workspaceID, actorID int64, actorRole string, userID int64) error {
	current, err := s.memberRole(ctx, workspaceID, userID)
	if err != nil {
		return err
	}
	if actorID != userID {
		if !RoleAllows(actorRole, PermManage) {
			return apperr.Errorf(apperr.Forbidden, "you may only remove yourself").For("role_forbidden", "")
		}
		if current == RoleOwner && actorRole != RoleOwner {
			return apperr.Errorf(apperr.Forbidden, "only an owner can remove an owner").For("owner_required", "")
		}
	}
	if err := s.store.RemoveMember(ctx, workspaceID, userID); err != nil {
		return err
	}
	if _, err := s.RevokeKeysCreatedBy(ctx, userID, workspaceID, RevokedCreatorRemoved); err != nil {
		return fmt.Errorf("remove member: %w", err)
	}
	return nil
}

// TransferOwnership hands the workspace from its owner actorID to the member to, who becomes
// its owner while actorID stays on as an admin (their API keys keep working: admins make
// keys too). Returns invalid when to is the actor and not_found when to is not a member.
func (s *Service) TransferOwnership(ctx context.Context, workspaceID, actorID int64, actorRole string, to int64) (*Member, error) {
	if actorRole != RoleOwner {
		return nil, apperr.Errorf(apperr.Forbidden, "only an owner can hand over the workspace").For("owner_only", "")
	}
	if to == actorID {
		return nil, apperr.Errorf(apperr.Invalid, "you own the workspace already: choose another member").For("transfer_to_self", "user_id")
	}
	if _, err := s.memberRole(ctx, workspaceID, to); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return nil, apperr.Errorf(apperr.NotFound, "the new owner must be a member of the workspace").For("not_a_member", "user_id")
		}
		return nil, err
	}
	return s.store.TransferOwnership(ctx, workspaceID, actorID, to)
}

// Invite invites an email address to the workspace with a role below owner (ownership is
// given by an owner to a member). Whether the address has an account changes nothing in the
// answer: whoever signs in with it sees the invitation. Invitations spend the workspace's
// hourly budget (LimitInvitations), whatever their outcome.
//
// Invitations waiting count against the plan's member limit as if accepted: an invitation
// is refused (quota_exceeded, reason member_limit_reached) when the members and the
// invitations waiting already fill the plan.
func (s *Service) Invite(ctx context.Context, workspaceID, by int64, email, role string) (*Invitation, error) {
	if role != RoleAdmin && role != RoleMember && role != RoleViewer {
		return nil, apperr.Errorf(apperr.Invalid, "role must be admin, member or viewer").For("role_invalid", "role")
	}
	if s.memberCheck != nil {
		waiting, err := s.store.Invitations(ctx, workspaceID)
		if err != nil {
			return nil, fmt.Errorf("invite: %w", err)
		}
		if err := s.memberCheck(ctx, workspaceID, int64(len(waiting))+1); err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Code == apperr.QuotaExceeded {
				return nil, ae.For("member_limit_reached", "email")
			}
			return nil, err
		}
	}
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	if s.invites != nil {
		key := "invite:ws:" + strconv.FormatInt(workspaceID, 10)
		if err := s.invites.Take(ctx, key, "invitations from this workspace", s.invitesPerHour, time.Hour); err != nil {
			return nil, err
		}
	}
	// Members can be listed by whoever may invite, so saying so tells nothing new.
	member, err := s.store.IsMemberByEmail(ctx, workspaceID, e)
	if err != nil {
		return nil, fmt.Errorf("invite: %w", err)
	}
	if member {
		return nil, apperr.Errorf(apperr.Conflict, "%s is already a member", e).For("already_member", "email")
	}
	token, hash, err := auth.NewEmailToken()
	if err != nil {
		return nil, fmt.Errorf("invite: %w", err)
	}
	inv, err := s.store.CreateInvitation(ctx, workspaceID, e, role, by, hash)
	if apperr.Is(err, apperr.Conflict) {
		return nil, apperr.Errorf(apperr.Conflict, "%s is already invited", e).For("already_invited", "email")
	}
	if err == nil {
		inv.Token = token
		s.mailInvitation(inv)
	}
	return inv, err
}

// Invitations lists a workspace's pending invitations.
func (s *Service) Invitations(ctx context.Context, workspaceID int64) ([]*Invitation, error) {
	return s.store.Invitations(ctx, workspaceID)
}

// InvitationsFor lists the invitations a user has received.
func (s *Service) InvitationsFor(ctx context.Context, userID int64) ([]*Invitation, error) {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("invitations: %w", err)
	}
	if !u.EmailVerified {
		// Invitations are for whoever reads the mailbox: until the address is proven, its
		// account sees none (nor which workspaces invited it).
		return []*Invitation{}, nil
	}
	return s.store.InvitationsFor(ctx, userID)
}

// AcceptInvitation makes the user a member with the invited role and returns the workspace.
// Returns email_unverified until the user has verified their address: an invitation is
// meant for whoever reads that mailbox, not whoever registered the address first.
func (s *Service) AcceptInvitation(ctx context.Context, userID, id int64) (*Workspace, error) {
	if err := s.mayAnswerInvitation(ctx, userID, id); err != nil {
		return nil, err
	}
	if s.memberCheck != nil {
		invs, err := s.store.InvitationsFor(ctx, userID)
		if err != nil {
			return nil, fmt.Errorf("accept invitation: %w", err)
		}
		for _, inv := range invs {
			if inv.ID == id {
				if err := s.memberCheck(ctx, inv.WorkspaceID, 1); err != nil {
					return nil, err
				}
			}
		}
	}
	return s.store.AcceptInvitation(ctx, userID, id)
}

// CheckMembersWith sets what says whether a workspace may take adding more members (its
// plan's limit); accepting an invitation, signing up through one and inviting ask it.
func (s *Service) CheckMembersWith(check func(ctx context.Context, workspaceID, adding int64) error) {
	s.memberCheck = check
}

// DeclineInvitation drops an invitation the user received; like accepting, it needs a verified
// address, or anyone who registered it could turn invitations down for its owner.
func (s *Service) DeclineInvitation(ctx context.Context, userID, id int64) error {
	if err := s.mayAnswerInvitation(ctx, userID, id); err != nil {
		return err
	}
	return s.store.DeclineInvitation(ctx, userID, id)
}

// mayAnswerInvitation answers email_unverified for an unverified user's own invitation, and
// not_found for anyone else's, verified or not.
func (s *Service) mayAnswerInvitation(ctx context.Context, userID, id int64) error {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return fmt.Errorf("answer invitation: %w", err)
	}
	if u.EmailVerified {
		return nil
	}
	invs, err := s.store.InvitationsFor(ctx, userID)
	if err != nil {
		return fmt.Errorf("answer invitation: %w", err)
	}
	if !slices.ContainsFunc(invs, func(inv *Invitation) bool { return inv.ID == id }) {
		return apperr.Errorf(apperr.NotFound, "invitation not found").For("invitation_not_found", "")
	}
	return errUnverified
}

// CancelInvitation withdraws one of the workspace's pending invitations.
func (s *Service) CancelInvitation(ctx context.Context, workspaceID, id int64) error {
	return s.store.DeleteInvitation(ctx, workspaceID, id)
}

// ValidateScopes checks API-key scopes and returns them without repeats.
func ValidateScopes(scopes []string) ([]string, error) {
	if len(scopes) == 0 {
		return nil, apperr.Errorf(apperr.Invalid, "scopes must name at least one of %s", strings.Join(Scopes, ", ")).For("scopes_required", "scopes")
	}
	var clean []string
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return nil, apperr.Errorf(apperr.Invalid, "scope %q is unknown: use %s", sc, strings.Join(Scopes, ", ")).For("scope_unknown", "scopes")
		}
		if !slices.Contains(clean, sc) {
			clean = append(clean, sc)
		}
	}
	return clean, nil
}

// CreateAPIKey makes a key of the workspace and returns it with its secret, which is shown
// this once and never stored. by is the creating user.
func (s *Service) CreateAPIKey(ctx context.Context, workspaceID, by int64, name string, scopes []string) (*APIKey, string, error) {
	n, err := ValidateName(name)
	if err != nil {
		return nil, "", err
	}
	clean, err := ValidateScopes(scopes)
	if err != nil {
		return nil, "", err
	}
	secret, prefix, hash, err := auth.NewAPIKey()
	if err != nil {
		return nil, "", err
	}
	k := &APIKey{WorkspaceID: workspaceID, Name: n, Prefix: prefix, Scopes: clean}
	if by != 0 {
		k.CreatedBy = &by
	}
	k, err = s.store.CreateAPIKey(ctx, k, hash)
	if err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// APIKeys lists a workspace's live keys (never their secrets).
func (s *Service) APIKeys(ctx context.Context, workspaceID int64) ([]*APIKey, error) {
	return s.store.APIKeys(ctx, workspaceID, false)
}

// APIKeysWithRevoked lists every key of a workspace, revoked ones with when and why.
func (s *Service) APIKeysWithRevoked(ctx context.Context, workspaceID int64) ([]*APIKey, error) {
	return s.store.APIKeys(ctx, workspaceID, true)
}

// RevokeAPIKey stops a key at once on this node and, through OnKeyRevoked, on every other
// (within keyCacheTTL should that news be lost).
func (s *Service) RevokeAPIKey(ctx context.Context, workspaceID, id int64) error {
	if err := s.store.RevokeAPIKey(ctx, workspaceID, id); err != nil {
		return err
	}
	s.keysRevoked(ctx, []int64{id})
	return nil
}

// RevokeKeysCreatedBy revokes, for reason (one of the Revoked* reasons), every live key the
// user made in the workspace, or in every workspace when workspaceID is 0, and stops them
// like RevokeAPIKey does. It returns how many it revoked.
func (s *Service) RevokeKeysCreatedBy(ctx context.Context, userID, workspaceID int64, reason string) (int, error) {
	// Forgotten first: should the revocation fail, AuthenticateAPIKey still refuses a key
	// whose creator lost the right to it, once it reloads the key.
	s.forgetKeys(func(k *APIKey) bool {
		return k.CreatedBy != nil && *k.CreatedBy == userID && (workspaceID == 0 || k.WorkspaceID == workspaceID)
	})
	ids, err := s.store.RevokeKeysCreatedBy(ctx, userID, workspaceID, reason)
	if err != nil {
		return 0, err
	}
	s.keysRevoked(ctx, ids)
	if len(ids) > 0 {
		s.log.Info("revoked api keys with their creator's rights", "user", userID, "workspace", workspaceID,
			"reason", reason, "keys", len(ids))
	}
	return len(ids), nil
}

func (s *Service) forgetKeys(match func(*APIKey) bool) {
	for h, k := range s.keys.All() {
		if match(k) {
			s.keys.Invalidate(h)
		}
	}
}

var errBadKey = apperr.Errorf(apperr.Unauthorized, "the API key is invalid or revoked").For("api_key_invalid", "")

// AuthenticateAPIKey returns the live key behind a secret; unauthorized otherwise.
func (s *Service) AuthenticateAPIKey(ctx context.Context, secret string) (*APIKey, error) {
	if !auth.IsAPIKey(secret) {
		return nil, errBadKey
	}
	hash := auth.HashAPIKey(secret)
	ck := string(hash)
	k, ok := s.keys.GetIfPresent(ck)
	if !ok {
		var err error
		k, err = s.store.APIKeyByHash(ctx, hash)
		if apperr.Is(err, apperr.NotFound) {
			return nil, errBadKey
		}
		if err != nil {
			return nil, fmt.Errorf("authenticate api key: %w", err)
		}
		s.keys.Set(ck, k)
	}
	// A key stops with its creator's right to make it, even where the revocation that
	// followed a role change has not happened (a failure, or a key made during the change).
	if k.RevokedAt != nil || !KeyAllowedFor(k.CreatorRole, k.Scopes) {
		return nil, errBadKey
	}
	s.touch(k)
	return k, nil
}

// touch records a key's use at most once a minute, off the request path: a slow database
// delays nothing but the last-used column.
func (s *Service) touch(k *APIKey) {
	now := time.Now()
	s.mu.Lock()
	if last, seen := s.touched[k.ID]; seen && now.Sub(last) < touchEvery {
		s.mu.Unlock()
		return
	}
	if len(s.touched) >= 100_000 {
		// Forgetting only costs an extra write per key; the map must not grow without end.
		clear(s.touched)
	}
	s.touched[k.ID] = now
	s.mu.Unlock()
	wsID, id := k.WorkspaceID, k.ID
	s.pending.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.store.TouchAPIKey(ctx, wsID, id, now); err != nil {
			s.log.Warn("record api key use", "key", id, "err", err)
		}
	})
}

func checkPage(limit int) error {
	if limit < 1 || limit > MaxPage {
		return apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	return nil
}

// ListWorkspaces pages through every workspace, newest first (operators).
func (s *Service) ListWorkspaces(ctx context.Context, before int64, limit int) ([]*Workspace, error) {
	if err := checkPage(limit); err != nil {
		return nil, err
	}
	return s.store.ListWorkspaces(ctx, before, limit)
}

// SetPlan moves a workspace to a plan (operators).
func (s *Service) SetPlan(ctx context.Context, workspaceID int64, plan string) (*Workspace, error) {
	if !slices.Contains(Plans, plan) {
		return nil, apperr.Errorf(apperr.Invalid, "plan must be one of %s", strings.Join(Plans, ", ")).For("value_invalid", "plan")
	}
	return s.store.SetPlan(ctx, workspaceID, plan)
}

// ListUsers pages through every user, newest first (operators).
func (s *Service) ListUsers(ctx context.Context, before int64, limit int) ([]*User, error) {
	if err := checkPage(limit); err != nil {
		return nil, err
	}
	return s.store.ListUsers(ctx, before, limit)
}

// SetSystemRole grants or takes away moderation and operation rights (operators). Only an
// account with a verified address gets a system role (email_unverified otherwise). A change
// revokes every session of the account, so the old role does not come back with a refresh;
// granting a role also revokes every API key the account created, so nothing issued before
// the promotion carries over. Setting the role it has changes nothing.
func (s *Service) SetSystemRole(ctx context.Context, userID int64, role string) (*User, error) {
	if role != SystemUser && role != SystemModerator && role != SystemOperator {
		return nil, apperr.Errorf(apperr.Invalid, "system_role must be user, moderator or operator").For("value_invalid", "system_role")
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return nil, err
	}
	if u.SystemRole == role {
		return u, nil
	}
	if role != SystemUser && !u.EmailVerified {
		return nil, apperr.Errorf(apperr.EmailUnverified, "the account's email address is not verified: it cannot get a system role").For("user_email_unverified", "")
	}
	u, revoked, err := s.store.SetSystemRole(ctx, userID, role)
	if err != nil {
		return nil, err
	}
	s.keysRevoked(ctx, revoked)
	return u, nil
}
