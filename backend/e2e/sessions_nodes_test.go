package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestSessionsEndOnEveryNode: a session signed out on one node, by an owner or by the identity
// provider's deprovisioning, is refused on another node within a second (the bus's message),
// not the 5 s a node remembers a session: the deprovisioned member's next workspace call is
// refused at once, their next page load's first call (/me) within the second.
func TestSessionsEndOnEveryNode(t *testing.T) {
	d := newDeployment(t)
	ns := startDNS(t)
	env := []string{"DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true", "MAX_BODY_BYTES", "65536"}
	a, b := d.start(t, env...), d.start(t, env...)
	owner := a.signupOn("owner@example.com", "enterprise")
	a.ssoSettings(owner, ns, startIdP(t, newIdPStorage(idpUsers{})).URL, "nodes-acme.com") // provisioning needs it
	const email = "member@nodes-acme.com"
	member := a.joined(owner, email, "member")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	live := func(s *server, token string) {
		t.Helper()
		if r := s.do("GET", ws+"/links", token, nil); r.Status != http.StatusOK {
			t.Fatalf("before: %d %s", r.Status, r.Body)
		}
	}
	refusedWithin := func(s *server, token, what string) {
		t.Helper()
		eventually(t, time.Second, what, func() bool {
			return s.do("GET", "/api/v1/me", token, nil).Status == http.StatusUnauthorized
		})
		wantReason(t, s.do("GET", "/api/v1/me", token, nil), http.StatusUnauthorized, "session_ended", what)
	}

	// An owner's sign-out on node a; node b remembered the session live.
	m := a.loginAs(t, email)
	live(b, m.AccessToken)
	if r := a.do("DELETE", fmt.Sprintf("%s/members/%d/sessions/%s", ws, member.UserID, a.sessionOf(t, m.AccessToken)), owner.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("sign out: %d %s", r.Status, r.Body)
	}
	refusedWithin(b, m.AccessToken, "the signed-out session on the other node")

	// Deprovisioned on node a by the identity provider.
	token := a.scimToken(owner)
	live(b, member.Token)
	u := scimOK(t, a.scimCall("POST", owner.WorkspaceID, "/Users", token, fmt.Sprintf(entraCreate, email, email)), http.StatusCreated, "link")
	scimOK(t, a.scimCall("PATCH", owner.WorkspaceID, "/Users/"+u.ID, token, entraDeactivate), http.StatusOK, "deactivate")
	// The membership is read on every call: refused at once, whether or not the message came.
	if r := b.do("GET", ws+"/links", member.Token, nil); r.Status != http.StatusNotFound && r.Status != http.StatusUnauthorized {
		t.Fatalf("the next workspace call on the other node: %d %s", r.Status, r.Body)
	}
	refusedWithin(b, member.Token, "the deprovisioned member's /me on the other node")
}
