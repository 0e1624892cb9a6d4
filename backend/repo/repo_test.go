package repo

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the repository's top folder, from this package's.
const root = "../.."

// homes are the drivers and the folders that may import them; tests that need to look into or
// break a store use helpers of backend/testenv or of the driver's package.
var homes = []struct {
	module  string
	folders []string
}{
	{"github.com/jackc/pgx", []string{"backend/postgres", "backend/testenv"}},
	{"github.com/redis/go-redis", []string{"backend/redis"}},
	{"github.com/gin-gonic/gin", []string{"backend/httpapi"}},
	{"github.com/stripe/stripe-go", []string{"backend/stripe"}},
}

// goFiles lists the Go files of the repository, the deploy module's included, without
// node_modules and build output.
func goFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "dist" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("only %d Go files found under %s", len(out), root)
	}
	return out
}

// TestDriversImportedInTheirHomes: pgx only in backend/postgres and backend/testenv, go-redis
// only in backend/redis, gin only in backend/httpapi, stripe-go only in backend/stripe; test
// files too.
func TestDriversImportedInTheirHomes(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range goFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, h := range homes {
				if !strings.HasPrefix(p, h.module) {
					continue
				}
				home := false
				for _, dir := range h.folders {
					home = home || strings.HasPrefix(rel, dir+"/")
				}
				if !home {
					t.Errorf("%s imports %s, which belongs in %s", rel, p, strings.Join(h.folders, " or "))
				}
			}
		}
	}
}

// outside are citations of documents that are not in the repository: the product's
// description and its numbered sections (a section sign and a number), which the repository's
// pages replace.
var outside = regexp.MustCompile(`\bSPEC(\.md)?\s*§|\bSPEC\.md\b|shared/(SPEC|STYLE|RECIPES)|§\s*[0-9]`)

// TestCommentsCiteTheRepository: code, SQL, scripts and docs cite docs/ pages, never a
// document outside the repository.
func TestCommentsCiteTheRepository(t *testing.T) {
	exts := map[string]bool{".go": true, ".sql": true, ".ts": true, ".tsx": true, ".mjs": true, ".sh": true, ".yaml": true, ".yml": true, ".md": true}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "dist" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if d.IsDir() || !exts[filepath.Ext(path)] && d.Name() != "Makefile" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if outside.MatchString(line) {
				t.Errorf("%s:%d cites a document outside the repository: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
