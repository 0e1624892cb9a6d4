package repo

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's top folder, from this package's.
const root = "../.."

// outside are citations of documents that are not in the repository.
var outside = regexp.MustCompile(`\bSPEC(\.md)?\s*§|\bSPEC\.md\b|shared/(SPEC|STYLE|RECIPES)`)

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
