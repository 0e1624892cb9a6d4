package account_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/mail"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// mailboxes holds the SMTP server each service of newService mails to.
var mailboxes sync.Map // *account.Service → *testenv.Mailbox

func newService(t *testing.T) (*account.Service, *postgres.DB) {
	t.Helper()
	db := testenv.DB(t)
	svc := account.NewService(postgres.NewAccountStore(db), auth.NewHasher(2, time.Minute), slog.New(slog.DiscardHandler))
	t.Cleanup(svc.Close)
	box := testenv.SMTP(t)
	sender, err := mail.NewSMTP(box.URL, "no-reply@sho.rt")
	if err != nil {
		t.Fatal(err)
	}
	svc.UseMail(sender, &url.URL{Scheme: "https", Host: "sho.rt"})
	mailboxes.Store(svc, box)
	return svc, db
}

// mailbox is the SMTP server svc mails to.
func mailbox(t *testing.T, svc *account.Service) *testenv.Mailbox {
	t.Helper()
	box, ok := mailboxes.Load(svc)
	if !ok {
		t.Fatal("the service was not made by newService: it has no mailbox")
	}
	return box.(*testenv.Mailbox)
}

// signup makes a user with their own workspace and, for services of newService, verifies
// their address with the link of the mail it sent; or fails the test.
func signup(t *testing.T, svc *account.Service, email string) (*account.User, *account.Workspace) {
	t.Helper()
	u, ws, err := svc.Signup(context.Background(), email, "correct horse battery", nil, "")
	if err != nil {
		t.Fatalf("Signup(%s): %v", email, err)
	}
	if _, ok := mailboxes.Load(svc); ok {
		u = verifyByMail(t, svc, u.Email)
	}
	return u, ws
}

// verifySubject starts the subject of verification mails.
const verifySubject = "Confirm your email address"

// verifyByMail follows the verification link of the next mail to email.
func verifyByMail(t *testing.T, svc *account.Service, email string) *account.User {
	t.Helper()
	msg := mailbox(t, svc).WaitSubject(t, email, verifySubject)
	u, err := svc.VerifyEmail(context.Background(), msg.Token(t))
	if err != nil || !u.EmailVerified {
		t.Fatalf("VerifyEmail(%s) = %+v, %v", email, u, err)
	}
	return u
}

// join invites u into ws with role and has u accept.
func join(t *testing.T, svc *account.Service, ws *account.Workspace, by, u *account.User, role string) {
	t.Helper()
	ctx := context.Background()
	inv, err := svc.Invite(ctx, ws.ID, by.ID, u.Email, role)
	if err != nil {
		t.Fatalf("Invite(%s as %s): %v", u.Email, role, err)
	}
	if _, err := svc.AcceptInvitation(ctx, u.ID, inv.ID); err != nil {
		t.Fatalf("AcceptInvitation: %v", err)
	}
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if !apperr.Is(err, code) {
		t.Errorf("%s: err = %v, want code %s", what, err, code)
	}
}

