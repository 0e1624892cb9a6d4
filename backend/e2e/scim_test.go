package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// scimAnswer is a SCIM resource or list as the tests read it.
type scimAnswer struct {
	Schemas      []string `json:"schemas"`
	ID           string   `json:"id"`
	UserName     string   `json:"userName"`
	DisplayName  string   `json:"displayName"`
	Active       bool     `json:"active"`
	ExternalID   string   `json:"externalId"`
	TotalResults int      `json:"totalResults"`
	StartIndex   int      `json:"startIndex"`
	ItemsPerPage int      `json:"itemsPerPage"`
	Resources    []struct {
		ID       string `json:"id"`
		UserName string `json:"userName"`
	} `json:"Resources"`
	Name struct {
		GivenName  string `json:"givenName"`
		FamilyName string `json:"familyName"`
	} `json:"name"`
	Members []struct {
		Value string `json:"value"`
	} `json:"members"`
	Status   string `json:"status"`
	ScimType string `json:"scimType"`
	Detail   string `json:"detail"`
}

// scimCall sends a SCIM request to the workspace's endpoint, as an identity provider does.
func (s *server) scimCall(method string, workspace int64, path, token, body string) response {
	s.t.Helper()
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	u := fmt.Sprintf("%s/scim/v2/%d%s", s.base, workspace, path)
	var req *http.Request
	var err error
	if rd != nil {
		req, err = http.NewRequest(method, u, rd)
	} else {
		req, err = http.NewRequest(method, u, nil)
	}
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/scim+json; charset=utf-8")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.send(req)
}

// scimOK fails the test unless r has the status and a SCIM body, and returns it.
func scimOK(t *testing.T, r response, status int, what string) scimAnswer {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
	var a scimAnswer
	if len(r.Body) > 0 {
		r.json(t, &a)
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/scim+json") {
			t.Errorf("%s: content type %q", what, r.Header.Get("Content-Type"))
		}
	}
	return a
}

// wantSCIMError checks an error answer in SCIM's shape: the schema, status as a string, and
// scimType when one is wanted.
func wantSCIMError(t *testing.T, r response, status int, scimType, what string) {
	t.Helper()
	var a scimAnswer
	_ = json.Unmarshal(r.Body, &a)
	if r.Status != status || a.Status != fmt.Sprint(status) || len(a.Schemas) != 1 ||
		a.Schemas[0] != "urn:ietf:params:scim:api:messages:2.0:Error" || a.ScimType != scimType || a.Detail == "" ||
		!strings.HasPrefix(r.Header.Get("Content-Type"), "application/scim+json") {
		t.Errorf("%s: %d %s %s, want %d scimType %q", what, r.Status, r.Header.Get("Content-Type"), r.Body, status, scimType)
	}
}

// scimToken makes a SCIM token of the owner's workspace.
func (s *server) scimToken(owner tenant) string {
	s.t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens", owner.WorkspaceID), owner.Token, map[string]string{"name": "Okta"})
	out := answer[struct {
		ID    int64  `json:"id"`
		Token string `json:"token"`
		URL   string `json:"url"`
	}](s.t, r, http.StatusCreated, "create scim token")
	if out.ID == 0 || !strings.HasPrefix(out.Token, "sl_scim_") || !strings.HasSuffix(out.URL, fmt.Sprintf("/scim/v2/%d", owner.WorkspaceID)) {
		s.t.Fatalf("scim token: %s", r.Body)
	}
	return out.Token
}

