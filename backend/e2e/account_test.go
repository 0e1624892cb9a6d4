package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// refusal is an error answer's code, reason and field.
type refusal struct{ Code, Reason, Field string }

func refusalOf(t *testing.T, r response) refusal {
	t.Helper()
	var e struct {
		Error struct {
			Code   string `json:"code"`
			Reason string `json:"reason"`
			Field  string `json:"field"`
		} `json:"error"`
	}
	r.json(t, &e)
	return refusal{e.Error.Code, e.Error.Reason, e.Error.Field}
}

// expectRefusal fails unless r is an error with status and reason (and field, when given).
func expectRefusal(t *testing.T, r response, status int, reason, field string) {
	t.Helper()
	got := refusalOf(t, r)
	if r.Status != status || got.Reason != reason || (field != "" && got.Field != field) {
		t.Errorf("got %d %+v (%s); want %d reason %q field %q", r.Status, got, r.Body, status, reason, field)
	}
}

type sessionJSON struct {
	ID      string `json:"id"`
	Browser string `json:"browser"`
	OS      string `json:"os"`
	Network string `json:"network"`
	Current bool   `json:"current"`
}

func (s *server) sessions(t *testing.T, token string) []sessionJSON {
	t.Helper()
	return answer[struct{ Sessions []sessionJSON }](t, s.do("GET", "/api/v1/me/sessions", token, nil), http.StatusOK, "list sessions").Sessions
}

// loginPair signs in as an API client keeping its own tokens: a new session.
func (s *server) loginPair(t *testing.T, email, password string) (access, refresh string) {
	t.Helper()
	out := answer[struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}](t, s.do("POST", "/api/v1/auth/login", "", map[string]any{"email": email, "password": password, "token_pair": true}),
		http.StatusOK, "login "+email)
	return out.AccessToken, out.RefreshToken
}

const signupPassword = "correct horse battery"

