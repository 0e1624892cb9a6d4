package openapi_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/shortlink/shortlink/backend/httpapi/openapi"
)

const root = "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths: {}\ncomponents:\n  schemas: {}\n"

func TestBundle(t *testing.T) {
	src := fstest.MapFS{
		"openapi.yaml":     {Data: []byte(root)},
		"paths/b.yaml":     {Data: []byte("/b:\n  get:\n    responses:\n      \"200\": {description: ok}\n")},
		"paths/a.yaml":     {Data: []byte("/a: {}\n")},
		"schemas/x.yaml":   {Data: []byte("X:\n  type: integer\n  maximum: 10\n  nullable: true\n  example: '2026-01-01'\n  description: \"<a> & b\"\n")},
		"schemas/skip.txt": {Data: []byte("not read")},
	}
	got, err := openapi.Bundle(src)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "openapi": "3.0.3",
  "info": {
    "title": "T",
    "version": "1"
  },
  "paths": {
    "/a": {},
    "/b": {
      "get": {
        "responses": {
          "200": {
            "description": "ok"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "X": {
        "type": "integer",
        "maximum": 10,
        "nullable": true,
        "example": "2026-01-01",
        "description": "<a> & b"
      }
    }
  }
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBundleRejects(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  string
	}{
		"path twice": {
			map[string]string{"paths/a.yaml": "/a: {}\n", "paths/b.yaml": "/a: {}\n"},
			"/a is also defined in paths/a.yaml",
		},
		"schema twice": {
			map[string]string{"paths/a.yaml": "/a: {}\n", "schemas/x.yaml": "X: {}\n", "schemas/y.yaml": "X: {}\n"},
			"X is also defined in schemas/x.yaml",
		},
		"unquoted date": {
			map[string]string{"paths/a.yaml": "/a: {}\n", "schemas/x.yaml": "X: {example: 2026-01-01}\n"},
			"quote it",
		},
		"alias": {
			map[string]string{"paths/a.yaml": "/a: &a {}\n/b: *a\n", "schemas/x.yaml": "X: {}\n"},
			"not supported",
		},
		"no schemas": {
			map[string]string{"paths/a.yaml": "/a: {}\n"},
			"schemas: no .yaml files",
		},
		"paths in openapi.yaml": {
			map[string]string{"openapi.yaml": strings.Replace(root, "paths: {}", "paths: {/a: {}}", 1)},
			"paths must be an empty mapping",
		},
	} {
		t.Run(name, func(t *testing.T) {
			src := fstest.MapFS{"openapi.yaml": {Data: []byte(root)}}
			for n, data := range tc.files {
				src[n] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err := openapi.Bundle(src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
