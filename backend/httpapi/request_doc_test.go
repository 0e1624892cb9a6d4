package httpapi

import (
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestBodySchemasRefuseWhatTheDocumentForbids(t *testing.T) {
	bodies, err := loadBodySchemas(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	const links = "/api/v1/workspaces/:workspace/links"
	tags21 := `["t0","t1","t2","t3","t4","t5","t6","t7","t8","t9","t10","t11","t12","t13","t14","t15","t16","t17","t18","t19","t20"]`
	for _, tc := range []struct {
		method, route, body string
		reason, field       string // "" reason: accepted
	}{
		{"POST", links, `{"url":"https://example.com"}`, "", ""},
		{"POST", links, `{"url":"https://example.com","alias":""}`, "alias_invalid", "alias"},
		{"POST", links, `{"url":"https://example.com","redirect_status":300}`, "value_invalid", "redirect_status"},
		{"POST", links, `{"url":"https://example.com","tags":` + tags21 + `}`, "tags_too_many", "tags"},
		{"POST", links, `{"url":null}`, "null_not_allowed", "url"},
		{"POST", links, `{"url":"https://example.com","title":null}`, "null_not_allowed", "title"},
		{"POST", links, `{"url":"https://example.com","geo":null,"password":null}`, "", ""},
		{"POST", links, `{"url":"https://example.com","geo":{"allow":["CN"]}}`, "", ""},
		{"POST", links + "/batch", `{"links":[{"url":"https://example.com"},{"url":"https://example.com","alias":""}]}`, "alias_invalid", "links.alias"},
		{"PATCH", links + "/:id", `{"redirect_status":999}`, "value_invalid", "redirect_status"},
		{"PATCH", links + "/:id", `{"tags":null,"expires_at":null,"utm":null}`, "", ""},
		{"PATCH", links + "/:id", `{"url":null}`, "null_not_allowed", "url"},
		{"PATCH", links, `{"ids":[1],"set":{"tags_add":` + tags21 + `}}`, "tags_too_many", "set.tags_add"},
		{"PATCH", links, `{"ids":[1],"set":{"status":"gone"}}`, "value_invalid", "set.status"},
		{"POST", links, `{"url":"https://example.com","password":""}`, "", ""}, // the service's password_length
		{"POST", "/api/v1/workspaces/:workspace/api-keys", `{"name":"k","scopes":["links:read","all"]}`, "scope_unknown", "scopes"},
		{"POST", "/api/v1/workspaces/:workspace/webhooks", `{"url":"https://example.com/h","events":["x"]}`, "webhook_event_unknown", "events"},
	} {
		err := bodies.check(tc.method, tc.route, []byte(tc.body))
		if got := reasonOrEmpty(err); got != tc.reason || apperr.FieldOf(err) != tc.field {
			t.Errorf("%s %s %s: %v (reason %q field %q), want reason %q field %q", tc.method, tc.route, tc.body, err, got, apperr.FieldOf(err), tc.reason, tc.field)
		}
	}
}

// A body is read a second time only when it may be refused, and never passes unread when the
// whole check would refuse it: names spelt with escapes, spaces around them, a map's values.
func TestBodySchemasSkipOnlyWhatCannotBeRefused(t *testing.T) {
	bodies, err := loadBodySchemas(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	const links = "POST /api/v1/workspaces/{}/links"
	for _, tc := range []struct {
		route, body string
		skipped     bool
	}{
		{links, `{"url":"https://example.com/a"}`, true},
		{links, `{"url":"https://example.com/a","title":"A","alias":"spring"}`, true},
		{links, `{"url":"https://example.com","redirect_status":300}`, false},
		{links, `{"url":"https://example.com", "redirect_status" : 300}`, false},
		{links, `{"url":"https://example.com","redirect\u005fstatus":300}`, false},
		{links, `{"url":"https://example.com","alias":""}`, false},
		{links, `{"url":null}`, false},
		{links, `{"url":"https://example.com","tags":["a"]}`, false},
		{"PUT /api/v1/workspaces/{}/scim-roles", `{"mappings":{"admins":"owner"}}`, false},
	} {
		body := bodies[tc.route]
		if body == nil {
			t.Fatalf("%s: no schema", tc.route)
		}
		if skipped := !body.mayRefuse([]byte(tc.body)); skipped != tc.skipped {
			t.Errorf("%s %s: skipped %v, want %v", tc.route, tc.body, skipped, tc.skipped)
		}
	}
	// Whatever the whole check refuses is read again: every enum's property is known by name.
	for route, body := range bodies {
		for _, name := range body.enums {
			raw := []byte(`{` + string(name) + `:"x"}`)
			if !body.mayRefuse(raw) {
				t.Errorf("%s: %s would pass unread", route, raw)
			}
		}
	}
}

func reasonOrEmpty(err error) string {
	if err == nil {
		return ""
	}
	return apperr.ReasonOf(err)
}

// Every route that reads a JSON body has its schema in the document.
func TestEveryJSONRouteHasABodySchema(t *testing.T) {
	bodies, err := loadBodySchemas(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range []string{
		"POST /api/v1/workspaces/:workspace/links",
		"POST /api/v1/workspaces/:workspace/links/batch",
		"PATCH /api/v1/workspaces/:workspace/links",
		"PATCH /api/v1/workspaces/:workspace/links/:id",
	} {
		method, path, _ := strings.Cut(route, " ")
		if bodies[method+" "+routeShape(path)] == nil {
			t.Errorf("%s: no request body schema", route)
		}
	}
}