// TestAccountSessions lists a person's sessions, signs one out (its access token stops at
// once, its refresh token too), and never lets one person see or end another's.
func TestAccountSessions(t *testing.T) {
	s := newDeployment(t).start(t)
	alice := s.signup("alice@example.com")
	bob := s.signup("bob@example.com")
	a1, _ := s.loginPair(t, "alice@example.com", signupPassword)
	a2, a2refresh := s.loginPair(t, "alice@example.com", signupPassword)

	list := s.sessions(t, a1)
	if len(list) != 3 {
		t.Fatalf("alice's sessions: %+v; want 3 (sign-up and two logins)", list)
	}
	var current, other string
	for _, ss := range list {
		if ss.Current {
			current = ss.ID
		}
		if ss.Network != "127.0.0.0/24" {
			t.Errorf("session network %q; want the /24 of the loopback address", ss.Network)
		}
	}
	for _, ss := range s.sessions(t, a2) {
		if ss.Current {
			other = ss.ID
		}
	}
	if current == "" || other == "" || current == other {
		t.Fatalf("current sessions %q (a1) and %q (a2)", current, other)
	}

	// Bob sees only his own session and cannot end Alice's.
	if b := s.sessions(t, bob.Token); len(b) != 1 || b[0].ID == other {
		t.Errorf("bob's sessions: %+v", b)
	}
	expectRefusal(t, s.do("DELETE", "/api/v1/me/sessions/"+other, bob.Token, nil), http.StatusNotFound, "session_not_found", "")
	if r := s.do("GET", "/api/v1/me", a2, nil); r.Status != http.StatusOK {
		t.Fatalf("alice's session after bob's attempt: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", "/api/v1/me/sessions", bob.Token, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"ended":0`) {
		t.Errorf("bob ends his other sessions: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/me", a2, nil); r.Status != http.StatusOK {
		t.Fatalf("alice's session after bob signed out his others: %d %s", r.Status, r.Body)
	}
	expectRefusal(t, s.do("DELETE", "/api/v1/me/sessions/not-a-session", a1, nil), http.StatusNotFound, "session_not_found", "")
	if r := s.do("GET", "/api/v1/me/sessions", alice.Key, nil); r.Status != http.StatusForbidden {
		t.Errorf("an API key lists sessions: %d %s", r.Status, r.Body)
	}

	// Alice signs out a2: its access token fails at once, and its refresh token too.
	if r := s.do("DELETE", "/api/v1/me/sessions/"+other, a1, nil); r.Status != http.StatusNoContent {
		t.Fatalf("end a2: %d %s", r.Status, r.Body)
	}
	expectRefusal(t, s.do("GET", "/api/v1/me", a2, nil), http.StatusUnauthorized, "session_ended", "")
	if r := s.do("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": a2refresh}); r.Status != http.StatusUnauthorized {
		t.Errorf("refresh of a signed-out session: %d %s", r.Status, r.Body)
	}
	expectRefusal(t, s.do("DELETE", "/api/v1/me/sessions/"+other, a1, nil), http.StatusNotFound, "session_not_found", "")

	// Everywhere else: the sign-up's session ends, a1 stays.
	if r := s.do("DELETE", "/api/v1/me/sessions", a1, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"ended":1`) {
		t.Errorf("end the others: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/me", alice.Token, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("the sign-up's session after 'everywhere else': %d %s", r.Status, r.Body)
	}
	if l := s.sessions(t, a1); len(l) != 1 || !l[0].Current {
		t.Errorf("alice's sessions at the end: %+v", l)
	}
	if r := s.do("GET", "/api/v1/me", bob.Token, nil); r.Status != http.StatusOK {
		t.Errorf("bob after alice's sign-outs: %d %s", r.Status, r.Body)
	}
}

// TestAccountPassword changes the password: bad input answers its reason and field, the
// current password is checked under the login limits, and every other session ends.
func TestAccountPassword(t *testing.T) {
	s := newDeployment(t).start(t)
	carol := s.signup("carol@example.com")
	c1, _ := s.loginPair(t, "carol@example.com", signupPassword)
	change := func(current, next string) response {
		return s.do("POST", "/api/v1/me/password", c1, map[string]string{"current_password": current, "new_password": next})
	}
	expectRefusal(t, change("", "a new long password"), http.StatusBadRequest, "current_password_required", "current_password")
	expectRefusal(t, change(signupPassword, "short"), http.StatusBadRequest, "password_length", "new_password")
	expectRefusal(t, change("wrong password", "a new long password"), http.StatusBadRequest, "wrong_password", "current_password")
	if r := s.do("POST", "/api/v1/me/password", c1, `{"current_password":1}`); r.Status != http.StatusBadRequest {
		t.Errorf("a number as password: %d %s", r.Status, r.Body)
	}
	if r := change(signupPassword, "a new long password"); r.Status != http.StatusNoContent {
		t.Fatalf("change password: %d %s", r.Status, r.Body)
	}
	s.mailbox.WaitSubject(t, "carol@example.com", "Your Shortlink password was changed")
	if r := s.do("GET", "/api/v1/me", c1, nil); r.Status != http.StatusOK {
		t.Errorf("the session that changed the password: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/me", carol.Token, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("another session after the change: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "carol@example.com", "password": signupPassword}); r.Status != http.StatusUnauthorized {
		t.Errorf("login with the old password: %d %s", r.Status, r.Body)
	}
	s.loginPair(t, "carol@example.com", "a new long password")

	// Guessing the current password spends the login budget of the account and address.
	limited := false
	for range 12 {
		r := change("guess", "another long password")
		if r.Status == http.StatusTooManyRequests {
			limited = refusalOf(t, r).Code == "rate_limited"
			break
		}
	}
	if !limited {
		t.Error("12 wrong current passwords were never rate-limited")
	}
}

// TestAccountEmailChange: the address changes only when the link mailed to the new address
// is used; the former address is told.
func TestAccountEmailChange(t *testing.T) {
	s := newDeployment(t).start(t)
	dan := s.signup("dan@example.com")
	s.signup("taken@example.com")
	change := func(email, password string) response {
		return s.do("POST", "/api/v1/me/email", dan.Token, map[string]string{"email": email, "current_password": password})
	}
	expectRefusal(t, change("not an address", signupPassword), http.StatusBadRequest, "email_invalid", "email")
	expectRefusal(t, change("DAN@example.com", signupPassword), http.StatusBadRequest, "email_unchanged", "email")
	expectRefusal(t, change("taken@example.com", signupPassword), http.StatusConflict, "email_taken", "email")
	expectRefusal(t, change("dan.new@example.com", "wrong"), http.StatusBadRequest, "wrong_password", "current_password")
	if r := change("Dan.New@example.com", signupPassword); r.Status != http.StatusAccepted || !strings.Contains(string(r.Body), `"pending_email":"dan.new@example.com"`) {
		t.Fatalf("change email: %d %s", r.Status, r.Body)
	}
	me := answer[struct {
		User         struct{ Email string }
		PendingEmail *string `json:"pending_email"`
	}](t, s.do("GET", "/api/v1/me", dan.Token, nil), http.StatusOK, "me")
	if me.User.Email != "dan@example.com" || me.PendingEmail == nil || *me.PendingEmail != "dan.new@example.com" {
		t.Errorf("me while pending: %+v", me)
	}
	link := s.mailbox.WaitSubject(t, "dan.new@example.com", "Confirm your new email address").Link(t)
	u, err := url.Parse(link)
	if err != nil || u.Path != "/app/verify" {
		t.Fatalf("email-change link %q", link)
	}
	r := s.do("POST", "/api/v1/auth/verify-email", "", map[string]string{"token": u.Query().Get("token")})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"email":"dan.new@example.com"`) {
		t.Fatalf("use the link: %d %s", r.Status, r.Body)
	}
	s.mailbox.WaitSubject(t, "dan@example.com", "Your Shortlink email address was changed")
	if r := s.do("POST", "/api/v1/auth/verify-email", "", map[string]string{"token": u.Query().Get("token")}); r.Status != http.StatusBadRequest {
		t.Errorf("the link used twice: %d %s", r.Status, r.Body)
	}
	me = answer[struct {
		User         struct{ Email string }
		PendingEmail *string `json:"pending_email"`
	}](t, s.do("GET", "/api/v1/me", dan.Token, nil), http.StatusOK, "me")
	if me.User.Email != "dan.new@example.com" || me.PendingEmail != nil {
		t.Errorf("me after the change: %+v", me)
	}
	s.loginPair(t, "dan.new@example.com", signupPassword)
	if r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "dan@example.com", "password": signupPassword}); r.Status != http.StatusUnauthorized {
		t.Errorf("login with the former address: %d %s", r.Status, r.Body)
	}
}

// TestAccountDeletion: refused while the person alone owns a workspace with other members;
// otherwise their own workspaces and links go, and their memberships end.
func TestAccountDeletion(t *testing.T) {
	s := newDeployment(t).start(t)
	erin := s.signup("erin@example.com")
	frank := s.joined(erin, "frank@example.com", "member")
	own := s.createLink(frank, map[string]any{"url": "https://example.com/frank"})
	shared := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links", erin.WorkspaceID), frank.Token, map[string]any{"url": "https://example.com/shared"})
	sharedLink := answer[linkJSON](t, shared, http.StatusCreated, "frank's link in erin's workspace")

	del := func(token, password string) response {
		return s.do("DELETE", "/api/v1/me", token, map[string]string{"current_password": password})
	}
	expectRefusal(t, del(erin.Token, ""), http.StatusBadRequest, "current_password_required", "current_password")
	expectRefusal(t, del(erin.Token, "wrong"), http.StatusBadRequest, "wrong_password", "current_password")
	r := del(erin.Token, signupPassword)
	expectRefusal(t, r, http.StatusConflict, "owns_shared_workspace", "")
	if !strings.Contains(string(r.Body), "erin's workspace") {
		t.Errorf("the refusal names no workspace: %s", r.Body)
	}
	if r := s.do("DELETE", "/api/v1/me", frank.Key, map[string]string{"current_password": signupPassword}); r.Status != http.StatusForbidden {
		t.Errorf("an API key deletes its creator: %d %s", r.Status, r.Body)
	}

	if r := del(frank.Token, signupPassword); r.Status != http.StatusNoContent {
		t.Fatalf("frank deletes his account: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/me", frank.Token, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("frank's session after deletion: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "frank@example.com", "password": signupPassword}); r.Status != http.StatusUnauthorized {
		t.Errorf("frank logs in after deletion: %d %s", r.Status, r.Body)
	}
	eventually(t, 10e9, "frank's own link stops answering", func() bool {
		return s.visit("GET", "/"+own.Code).Status == http.StatusNotFound
	})
	if r := s.visit("GET", "/"+sharedLink.Code); r.Status != http.StatusFound && r.Status != http.StatusMovedPermanently {
		t.Errorf("frank's link in erin's workspace: %d", r.Status)
	}
	members := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/members", erin.WorkspaceID), erin.Token, nil)
	if strings.Contains(string(members.Body), "frank@example.com") {
		t.Errorf("frank is still a member: %s", members.Body)
	}
	// Alone again in her workspace, Erin may go.
	if r := del(erin.Token, signupPassword); r.Status != http.StatusNoContent {
		t.Fatalf("erin deletes her account: %d %s", r.Status, r.Body)
	}
	eventually(t, 10e9, "erin's links stop answering", func() bool {
		return s.visit("GET", "/"+sharedLink.Code).Status == http.StatusNotFound
	})
}
