package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBadInput sends every kind of malformed input to every write and query of the API. Each
// must be refused with a 4xx in the error shape, never a 5xx, and must change nothing.
func TestBadInput(t *testing.T) {
	s := newDeployment(t).start(t, "MAX_BODY_BYTES", "65536", "IMPORT_MAX_BYTES", "4096", "IMPORT_MAX_ROWS", "100")
	tn := s.signup("bad@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/kept", "title": "kept"})
	one := fmt.Sprintf("%s/links/%d", ws, l.ID)
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	long := func(n int) string { return strings.Repeat("a", n) }

	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		// Bodies.
		{"no body", "POST", ws + "/links", nil, 400, "invalid"},
		{"not JSON", "POST", ws + "/links", "{url:", 400, "invalid"},
		{"array body", "POST", ws + "/links", "[]", 400, "invalid"},
		{"two objects", "POST", ws + "/links", `{"url":"https://a.example"}{}`, 400, "invalid"},
		{"unknown field", "POST", ws + "/links", map[string]any{"url": "https://a.example", "target": "x"}, 400, "invalid"},
		{"too large", "POST", ws + "/links", `{"url":"https://a.example/` + long(70000) + `"}`, 413, "too_large"},
		// url.
		{"url missing", "POST", ws + "/links", map[string]any{"title": "x"}, 400, "invalid"},
		{"url number", "POST", ws + "/links", map[string]any{"url": 5}, 400, "invalid"},
		{"url javascript", "POST", ws + "/links", map[string]any{"url": "javascript:alert(1)"}, 400, "invalid"},
		{"url data", "POST", ws + "/links", map[string]any{"url": "data:text/html,hi"}, 400, "invalid"},
		{"url ftp", "POST", ws + "/links", map[string]any{"url": "ftp://example.com/"}, 400, "invalid"},
		{"url relative", "POST", ws + "/links", map[string]any{"url": "/just/a/path"}, 400, "invalid"},
		{"url no host", "POST", ws + "/links", map[string]any{"url": "https:///x"}, 400, "invalid"},
		{"url credentials", "POST", ws + "/links", map[string]any{"url": "https://user:pw@example.com/"}, 400, "invalid"},
		{"url spaces", "POST", ws + "/links", map[string]any{"url": "https://exa mple.com/"}, 400, "invalid"},
		{"url NUL", "POST", ws + "/links", map[string]any{"url": "https://example.com/\u0000"}, 400, "invalid"},
		{"url bad host", "POST", ws + "/links", map[string]any{"url": "https://exa_mple..com/"}, 400, "invalid"},
		{"url own domain", "POST", ws + "/links", map[string]any{"url": "http://" + shortHost + "/abc"}, 400, "invalid"},
		{"url too long", "POST", ws + "/links", map[string]any{"url": "https://example.com/" + long(2100)}, 400, "invalid"},
		// Other fields.
		{"alias bad chars", "POST", ws + "/links", map[string]any{"url": "https://a.example", "alias": "a/b"}, 400, "invalid"},
		{"alias NUL", "POST", ws + "/links", map[string]any{"url": "https://a.example", "alias": "a\u0000"}, 400, "invalid"},
		{"alias too long", "POST", ws + "/links", map[string]any{"url": "https://a.example", "alias": long(65)}, 400, "invalid"},
		{"alias reserved", "POST", ws + "/links", map[string]any{"url": "https://a.example", "alias": "api"}, 400, "invalid"},
		{"alias empty spaces", "POST", ws + "/links", map[string]any{"url": "https://a.example", "alias": " "}, 400, "invalid"},
		{"title too long", "POST", ws + "/links", map[string]any{"url": "https://a.example", "title": long(501)}, 400, "invalid"},
		{"title NUL", "POST", ws + "/links", map[string]any{"url": "https://a.example", "title": "a\u0000b"}, 400, "invalid"},
		{"title number", "POST", ws + "/links", map[string]any{"url": "https://a.example", "title": 1}, 400, "invalid"},
		{"redirect_status 200", "POST", ws + "/links", map[string]any{"url": "https://a.example", "redirect_status": 200}, 400, "invalid"},
		{"redirect_status text", "POST", ws + "/links", map[string]any{"url": "https://a.example", "redirect_status": "301"}, 400, "invalid"},
		{"expires_at past", "POST", ws + "/links", map[string]any{"url": "https://a.example", "expires_at": past}, 400, "invalid"},
		// Rules (docs/rules-and-plans.md#link-rules): checked before the plan is asked, on every plan.
		{"password short", "POST", ws + "/links", map[string]any{"url": "https://a.example", "password": "abc"}, 400, "invalid"},
		{"password long", "POST", ws + "/links", map[string]any{"url": "https://a.example", "password": long(129)}, 400, "invalid"},
		{"password number", "POST", ws + "/links", map[string]any{"url": "https://a.example", "password": 1234}, 400, "invalid"},
		{"max_visits zero", "POST", ws + "/links", map[string]any{"url": "https://a.example", "max_visits": 0}, 400, "invalid"},
		{"max_visits text", "POST", ws + "/links", map[string]any{"url": "https://a.example", "max_visits": "10"}, 400, "invalid"},
		{"geo both lists", "POST", ws + "/links", map[string]any{"url": "https://a.example", "geo": map[string]any{"allow": []string{"DE"}, "deny": []string{"RU"}}}, 400, "invalid"},
		{"geo bad country", "POST", ws + "/links", map[string]any{"url": "https://a.example", "geo": map[string]any{"deny": []string{"Russia"}}}, 400, "invalid"},
		{"geo unknown key", "POST", ws + "/links", map[string]any{"url": "https://a.example", "geo": map[string]any{"block": []string{"RU"}}}, 400, "invalid"},
		{"device_targets bad device", "POST", ws + "/links", map[string]any{"url": "https://a.example", "device_targets": map[string]any{"tv": "https://t.example"}}, 400, "invalid"},
		{"device_targets javascript", "POST", ws + "/links", map[string]any{"url": "https://a.example", "device_targets": map[string]any{"ios": "javascript:alert(1)"}}, 400, "invalid"},
		{"country_targets bad code", "POST", ws + "/links", map[string]any{"url": "https://a.example", "country_targets": map[string]any{"DEU": "https://d.example"}}, 400, "invalid"},
		{"variants one", "POST", ws + "/links", map[string]any{"url": "https://a.example", "variants": []any{map[string]any{"url": "https://a.example", "weight": 1}}}, 400, "invalid"},
		{"variants weight 0", "POST", ws + "/links", map[string]any{"url": "https://a.example", "variants": []any{map[string]any{"url": "https://a.example", "weight": 0}, map[string]any{"url": "https://b.example", "weight": 1}}}, 400, "invalid"},
		{"variants own domain", "POST", ws + "/links", map[string]any{"url": "https://a.example", "variants": []any{map[string]any{"url": "http://" + shortHost + "/x", "weight": 1}, map[string]any{"url": "https://b.example", "weight": 1}}}, 400, "invalid"},
		{"wechat_guide text", "POST", ws + "/links", map[string]any{"url": "https://a.example", "wechat_guide": "yes"}, 400, "invalid"},
		{"form no fields", "POST", ws + "/links", map[string]any{"url": "https://a.example", "form": map[string]any{"fields": []any{}}}, 400, "invalid"},
		{"form bad type", "POST", ws + "/links", map[string]any{"url": "https://a.example", "form": map[string]any{"fields": []any{map[string]any{"name": "a", "label": "A", "type": "date"}}}}, 400, "invalid"},
		{"form bad name", "POST", ws + "/links", map[string]any{"url": "https://a.example", "form": map[string]any{"fields": []any{map[string]any{"name": "A b", "label": "A", "type": "text"}}}}, 400, "invalid"},
		{"form name twice", "POST", ws + "/links", map[string]any{"url": "https://a.example", "form": map[string]any{"fields": []any{map[string]any{"name": "a", "label": "A", "type": "text"}, map[string]any{"name": "a", "label": "B", "type": "text"}}}}, 400, "invalid"},
		{"form choice without options", "POST", ws + "/links", map[string]any{"url": "https://a.example", "form": map[string]any{"fields": []any{map[string]any{"name": "a", "label": "A", "type": "choice"}}}}, 400, "invalid"},
		{"form label NUL", "POST", ws + "/links", map[string]any{"url": "https://a.example", "form": map[string]any{"fields": []any{map[string]any{"name": "a", "label": "A\u0000", "type": "text"}}}}, 400, "invalid"},
		{"og no title", "POST", ws + "/links", map[string]any{"url": "https://a.example", "og": map[string]any{"description": "d"}}, 400, "invalid"},
		{"og bad image", "POST", ws + "/links", map[string]any{"url": "https://a.example", "og": map[string]any{"title": "t", "image": "data:image/png;base64,AA"}}, 400, "invalid"},
		{"patch rules bad", "PATCH", one, map[string]any{"max_visits": -3}, 400, "invalid"},
		{"expires_at garbage", "POST", ws + "/links", map[string]any{"url": "https://a.example", "expires_at": "tomorrow"}, 400, "invalid"},
		{"domain unknown", "POST", ws + "/links", map[string]any{"url": "https://a.example", "domain": "other.example"}, 400, "invalid"},
		{"dedupe text", "POST", ws + "/links", map[string]any{"url": "https://a.example", "dedupe": "yes"}, 400, "invalid"},
		// Batch.
		{"batch empty", "POST", ws + "/links/batch", map[string]any{"links": []any{}}, 400, "invalid"},
		{"batch missing", "POST", ws + "/links/batch", map[string]any{}, 400, "invalid"},
		{"batch not array", "POST", ws + "/links/batch", map[string]any{"links": "x"}, 400, "invalid"},
		{"batch row not object", "POST", ws + "/links/batch", map[string]any{"links": []any{5}}, 400, "invalid"},
		// Update.
		{"patch empty url", "PATCH", one, map[string]any{"url": ""}, 400, "invalid"},
		{"patch bad url", "PATCH", one, map[string]any{"url": "javascript:x"}, 400, "invalid"},
		{"patch null url", "PATCH", one, map[string]any{"url": nil}, 400, "invalid"},
		{"patch status banned", "PATCH", one, map[string]any{"status": "banned"}, 400, "invalid"},
		{"patch status other", "PATCH", one, map[string]any{"status": "paused"}, 400, "invalid"},
		{"patch redirect_status", "PATCH", one, map[string]any{"redirect_status": 303}, 400, "invalid"},
		{"patch expires past", "PATCH", one, map[string]any{"expires_at": past}, 400, "invalid"},
		{"patch title long", "PATCH", one, map[string]any{"title": long(501)}, 400, "invalid"},
		{"patch unknown", "PATCH", one, map[string]any{"code": "new"}, 400, "invalid"},
		// Path and query parameters.
		// A path that names no link is not found, whatever its shape.
		{"link id text", "GET", ws + "/links/abc", nil, 404, "not_found"},
		{"link id zero", "GET", ws + "/links/0", nil, 404, "not_found"},
		{"link id negative", "DELETE", ws + "/links/-4", nil, 404, "not_found"},
		{"link id huge", "PATCH", ws + "/links/99999999999999999999", map[string]any{"title": "x"}, 404, "not_found"},
		{"limit zero", "GET", ws + "/links?limit=0", nil, 400, "invalid"},
		{"limit big", "GET", ws + "/links?limit=101", nil, 400, "invalid"},
		{"limit text", "GET", ws + "/links?limit=ten", nil, 400, "invalid"},
		{"cursor garbage", "GET", ws + "/links?cursor=!!", nil, 400, "invalid"},
		{"cursor negative", "GET", ws + "/links?cursor=-5", nil, 400, "invalid"},
		{"q too long", "GET", ws + "/links?q=" + long(201), nil, 400, "invalid"},
		{"q NUL", "GET", ws + "/links?q=a%00b", nil, 400, "invalid"},
		{"responses limit zero", "GET", one + "/responses?limit=0", nil, 400, "invalid"},
		{"responses limit big", "GET", one + "/responses?limit=101", nil, 400, "invalid"},
		{"responses limit text", "GET", one + "/responses?limit=ten", nil, 400, "invalid"},
		{"responses cursor garbage", "GET", one + "/responses?cursor=!!", nil, 400, "invalid"},
		{"responses cursor negative", "GET", one + "/responses?cursor=-5", nil, 400, "invalid"},
		{"responses link id text", "GET", ws + "/links/abc/responses", nil, 404, "not_found"},
		{"responses csv link id zero", "GET", ws + "/links/0/responses.csv", nil, 404, "not_found"},
		// Statistics: ranges and zones are read before the plan is asked.
		{"stats tz unknown", "GET", one + "/stats?tz=Mars/Olympus", nil, 400, "invalid"},
		{"stats tz Local", "GET", one + "/stats?tz=Local", nil, 400, "invalid"},
		{"stats tz path", "GET", one + "/stats?tz=../../etc/passwd", nil, 400, "invalid"},
		{"stats tz NUL", "GET", one + "/stats?tz=UTC%00", nil, 400, "invalid"},
		{"stats tz long", "GET", one + "/stats?tz=" + long(300), nil, 400, "invalid"},
		{"stats from text", "GET", one + "/stats?from=yesterday", nil, 400, "invalid"},
		{"stats to no such day", "GET", one + "/stats?to=2025-02-30", nil, 400, "invalid"},
		{"stats from after to", "GET", one + "/stats?from=2025-03-10&to=2025-03-09", nil, 400, "invalid"},
		{"stats from equals to", "GET", one + "/stats?from=2025-03-10T10:00:00Z&to=2025-03-10T10:00:00Z", nil, 400, "invalid"},
		{"stats range too long", "GET", one + "/stats?from=2024-01-01&to=2025-02-05", nil, 400, "invalid"},
		{"stats year 1900", "GET", one + "/stats?from=1900-01-01&to=1900-01-02", nil, 400, "invalid"},
		{"stats year 9999", "GET", one + "/stats?from=9999-12-30&to=9999-12-31", nil, 400, "invalid"},
		{"stats from without to far back", "GET", one + "/stats?from=2020-01-01", nil, 400, "invalid"},
		{"stats link id text", "GET", ws + "/links/abc/stats", nil, 404, "not_found"},
		{"stats link id zero", "GET", ws + "/links/0/stats", nil, 404, "not_found"},
		{"stats link missing", "GET", ws + "/links/999999/stats", nil, 404, "not_found"},
		{"dashboard tz unknown", "GET", ws + "/stats?tz=Nowhere/City", nil, 400, "invalid"},
		{"visits export from text", "GET", ws + "/visits/export.csv?from=soon", nil, 400, "invalid"},
		{"visits export tz unknown", "GET", ws + "/visits/export.csv?tz=Mars/Olympus", nil, 400, "invalid"},
		{"audit cursor garbage", "GET", ws + "/audit?cursor=!!", nil, 400, "invalid"},
		{"audit cursor negative", "GET", ws + "/audit?cursor=-5", nil, 400, "invalid"},
		{"audit limit text", "GET", ws + "/audit?limit=many", nil, 400, "invalid"},
		{"audit on a free plan", "GET", ws + "/audit", nil, 403, "plan_required"},
		{"audit csv on a free plan", "GET", ws + "/audit.csv", nil, 403, "plan_required"},
		{"audit workspace text", "GET", "/api/v1/workspaces/abc/audit", nil, 404, "not_found"},
		{"webhooks on a free plan", "GET", ws + "/webhooks", nil, 403, "plan_required"},
		{"webhook create on a free plan", "POST", ws + "/webhooks", map[string]any{"url": "https://93.184.216.34/in", "events": []string{"link.created"}}, 403, "plan_required"},
		{"webhook not JSON", "POST", ws + "/webhooks", "{url:", 400, "invalid"},
		{"webhook id text", "GET", ws + "/webhooks/abc", nil, 404, "not_found"},
		{"visits export range too long", "GET", ws + "/visits/export.csv?from=2020-01-01&to=2025-01-01", nil, 400, "invalid"},
		{"lookup nothing", "GET", ws + "/links/lookup", nil, 400, "invalid"},
		{"lookup bad short_url", "GET", ws + "/links/lookup?short_url=%3Anot-a-url", nil, 400, "invalid"},
		{"lookup NUL code", "GET", ws + "/links/lookup?code=a%00", nil, 404, "not_found"},
		{"workspace text", "GET", "/api/v1/workspaces/abc/links", nil, 404, "not_found"},
		// Accounts.
		{"signup bad email", "POST", "/api/v1/auth/signup", map[string]any{"email": "not-an-email", "password": "long enough pw"}, 400, "invalid"},
		{"signup NUL email", "POST", "/api/v1/auth/signup", map[string]any{"email": "a\u0000@example.com", "password": "long enough pw"}, 400, "invalid"},
		{"signup short password", "POST", "/api/v1/auth/signup", map[string]any{"email": "x@example.com", "password": "short"}, 400, "invalid"},
		{"login missing", "POST", "/api/v1/auth/login", map[string]any{}, 400, "invalid"},
		{"login token_pair text", "POST", "/api/v1/auth/login", map[string]any{"email": "bad@example.com", "password": "correct horse battery", "token_pair": "yes"}, 400, "invalid"},
		// Two-factor sign-in.
		{"2fa confirm no code", "POST", "/api/v1/me/2fa/confirm", map[string]any{}, 400, "invalid"},
		{"2fa confirm code number", "POST", "/api/v1/me/2fa/confirm", map[string]any{"code": 123456}, 400, "invalid"},
		{"2fa confirm unknown field", "POST", "/api/v1/me/2fa/confirm", map[string]any{"totp": "123456"}, 400, "invalid"},
		{"2fa confirm not pending", "POST", "/api/v1/me/2fa/confirm", map[string]any{"code": "123456"}, 409, "conflict"},
		{"2fa disable no code", "DELETE", "/api/v1/me/2fa", map[string]any{}, 400, "invalid"},
		{"2fa disable code array", "DELETE", "/api/v1/me/2fa", map[string]any{"code": []string{"1"}}, 400, "invalid"},
		{"2fa disable when off", "DELETE", "/api/v1/me/2fa", map[string]any{"code": "123456"}, 409, "conflict"},
		{"login 2fa missing", "POST", "/api/v1/auth/login/2fa", map[string]any{}, 400, "invalid"},
		{"login 2fa no token", "POST", "/api/v1/auth/login/2fa", map[string]any{"code": "123456"}, 400, "invalid"},
		{"login 2fa token number", "POST", "/api/v1/auth/login/2fa", map[string]any{"mfa_token": 5, "code": "123456"}, 400, "invalid"},
		{"login 2fa unknown token", "POST", "/api/v1/auth/login/2fa", map[string]any{"mfa_token": "mfa_nothing", "code": "123456"}, 401, "unauthorized"},
		{"login 2fa NUL token", "POST", "/api/v1/auth/login/2fa", map[string]any{"mfa_token": "a\u0000", "recovery_code": "x"}, 401, "unauthorized"},
		{"signup token_pair number", "POST", "/api/v1/auth/signup", map[string]any{"email": "pair@example.com", "password": "long enough pw", "token_pair": 1}, 400, "invalid"},
		{"workspace name empty", "POST", "/api/v1/workspaces", map[string]any{"name": ""}, 400, "invalid"},
		{"workspace name NUL", "PATCH", ws, map[string]any{"name": "a\u0000"}, 400, "invalid"},
		{"workspace require_2fa string", "PATCH", ws, map[string]any{"require_2fa": "yes"}, 400, "invalid"},
		{"workspace require_2fa number", "PATCH", ws, map[string]any{"require_2fa": 1}, 400, "invalid"},
		{"workspace require_2fa and empty name", "PATCH", ws, map[string]any{"name": "", "require_2fa": false}, 400, "invalid"},
		{"workspace patch empty", "PATCH", ws, map[string]any{}, 400, "invalid"},
		{"workspace patch unknown field", "PATCH", ws, map[string]any{"require_mfa": true}, 400, "invalid"},
		{"workspace require_2fa on free plan", "PATCH", ws, map[string]any{"require_2fa": true}, 403, "plan_required"},
		{"invite bad role", "POST", ws + "/invitations", map[string]any{"email": "bad@example.com", "role": "king"}, 400, "invalid"},
		{"invite owner", "POST", ws + "/invitations", map[string]any{"email": "bad@example.com", "role": "owner"}, 400, "invalid"},
		{"invite bad email", "POST", ws + "/invitations", map[string]any{"email": "nope"}, 400, "invalid"},
		{"invite no email", "POST", ws + "/invitations", map[string]any{"role": "member"}, 400, "invalid"},
		{"invite long email", "POST", ws + "/invitations", map[string]any{"email": long(250) + "@example.com"}, 400, "invalid"},
		{"invite NUL email", "POST", ws + "/invitations", map[string]any{"email": "a\u0000@example.com"}, 400, "invalid"},
		{"invite named email", "POST", ws + "/invitations", map[string]any{"email": "Eve <eve@example.com>"}, 400, "invalid"},
		{"invite email list", "POST", ws + "/invitations", map[string]any{"email": "a@example.com, b@example.com"}, 400, "invalid"},
		{"invite email number", "POST", ws + "/invitations", map[string]any{"email": 5}, 400, "invalid"},
		{"api keys revoked text", "GET", ws + "/api-keys?revoked=maybe", nil, 400, "invalid"},
		{"api key no scopes", "POST", ws + "/api-keys", map[string]any{"name": "k", "scopes": []string{}}, 400, "invalid"},
		{"api key bad scope", "POST", ws + "/api-keys", map[string]any{"name": "k", "scopes": []string{"root"}}, 400, "invalid"},
		{"api key no name", "POST", ws + "/api-keys", map[string]any{"scopes": []string{"links:read"}}, 400, "invalid"},
		{"verify no token", "POST", "/api/v1/auth/verify-email", map[string]any{}, 400, "invalid"},
		{"verify token number", "POST", "/api/v1/auth/verify-email", map[string]any{"token": 5}, 400, "invalid"},
		{"verify token garbage", "POST", "/api/v1/auth/verify-email", map[string]any{"token": "a\u0000b"}, 400, "invalid"},
		{"verify token unknown", "POST", "/api/v1/auth/verify-email", map[string]any{"token": long(43)}, 400, "invalid"},
		{"verify token huge", "POST", "/api/v1/auth/verify-email", map[string]any{"token": long(5000)}, 400, "invalid"},
		{"reset no email", "POST", "/api/v1/auth/password-reset", map[string]any{}, 400, "invalid"},
		{"reset bad email", "POST", "/api/v1/auth/password-reset", map[string]any{"email": "not-an-email"}, 400, "invalid"},
		{"reset unknown field", "POST", "/api/v1/auth/password-reset", map[string]any{"email": "bad@example.com", "user": 1}, 400, "invalid"},
		{"reset confirm no token", "POST", "/api/v1/auth/password-reset/confirm", map[string]any{"password": "long enough pw"}, 400, "invalid"},
		{"reset confirm short password", "POST", "/api/v1/auth/password-reset/confirm", map[string]any{"token": long(43), "password": "short"}, 400, "invalid"},
		{"reset confirm unknown token", "POST", "/api/v1/auth/password-reset/confirm", map[string]any{"token": long(43), "password": "long enough pw"}, 400, "invalid"},
		{"member bad role", "PATCH", fmt.Sprintf("%s/members/%d", ws, tn.UserID), map[string]any{"role": "king"}, 400, "invalid"},
		// Appeals: the message is checked before the link's state.
		{"appeal no body", "POST", one + "/appeal", nil, 400, "invalid"},
		{"appeal no message", "POST", one + "/appeal", map[string]any{}, 400, "invalid"},
		{"appeal empty message", "POST", one + "/appeal", map[string]any{"message": "  "}, 400, "invalid"},
		{"appeal long message", "POST", one + "/appeal", map[string]any{"message": long(2001)}, 400, "invalid"},
		{"appeal NUL message", "POST", one + "/appeal", map[string]any{"message": "a\u0000b"}, 400, "invalid"},
		{"appeal message number", "POST", one + "/appeal", map[string]any{"message": 5}, 400, "invalid"},
		{"appeal unknown field", "POST", one + "/appeal", map[string]any{"message": "x", "urgent": true}, 400, "invalid"},
		{"appeal link id text", "POST", ws + "/links/abc/appeal", map[string]any{"message": "x"}, 404, "not_found"},
		{"appeal link missing", "POST", ws + "/links/999999/appeal", map[string]any{"message": "x"}, 404, "not_found"},
		// Link health.
		{"links health unknown", "GET", ws + "/links?health=sick", nil, 400, "invalid"},
		{"links health unknown state", "GET", ws + "/links?health=unknown", nil, 400, "invalid"},
		{"links health NUL", "GET", ws + "/links?health=ok%00", nil, 400, "invalid"},
		{"check link id text", "POST", ws + "/links/abc/check", nil, 404, "not_found"},
		{"check link missing", "POST", ws + "/links/999999/check", nil, 404, "not_found"},
		{"check link id zero", "POST", ws + "/links/0/check", nil, 404, "not_found"},
		// Custom domains: the host name is checked before the plan is asked.
		{"domain no body", "POST", ws + "/domains", nil, 400, "invalid"},
		{"domain not JSON", "POST", ws + "/domains", "{hostname:", 400, "invalid"},
		{"domain no hostname", "POST", ws + "/domains", map[string]any{}, 400, "invalid"},
		{"domain hostname number", "POST", ws + "/domains", map[string]any{"hostname": 5}, 400, "invalid"},
		{"domain unknown field", "POST", ws + "/domains", map[string]any{"hostname": "go.example.com", "verified": true}, 400, "invalid"},
		{"domain IPv4", "POST", ws + "/domains", map[string]any{"hostname": "192.0.2.1"}, 400, "invalid"},
		{"domain IPv4 as a number", "POST", ws + "/domains", map[string]any{"hostname": "3232235777"}, 400, "invalid"},
		{"domain IPv6", "POST", ws + "/domains", map[string]any{"hostname": "[2001:db8::1]"}, 400, "invalid"},
		{"domain IPv6 bare", "POST", ws + "/domains", map[string]any{"hostname": "2001:db8::1"}, 400, "invalid"},
		{"domain port", "POST", ws + "/domains", map[string]any{"hostname": "go.example.com:8443"}, 400, "invalid"},
		{"domain scheme", "POST", ws + "/domains", map[string]any{"hostname": "https://go.example.com"}, 400, "invalid"},
		{"domain path", "POST", ws + "/domains", map[string]any{"hostname": "go.example.com/x"}, 400, "invalid"},
		{"domain spaces", "POST", ws + "/domains", map[string]any{"hostname": "go example.com"}, 400, "invalid"},
		{"domain NUL", "POST", ws + "/domains", map[string]any{"hostname": "go\u0000.example.com"}, 400, "invalid"},
		{"domain public suffix", "POST", ws + "/domains", map[string]any{"hostname": "co.uk"}, 400, "invalid"},
		{"domain top level", "POST", ws + "/domains", map[string]any{"hostname": "com"}, 400, "invalid"},
		{"domain localhost", "POST", ws + "/domains", map[string]any{"hostname": "localhost"}, 400, "invalid"},
		{"domain private top level", "POST", ws + "/domains", map[string]any{"hostname": "go.corp.internal"}, 400, "invalid"},
		{"domain own host", "POST", ws + "/domains", map[string]any{"hostname": shortHost}, 400, "invalid"},
		// UTM parameters and templates.
		{"link utm text", "POST", ws + "/links", map[string]any{"url": "https://a.example/", "utm": "x"}, 400, "invalid"},
		{"link utm unknown field", "POST", ws + "/links", map[string]any{"url": "https://a.example/", "utm": map[string]any{"id": "x"}}, 400, "invalid"},
		{"link utm number", "POST", ws + "/links", map[string]any{"url": "https://a.example/", "utm": map[string]any{"source": 5}}, 400, "invalid"},
		{"link utm too long", "POST", ws + "/links", map[string]any{"url": "https://a.example/", "utm": map[string]any{"source": long(201)}}, 400, "invalid"},
		{"link utm NUL", "POST", ws + "/links", map[string]any{"url": "https://a.example/", "utm": map[string]any{"medium": "a\u0000"}}, 400, "invalid"},
		{"link utm newline", "PATCH", one, map[string]any{"utm": map[string]any{"campaign": "a\nb"}}, 400, "invalid"},
		{"utm template no body", "POST", ws + "/utm-templates", nil, 400, "invalid"},
		{"utm template no name", "POST", ws + "/utm-templates", map[string]any{"utm": map[string]any{}}, 400, "invalid"},
		{"utm template long name", "POST", ws + "/utm-templates", map[string]any{"name": long(101)}, 400, "invalid"},
		{"utm template NUL name", "POST", ws + "/utm-templates", map[string]any{"name": "a\u0000"}, 400, "invalid"},
		{"utm template utm text", "POST", ws + "/utm-templates", map[string]any{"name": "n", "utm": "x"}, 400, "invalid"},
		{"utm template id text", "DELETE", ws + "/utm-templates/abc", nil, 404, "not_found"},
		{"utm template missing", "DELETE", ws + "/utm-templates/999999", nil, 404, "not_found"},
		// App links and logos.
		{"app links domain text", "PUT", ws + "/domains/abc/app-links", map[string]any{}, 404, "not_found"},
		{"app links domain missing", "PUT", ws + "/domains/999999/app-links", map[string]any{"assetlinks": []any{}}, 404, "not_found"},
		{"app links not JSON", "PUT", ws + "/domains/999999/app-links", "{", 400, "invalid"},
		{"app links unknown field", "PUT", ws + "/domains/999999/app-links", map[string]any{"aasa": map[string]any{}}, 400, "invalid"},
		{"logo not an image", "PUT", ws + "/logo", "not a png", 400, "invalid"},
		// QR styling.
		{"qr fg short", "GET", one + "/qr?fg=fff", nil, 400, "invalid"},
		{"qr bg not hex", "GET", one + "/qr?bg=zzzzzz", nil, 400, "invalid"},
		{"qr low contrast", "GET", one + "/qr?fg=777777&bg=888888", nil, 400, "invalid"},
		{"qr inverted", "GET", one + "/qr?fg=ffffff&bg=000000", nil, 400, "invalid"},
		{"qr bad ec", "GET", one + "/qr?ec=X", nil, 400, "invalid"},
		{"qr bad logo", "GET", one + "/qr?logo=yes", nil, 400, "invalid"},
		{"qr logo without one", "GET", one + "/qr?logo=1", nil, 404, "not_found"},
		{"domain underscore", "POST", ws + "/domains", map[string]any{"hostname": "_x.example.com"}, 400, "invalid"},
		{"domain empty label", "POST", ws + "/domains", map[string]any{"hostname": "go..example.com"}, 400, "invalid"},
		{"domain label too long", "POST", ws + "/domains", map[string]any{"hostname": long(64) + ".example.com"}, 400, "invalid"},
		{"domain too long", "POST", ws + "/domains", map[string]any{"hostname": strings.Repeat("abcdefghi.", 30) + "example.com"}, 400, "invalid"},
		{"domain id text", "GET", ws + "/domains/abc", nil, 404, "not_found"},
		{"domain id zero", "DELETE", ws + "/domains/0", nil, 404, "not_found"},
		{"domain missing", "GET", ws + "/domains/999999", nil, 404, "not_found"},
		{"domain verify missing", "POST", ws + "/domains/999999/verify", nil, 404, "not_found"},
		{"domain patch root_url number", "PATCH", ws + "/domains/999999", map[string]any{"root_url": 5}, 400, "invalid"},
		{"domain patch unknown field", "PATCH", ws + "/domains/999999", map[string]any{"hostname": "x.example.com"}, 400, "invalid"},
		{"domain patch root_url javascript", "PATCH", ws + "/domains/999999", map[string]any{"root_url": "javascript:alert(1)"}, 400, "invalid"},
		{"domain patch missing", "PATCH", ws + "/domains/999999", map[string]any{"root_url": "https://a.example/"}, 404, "not_found"},
		{"link on an unknown domain", "POST", ws + "/links", map[string]any{"url": "https://a.example", "domain": "go.example.com"}, 400, "invalid"},
		{"link on a bad domain", "POST", ws + "/links", map[string]any{"url": "https://a.example", "domain": "not a host"}, 400, "invalid"},
		{"link domain number", "POST", ws + "/links", map[string]any{"url": "https://a.example", "domain": 5}, 400, "invalid"},
		// Tags and the bulk edit.
		{"tag no body", "POST", ws + "/tags", nil, 400, "invalid"},
		{"tag no name", "POST", ws + "/tags", map[string]any{"color": "#ff0000"}, 400, "invalid"},
		{"tag name blank", "POST", ws + "/tags", map[string]any{"name": "   "}, 400, "invalid"},
		{"tag name number", "POST", ws + "/tags", map[string]any{"name": 5}, 400, "invalid"},
		{"tag name too long", "POST", ws + "/tags", map[string]any{"name": long(51)}, 400, "invalid"},
		{"tag name semicolon", "POST", ws + "/tags", map[string]any{"name": "a;b"}, 400, "invalid"},
		{"tag name comma", "POST", ws + "/tags", map[string]any{"name": "a,b"}, 400, "invalid"},
		{"tag name NUL", "POST", ws + "/tags", map[string]any{"name": "a\u0000"}, 400, "invalid"},
		{"tag name control", "POST", ws + "/tags", map[string]any{"name": "a\nb"}, 400, "invalid"},
		{"tag color word", "POST", ws + "/tags", map[string]any{"name": "t", "color": "red"}, 400, "invalid"},
		{"tag color short", "POST", ws + "/tags", map[string]any{"name": "t", "color": "#fff"}, 400, "invalid"},
		{"tag color no hash", "POST", ws + "/tags", map[string]any{"name": "t", "color": "ff0000"}, 400, "invalid"},
		{"tag color not hex", "POST", ws + "/tags", map[string]any{"name": "t", "color": "#gg0000"}, 400, "invalid"},
		{"tag unknown field", "POST", ws + "/tags", map[string]any{"name": "t", "links": 3}, 400, "invalid"},
		{"tag id text", "PATCH", ws + "/tags/abc", map[string]any{"name": "t"}, 404, "not_found"},
		{"tag id zero", "DELETE", ws + "/tags/0", nil, 404, "not_found"},
		{"tag missing", "DELETE", ws + "/tags/999999", nil, 404, "not_found"},
		{"tag patch missing", "PATCH", ws + "/tags/999999", map[string]any{"name": "t"}, 404, "not_found"},
		{"tag patch bad color", "PATCH", ws + "/tags/999999", map[string]any{"color": "blue"}, 400, "invalid"},
		{"tag patch empty color", "PATCH", ws + "/tags/999999", map[string]any{"color": ""}, 400, "invalid"},
		{"tag patch bad name", "PATCH", ws + "/tags/999999", map[string]any{"name": ""}, 400, "invalid"},
		{"link tags not array", "POST", ws + "/links", map[string]any{"url": "https://a.example", "tags": "a"}, 400, "invalid"},
		{"link tag number", "POST", ws + "/links", map[string]any{"url": "https://a.example", "tags": []any{1}}, 400, "invalid"},
		{"link tag blank", "POST", ws + "/links", map[string]any{"url": "https://a.example", "tags": []any{" "}}, 400, "invalid"},
		{"link tag semicolon", "POST", ws + "/links", map[string]any{"url": "https://a.example", "tags": []any{"a;b"}}, 400, "invalid"},
		{"link too many tags", "POST", ws + "/links", map[string]any{"url": "https://a.example", "tags": manyTags(21)}, 400, "invalid"},
		{"link patch tag too long", "PATCH", one, map[string]any{"tags": []any{long(51)}}, 400, "invalid"},
		{"link patch tags not array", "PATCH", one, map[string]any{"tags": 3}, 400, "invalid"},
		{"bulk no body", "PATCH", ws + "/links", nil, 400, "invalid"},
		{"bulk no ids", "PATCH", ws + "/links", map[string]any{"set": map[string]any{"status": "disabled"}}, 400, "invalid"},
		{"bulk empty ids", "PATCH", ws + "/links", map[string]any{"ids": []any{}, "set": map[string]any{"status": "disabled"}}, 400, "invalid"},
		{"bulk too many ids", "PATCH", ws + "/links", map[string]any{"ids": manyIDs(1001), "set": map[string]any{"status": "disabled"}}, 400, "invalid"},
		{"bulk ids text", "PATCH", ws + "/links", map[string]any{"ids": []any{"1"}, "set": map[string]any{"status": "disabled"}}, 400, "invalid"},
		{"bulk nothing set", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{}}, 400, "invalid"},
		{"bulk no set", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}}, 400, "invalid"},
		{"bulk status banned", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"status": "banned"}}, 400, "invalid"},
		{"bulk status number", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"status": 1}}, 400, "invalid"},
		{"bulk expires past", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"expires_at": past}}, 400, "invalid"},
		{"bulk expires text", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"expires_at": "soon"}}, 400, "invalid"},
		{"bulk bad tag", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"tags_add": []any{"a;b"}}}, 400, "invalid"},
		{"bulk tag added and removed", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"tags_add": []any{"x"}, "tags_remove": []any{"X"}}}, 400, "invalid"},
		{"bulk unknown set field", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"title": "x"}}, 400, "invalid"},
		{"bulk unknown field", "PATCH", ws + "/links", map[string]any{"ids": []any{l.ID}, "set": map[string]any{"status": "disabled"}, "all": true}, 400, "invalid"},
		// Billing is off here: its routes refuse whatever they are sent (TestBillingBadInput
		// sends the same with billing on).
		{"checkout billing off", "POST", ws + "/billing/checkout", map[string]any{"plan": "personal", "interval": "month"}, 409, "conflict"},
		{"checkout not JSON billing off", "POST", ws + "/billing/checkout", "{plan:", 409, "conflict"},
		{"portal billing off", "POST", ws + "/billing/portal", nil, 409, "conflict"},
		{"billing billing off", "GET", ws + "/billing", nil, 409, "conflict"},
		{"webhook billing off", "POST", "/api/v1/billing/webhook", `{"id":"evt_1"}`, 409, "conflict"},
		// Single sign-on: the settings are checked before the plan is asked (this workspace is
		// free), and the sign-in's own routes.
		{"sso no body", "PUT", ws + "/sso", nil, 400, "invalid"},
		{"sso not JSON", "PUT", ws + "/sso", "{issuer:", 400, "invalid"},
		{"sso unknown field", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_id": "a", "client_secret": "b", "email_domain": "example.com", "verified": true}, 400, "invalid"},
		{"sso no issuer", "PUT", ws + "/sso", map[string]any{"client_id": "a", "client_secret": "b", "email_domain": "example.com"}, 400, "invalid"},
		{"sso issuer http", "PUT", ws + "/sso", map[string]any{"issuer": "http://idp.example.com", "client_id": "a", "client_secret": "b", "email_domain": "example.com"}, 400, "invalid"},
		{"sso issuer loopback", "PUT", ws + "/sso", map[string]any{"issuer": "http://127.0.0.1:9000", "client_id": "a", "client_secret": "b", "email_domain": "example.com"}, 400, "invalid"},
		{"sso issuer query", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com/?a=1", "client_id": "a", "client_secret": "b", "email_domain": "example.com"}, 400, "invalid"},
		{"sso issuer number", "PUT", ws + "/sso", map[string]any{"issuer": 5, "client_id": "a", "client_secret": "b", "email_domain": "example.com"}, 400, "invalid"},
		{"sso no client id", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_secret": "b", "email_domain": "example.com"}, 400, "invalid"},
		{"sso client id too long", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_id": long(256), "client_secret": "b", "email_domain": "example.com"}, 400, "invalid"},
		{"sso no secret", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_id": "a", "email_domain": "example.com"}, 400, "invalid"},
		{"sso no domain", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_id": "a", "client_secret": "b"}, 400, "invalid"},
		{"sso domain IP", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_id": "a", "client_secret": "b", "email_domain": "192.0.2.1"}, 400, "invalid"},
		{"sso domain address", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_id": "a", "client_secret": "b", "email_domain": "a@example.com"}, 400, "invalid"},
		{"sso enforce text", "PUT", ws + "/sso", map[string]any{"issuer": "https://idp.example.com", "client_id": "a", "client_secret": "b", "email_domain": "example.com", "enforce": "yes"}, 400, "invalid"},
		{"sso get none", "GET", ws + "/sso", nil, 404, "not_found"},
		{"sso verify none", "POST", ws + "/sso/verify", nil, 404, "not_found"},
		{"sso delete none", "DELETE", ws + "/sso", nil, 404, "not_found"},
		{"sso start no email", "GET", "/api/v1/auth/sso/start", nil, 400, "invalid"},
		{"sso start bad email", "GET", "/api/v1/auth/sso/start?email=nope", nil, 400, "invalid"},
		{"sso start unknown domain", "GET", "/api/v1/auth/sso/start?email=a@example.com", nil, 404, "not_found"},
		{"sso callback nothing", "GET", "/api/v1/auth/sso/callback", nil, 401, "unauthorized"},
		{"sso callback made-up state", "GET", "/api/v1/auth/sso/callback?state=abc&code=def", nil, 401, "unauthorized"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			token := tn.Token
			if strings.HasPrefix(c.path, "/api/v1/auth/") {
				token = ""
			}
			r := s.do(c.method, c.path, token, c.body)
			if r.Status != c.status {
				t.Fatalf("%s %s: %d %s, want %d", c.method, c.path, r.Status, r.Body, c.status)
			}
			if code := r.errorCode(t); code != c.code {
				t.Fatalf("%s %s: code %s, want %s", c.method, c.path, code, c.code)
			}
		})
	}

	// The moderators' and operators' routes, as the operator (a moderator too).
	op := s.operatorToken()
	decision := fmt.Sprintf("/api/v1/moderation/links/%d/decision", l.ID)
	modCases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"decision no body", "POST", decision, nil, 400, "invalid"},
		{"decision not JSON", "POST", decision, `{"action":`, 400, "invalid"},
		{"decision array", "POST", decision, "[]", 400, "invalid"},
		{"decision no action", "POST", decision, map[string]any{"note": "x"}, 400, "invalid"},
		{"decision bad action", "POST", decision, map[string]any{"action": "delete"}, 400, "invalid"},
		{"decision action case", "POST", decision, map[string]any{"action": "BAN"}, 400, "invalid"},
		{"decision action number", "POST", decision, map[string]any{"action": 1}, 400, "invalid"},
		{"decision unknown field", "POST", decision, map[string]any{"action": "ban", "state": "banned"}, 400, "invalid"},
		{"decision long note", "POST", decision, map[string]any{"action": "ban", "note": long(2001)}, 400, "invalid"},
		{"decision NUL note", "POST", decision, map[string]any{"action": "ban", "note": "a\u0000"}, 400, "invalid"},
		{"decision link id text", "POST", "/api/v1/moderation/links/abc/decision", map[string]any{"action": "ban"}, 404, "not_found"},
		{"decision link missing", "POST", "/api/v1/moderation/links/999999/decision", map[string]any{"action": "ban", "reason": "spam"}, 404, "not_found"},
		{"decision reason unknown", "POST", decision, map[string]any{"action": "ban", "reason": "ugly"}, 400, "invalid"},
		{"decision reason number", "POST", decision, map[string]any{"action": "ban", "reason": 3}, 400, "invalid"},
		{"decision other no words", "POST", decision, map[string]any{"action": "ban", "reason": "other"}, 400, "invalid"},
		{"decision long words", "POST", decision, map[string]any{"action": "ban", "reason": "spam", "reason_text": long(501)}, 400, "invalid"},
		{"domain ban no body", "POST", "/api/v1/moderation/domains/example.com/ban", nil, 400, "invalid"},
		{"domain ban subdomain", "POST", "/api/v1/moderation/domains/www.example.com/ban", map[string]any{}, 400, "invalid"},
		{"domain ban public suffix", "POST", "/api/v1/moderation/domains/github.io/ban", map[string]any{}, 400, "invalid"},
		{"domain ban ip", "POST", "/api/v1/moderation/domains/10.0.0.1/ban", map[string]any{}, 400, "invalid"},
		{"domain ban unknown field", "POST", "/api/v1/moderation/domains/example.com/ban", map[string]any{"state": "banned"}, 400, "invalid"},
		{"domain ban long note", "POST", "/api/v1/moderation/domains/example.com/ban", map[string]any{"note": long(2001)}, 400, "invalid"},
		{"domain clear NUL note", "POST", "/api/v1/moderation/domains/example.com/clear", map[string]any{"note": "a\u0000"}, 400, "invalid"},
		{"domains limit zero", "GET", "/api/v1/moderation/domains?limit=0", nil, 400, "invalid"},
		{"domains limit text", "GET", "/api/v1/moderation/domains?limit=ten", nil, 400, "invalid"},
		{"queue bad state", "GET", "/api/v1/moderation/queue?state=evil", nil, 400, "invalid"},
		{"queue limit zero", "GET", "/api/v1/moderation/queue?limit=0", nil, 400, "invalid"},
		{"queue limit big", "GET", "/api/v1/moderation/queue?limit=101", nil, 400, "invalid"},
		{"queue limit text", "GET", "/api/v1/moderation/queue?limit=ten", nil, 400, "invalid"},
		{"queue cursor garbage", "GET", "/api/v1/moderation/queue?cursor=!!", nil, 400, "invalid"},
		{"queue cursor half", "GET", "/api/v1/moderation/queue?cursor=abc", nil, 400, "invalid"},
		{"queue cursor negative", "GET", "/api/v1/moderation/queue?cursor=-1.-1", nil, 400, "invalid"},
		{"file link id zero", "GET", "/api/v1/moderation/links/0", nil, 404, "not_found"},
		{"file link id huge", "GET", "/api/v1/moderation/links/99999999999999999999", nil, 404, "not_found"},
		{"review link missing", "POST", "/api/v1/moderation/links/999999/review", nil, 404, "not_found"},
		{"screenshot review text", "GET", "/api/v1/moderation/reviews/abc/screenshots/desktop", nil, 404, "not_found"},
		{"screenshot review missing", "GET", "/api/v1/moderation/reviews/999999/screenshots/desktop", nil, 404, "not_found"},
		{"screenshot bad profile", "GET", "/api/v1/moderation/reviews/1/screenshots/tablet", nil, 404, "not_found"},
		{"audit limit zero", "GET", "/api/v1/admin/audit?limit=0", nil, 400, "invalid"},
		{"audit limit big", "GET", "/api/v1/admin/audit?limit=101", nil, 400, "invalid"},
		{"audit cursor garbage", "GET", "/api/v1/admin/audit?cursor=!!", nil, 400, "invalid"},
	}
	for _, c := range modCases {
		t.Run(c.name, func(t *testing.T) {
			r := s.do(c.method, c.path, op, c.body)
			if r.Status != c.status {
				t.Fatalf("%s %s: %d %s, want %d", c.method, c.path, r.Status, r.Body, c.status)
			}
			if code := r.errorCode(t); code != c.code {
				t.Fatalf("%s %s: code %s, want %s", c.method, c.path, code, c.code)
			}
		})
	}

	// Bodies that are not declared as JSON are refused, whatever they hold: a form on another
	// site can post text/plain with a visitor's cookies (login CSRF) but not application/json.
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
		for _, path := range []string{"/api/v1/auth/login", ws + "/links"} {
			req, _ := http.NewRequest("POST", s.base+path, strings.NewReader(`{"email":"bad@example.com","password":"correct horse battery","url":"https://a.example"}`))
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			req.Header.Set("Authorization", "Bearer "+tn.Token)
			r := s.send(req)
			if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" || r.Header.Get("Set-Cookie") != "" {
				t.Errorf("POST %s as %q: %d %s (cookies %q)", path, ct, r.Status, r.Body, r.Header.Get("Set-Cookie"))
			}
		}
	}
	req, _ := http.NewRequest("POST", s.base+"/api/v1/auth/login", strings.NewReader(`{"email":"bad@example.com","password":"correct horse battery"}`))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if r := s.send(req); r.Status != http.StatusOK {
		t.Errorf("login as application/json with a charset: %d %s", r.Status, r.Body)
	}

	// Webhooks, on a plan that has them: the URL and events are checked before anything is kept.
	hooker := s.signupOn("bad-hooks@example.com", "enterprise")
	hooks := fmt.Sprintf("/api/v1/workspaces/%d/webhooks", hooker.WorkspaceID)
	ev := []string{"link.created"}
	var kept struct{ ID int64 }
	if r := s.do("POST", hooks, hooker.Token, map[string]any{"url": "https://93.184.216.34/kept", "events": []string{"domain.verified"}}); r.Status != http.StatusCreated {
		t.Fatalf("create webhook: %d %s", r.Status, r.Body)
	} else {
		r.json(t, &kept)
	}
	keptHook := fmt.Sprintf("%s/%d", hooks, kept.ID)
	hookCases := []struct {
		name, method, path string
		body               any
		status             int
		reason             string
	}{
		{"webhook no body", "POST", hooks, nil, 400, ""},
		{"webhook unknown field", "POST", hooks, map[string]any{"url": "https://93.184.216.34/in", "events": ev, "secret": "x"}, 400, ""},
		{"webhook url missing", "POST", hooks, map[string]any{"events": ev}, 400, "webhook_url_invalid"},
		{"webhook url number", "POST", hooks, map[string]any{"url": 5, "events": ev}, 400, ""},
		{"webhook url relative", "POST", hooks, map[string]any{"url": "/in", "events": ev}, 400, "webhook_url_invalid"},
		{"webhook url ftp", "POST", hooks, map[string]any{"url": "ftp://93.184.216.34/in", "events": ev}, 400, "webhook_url_invalid"},
		{"webhook url javascript", "POST", hooks, map[string]any{"url": "javascript:alert(1)", "events": ev}, 400, "webhook_url_invalid"},
		{"webhook url credentials", "POST", hooks, map[string]any{"url": "https://u:p@93.184.216.34/in", "events": ev}, 400, "webhook_url_invalid"},
		{"webhook url too long", "POST", hooks, map[string]any{"url": "https://93.184.216.34/" + long(2100), "events": ev}, 400, "webhook_url_invalid"},
		{"webhook url http", "POST", hooks, map[string]any{"url": "http://93.184.216.34/in", "events": ev}, 400, "webhook_url_insecure"},
		{"webhook url loopback", "POST", hooks, map[string]any{"url": "https://127.0.0.1/in", "events": ev}, 400, "webhook_url_refused"},
		{"webhook url private", "POST", hooks, map[string]any{"url": "https://10.0.0.8/in", "events": ev}, 400, "webhook_url_refused"},
		{"webhook url metadata", "POST", hooks, map[string]any{"url": "https://169.254.169.254/latest", "events": ev}, 400, "webhook_url_refused"},
		{"webhook url metadata v6", "POST", hooks, map[string]any{"url": "https://[fd00:ec2::254]/", "events": ev}, 400, "webhook_url_refused"},
		{"webhook url localhost", "POST", hooks, map[string]any{"url": "https://localhost/in", "events": ev}, 400, "webhook_url_refused"},
		{"webhook events missing", "POST", hooks, map[string]any{"url": "https://93.184.216.34/in"}, 400, "webhook_events_empty"},
		{"webhook events empty", "POST", hooks, map[string]any{"url": "https://93.184.216.34/in", "events": []string{}}, 400, "webhook_events_empty"},
		{"webhook event unknown", "POST", hooks, map[string]any{"url": "https://93.184.216.34/in", "events": []string{"link.exploded"}}, 400, "webhook_event_unknown"},
		{"webhook event test", "POST", hooks, map[string]any{"url": "https://93.184.216.34/in", "events": []string{"webhook.test"}}, 400, "webhook_event_unknown"},
		{"webhook events string", "POST", hooks, map[string]any{"url": "https://93.184.216.34/in", "events": "link.created"}, 400, ""},
		{"webhook patch events empty", "PATCH", keptHook, map[string]any{"events": []string{}}, 400, "webhook_events_empty"},
		{"webhook patch url private", "PATCH", keptHook, map[string]any{"url": "https://192.168.1.1/"}, 400, "webhook_url_refused"},
		{"webhook patch enabled text", "PATCH", keptHook, map[string]any{"enabled": "yes"}, 400, ""},
		{"webhook missing", "GET", hooks + "/999999", nil, 404, "webhook_not_found"},
		{"webhook deliveries missing", "GET", hooks + "/999999/deliveries", nil, 404, "webhook_not_found"},
		{"webhook test missing", "POST", hooks + "/999999/test", nil, 404, "webhook_not_found"},
		{"webhook delete missing", "DELETE", hooks + "/999999", nil, 404, "webhook_not_found"},
		{"webhook id negative", "GET", hooks + "/-1", nil, 404, "webhook_not_found"},
	}
	for _, c := range hookCases {
		t.Run(c.name, func(t *testing.T) {
			r := s.do(c.method, c.path, hooker.Token, c.body)
			reason, _ := r.errorReasonField(t)
			if r.Status != c.status || (c.reason != "" && reason != c.reason) {
				t.Fatalf("%s %s: %d %s, want %d %s", c.method, c.path, r.Status, r.Body, c.status, c.reason)
			}
		})
	}
	var hookList struct {
		Webhooks []struct {
			URL    string
			Events []string
		}
	}
	s.do("GET", hooks, hooker.Token, nil).json(t, &hookList)
	if len(hookList.Webhooks) != 1 || hookList.Webhooks[0].URL != "https://93.184.216.34/kept" || len(hookList.Webhooks[0].Events) != 1 {
		t.Errorf("bad input made or changed webhooks: %+v", hookList.Webhooks)
	}

	// CSV imports: the file is checked as it arrives, before anything is queued.
	importer := s.signupOn("bad-imports@example.com", "enterprise")
	imports := fmt.Sprintf("/api/v1/workspaces/%d/imports", importer.WorkspaceID)
	multipartBody := func(field, content string) (string, string) {
		var b strings.Builder
		b.WriteString("--XyZ\r\nContent-Disposition: form-data; name=\"" + field + "\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\n")
		b.WriteString(content)
		b.WriteString("\r\n--XyZ--\r\n")
		return "multipart/form-data; boundary=XyZ", b.String()
	}
	manyRows := "url\n" + strings.Repeat("https://a.example/\n", 101)
	bigFile := "url\n" + strings.Repeat("https://a.example/"+long(100)+"\n", 40)
	importCases := []struct {
		name, contentType, body string
		status                  int
		code                    string
	}{
		{"import no content type", "", "url\nhttps://a.example\n", 400, "invalid"},
		{"import as JSON", "application/json", `{"url":"https://a.example"}`, 400, "invalid"},
		{"import as form", "application/x-www-form-urlencoded", "url=https://a.example", 400, "invalid"},
		{"import empty body", "text/csv", "", 400, "invalid"},
		{"import header only", "text/csv", "url,title\n", 400, "invalid"},
		{"import blank lines only", "text/csv", "\n\n,,\n", 400, "invalid"},
		{"import no url column", "text/csv", "name,title\nx,y\n", 400, "invalid"},
		{"import first cell not a url", "text/csv", "example.com/a\n", 400, "invalid"},
		{"import bad first line", "text/csv", "url,\"tit\"le\nhttps://a.example\n", 400, "invalid"},
		{"import too many rows", "text/csv", manyRows, 413, "too_large"},
		{"import too large", "text/csv", bigFile, 413, "too_large"},
		{"import far too large", "text/csv", "url\n" + strings.Repeat("https://a.example/\n", 10000), 413, "too_large"},
		{"import multipart without file", "", "", 400, "invalid"},
		{"import multipart empty file", "", "", 400, "invalid"},
		{"import multipart too large", "", "", 413, "too_large"},
		{"import multipart broken", "multipart/form-data; boundary=XyZ", "--nope\r\n", 400, "invalid"},
		{"import multipart no boundary", "multipart/form-data", "--XyZ\r\n", 400, "invalid"},
	}
	for _, c := range importCases {
		t.Run(c.name, func(t *testing.T) {
			ct, body := c.contentType, c.body
			switch c.name {
			case "import multipart without file":
				ct, body = multipartBody("upload", "url\nhttps://a.example\n")
			case "import multipart empty file":
				ct, body = multipartBody("file", "")
			case "import multipart too large":
				ct, body = multipartBody("file", bigFile)
			}
			req, _ := http.NewRequest("POST", s.base+imports, strings.NewReader(body))
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			req.Header.Set("Authorization", "Bearer "+importer.Key)
			r := s.send(req)
			if r.Status != c.status || r.errorCode(t) != c.code {
				t.Fatalf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
			}
		})
	}
	for _, c := range []struct {
		name, path string
		status     int
		code       string
	}{
		{"import id text", imports + "/abc", 404, "not_found"},
		{"import id zero", imports + "/0", 404, "not_found"},
		{"import missing", imports + "/999999", 404, "not_found"},
		{"import results missing", imports + "/999999/results.csv", 404, "not_found"},
		{"import results id text", imports + "/x/results.csv", 404, "not_found"},
		{"imports limit zero", imports + "?limit=0", 400, "invalid"},
		{"imports limit big", imports + "?limit=101", 400, "invalid"},
		{"imports cursor garbage", imports + "?cursor=!!", 400, "invalid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := s.do("GET", c.path, importer.Key, nil)
			if r.Status != c.status || r.errorCode(t) != c.code {
				t.Fatalf("GET %s: %d %s, want %d %s", c.path, r.Status, r.Body, c.status, c.code)
			}
		})
	}
	var queued struct {
		Imports []json.RawMessage `json:"imports"`
	}
	if r := s.do("GET", imports, importer.Key, nil); r.Status != http.StatusOK || json.Unmarshal(r.Body, &queued) != nil || len(queued.Imports) != 0 {
		t.Errorf("bad uploads queued imports: %s", r.Body)
	}

	// Nothing was changed or created by any of it.
	var got linkJSON
	s.do("GET", one, tn.Key, nil).json(t, &got)
	if got.URL != "https://example.com/kept" || got.Title != "kept" || got.Status != "active" || got.RedirectStatus != http.StatusFound {
		t.Errorf("the link changed: %+v", got)
	}
	if r := s.do("GET", one, tn.Key, nil); !strings.Contains(string(r.Body), `"moderation":{"state":"pending"`) || strings.Contains(string(r.Body), `"appeal"`) {
		t.Errorf("the link was moderated or appealed: %s", r.Body)
	}
	if r := s.do("GET", "/api/v1/admin/audit", op, nil); string(r.Body) != `{"items":[],"next_cursor":""}` {
		t.Errorf("bad input made decisions: %s", r.Body)
	}
	r := s.do("GET", ws+"/links?limit=100", tn.Key, nil)
	if n := strings.Count(string(r.Body), `"short_url"`); n != 1 {
		t.Errorf("%d links exist after bad input, want 1: %s", n, r.Body)
	}
}

// manyTags is n distinct tag names.
func manyTags(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("tag%d", i)
	}
	return out
}

// manyIDs is n distinct link IDs, whoever's they are.
func manyIDs(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i + 1)
	}
	return out
}
