// Command bundle writes the API's OpenAPI document as JSON from its YAML source:
//
//	go run ./backend/httpapi/openapi/bundle -src backend/httpapi/openapi -out backend/httpapi/openapi.json
//
// `go generate ./backend/httpapi` runs it with those paths. The file is left alone when unchanged.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/shortlink/shortlink/backend/httpapi/openapi"
)

func main() {
	src := flag.String("src", "openapi", "folder of openapi.yaml, paths/ and schemas/")
	out := flag.String("out", "openapi.json", "file to write")
	flag.Parse()
	doc, err := openapi.Bundle(os.DirFS(*src))
	if err != nil {
		fmt.Fprintf(os.Stderr, "bundle %s: %v\n", *src, err)
		os.Exit(1)
	}
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, doc) {
		return // unchanged: keep the file's time, so make rebuilds nothing
	}
	if err := os.WriteFile(*out, doc, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "bundle: %v\n", err)
		os.Exit(1)
	}
}
