package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestMailsInTheReadersLanguage: the mails go out in the language of the person they go to
// (docs/web-app.md#language-errors-and-confirmations): chosen at sign-up (the body's language, else the browser's
// Accept-Language), changed with PATCH /api/v1/me, and for an invitation the invited
// account's, or the inviter's when the address has none.
func TestMailsInTheReadersLanguage(t *testing.T) {
	s := newDeployment(t).start(t)
	signup := func(email, acceptLanguage string, body map[string]any) response {
		t.Helper()
		body["email"], body["password"] = email, "correct horse battery"
		buf, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequest("POST", s.base+"/api/v1/auth/signup", bytes.NewReader(buf))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if acceptLanguage != "" {
			req.Header.Set("Accept-Language", acceptLanguage)
		}
		return s.send(req)
	}
	type signedUp struct {
		User struct {
			ID       int64
			Language string
		}
		Workspace struct {
			ID   int64
			Name string
		}
		AccessToken string `json:"access_token"`
	}

	// The browser's language, when the body names none.
	li := answer[signedUp](t, signup("li@example.com", "zh-CN,zh;q=0.9,en;q=0.8", map[string]any{}), http.StatusCreated, "sign up in Chinese")
	if li.User.Language != "zh" {
		t.Errorf("sign-up from a zh-CN browser: language %q", li.User.Language)
	}
	// The first workspace is named in that language too.
	if li.Workspace.Name != "li 的工作区" {
		t.Errorf("sign-up from a zh-CN browser: workspace %q, want %q", li.Workspace.Name, "li 的工作区")
	}
	verify := s.mailbox.WaitSubject(t, "li@example.com", "请确认您在 Shortlink 的邮箱地址")
	if !strings.Contains(verify.Body, "li@example.com") || verify.Link(t) == "" {
		t.Errorf("the Chinese verification mail:\n%s", verify.Body)
	}
	// The body's language over the browser's.
	ann := answer[signedUp](t, signup("ann@example.com", "zh-CN", map[string]any{"language": "en"}), http.StatusCreated, "sign up in English")
	if ann.User.Language != "en" || ann.Workspace.Name != "ann's workspace" {
		t.Errorf("language en asked from a zh-CN browser: %q, workspace %q", ann.User.Language, ann.Workspace.Name)
	}
	s.verify("ann@example.com")
	// Neither: English.
	if bo := answer[signedUp](t, signup("bo@example.com", "fr-FR", map[string]any{}), http.StatusCreated, "sign up"); bo.User.Language != "en" {
		t.Errorf("a fr-FR browser: language %q", bo.User.Language)
	}
	for _, lang := range []any{"fr", "", "zh-CN", 7} {
		r := signup(fmt.Sprintf("bad-%v@example.com", lang), "", map[string]any{"language": lang})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "language") {
			t.Errorf("sign-up with language %v: %d %s", lang, r.Status, r.Body)
		}
	}
	if r := signup("bad@example.com", "", map[string]any{"language": "xx"}); errorReason(t, r) != "language_invalid" {
		t.Errorf("sign-up with language xx: %s", r.Body)
	}

	// PATCH /me changes the language of the next mails; GET /me shows it.
	r := s.do("PATCH", "/api/v1/me", ann.AccessToken, map[string]any{"language": "zh"})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"language":"zh"`) {
		t.Fatalf("PATCH /me: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/me", ann.AccessToken, nil); !strings.Contains(string(r.Body), `"language":"zh"`) {
		t.Errorf("GET /me after the change: %s", r.Body)
	}
	if r := s.do("POST", "/api/v1/auth/password-reset", "", map[string]string{"email": "ann@example.com"}); r.Status != http.StatusAccepted {
		t.Fatalf("password reset: %d %s", r.Status, r.Body)
	}
	if m := s.mailbox.WaitSubject(t, "ann@example.com", "重置您的 Shortlink 密码"); !strings.Contains(m.Body, "/app/reset-password?token=") {
		t.Errorf("the Chinese reset mail:\n%s", m.Body)
	}
	for _, c := range []struct {
		body   any
		status int
		reason string
	}{
		{map[string]any{"language": "de"}, http.StatusBadRequest, "language_invalid"},
		{map[string]any{"language": nil}, http.StatusBadRequest, "language_invalid"},
		{map[string]any{"theme": "dark"}, http.StatusBadRequest, ""},
		{"not json", http.StatusBadRequest, ""},
	} {
		r := s.do("PATCH", "/api/v1/me", ann.AccessToken, c.body)
		if r.Status != c.status || (c.reason != "" && errorReason(t, r) != c.reason) {
			t.Errorf("PATCH /me %v: %d %s, want %d %s", c.body, r.Status, r.Body, c.status, c.reason)
		}
	}
	if r := s.do("PATCH", "/api/v1/me", "", map[string]any{"language": "zh"}); r.Status != http.StatusUnauthorized {
		t.Errorf("PATCH /me signed out: %d %s", r.Status, r.Body)
	}
	owner := s.signup("owner@example.com")
	if r := s.do("PATCH", "/api/v1/me", owner.Key, map[string]any{"language": "zh"}); r.Status != http.StatusForbidden {
		t.Errorf("PATCH /me with an API key: %d %s", r.Status, r.Body)
	}
	// Only the caller changed: the other accounts keep theirs.
	if r := s.do("GET", "/api/v1/me", owner.Token, nil); !strings.Contains(string(r.Body), `"language":"en"`) {
		t.Errorf("another account's language: %s", r.Body)
	}

	// Invitations: in the invited account's language; for an address without an account, in
	// the inviter's.
	invite := func(tn string, ws int64, email string) {
		t.Helper()
		r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", ws), tn, map[string]any{"email": email, "role": "member"})
		if r.Status != http.StatusCreated {
			t.Fatalf("invite %s: %d %s", email, r.Status, r.Body)
		}
	}
	invite(li.AccessToken, li.Workspace.ID, "newcomer@example.com")
	if m := s.mailbox.WaitSubject(t, "newcomer@example.com", "邀请您加入 Shortlink 上的"); !strings.Contains(m.Body, "newcomer@example.com") {
		t.Errorf("an invitation from a Chinese reader to a new address:\n%s", m.Body)
	}
	invite(li.AccessToken, li.Workspace.ID, "owner@example.com")
	s.mailbox.WaitSubject(t, "owner@example.com", "You are invited to")
}