func TestSignup(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()

	u, ws, err := svc.Signup(ctx, "  Alice@Example.com ", "correct horse battery", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if u.ID == 0 || u.Email != "alice@example.com" || u.SystemRole != account.SystemUser {
		t.Errorf("user = %+v", u)
	}
	if ws.ID == 0 || ws.Name != "alice's workspace" || ws.Plan != account.PlanFree || ws.Role != account.RoleOwner {
		t.Errorf("workspace = %+v", ws)
	}
	if role, err := svc.Role(ctx, ws.ID, u.ID); err != nil || role != account.RoleOwner {
		t.Errorf("Role = %q, %v; want owner", role, err)
	}
	list, err := svc.WorkspacesOf(ctx, u.ID)
	if err != nil || len(list) != 1 || list[0].ID != ws.ID || list[0].Role != account.RoleOwner {
		t.Errorf("WorkspacesOf = %+v, %v", list, err)
	}

	tests := []struct {
		email, password, code string
	}{
		{"ALICE@example.com", "another password", apperr.Conflict},
		{"not-an-email", "correct horse battery", apperr.Invalid},
		{"bob@example.com", "short", apperr.Invalid},
		{"bob@example.com", strings.Repeat("p", 257), apperr.Invalid},
	}
	for _, tt := range tests {
		_, _, err := svc.Signup(ctx, tt.email, tt.password, nil, "")
		wantCode(t, fmt.Sprintf("Signup(%q)", tt.email), err, tt.code)
	}
	// Refused sign-ups leave nothing behind.
	if _, err := svc.Login(ctx, "bob@example.com", "short"); !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("a refused signup left a user behind: %v", err)
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	alice, _ := signup(t, svc, "alice@example.com")

	tests := []struct {
		email, password string
		ok              bool
	}{
		{"alice@example.com", "correct horse battery", true},
		{" ALICE@example.com", "correct horse battery", true},
		{"alice@example.com", "Correct horse battery", false},
		{"alice@example.com", "", false},
		{"nobody@example.com", "correct horse battery", false},
		{"not an email", "correct horse battery", false},
	}
	var messages []string
	for _, tt := range tests {
		u, err := svc.Login(ctx, tt.email, tt.password)
		if tt.ok {
			if err != nil || u.ID != alice.ID {
				t.Errorf("Login(%q) = %v, %v; want alice", tt.email, u, err)
			}
			continue
		}
		if !apperr.Is(err, apperr.Unauthorized) {
			t.Errorf("Login(%q, %q) = %v, want unauthorized", tt.email, tt.password, err)
		}
		messages = append(messages, apperr.MessageOf(err))
	}
	for _, m := range messages {
		if m != messages[0] {
			t.Errorf("login failures say different things: %q vs %q", m, messages[0])
		}
	}
}

func TestEnsureOperator(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()

	op, err := svc.EnsureOperator(ctx, "ops@example.com", "first password", false)
	if err != nil || op.SystemRole != account.SystemOperator {
		t.Fatalf("EnsureOperator = %+v, %v", op, err)
	}
	// Start-up again with a new password: same account, new password.
	again, err := svc.EnsureOperator(ctx, "OPS@example.com", "second password", false)
	if err != nil || again.ID != op.ID {
		t.Fatalf("EnsureOperator again = %+v, %v; want the same user", again, err)
	}
	if _, err := svc.Login(ctx, "ops@example.com", "first password"); err == nil {
		t.Error("the old operator password still works")
	}
	if u, err := svc.Login(ctx, "ops@example.com", "second password"); err != nil || u.SystemRole != account.SystemOperator {
		t.Errorf("Login as operator = %+v, %v", u, err)
	}
	if !op.EmailVerified {
		t.Error("the operator account made at start-up is not verified")
	}
	// An existing ordinary account with a verified address becomes the operator.
	carol, _ := signup(t, svc, "carol@example.com")
	promoted, err := svc.EnsureOperator(ctx, "carol@example.com", "carol's operator password", false)
	if err != nil || promoted.ID != carol.ID || promoted.SystemRole != account.SystemOperator {
		t.Errorf("EnsureOperator(existing) = %+v, %v", promoted, err)
	}
	if _, err := svc.EnsureOperator(ctx, "ops@example.com", "short", false); err == nil {
		t.Error("EnsureOperator accepted a short password")
	}
}

func TestMembers(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	owner, ws := signup(t, svc, "owner@example.com")
	admin, _ := signup(t, svc, "admin@example.com")
	member, _ := signup(t, svc, "member@example.com")
	viewer, _ := signup(t, svc, "viewer@example.com")
	join(t, svc, ws, owner, admin, account.RoleAdmin)
	join(t, svc, ws, owner, member, account.RoleMember)
	join(t, svc, ws, admin, viewer, account.RoleViewer)

	ms, err := svc.Members(ctx, ws.ID)
	if err != nil || len(ms) != 4 {
		t.Fatalf("Members = %v, %v; want 4", ms, err)
	}

	roleTests := []struct {
		name      string
		actorRole string
		target    int64
		role      string
		code      string // "" for success
	}{
		{"last owner cannot step down", account.RoleOwner, owner.ID, account.RoleAdmin, apperr.Conflict},
		{"admin cannot demote an owner", account.RoleAdmin, owner.ID, account.RoleViewer, apperr.Forbidden},
		{"admin cannot make an owner", account.RoleAdmin, member.ID, account.RoleOwner, apperr.Forbidden},
		{"member cannot change roles", account.RoleMember, viewer.ID, account.RoleMember, apperr.Forbidden},
		{"unknown role", account.RoleOwner, member.ID, "superuser", apperr.Invalid},
		{"not a member", account.RoleOwner, 1 << 40, account.RoleViewer, apperr.NotFound},
		{"admin demotes a member", account.RoleAdmin, member.ID, account.RoleViewer, ""},
		{"owner promotes an admin to owner", account.RoleOwner, admin.ID, account.RoleOwner, ""},
		{"with two owners, one may step down", account.RoleOwner, owner.ID, account.RoleAdmin, ""},
		{"the remaining owner is the last again", account.RoleOwner, admin.ID, account.RoleMember, apperr.Conflict},
	}
	for _, tt := range roleTests {
		m, err := svc.SetMemberRole(ctx, ws.ID, tt.actorRole, tt.target, tt.role)
		if tt.code == "" {
			if err != nil || m.Role != tt.role || m.UserID != tt.target {
				t.Errorf("%s: SetMemberRole = %+v, %v", tt.name, m, err)
			}
			continue
		}
		wantCode(t, tt.name, err, tt.code)
	}
	// Now: admin is the only owner; the first owner is an admin; member is a viewer.
	newOwner, oldOwner := admin, owner

	removeTests := []struct {
		name      string
		actor     *account.User
		actorRole string
		target    *account.User
		code      string
	}{
		{"viewer cannot remove others", viewer, account.RoleViewer, member, apperr.Forbidden},
		{"admin cannot remove an owner", oldOwner, account.RoleAdmin, newOwner, apperr.Forbidden},
		{"last owner cannot leave", newOwner, account.RoleOwner, newOwner, apperr.Conflict},
		{"a viewer may leave", viewer, account.RoleViewer, viewer, ""},
		{"gone is gone", newOwner, account.RoleOwner, viewer, apperr.NotFound},
		{"admin removes a member", oldOwner, account.RoleAdmin, member, ""},
		{"owner removes an admin", newOwner, account.RoleOwner, oldOwner, ""},
	}
	for _, tt := range removeTests {
		err := svc.RemoveMember(ctx, ws.ID, tt.actor.ID, tt.actorRole, tt.target.ID)
		if tt.code == "" {
			if err != nil {
				t.Errorf("%s: RemoveMember = %v", tt.name, err)
			}
			continue
		}
		wantCode(t, tt.name, err, tt.code)
	}
	ms, err = svc.Members(ctx, ws.ID)
	if err != nil || len(ms) != 1 || ms[0].UserID != newOwner.ID || ms[0].Role != account.RoleOwner {
		t.Errorf("Members at the end = %+v, %v; want only the new owner", ms, err)
	}
}

func TestInvitations(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	owner, ws := signup(t, svc, "owner@example.com")
	bob, _ := signup(t, svc, "bob@example.com")
	eve, _ := signup(t, svc, "eve@example.com")

	_, err := svc.Invite(ctx, ws.ID, owner.ID, "owner@example.com", account.RoleMember)
	wantCode(t, "invite a member", err, apperr.Conflict)
	_, err = svc.Invite(ctx, ws.ID, owner.ID, "bob@example.com", account.RoleOwner)
	wantCode(t, "invite as owner", err, apperr.Invalid)
	_, err = svc.Invite(ctx, ws.ID, owner.ID, "bob@", account.RoleMember)
	wantCode(t, "invite a malformed email", err, apperr.Invalid)

	inv, err := svc.Invite(ctx, ws.ID, owner.ID, " BOB@example.com", account.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Email != bob.Email || inv.WorkspaceID != ws.ID || inv.WorkspaceName != ws.Name || inv.Role != account.RoleAdmin {
		t.Errorf("invitation = %+v", inv)
	}
	_, err = svc.Invite(ctx, ws.ID, owner.ID, "bob@example.com", account.RoleViewer)
	wantCode(t, "invite twice", err, apperr.Conflict)

	if list, err := svc.Invitations(ctx, ws.ID); err != nil || len(list) != 1 || list[0].ID != inv.ID {
		t.Errorf("Invitations = %+v, %v", list, err)
	}
	if list, err := svc.InvitationsFor(ctx, bob.ID); err != nil || len(list) != 1 || list[0].ID != inv.ID {
		t.Errorf("InvitationsFor(bob) = %+v, %v", list, err)
	}
	if list, err := svc.InvitationsFor(ctx, eve.ID); err != nil || len(list) != 0 {
		t.Errorf("InvitationsFor(eve) = %+v, %v; want none", list, err)
	}

	// Only the invitee can answer an invitation.
	_, err = svc.AcceptInvitation(ctx, eve.ID, inv.ID)
	wantCode(t, "eve accepts bob's invitation", err, apperr.NotFound)
	wantCode(t, "eve declines bob's invitation", svc.DeclineInvitation(ctx, eve.ID, inv.ID), apperr.NotFound)
	if _, err := svc.Role(ctx, ws.ID, eve.ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("eve became a member: %v", err)
	}

	joined, err := svc.AcceptInvitation(ctx, bob.ID, inv.ID)
	if err != nil || joined.ID != ws.ID || joined.Role != account.RoleAdmin {
		t.Fatalf("AcceptInvitation = %+v, %v", joined, err)
	}
	if role, err := svc.Role(ctx, ws.ID, bob.ID); err != nil || role != account.RoleAdmin {
		t.Errorf("bob's role = %q, %v", role, err)
	}
	_, err = svc.AcceptInvitation(ctx, bob.ID, inv.ID)
	wantCode(t, "accept twice", err, apperr.NotFound)
	if list, _ := svc.Invitations(ctx, ws.ID); len(list) != 0 {
		t.Errorf("accepted invitation still pending: %+v", list)
	}

	// Declining and withdrawing.
	inv2, err := svc.Invite(ctx, ws.ID, bob.ID, "eve@example.com", account.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.DeclineInvitation(ctx, eve.ID, inv2.ID); err != nil {
		t.Fatal(err)
	}
	_, err = svc.AcceptInvitation(ctx, eve.ID, inv2.ID)
	wantCode(t, "accept a declined invitation", err, apperr.NotFound)
	inv3, err := svc.Invite(ctx, ws.ID, bob.ID, "eve@example.com", account.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.CancelInvitation(ctx, ws.ID, inv3.ID); err != nil {
		t.Fatal(err)
	}
	_, err = svc.AcceptInvitation(ctx, eve.ID, inv3.ID)
	wantCode(t, "accept a withdrawn invitation", err, apperr.NotFound)
}

var keyShape = regexp.MustCompile(`^sl_[0-9A-Za-z]{40}$`)

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	svc, db := newService(t)
	ctx := context.Background()
	owner, ws := signup(t, svc, "owner@example.com")

	for _, scopes := range [][]string{nil, {"links:read", "admin"}} {
		_, _, err := svc.CreateAPIKey(ctx, ws.ID, owner.ID, "ci", scopes)
		wantCode(t, fmt.Sprintf("CreateAPIKey(%v)", scopes), err, apperr.Invalid)
	}
	_, _, err := svc.CreateAPIKey(ctx, ws.ID, owner.ID, " ", []string{"links:read"})
	wantCode(t, "CreateAPIKey without a name", err, apperr.Invalid)

	k, secret, err := svc.CreateAPIKey(ctx, ws.ID, owner.ID, " CI ", []string{"links:write", "links:write", "stats:read"})
	if err != nil {
		t.Fatal(err)
	}
	if !keyShape.MatchString(secret) {
		t.Errorf("secret %q is not sl_ and 40 base62 characters", secret)
	}
	if k.Name != "CI" || k.Prefix != secret[:10] || k.WorkspaceID != ws.ID || strings.Join(k.Scopes, ",") != "links:write,stats:read" ||
		k.CreatedBy == nil || *k.CreatedBy != owner.ID || k.LastUsedAt != nil || k.RevokedAt != nil {
		t.Errorf("key = %+v", k)
	}
	// Only the SHA-256 of the whole key is stored.
	var stored []byte
	if err := db.Pool.QueryRow(ctx, `SELECT key_hash FROM api_keys WHERE id = $1`, k.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256([]byte(secret)); string(stored) != string(sum[:]) {
		t.Errorf("stored hash %x is not the SHA-256 of the key", stored)
	}

	got, err := svc.AuthenticateAPIKey(ctx, secret)
	if err != nil || got.ID != k.ID || got.WorkspaceID != ws.ID {
		t.Fatalf("AuthenticateAPIKey = %+v, %v", got, err)
	}
	for _, bad := range []string{"", "sl_", secret[:len(secret)-1], secret[:len(secret)-1] + "!", secret + "x", strings.ToUpper(secret)} {
		if _, err := svc.AuthenticateAPIKey(ctx, bad); !apperr.Is(err, apperr.Unauthorized) {
			t.Errorf("AuthenticateAPIKey(%q) = %v, want unauthorized", bad, err)
		}
	}

	// The listing never shows the secret.
	keys, err := svc.APIKeys(ctx, ws.ID)
	if err != nil || len(keys) != 1 || keys[0].ID != k.ID {
		t.Fatalf("APIKeys = %+v, %v", keys, err)
	}
	js, _ := json.Marshal(keys)
	if strings.Contains(string(js), secret[10:]) || strings.Contains(string(js), "hash") {
		t.Errorf("listing shows the secret: %s", js)
	}

	// The last use is written off the request path, and at most once a minute.
	svc.Close()
	keys, _ = svc.APIKeys(ctx, ws.ID)
	if keys[0].LastUsedAt == nil {
		t.Fatal("last_used_at was not recorded")
	}
	first := *keys[0].LastUsedAt
	if _, err := svc.AuthenticateAPIKey(ctx, secret); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	keys, _ = svc.APIKeys(ctx, ws.ID)
	if !keys[0].LastUsedAt.Equal(first) {
		t.Errorf("last_used_at written again within a minute: %v then %v", first, keys[0].LastUsedAt)
	}

	// Revocation works at once on this node, though the key is in its cache.
	if err := svc.RevokeAPIKey(ctx, ws.ID, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AuthenticateAPIKey(ctx, secret); !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("revoked key authenticates: %v", err)
	}
	wantCode(t, "revoke twice", svc.RevokeAPIKey(ctx, ws.ID, k.ID), apperr.NotFound)
	if keys, _ := svc.APIKeys(ctx, ws.ID); len(keys) != 0 {
		t.Errorf("revoked key still listed: %+v", keys)
	}
}

// TestAPIKeyRevokedElsewhere checks the bound on how long another node, which has the key
// cached, keeps accepting it.
func TestAPIKeyRevokedElsewhere(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	store := postgres.NewAccountStore(db)
	node1 := account.NewService(store, auth.NewHasher(2, time.Minute), slog.New(slog.DiscardHandler))
	node2 := account.NewService(store, auth.NewHasher(2, time.Minute), slog.New(slog.DiscardHandler))
	t.Cleanup(node1.Close)
	t.Cleanup(node2.Close)
	ctx := context.Background()
	owner, ws := signup(t, node1, "owner@example.com")
	k, secret, err := node1.CreateAPIKey(ctx, ws.ID, owner.ID, "ci", []string{"links:read"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := node2.AuthenticateAPIKey(ctx, secret); err != nil {
		t.Fatal(err)
	}
	if err := node1.RevokeAPIKey(ctx, ws.ID, k.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5*time.Second + 500*time.Millisecond)
	for {
		_, err := node2.AuthenticateAPIKey(ctx, secret)
		if apperr.Is(err, apperr.Unauthorized) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("key revoked on another node still works after 5s: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestTenantIsolation: a manager of workspace A names B's members, invitations and keys by
// ID in calls scoped to A. Nothing of B is seen or changed.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	alice, wsA := signup(t, svc, "alice@example.com")
	bob, wsB := signup(t, svc, "bob@example.com")
	bobsFriend, _ := signup(t, svc, "friend@example.com")
	join(t, svc, wsB, bob, bobsFriend, account.RoleMember)
	carol, _ := signup(t, svc, "carol@example.com")
	invB, err := svc.Invite(ctx, wsB.ID, bob.ID, carol.Email, account.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	keyB, secretB, err := svc.CreateAPIKey(ctx, wsB.ID, bob.ID, "b", []string{"links:read"})
	if err != nil {
		t.Fatal(err)
	}

	if _, err := svc.Role(ctx, wsB.ID, alice.ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("alice has a role in B: %v", err)
	}
	writes := []struct {
		name string
		err  error
	}{
		{"revoke B's key through A", svc.RevokeAPIKey(ctx, wsA.ID, keyB.ID)},
		{"withdraw B's invitation through A", svc.CancelInvitation(ctx, wsA.ID, invB.ID)},
		{"remove B's member through A", svc.RemoveMember(ctx, wsA.ID, alice.ID, account.RoleOwner, bobsFriend.ID)},
		{"remove B's owner through A", svc.RemoveMember(ctx, wsA.ID, alice.ID, account.RoleOwner, bob.ID)},
		{"accept B's invitation as alice", func() error { _, err := svc.AcceptInvitation(ctx, alice.ID, invB.ID); return err }()},
		{"decline B's invitation as alice", svc.DeclineInvitation(ctx, alice.ID, invB.ID)},
		{"change B's member through A", func() error {
			_, err := svc.SetMemberRole(ctx, wsA.ID, account.RoleOwner, bobsFriend.ID, account.RoleAdmin)
			return err
		}()},
	}
	for _, w := range writes {
		wantCode(t, w.name, w.err, apperr.NotFound)
	}

	// A's listings hold only A's rows.
	ms, _ := svc.Members(ctx, wsA.ID)
	if len(ms) != 1 || ms[0].UserID != alice.ID {
		t.Errorf("A's members = %+v", ms)
	}
	if invs, _ := svc.Invitations(ctx, wsA.ID); len(invs) != 0 {
		t.Errorf("A's invitations = %+v", invs)
	}
	if keys, _ := svc.APIKeys(ctx, wsA.ID); len(keys) != 0 {
		t.Errorf("A's keys = %+v", keys)
	}

	// And B is as it was.
	if k, err := svc.AuthenticateAPIKey(ctx, secretB); err != nil || k.WorkspaceID != wsB.ID {
		t.Errorf("B's key = %+v, %v", k, err)
	}
	if role, err := svc.Role(ctx, wsB.ID, bobsFriend.ID); err != nil || role != account.RoleMember {
		t.Errorf("B's member = %q, %v", role, err)
	}
	if invs, _ := svc.Invitations(ctx, wsB.ID); len(invs) != 1 || invs[0].ID != invB.ID {
		t.Errorf("B's invitations = %+v", invs)
	}
}

func TestDeleteWorkspace(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	owner, _ := signup(t, svc, "owner@example.com")
	ws, err := svc.CreateWorkspace(ctx, owner.ID, "Side project")
	if err != nil || ws.Role != account.RoleOwner || ws.Plan != account.PlanFree {
		t.Fatalf("CreateWorkspace = %+v, %v", ws, err)
	}
	_, secret, err := svc.CreateAPIKey(ctx, ws.ID, owner.ID, "ci", []string{"links:read"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AuthenticateAPIKey(ctx, secret); err != nil {
		t.Fatal(err)
	}
	if renamed, err := svc.RenameWorkspace(ctx, ws.ID, " Main "); err != nil || renamed.Name != "Main" {
		t.Errorf("RenameWorkspace = %+v, %v", renamed, err)
	}
	_, err = svc.RenameWorkspace(ctx, ws.ID, "")
	wantCode(t, "rename to nothing", err, apperr.Invalid)

	if err := svc.DeleteWorkspace(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AuthenticateAPIKey(ctx, secret); !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("key of a deleted workspace authenticates: %v", err)
	}
	_, err = svc.Workspace(ctx, ws.ID)
	wantCode(t, "deleted workspace", err, apperr.NotFound)
	wantCode(t, "delete twice", svc.DeleteWorkspace(ctx, ws.ID), apperr.NotFound)
	if list, _ := svc.WorkspacesOf(ctx, owner.ID); len(list) != 1 {
		t.Errorf("WorkspacesOf after delete = %+v", list)
	}
}

func TestAdmin(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	var ids []int64
	for i := range 5 {
		_, ws := signup(t, svc, fmt.Sprintf("user%d@example.com", i))
		ids = append(ids, ws.ID)
	}

	for _, plan := range account.Plans {
		ws, err := svc.SetPlan(ctx, ids[0], plan)
		if err != nil || ws.Plan != plan || ws.ID != ids[0] {
			t.Errorf("SetPlan(%s) = %+v, %v", plan, ws, err)
		}
	}
	_, err := svc.SetPlan(ctx, ids[0], "platinum")
	wantCode(t, "unknown plan", err, apperr.Invalid)
	_, err = svc.SetPlan(ctx, 1<<40, account.PlanTrial)
	wantCode(t, "unknown workspace", err, apperr.NotFound)

	// Pages, newest first, through all five.
	var seen []int64
	before := int64(0)
	for {
		page, err := svc.ListWorkspaces(ctx, before, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range page {
			seen = append(seen, w.ID)
		}
		if len(page) < 2 {
			break
		}
		before = page[len(page)-1].ID
	}
	if fmt.Sprint(seen) != fmt.Sprint([]int64{ids[4], ids[3], ids[2], ids[1], ids[0]}) {
		t.Errorf("paged workspaces = %v, want %v reversed", seen, ids)
	}
	for _, limit := range []int{0, -1, account.MaxPage + 1} {
		_, err := svc.ListWorkspaces(ctx, 0, limit)
		wantCode(t, fmt.Sprintf("ListWorkspaces(limit %d)", limit), err, apperr.Invalid)
	}
	users, err := svc.ListUsers(ctx, 0, 3)
	if err != nil || len(users) != 3 || users[0].Email != "user4@example.com" {
		t.Errorf("ListUsers = %+v, %v", users, err)
	}

	u, err := svc.SetSystemRole(ctx, users[0].ID, account.SystemModerator)
	if err != nil || u.SystemRole != account.SystemModerator {
		t.Errorf("SetSystemRole = %+v, %v", u, err)
	}
	_, err = svc.SetSystemRole(ctx, users[0].ID, "root")
	wantCode(t, "unknown system role", err, apperr.Invalid)
	_, err = svc.SetSystemRole(ctx, 1<<40, account.SystemUser)
	wantCode(t, "unknown user", err, apperr.NotFound)
}

// TestDeleteWorkspaceInBatches: a workspace's links are removed a batch at a time after the
// deletion answers, each batch told to the caches, and the workspace row goes last.
func TestDeleteWorkspaceInBatches(t *testing.T) {
	t.Parallel()
	svc, db := newService(t)
	ctx := context.Background()
	owner, ws := signup(t, svc, "many-links@example.com")
	_, keep := signup(t, svc, "keeps@example.com")
	const n = 2500
	for _, w := range []int64{ws.ID, keep.ID} {
		if _, err := db.Pool.Exec(ctx, `INSERT INTO links (id, workspace_id, key, url, url_hash, created_by)
			SELECT $1::bigint * 100000 + i, $1, 'k' || $1 || '-' || i, 'https://example.com/' || i, i, $2
			FROM generate_series(1, $3) i`, w, owner.ID, n); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var batches []int
	svc.OnLinksRemoved(func(_ context.Context, refs []account.LinkRef) {
		mu.Lock()
		batches = append(batches, len(refs))
		mu.Unlock()
	})
	var gone []int64
	svc.OnWorkspaceGone(func(_ context.Context, id int64) { gone = append(gone, id) })

	if err := svc.DeleteWorkspace(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	if len(gone) != 1 || gone[0] != ws.ID {
		t.Errorf("told of deleted workspaces %v before the answer", gone)
	}
	_, err := svc.Workspace(ctx, ws.ID)
	wantCode(t, "deleted workspace", err, apperr.NotFound)
	if list, _ := svc.WorkspacesOf(ctx, owner.ID); len(list) != 0 {
		t.Errorf("WorkspacesOf right after the deletion = %+v", list)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var rows, wsRows int
		if err := db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM links WHERE workspace_id = $1),
			(SELECT count(*) FROM workspaces WHERE id = $1)`, ws.ID).Scan(&rows, &wsRows); err != nil {
			t.Fatal(err)
		}
		if rows == 0 && wsRows == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s: %d links and %d workspace rows left", rows, wsRows)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	total := 0
	for _, b := range batches {
		if b > 1000 {
			t.Errorf("a batch of %d links", b)
		}
		total += b
	}
	if total != n || len(batches) < 3 {
		t.Errorf("batches %v: %d links told of, want %d in at least 3", batches, total, n)
	}
	var kept int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM links WHERE workspace_id = $1`, keep.ID).Scan(&kept); err != nil || kept != n {
		t.Errorf("the other workspace kept %d links (%v), want %d", kept, err, n)
	}
}
