package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The API document, loaded once: every API answer the tests see is checked against it, so
// the document's statuses and schemas cannot drift from what the server sends.
var apiDoc = sync.OnceValues(func() (routers.Router, error) {
	// Images and SAML metadata are checked for their status and media type only.
	openapi3filter.RegisterBodyDecoder("image/png", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("image/svg+xml", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/samlmetadata+xml", openapi3filter.FileBodyDecoder)
	doc, err := openapi3.NewLoader().LoadFromFile("../httpapi/openapi.json")
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// checkAgainstDoc fails the test when an /api/ answer is not one the document describes.
func checkAgainstDoc(t *testing.T, req *http.Request, body []byte, r response) {
	t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/api/") || r.Status == http.StatusMethodNotAllowed {
		return
	}
	router, err := apiDoc()
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		if r.Status == http.StatusNotFound {
			return // an unknown endpoint
		}
		t.Errorf("%s %s answered %d but is not in openapi.json: %v", req.Method, req.URL.Path, r.Status, err)
		return
	}
	req = req.Clone(context.Background())
	req.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  r.Status,
		Header:  r.Header,
		Body:    io.NopCloser(bytes.NewReader(r.Body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s: answer %d %s does not match openapi.json: %v", req.Method, req.URL.Path, r.Status, r.Body, err)
	}
}
