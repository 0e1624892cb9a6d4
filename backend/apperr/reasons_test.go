package apperr_test

import (
	"go/ast"
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

// reasonsBeyondCalls are reasons the source builds without a literal .For: the not_found of
// apperr.Missing for each kind of thing, the router's own answers and import rows.
var reasonsBeyondCalls = []string{
	"api_key_not_found", "domain_not_found", "import_not_found", "invitation_not_found",
	"link_not_found", "member_not_found", "review_not_found", "screenshot_not_found",
	"user_not_found", "workspace_not_found", "email_required", "password_required",
	"method_not_allowed", "no_free_code", "webhook_not_found", "tag_not_found",
	"webhook_delivery_not_found", "bulk_job_not_found",
	// httpapi's check of bodies against the API document.
	"null_not_allowed", "items_too_many",
}

// snakeCase allows a leading digit: the contract names reasons such as 2fa_required.
var snakeCase = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)

// TestEveryErrorHasAReason reads the server's and the worker's source: every apperr.Errorf
// names a reason with .For, every literal reason is snake_case, listed in docs/api.md and
// translated by the web app (frontend/src/i18n/en.ts; zh-CN.ts has the same keys, which the
// app's own test checks).
func TestEveryErrorHasAReason(t *testing.T) {
	root := filepath.Join("..", "..")
	reasons := map[string]string{} // reason → first place
	fset := token.NewFileSet()
	for _, dir := range []string{"backend", "worker"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			covered := map[*ast.CallExpr]bool{}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var reason ast.Expr
				switch {
				case isSelector(call.Fun, "", "For") && len(call.Args) == 2:
					if inner, ok := call.Fun.(*ast.SelectorExpr).X.(*ast.CallExpr); ok {
						covered[inner] = true
					}
					reason = call.Args[0]
				case isIdent(call.Fun, "invalidFor") && len(call.Args) > 0:
					reason = call.Args[0]
				}
				if lit, ok := reason.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					r, _ := strconv.Unquote(lit.Value)
					if _, seen := reasons[r]; !seen {
						reasons[r] = fset.Position(lit.Pos()).String()
					}
				}
				return true
			})
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && isSelector(call.Fun, "apperr", "Errorf") && !covered[call] {
					t.Errorf("%s: apperr.Errorf without .For(reason, field)", fset.Position(call.Pos()))
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range reasonsBeyondCalls {
		if _, seen := reasons[r]; !seen {
			reasons[r] = "reasonsBeyondCalls"
		}
	}
	docs := read(t, filepath.Join(root, "docs", "api.md"))
	en := read(t, filepath.Join(root, "frontend", "src", "i18n", "en.ts"))
	for r, at := range reasons {
		if !snakeCase.MatchString(r) {
			t.Errorf("%s: reason %q is not snake_case", at, r)
		}
		if !strings.Contains(docs, "| `"+r+"` |") {
			t.Errorf("%s: reason %q is missing from the table in docs/api.md", at, r)
		}
		// A key that starts with a digit is quoted in TypeScript ('2fa_required': …).
		if !regexp.MustCompile(`(?m)^\s+(` + r + `|'` + r + `'|"` + r + `"):`).MatchString(en) {
			t.Errorf("%s: reason %q has no translation (errors.%s in frontend/src/i18n/en.ts)", at, r, r)
		}
	}
	if len(reasons) < 50 {
		t.Fatalf("found only %d reasons: is the source where this test looks?", len(reasons))
	}
}

func isSelector(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	return ok && s.Sel.Name == name && (pkg == "" || isIdent(s.X, pkg))
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
