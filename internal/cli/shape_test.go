package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds the functions of the command line (doc comments
// aside): a longer one is split where it reads better.
const maxFuncLines = 60

// contextFuncs are the functions that may take a *cli.Context: for each
// command the one that fills its options from the flags (the command's
// Action literal hands them on), and the application's plumbing.
var contextFuncs = map[string]bool{
	"backtrackFlags": true, "readSolutionFlags": true, "satFlags": true, "dimacsFlags": true,
	"compareFlags": true, "mergeFlags": true, "traceFlags": true,
	"checkEmpty": true, "onUsageError": true,
}

// TestShape checks the shape of the package's code: no function over
// maxFuncLines lines, and *cli.Context taken only by contextFuncs, so that
// every command reads its flags once, in one place.
func TestShape(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines long, more than %d", name, fd.Name.Name, lines, maxFuncLines)
			}
			if takesContext(fd.Type) && !contextFuncs[fd.Name.Name] {
				t.Errorf("%s: %s takes a *cli.Context: read the flags into the command's options instead", name, fd.Name.Name)
			}
		}
	}
}

// takesContext reports whether a function of type ft takes a
// *cli.Context.
func takesContext(ft *ast.FuncType) bool {
	for _, p := range ft.Params.List {
		if star, ok := p.Type.(*ast.StarExpr); ok {
			if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "cli" {
					return true
				}
			}
		}
	}
	return false
}
