package e2e

import (
	"bytes"
	"context"
	"encoding/json"
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
	// An import's file is read by the server, which takes rows of any width; kin-openapi's
	// decoder would want every row as wide as the first.
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.FileBodyDecoder)
	doc, err := apiDocument()
	if err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

var apiDocument = sync.OnceValues(func() (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromFile("../httpapi/openapi.json")
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, err
	}
	return doc, nil
})

// checkMethodNotAllowed fails the test when a 405 of the API is not the document's
// MethodNotAllowed answer (no operation describes a method its path does not take).
func checkMethodNotAllowed(t *testing.T, req *http.Request, r response) {
	t.Helper()
	doc, err := apiDocument()
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	ref := doc.Components.Responses["MethodNotAllowed"]
	if ref == nil || ref.Value == nil || ref.Value.Content.Get("application/json") == nil {
		t.Fatalf("openapi.json has no MethodNotAllowed answer")
	}
	var v any
	err = json.Unmarshal(r.Body, &v)
	if err == nil {
		err = ref.Value.Content.Get("application/json").Schema.Value.VisitJSON(v)
	}
	if err != nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		t.Errorf("%s %s: 405 %s is not openapi.json's MethodNotAllowed: %v", req.Method, req.URL.Path, r.Body, err)
	}
}

// checkAgainstDoc fails the test when an /api/ answer is not one the document describes.
func checkAgainstDoc(t *testing.T, req *http.Request, body []byte, r response) {
	t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/api/") {
		return
	}
	if r.Status == http.StatusMethodNotAllowed {
		checkMethodNotAllowed(t, req, r)
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
	// A batch or bulk edit answers 200 with the rows it refused, each with its error: the
	// request was not accepted whole.
	if r.Status >= 200 && r.Status < 300 && !bytes.Contains(r.Body, []byte(`"error":{`)) {
		checkRequest(t, req, body, route, params)
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

// checkRequest fails the test when a request the server accepted is one the document
// forbids: the server may not take more than the document promises clients it takes.
func checkRequest(t *testing.T, req *http.Request, body []byte, route *routers.Route, params map[string]string) {
	t.Helper()
	req = req.Clone(context.Background())
	req.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		t.Errorf("%s %s: the server accepted a request openapi.json forbids (%.300q): %v", req.Method, req.URL.RequestURI(), body, err)
	}
}

// checkAccepted is checkRequest for a request a test sent with its own client rather than
// server.send (load, timing and streaming tests), given the status it was answered.
func checkAccepted(t *testing.T, req *http.Request, body []byte, status int) {
	t.Helper()
	if status < 200 || status >= 300 || !strings.HasPrefix(req.URL.Path, "/api/") {
		return
	}
	router, err := apiDoc()
	if err != nil {
		t.Errorf("openapi.json: %v", err)
		return
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Errorf("%s %s answered %d but is not in openapi.json: %v", req.Method, req.URL.Path, status, err)
		return
	}
	checkRequest(t, req, body, route, params)
}
