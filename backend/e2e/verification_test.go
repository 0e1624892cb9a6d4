package e2e

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestEmailVerificationEndToEnd signs up, follows the link of the mail the real SMTP server
// received, and only then joins another workspace.
func TestEmailVerificationEndToEnd(t *testing.T) {
	s := newDeployment(t).start(t)
	owner := s.signup("owner@example.com")
	dora := s.signup("dora@example.com")
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", owner.WorkspaceID), owner.Token,
		map[string]any{"email": "dora@example.com", "role": "member"})
	var inv struct{ ID int64 }
	r.json(t, &inv)
	accept := fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID)
	if r := s.do("POST", accept, dora.Token, nil); r.Status != http.StatusForbidden || r.errorCode(t) != "email_unverified" {
		t.Fatalf("unverified accept: %d %s", r.Status, r.Body)
	}
	s.verify("dora@example.com")
	if r := s.do("GET", "/api/v1/me", dora.Token, nil); !strings.Contains(string(r.Body), `"email_verified":true`) {
		t.Errorf("me after verifying: %s", r.Body)
	}
	if r := s.do("POST", accept, dora.Token, nil); r.Status != http.StatusOK {
		t.Fatalf("verified accept: %d %s", r.Status, r.Body)
	}

	// Password reset, end to end: the link in the mail sets a new password once.
	if r := s.do("POST", "/api/v1/auth/password-reset", "", map[string]string{"email": "dora@example.com"}); r.Status != http.StatusAccepted {
		t.Fatalf("password reset: %d %s", r.Status, r.Body)
	}
	link := s.mailbox.WaitSubject(t, "dora@example.com", "Reset your Shortlink password").Link(t)
	if !strings.HasPrefix(link, "http://"+shortHost+"/app/reset-password?token=") {
		t.Fatalf("reset link %q", link)
	}
	token := link[strings.Index(link, "token=")+len("token="):]
	body := map[string]string{"token": token, "password": "a brand new password"}
	if r := s.do("POST", "/api/v1/auth/password-reset/confirm", "", body); r.Status != http.StatusNoContent {
		t.Fatalf("reset confirm: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", "/api/v1/auth/password-reset/confirm", "", body); r.Status != http.StatusBadRequest {
		t.Errorf("reset link used twice: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "dora@example.com", "password": "a brand new password"}); r.Status != http.StatusOK {
		t.Errorf("login with the new password: %d %s", r.Status, r.Body)
	}
}

// TestSlowMailServer: an SMTP server that accepts connections and never answers delays
// neither sign-ups nor password-reset requests, and fails none of them.
func TestSlowMailServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = c.Close() })
		}
	}()
	s := newDeployment(t).start(t, "SMTP_URL", "smtp://"+ln.Addr().String()+"?tls=none")
	start := time.Now()
	s.signup("slow@example.com")
	if r := s.do("POST", "/api/v1/auth/password-reset", "", map[string]string{"email": "slow@example.com"}); r.Status != http.StatusAccepted {
		t.Errorf("password reset: %d %s", r.Status, r.Body)
	}
	// Far below the 30 s a mail may take, far above what a sign-up takes on a busy machine.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("sign-up and reset took %s with a silent mail server", d)
	}
}

// TestOperatorTakeover: whoever registered OPERATOR_EMAIL first does not become operator at
// start-up; with OPERATOR_TAKEOVER the account is the operator's, and nothing its first owner
// held (sessions, access tokens, API keys) reaches it any more.
func TestOperatorTakeover(t *testing.T) {
	d := newDeployment(t)
	first := d.start(t, "OPERATOR_EMAIL", "", "OPERATOR_PASSWORD", "")
	r := first.do("POST", "/api/v1/auth/signup", "", map[string]string{"email": "boss@example.com", "password": "squatter password"})
	var signed struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		Workspace    struct{ ID int64 }
	}
	r.json(t, &signed)
	keys := fmt.Sprintf("/api/v1/workspaces/%d/api-keys", signed.Workspace.ID)
	var key struct{ Key string }
	first.do("POST", keys, signed.AccessToken, map[string]any{"name": "mine", "scopes": []string{"links:read"}}).json(t, &key)
	links := fmt.Sprintf("/api/v1/workspaces/%d/links", signed.Workspace.ID)
	first.stop()

	_, err := d.tryStart(t, "OPERATOR_EMAIL", "boss@example.com", "OPERATOR_PASSWORD", "the operator's password")
	if err == nil || !strings.Contains(err.Error(), "OPERATOR_EMAIL") || !strings.Contains(err.Error(), "OPERATOR_TAKEOVER") {
		t.Fatalf("start-up over an unverified account: %v; want a refusal naming OPERATOR_EMAIL and OPERATOR_TAKEOVER", err)
	}

	s := d.start(t, "OPERATOR_EMAIL", "boss@example.com", "OPERATOR_PASSWORD", "the operator's password", "OPERATOR_TAKEOVER", "true")
	if r := s.do("POST", "/api/v1/auth/refresh", "", map[string]string{"refresh_token": signed.RefreshToken}); r.Status != http.StatusUnauthorized {
		t.Errorf("the old refresh token: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/api/v1/admin/users", signed.AccessToken, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("the old access token at /admin: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", links, key.Key, nil); r.Status != http.StatusUnauthorized {
		t.Errorf("the old API key: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "boss@example.com", "password": "squatter password"}); r.Status != http.StatusUnauthorized {
		t.Errorf("the old password: %d %s", r.Status, r.Body)
	}
	var op struct {
		AccessToken string `json:"access_token"`
	}
	s.do("POST", "/api/v1/auth/login", "", map[string]string{"email": "boss@example.com", "password": "the operator's password"}).json(t, &op)
	if r := s.do("GET", "/api/v1/admin/users", op.AccessToken, nil); r.Status != http.StatusOK {
		t.Errorf("the operator at /admin: %d %s", r.Status, r.Body)
	}
	// A later start-up with the same settings changes nothing more.
	s.stop()
	again := d.start(t, "OPERATOR_EMAIL", "boss@example.com", "OPERATOR_PASSWORD", "the operator's password")
	if r := again.do("GET", "/api/v1/admin/users", op.AccessToken, nil); r.Status != http.StatusOK {
		t.Errorf("the operator after another start-up: %d %s", r.Status, r.Body)
	}
}
