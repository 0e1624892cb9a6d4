package httpapi_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/shortlink/shortlink/backend/httpapi"
	"github.com/shortlink/shortlink/backend/httpapi/openapi"
)

// TestOpenAPIIsBuilt fails when openapi.json is not what its YAML source in openapi/ builds:
// change the YAML and run go generate ./backend/httpapi, never the JSON by hand.
func TestOpenAPIIsBuilt(t *testing.T) {
	want, err := openapi.Bundle(os.DirFS("openapi"))
	if err != nil {
		t.Fatalf("build openapi.json: %v", err)
	}
	got, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("openapi.json is not what openapi/*.yaml builds: run go generate ./backend/httpapi")
	}
}

// TestOpenAPIMatchesRoutes keeps openapi.json in step with the router: every route is
// documented and every documented operation is served.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile("openapi.json")
	if err != nil {
		t.Fatalf("load openapi.json: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI 3 document: %v", err)
	}

	api, err := httpapi.New(httpapi.Deps{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	param := regexp.MustCompile(`:([A-Za-z_]+)`)
	var served []string
	for _, r := range api.Routes() {
		if strings.HasPrefix(r.Path, "/scim/") {
			continue // SCIM's own protocol (docs/scim.md), outside /api/v1 and this document
		}
		served = append(served, r.Method+" "+param.ReplaceAllString(r.Path, "{$1}"))
	}
	var documented []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	slices.Sort(served)
	slices.Sort(documented)
	for _, r := range served {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is served but not in openapi.json", r)
		}
	}
	for _, d := range documented {
		if !slices.Contains(served, d) {
			t.Errorf("%s is in openapi.json but not served", d)
		}
	}
}
