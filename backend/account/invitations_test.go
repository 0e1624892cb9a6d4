package account_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestInvitationsByEmail: inviting an address answers the same whether or not it has an
// account; whoever signs up with it later, in any case, sees the invitation and accepts it.
func TestInvitationsByEmail(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	owner, ws := signup(t, svc, "owner@example.com")
	signup(t, svc, "known@example.com")
	eve, _ := signup(t, svc, "eve@example.com")

	known, err := svc.Invite(ctx, ws.ID, owner.ID, "known@example.com", account.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := svc.Invite(ctx, ws.ID, owner.ID, " Nobody@Example.COM", account.RoleViewer)
	if err != nil {
		t.Fatalf("invite an address without an account: %v", err)
	}
	if unknown.Email != "nobody@example.com" || unknown.ID == 0 || unknown.WorkspaceName != ws.Name || unknown.Role != account.RoleViewer {
		t.Errorf("invitation = %+v", unknown)
	}
	if known.WorkspaceName != unknown.WorkspaceName || known.Role != unknown.Role || known.WorkspaceID != unknown.WorkspaceID {
		t.Errorf("the answers differ: %+v and %+v", known, unknown)
	}

	// Inviting again answers alike for both.
	_, errKnown := svc.Invite(ctx, ws.ID, owner.ID, "KNOWN@example.com", account.RoleMember)
	_, errUnknown := svc.Invite(ctx, ws.ID, owner.ID, "nobody@example.com", account.RoleMember)
	wantCode(t, "invite a known address twice", errKnown, apperr.Conflict)
	wantCode(t, "invite an unknown address twice", errUnknown, apperr.Conflict)
	if strings.ReplaceAll(apperr.MessageOf(errKnown), "known@", "nobody@") != apperr.MessageOf(errUnknown) {
		t.Errorf("messages differ: %q and %q", apperr.MessageOf(errKnown), apperr.MessageOf(errUnknown))
	}

	// The address signs up, in another case: the invitation is theirs, and no one else's.
	nobody, _ := signup(t, svc, "NOBODY@example.com")
	mine, err := svc.InvitationsFor(ctx, nobody.ID)
	if err != nil || len(mine) != 1 || mine[0].ID != unknown.ID {
		t.Fatalf("InvitationsFor(nobody) = %+v, %v", mine, err)
	}
	if others, _ := svc.InvitationsFor(ctx, eve.ID); len(others) != 0 {
		t.Errorf("eve sees %+v", others)
	}
	_, err = svc.AcceptInvitation(ctx, eve.ID, unknown.ID)
	wantCode(t, "eve accepts nobody's invitation", err, apperr.NotFound)
	joined, err := svc.AcceptInvitation(ctx, nobody.ID, unknown.ID)
	if err != nil || joined.ID != ws.ID || joined.Role != account.RoleViewer {
		t.Fatalf("AcceptInvitation = %+v, %v", joined, err)
	}
	_, err = svc.Invite(ctx, ws.ID, owner.ID, "nobody@example.com", account.RoleMember)
	wantCode(t, "invite a member", err, apperr.Conflict)
}

// TestInvitationLimit: a workspace's invitations, whatever their outcome, spend its hourly
// budget; other workspaces keep theirs.
func TestInvitationLimit(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	rdb, _ := testenv.Redis(t)
	svc.LimitInvitations(auth.NewLimiter(redis.NewBuckets(rdb), slog.New(slog.DiscardHandler)), 3)
	ctx := context.Background()
	owner, ws := signup(t, svc, "owner@example.com")
	other, ws2 := signup(t, svc, "other@example.com")
	for _, email := range []string{"a@example.com", "a@example.com", "b@example.com"} {
		if _, err := svc.Invite(ctx, ws.ID, owner.ID, email, account.RoleMember); err != nil && !apperr.Is(err, apperr.Conflict) {
			t.Fatalf("invite %s: %v", email, err)
		}
	}
	_, err := svc.Invite(ctx, ws.ID, owner.ID, "c@example.com", account.RoleMember)
	wantCode(t, "the 4th invitation in an hour", err, apperr.RateLimited)
	if _, err := svc.Invite(ctx, ws2.ID, other.ID, "c@example.com", account.RoleMember); err != nil {
		t.Errorf("another workspace: %v", err)
	}
	if list, _ := svc.Invitations(ctx, ws.ID); len(list) != 2 {
		t.Errorf("invitations = %+v, want a and b", list)
	}
}