// memberRole is the role of the account with email in the owner's workspace, "" when not a
// member.
func (s *server) memberRole(owner tenant, email string) string {
	s.t.Helper()
	members := answer[struct {
		Members []struct {
			Email string `json:"email"`
			Role  string `json:"role"`
		}
	}](s.t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/members", owner.WorkspaceID), owner.Token, nil), http.StatusOK, "members")
	for _, m := range members.Members {
		if strings.EqualFold(m.Email, email) {
			return m.Role
		}
	}
	return ""
}

// startSCIM starts a server whose enterprise workspace (owner) signs domain in through a
// provider and has a SCIM token.
func startSCIM(t *testing.T, domain string) (*server, tenant, string) {
	t.Helper()
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true", "MAX_BODY_BYTES", "65536")
	p := startIdP(t, newIdPStorage(idpUsers{}))
	owner := s.signupOn("owner@example.com", "enterprise")
	s.ssoSettings(owner, ns, p.URL, domain)
	return s, owner, s.scimToken(owner)
}

// The bodies Okta's SCIM 2.0 guide and Microsoft Entra ID's SCIM validator send.
const (
	oktaCreate = `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"%s",
		"name":{"givenName":"Isaac","familyName":"Brock"},"emails":[{"primary":true,"value":"%s","type":"work"}],
		"displayName":"Isaac Brock","locale":"en-US","externalId":"00ujl29u0le5T6Aj10h7","groups":[],
		"password":"1mz050nq","active":true}`
	entraCreate = `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
		"externalId":"0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef","userName":"%s","active":true,
		"emails":[{"primary":true,"type":"work","value":"%s"}],"meta":{"resourceType":"User"},
		"name":{"formatted":"givenName familyName","familyName":"familyName","givenName":"givenName"},"roles":[]}`
	entraDeactivate = `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"active","value":"False"}]}`
	entraReactivate = `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"active","value":"True"}]}`
	oktaDeactivate  = `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":false}}]}`
	oktaReplace     = `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"id":"%s","userName":"%s",
		"name":{"givenName":"Isaac","familyName":"Brock-Smith"},"emails":[{"primary":true,"value":"%s","type":"work"}],
		"displayName":"Isaac Brock-Smith","locale":"en-US","externalId":"00ujl29u0le5T6Aj10h7","groups":[],"active":true}`
)

// TestSCIMUsers: Okta's and Entra ID's requests create, find, deactivate (Entra's "False",
// Okta's path-less operation), reactivate, replace and delete people; an account is made
// without a password when the address has none; the discovery documents answer.
func TestSCIMUsers(t *testing.T) {
	s, owner, token := startSCIM(t, "scim-acme.com")
	ws := owner.WorkspaceID

	for _, path := range []string{"/ServiceProviderConfig", "/ResourceTypes", "/ResourceTypes/User", "/Schemas",
		"/Schemas/urn:ietf:params:scim:schemas:core:2.0:User"} {
		r := s.scimCall("GET", ws, path, token, "")
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/scim+json") || !strings.Contains(string(r.Body), `"schemas"`) {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
	}
	wantSCIMError(t, s.scimCall("GET", ws, "/Schemas/urn:nope", token, ""), http.StatusNotFound, "", "unknown schema")

	// Okta: the lookup before the create finds nobody; the create makes the account and the
	// membership (role member); the person cannot sign in with a password (there is none).
	isaac := "isaac.brock@scim-acme.com"
	found := scimOK(t, s.scimCall("GET", ws, "/Users?filter="+url.QueryEscape(`userName eq "`+isaac+`"`)+"&startIndex=1&count=100", token, ""), http.StatusOK, "okta lookup")
	if found.TotalResults != 0 || len(found.Resources) != 0 {
		t.Fatalf("lookup before create: %+v", found)
	}
	r := s.scimCall("POST", ws, "/Users", token, fmt.Sprintf(oktaCreate, isaac, isaac))
	u := scimOK(t, r, http.StatusCreated, "okta create")
	if u.ID == "" || u.UserName != isaac || !u.Active || u.Name.GivenName != "Isaac" || r.Header.Get("Location") == "" {
		t.Fatalf("okta create: %s", r.Body)
	}
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": isaac, "password": "1mz050nq"}),
		http.StatusForbidden, "sso_required", "a provisioned person's password sign-in")
	wantSCIMError(t, s.scimCall("POST", ws, "/Users", token, fmt.Sprintf(oktaCreate, isaac, isaac)), http.StatusConflict, "uniqueness", "create twice")
	found = scimOK(t, s.scimCall("GET", ws, "/Users?filter="+url.QueryEscape(`userName eq "ISAAC.brock@scim-acme.com"`), token, ""), http.StatusOK, "filter")
	if found.TotalResults != 1 || found.Resources[0].ID != u.ID {
		t.Fatalf("filter by userName: %+v", found)
	}
	found = scimOK(t, s.scimCall("GET", ws, "/Users?filter="+url.QueryEscape(`externalId eq "00ujl29u0le5T6Aj10h7"`), token, ""), http.StatusOK, "externalId")
	if found.TotalResults != 1 {
		t.Fatalf("filter by externalId: %+v", found)
	}
	got := scimOK(t, s.scimCall("GET", ws, "/Users/"+u.ID, token, ""), http.StatusOK, "get")
	if got.UserName != isaac {
		t.Fatalf("get: %+v", got)
	}

	// Entra ID: a person who has an account and a membership already (an admin, with a
	// password session, a refresh token and an API key).
	bobEmail := "bob@scim-acme.com"
	bob := s.joined(owner, bobEmail, "admin")
	access, refresh := s.loginPair(t, bobEmail, signupPassword)
	r = s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/api-keys", ws), access, map[string]any{"name": "bob's", "scopes": []string{"links:read"}})
	bobKey := answer[struct{ Key string }](t, r, http.StatusCreated, "bob's key").Key
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", ws), bobKey, nil); r.Status != http.StatusOK {
		t.Fatalf("bob's key before: %d %s", r.Status, r.Body)
	}
	found = scimOK(t, s.scimCall("GET", ws, "/Users?filter="+url.QueryEscape(`emails[type eq "work"].value eq "`+bobEmail+`"`), token, ""), http.StatusOK, "entra lookup")
	if found.TotalResults != 0 {
		t.Fatalf("entra lookup before create: %+v", found)
	}
	b := scimOK(t, s.scimCall("POST", ws, "/Users", token, fmt.Sprintf(entraCreate, bobEmail, bobEmail)), http.StatusCreated, "entra create")
	if role := s.memberRole(owner, bobEmail); role != "admin" {
		t.Fatalf("an existing member keeps the role: %q", role)
	}

	// Entra's "False": the membership, every session and the keys end at once.
	d := scimOK(t, s.scimCall("PATCH", ws, "/Users/"+b.ID, token, entraDeactivate), http.StatusOK, "entra deactivate")
	if d.Active {
		t.Fatalf("deactivated: %+v", d)
	}
	if role := s.memberRole(owner, bobEmail); role != "" {
		t.Errorf("membership after deactivation: %q", role)
	}
	wantReason(t, s.do("GET", "/api/v1/me", access, nil), http.StatusUnauthorized, "session_ended", "access token after deactivation")
	wantReason(t, s.do("GET", "/api/v1/me", bob.Token, nil), http.StatusUnauthorized, "session_ended", "sign-up session after deactivation")
	wantReason(t, s.refreshWith(refresh), http.StatusUnauthorized, "refresh_invalid", "refresh token after deactivation")
	wantReason(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links", ws), bobKey, nil), http.StatusUnauthorized, "api_key_invalid", "API key after deactivation")
	auditLog := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/audit", ws), owner.Token, nil)
	if !strings.Contains(string(auditLog.Body), `"scim.user_deprovisioned"`) || !strings.Contains(string(auditLog.Body), `"scim.user_provisioned"`) {
		t.Errorf("audit log: %s", auditLog.Body)
	}

	// Entra's "True": the membership comes back with its role.
	if a := scimOK(t, s.scimCall("PATCH", ws, "/Users/"+b.ID, token, entraReactivate), http.StatusOK, "entra reactivate"); !a.Active {
		t.Fatalf("reactivated: %+v", a)
	}
	if role := s.memberRole(owner, bobEmail); role != "admin" {
		t.Errorf("role after reactivation: %q", role)
	}
	// A provisioned person signs in through the provider only, and keeps the address in the domain.
	wantReason(t, s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": bobEmail, "password": signupPassword}),
		http.StatusForbidden, "sso_required", "a provisioned member's password sign-in")

	// Okta's path-less deactivation, then PUT with active true and a new name.
	scimOK(t, s.scimCall("PATCH", ws, "/Users/"+u.ID, token, oktaDeactivate), http.StatusOK, "okta deactivate")
	if role := s.memberRole(owner, isaac); role != "" {
		t.Errorf("okta deactivation left role %q", role)
	}
	p := scimOK(t, s.scimCall("PUT", ws, "/Users/"+u.ID, token, fmt.Sprintf(oktaReplace, u.ID, isaac, isaac)), http.StatusOK, "okta replace")
	if !p.Active || p.Name.FamilyName != "Brock-Smith" || p.DisplayName != "Isaac Brock-Smith" {
		t.Fatalf("replace: %+v", p)
	}
	if role := s.memberRole(owner, isaac); role != "member" {
		t.Errorf("role after PUT active: %q", role)
	}
	// PATCH of names and addresses, as Entra ID sends them.
	scimOK(t, s.scimCall("PATCH", ws, "/Users/"+u.ID, token, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[
		{"op":"Replace","path":"name.givenName","value":"Zac"},{"op":"Add","path":"title","value":"CTO"},
		{"op":"Replace","path":"emails[type eq \"work\"].value","value":"`+isaac+`"}]}`), http.StatusOK, "entra patch name")
	if g := scimOK(t, s.scimCall("GET", ws, "/Users/"+u.ID, token, ""), http.StatusOK, "get"); g.Name.GivenName != "Zac" {
		t.Errorf("name after patch: %+v", g)
	}

	// Paging: two people, one a page.
	page := scimOK(t, s.scimCall("GET", ws, "/Users?startIndex=2&count=1", token, ""), http.StatusOK, "page")
	if page.TotalResults != 2 || page.StartIndex != 2 || page.ItemsPerPage != 1 || len(page.Resources) != 1 || page.Resources[0].ID != b.ID {
		t.Errorf("page 2: %+v", page)
	}

	// DELETE: the membership and sessions end; the resource is gone.
	if r := s.scimCall("DELETE", ws, "/Users/"+b.ID, token, ""); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if role := s.memberRole(owner, bobEmail); role != "" {
		t.Errorf("membership after delete: %q", role)
	}
	wantSCIMError(t, s.scimCall("GET", ws, "/Users/"+b.ID, token, ""), http.StatusNotFound, "", "get after delete")
	wantSCIMError(t, s.scimCall("DELETE", ws, "/Users/"+b.ID, token, ""), http.StatusNotFound, "", "delete twice")
}

// TestSCIMGroups: group membership changes a member's role at once (admin, viewer, back to
// member), owners keep theirs, and an owner's own mapping replaces the names.
func TestSCIMGroups(t *testing.T) {
	s, owner, token := startSCIM(t, "scim-grp.com")
	ws := owner.WorkspaceID
	carol := scimOK(t, s.scimCall("POST", ws, "/Users", token, fmt.Sprintf(entraCreate, "carol@scim-grp.com", "carol@scim-grp.com")), http.StatusCreated, "carol")
	carolID := "carol@scim-grp.com"

	admins := scimOK(t, s.scimCall("POST", ws, "/Groups", token, `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],
		"displayName":"Admin","members":[]}`), http.StatusCreated, "create group")
	// Okta adds a member; Entra ID's shape is the same with "Add".
	if r := s.scimCall("PATCH", ws, "/Groups/"+admins.ID, token, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
		"Operations":[{"op":"add","path":"members","value":[{"value":"`+carol.ID+`","display":"carol@scim-grp.com"}]}]}`); r.Status != http.StatusNoContent {
		t.Fatalf("add member: %d %s", r.Status, r.Body)
	}
	if role := s.memberRole(owner, carolID); role != "admin" {
		t.Errorf("role in Admin: %q", role)
	}
	if g := scimOK(t, s.scimCall("GET", ws, "/Groups/"+admins.ID, token, ""), http.StatusOK, "get group"); len(g.Members) != 1 || g.Members[0].Value != carol.ID {
		t.Errorf("group members: %+v", g)
	}
	found := scimOK(t, s.scimCall("GET", ws, "/Groups?filter="+url.QueryEscape(`displayName eq "admin"`)+"&excludedAttributes=members", token, ""), http.StatusOK, "find group")
	if found.TotalResults != 1 {
		t.Errorf("filter groups: %+v", found)
	}
	// A viewer group too: the highest role wins; leaving Admin (Okta's filter path) leaves viewer.
	viewers := scimOK(t, s.scimCall("POST", ws, "/Groups", token, `{"displayName":"viewer","members":[{"value":"`+carol.ID+`"}]}`), http.StatusCreated, "viewers")
	if role := s.memberRole(owner, carolID); role != "admin" {
		t.Errorf("role in Admin and viewer: %q", role)
	}
	if r := s.scimCall("PATCH", ws, "/Groups/"+admins.ID, token, `{"Operations":[{"op":"remove","path":"members[value eq \"`+carol.ID+`\"]"}]}`); r.Status != http.StatusNoContent {
		t.Fatalf("remove member: %d %s", r.Status, r.Body)
	}
	if role := s.memberRole(owner, carolID); role != "viewer" {
		t.Errorf("role after leaving Admin: %q", role)
	}
	// Entra ID's removal: path members, the members as value.
	if r := s.scimCall("PATCH", ws, "/Groups/"+viewers.ID, token, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
		"Operations":[{"op":"Remove","path":"members","value":[{"value":"`+carol.ID+`"}]}]}`); r.Status != http.StatusNoContent {
		t.Fatalf("entra remove member: %d %s", r.Status, r.Body)
	}
	if role := s.memberRole(owner, carolID); role != "member" {
		t.Errorf("role in no group: %q", role)
	}

	// The owner's mapping: Engineering gives admin, the name Admin no longer does.
	eng := scimOK(t, s.scimCall("POST", ws, "/Groups", token, `{"displayName":"Engineering","members":[{"value":"`+carol.ID+`"}]}`), http.StatusCreated, "eng")
	r := s.do("PUT", fmt.Sprintf("/api/v1/workspaces/%d/scim-roles", ws), owner.Token, map[string]any{"mappings": map[string]string{"Engineering": "admin"}})
	if r.Status != http.StatusOK {
		t.Fatalf("mapping: %d %s", r.Status, r.Body)
	}
	if role := s.memberRole(owner, carolID); role != "admin" {
		t.Errorf("role by the owner's mapping: %q", role)
	}
	wantReason(t, s.do("PUT", fmt.Sprintf("/api/v1/workspaces/%d/scim-roles", ws), owner.Token, map[string]any{"mappings": map[string]string{"x": "owner"}}),
		http.StatusBadRequest, "role_invalid", "mapping to owner")
	// Deleting the group takes its role away.
	if r := s.scimCall("DELETE", ws, "/Groups/"+eng.ID, token, ""); r.Status != http.StatusNoContent {
		t.Fatalf("delete group: %d %s", r.Status, r.Body)
	}
	if role := s.memberRole(owner, carolID); role != "member" {
		t.Errorf("role after the group went: %q", role)
	}
	wantSCIMError(t, s.scimCall("PATCH", ws, "/Groups/"+admins.ID, token, `{"Operations":[{"op":"add","path":"members","value":[{"value":"00000000-0000-0000-0000-000000000000"}]}]}`),
		http.StatusBadRequest, "invalidValue", "unknown member")
	wantSCIMError(t, s.scimCall("POST", ws, "/Groups", token, `{"displayName":"ADMIN"}`), http.StatusConflict, "uniqueness", "same name")
}

// TestSCIMIsolationAndGate: a token reaches its own workspace only; a workspace that lost sso
// with its plan is refused (its tokens and people kept); tokens are for owners; bad input is a
// clear 400 in SCIM's shape.
func TestSCIMIsolationAndGate(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true", "MAX_BODY_BYTES", "65536")
	p := startIdP(t, newIdPStorage(idpUsers{}))
	a := s.signupOn("a-owner@example.com", "enterprise")
	s.ssoSettings(a, ns, p.URL, "scim-a.com")
	bOwner := s.signupOn("b-owner@example.com", "enterprise")
	s.ssoSettings(bOwner, ns, p.URL, "scim-b.com")
	tokenA, tokenB := s.scimToken(a), s.scimToken(bOwner)
	ua := scimOK(t, s.scimCall("POST", a.WorkspaceID, "/Users", tokenA, fmt.Sprintf(oktaCreate, "ann@scim-a.com", "ann@scim-a.com")), http.StatusCreated, "ann")

	// A's token at B's endpoint, B's token at A's resources, no token, a wrong one.
	wantSCIMError(t, s.scimCall("GET", bOwner.WorkspaceID, "/Users", tokenA, ""), http.StatusUnauthorized, "", "A's token at B")
	wantSCIMError(t, s.scimCall("PATCH", bOwner.WorkspaceID, "/Users/"+ua.ID, tokenA, oktaDeactivate), http.StatusUnauthorized, "", "A's token changing at B")
	wantSCIMError(t, s.scimCall("GET", bOwner.WorkspaceID, "/Users/"+ua.ID, tokenB, ""), http.StatusNotFound, "", "A's user through B")
	wantSCIMError(t, s.scimCall("PATCH", bOwner.WorkspaceID, "/Users/"+ua.ID, tokenB, oktaDeactivate), http.StatusNotFound, "", "B deactivating A's user")
	wantSCIMError(t, s.scimCall("DELETE", bOwner.WorkspaceID, "/Users/"+ua.ID, tokenB, ""), http.StatusNotFound, "", "B deleting A's user")
	if l := scimOK(t, s.scimCall("GET", bOwner.WorkspaceID, "/Users?filter="+url.QueryEscape(`userName eq "ann@scim-a.com"`), tokenB, ""), http.StatusOK, "B's list"); l.TotalResults != 0 {
		t.Errorf("B sees A's people: %+v", l)
	}
	wantSCIMError(t, s.scimCall("POST", bOwner.WorkspaceID, "/Users", tokenB, fmt.Sprintf(oktaCreate, "zed@scim-a.com", "zed@scim-a.com")), http.StatusBadRequest, "invalidValue", "B provisioning A's domain")
	wantSCIMError(t, s.scimCall("GET", a.WorkspaceID, "/Users", "", ""), http.StatusUnauthorized, "", "no token")
	wantSCIMError(t, s.scimCall("GET", a.WorkspaceID, "/Users", "sl_scim_wrong", ""), http.StatusUnauthorized, "", "wrong token")
	wantSCIMError(t, s.scimCall("GET", a.WorkspaceID, "/Users", a.Key, ""), http.StatusUnauthorized, "", "an API key")

	// Tokens are the owners': listed without secrets, revoked at once.
	admin := s.joined(a, "adm@example.com", "admin")
	wantReason(t, s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens", a.WorkspaceID), admin.Token, map[string]string{}), http.StatusForbidden, "role_forbidden", "admin makes a token")
	wantReason(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens", a.WorkspaceID), admin.Token, nil), http.StatusForbidden, "role_forbidden", "admin lists tokens")
	wantReason(t, s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens", a.WorkspaceID), a.Key, nil), http.StatusForbidden, "api_key_not_allowed", "API key lists tokens")
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens", a.WorkspaceID), a.Token, nil)
	list := answer[struct {
		Tokens []struct {
			ID     int64  `json:"id"`
			Prefix string `json:"prefix"`
		} `json:"scim_tokens"`
	}](t, r, http.StatusOK, "list tokens")
	if len(list.Tokens) != 1 || strings.Contains(string(r.Body), tokenA) || !strings.HasPrefix(tokenA, list.Tokens[0].Prefix) {
		t.Fatalf("tokens: %s", r.Body)
	}
	wantReason(t, s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens/%d", bOwner.WorkspaceID, list.Tokens[0].ID), bOwner.Token, nil),
		http.StatusNotFound, "scim_token_not_found", "B revoking A's token")
	free := s.signup("free@example.com")
	wantReason(t, s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens", free.WorkspaceID), free.Token, map[string]string{}), http.StatusForbidden, "plan_required", "free plan")

	// Bad input.
	for _, c := range []struct {
		method, path, body, scimType, what string
		status                             int
	}{
		{"GET", "/Users?filter=" + url.QueryEscape(`userName eq`), "", "invalidFilter", "malformed filter", 400},
		{"GET", "/Users?filter=" + url.QueryEscape(`favouriteColour eq "blue"`), "", "invalidFilter", "unknown attribute in a filter", 400},
		{"GET", "/Users?filter=" + url.QueryEscape(`userName co "a"`), "", "invalidFilter", "an operator not supported", 400},
		{"GET", "/Users?count=many", "", "invalidValue", "count not a number", 400},
		{"POST", "/Users", `{"userName":`, "invalidSyntax", "bad JSON", 400},
		{"POST", "/Users", `{"userName":"x@scim-a.com","favouriteColour":"blue"}`, "invalidSyntax", "unknown attribute", 400},
		{"POST", "/Users", `{"userName":"x@elsewhere.com"}`, "invalidValue", "outside the domain", 400},
		{"POST", "/Users", `{"userName":"not an address"}`, "invalidValue", "not an address", 400},
		{"POST", "/Users", `{"userName":"x@scim-a.com","active":"maybe"}`, "invalidValue", "active not a boolean", 400},
		{"PATCH", "/Users/" + ua.ID, `{"Operations":[{"op":"replace","path":"favouriteColour","value":"x"}]}`, "invalidPath", "unknown path", 400},
		{"PATCH", "/Users/" + ua.ID, `{"Operations":[{"op":"jump","path":"active"}]}`, "invalidSyntax", "unknown op", 400},
		{"PATCH", "/Users/" + ua.ID, `{"Operations":[]}`, "invalidValue", "no operations", 400},
		{"PATCH", "/Users/not-an-id", oktaDeactivate, "", "unknown id", 404},
		{"POST", "/Users", `{"userName":"x@scim-a.com","displayName":"` + strings.Repeat("x", 70000) + `"}`, "", "body too large", 413},
	} {
		wantSCIMError(t, s.scimCall(c.method, a.WorkspaceID, c.path, tokenA, c.body), c.status, c.scimType, c.what)
	}
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/scim/v2/%d/Users", s.base, a.WorkspaceID), strings.NewReader(`{"userName":"x@scim-a.com"}`))
	req.Header.Set("Authorization", "Bearer "+tokenA)
	req.Header.Set("Content-Type", "text/plain")
	wantSCIMError(t, s.send(req), http.StatusBadRequest, "invalidSyntax", "not JSON")

	// The plan gate: a downgraded workspace's provider is refused, its tokens and people kept.
	s.setPlan(a, "free")
	wantSCIMError(t, s.scimCall("GET", a.WorkspaceID, "/Users", tokenA, ""), http.StatusForbidden, "", "downgraded")
	wantSCIMError(t, s.scimCall("PATCH", a.WorkspaceID, "/Users/"+ua.ID, tokenA, oktaDeactivate), http.StatusForbidden, "", "downgraded patch")
	s.setPlan(a, "enterprise")
	if l := scimOK(t, s.scimCall("GET", a.WorkspaceID, "/Users", tokenA, ""), http.StatusOK, "upgraded again"); l.TotalResults != 1 {
		t.Errorf("people kept: %+v", l)
	}

	// A revoked token stops at once.
	if r := s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d/scim-tokens/%d", a.WorkspaceID, list.Tokens[0].ID), a.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	wantSCIMError(t, s.scimCall("GET", a.WorkspaceID, "/Users", tokenA, ""), http.StatusUnauthorized, "", "revoked token")
}

// TestSCIMDeprovisionedSignOn: a person the provider deprovisioned does not become a member
// again by signing on; reactivated, they sign on and are a member with their role.
func TestSCIMDeprovisionedSignOn(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr, "SSO_ALLOW_LOOPBACK", "true")
	p := startIdP(t, newIdPStorage(idpUsers{"dee": idpUser("dee", "dee@scim-sso.com", true)}))
	owner := s.signupOn("owner@example.com", "enterprise")
	s.ssoSettings(owner, ns, p.URL, "scim-sso.com")
	token := s.scimToken(owner)
	ws := owner.WorkspaceID
	dee := scimOK(t, s.scimCall("POST", ws, "/Users", token, fmt.Sprintf(oktaCreate, "dee@scim-sso.com", "dee@scim-sso.com")), http.StatusCreated, "dee")
	b := s.ssoBrowser()
	r := s.ssoFinish(s.ssoSignIn(b, "dee@scim-sso.com", "dee"), stateCookie(b))
	if id, _ := s.ssoMe(r); id == 0 {
		t.Fatalf("dee's sign-on: %d %s", r.Status, r.Body)
	}
	ssoRefresh := ssoCookie(t, r, "sl_refresh")

	scimOK(t, s.scimCall("PATCH", ws, "/Users/"+dee.ID, token, oktaDeactivate), http.StatusOK, "deactivate dee")
	wantReason(t, s.refreshWith(ssoRefresh), http.StatusUnauthorized, "refresh_invalid", "the sign-on session after deactivation")
	b = s.ssoBrowser()
	wantReason(t, s.ssoFinish(s.ssoSignIn(b, "dee@scim-sso.com", "dee"), stateCookie(b)), http.StatusForbidden, "sso_deprovisioned", "sign-on after deactivation")
	if role := s.memberRole(owner, "dee@scim-sso.com"); role != "" {
		t.Fatalf("a deprovisioned person's sign-on made a member: %q", role)
	}

	scimOK(t, s.scimCall("PATCH", ws, "/Users/"+dee.ID, token, entraReactivate), http.StatusOK, "reactivate dee")
	b = s.ssoBrowser()
	r = s.ssoFinish(s.ssoSignIn(b, "dee@scim-sso.com", "dee"), stateCookie(b))
	if id, _ := s.ssoMe(r); id == 0 {
		t.Fatalf("sign-on after reactivation: %d %s", r.Status, r.Body)
	}
	if role := s.memberRole(owner, "dee@scim-sso.com"); role != "member" {
		t.Errorf("role after reactivation: %q", role)
	}
}
