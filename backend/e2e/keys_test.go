package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestCreatorsKeysStopEverywhere: two server processes. When an admin is demoted to member on
// one, or leaves through the other, the keys they made stop at once on both, though both had
// them cached; the listing shows who made each key and why it was revoked.
func TestCreatorsKeysStopEverywhere(t *testing.T) {
	d := newDeployment(t)
	a, b := d.start(t), d.start(t)
	owner := a.signup("owner@example.com")
	bob := a.signup("bob@example.com")
	carol := a.signup("carol@example.com")
	a.verify("bob@example.com")
	a.verify("carol@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	join := func(tn tenant, email string) {
		t.Helper()
		var inv struct{ ID int64 }
		r := a.do("POST", ws+"/invitations", owner.Token, map[string]any{"email": email, "role": "admin"})
		if r.Status != http.StatusCreated {
			t.Fatalf("invite: %d %s", r.Status, r.Body)
		}
		r.json(t, &inv)
		if r := a.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID), tn.Token, nil); r.Status != http.StatusOK {
			t.Fatalf("accept: %d %s", r.Status, r.Body)
		}
	}
	join(bob, "bob@example.com")
	join(carol, "carol@example.com")
	newKey := func(tn tenant) (int64, string) {
		t.Helper()
		r := a.do("POST", ws+"/api-keys", tn.Token, map[string]any{"name": "k", "scopes": []string{"links:read", "links:write"}})
		if r.Status != http.StatusCreated {
			t.Fatalf("create key: %d %s", r.Status, r.Body)
		}
		var k struct {
			ID        int64
			Key       string
			CreatedBy *int64 `json:"created_by"`
		}
		r.json(t, &k)
		if k.CreatedBy == nil || *k.CreatedBy != tn.UserID {
			t.Errorf("new key's created_by = %v, want %d", k.CreatedBy, tn.UserID)
		}
		return k.ID, k.Key
	}
	bobKey, bobSecret := newKey(bob)
	carolKey, carolSecret := newKey(carol)
	ownerKey, ownerSecret := newKey(owner)
	links := ws + "/links"
	status := func(s *server, secret string) int { return s.do("GET", links, secret, nil).Status }
	for _, s := range []*server{a, b} {
		for _, secret := range []string{bobSecret, carolSecret, ownerSecret} {
			if st := status(s, secret); st != http.StatusOK {
				t.Fatalf("a new key: %d", st) // and now cached on both processes
			}
		}
	}

	// Bob is made a member on a.
	if r := a.do("PATCH", fmt.Sprintf("%s/members/%d", ws, bob.UserID), owner.Token, map[string]any{"role": "member"}); r.Status != http.StatusOK {
		t.Fatalf("demote: %d %s", r.Status, r.Body)
	}
	if st := status(a, bobSecret); st != http.StatusUnauthorized {
		t.Errorf("bob's key on the demoting process: %d, want 401", st)
	}
	eventually(t, time.Second, "bob's key refused on the other process", func() bool {
		return status(b, bobSecret) == http.StatusUnauthorized
	})
	// Carol leaves through b.
	if r := b.do("DELETE", fmt.Sprintf("%s/members/%d", ws, carol.UserID), carol.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("leave: %d %s", r.Status, r.Body)
	}
	if st := status(b, carolSecret); st != http.StatusUnauthorized {
		t.Errorf("carol's key on the process she left through: %d, want 401", st)
	}
	eventually(t, time.Second, "carol's key refused on the other process", func() bool {
		return status(a, carolSecret) == http.StatusUnauthorized
	})
	for _, s := range []*server{a, b} {
		if st := status(s, ownerSecret); st != http.StatusOK {
			t.Errorf("the owner's key: %d", st)
		}
	}

	var list struct {
		APIKeys []struct {
			ID            int64
			CreatedBy     *int64  `json:"created_by"`
			RevokedAt     *string `json:"revoked_at"`
			RevokedReason *string `json:"revoked_reason"`
		} `json:"api_keys"`
	}
	b.do("GET", ws+"/api-keys?revoked=true", owner.Token, nil).json(t, &list)
	want := map[int64]string{bobKey: "creator_demoted", carolKey: "creator_removed", ownerKey: ""}
	if len(list.APIKeys) != 4 { // and the owner's key made at sign-up
		t.Errorf("keys: %+v", list)
	}
	for _, k := range list.APIKeys {
		reason := ""
		if k.RevokedReason != nil {
			reason = *k.RevokedReason
		}
		if w, ok := want[k.ID]; ok && (reason != w || (w != "") != (k.RevokedAt != nil)) {
			t.Errorf("key %d: revoked %v for %q, want %q", k.ID, k.RevokedAt, reason, w)
		}
		if k.CreatedBy == nil {
			t.Errorf("key %d has no created_by", k.ID)
		}
	}
	if r := b.do("GET", ws+"/api-keys?revoked=maybe", owner.Token, nil); r.Status != http.StatusBadRequest {
		t.Errorf("revoked=maybe: %d", r.Status)
	}
}
