package cli

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds the functions of the command line (doc comments
// aside): a longer one is split where it reads better.
const maxFuncLines = 60

// contextFuncs are the functions that may take a *cli.Context, by
// package and name: for each command the one that fills its options from
// the flags (the command's Action literal hands them on), and the shared
// layer's plumbing.
var contextFuncs = map[string]bool{
	"backtrackcmd.backtrackFlags": true, "satcmd.satFlags": true, "dimacscmd.dimacsFlags": true,
	"comparecmd.compareFlags": true, "mergecmd.mergeFlags": true, "tracecmd.traceFlags": true,
	"cmdutil.ReadSolutionFlags": true, "cmdutil.checkEmpty": true, "cmdutil.OnUsageError": true,
}

// TestShape checks the shape of the code of every package under
// internal/cli: no function over maxFuncLines lines, and *cli.Context
// taken only by contextFuncs, so that every command reads its flags once,
// in one place.
func TestShape(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == "testdata" {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return err
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
			key := f.Name.Name + "." + fd.Name.Name
			if takesContext(fd.Type) {
				seen[key] = true
				if !contextFuncs[key] {
					t.Errorf("%s: %s takes a *cli.Context: read the flags into the command's options instead", name, fd.Name.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range contextFuncs {
		if !seen[key] {
			t.Errorf("contextFuncs names %s, which takes no *cli.Context (or is gone): take it off the list", key)
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

// TestCommandsApart checks the layout docs/library.md describes: no
// command package (internal/cli/NAMEcmd) depends on another, directly or
// through any package, in its code or in its tests inside the package;
// its tests outside it (NAMEcmd_test) run the whole application but
// import no other command themselves; the shared layer (cmdutil) and the
// tests' helpers (clitest) depend on no command and not on the
// application, in their tests inside them; and the application imports
// every command package.
func TestCommandsApart(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the packages with")
	}
	out, err := exec.Command(gocmd, "list", "-test", "-json=ImportPath,Imports,Deps", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const app = "github.com/queens-dev/queens/internal/cli"
	isCommand := func(p string) bool { return path.Dir(p) == app && strings.HasSuffix(p, "cmd") }
	below := func(p string) bool { return p == app+"/cmdutil" || p == app+"/clitest" }
	commands, appImports := map[string]bool{}, map[string]bool{}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p struct {
			ImportPath    string
			Imports, Deps []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		// p is x, x as its tests build it ("x [x.test]"), its tests
		// outside it ("x_test [x.test]") or the test binary ("x.test").
		self, variant, _ := strings.Cut(p.ImportPath, " ")
		external := strings.HasSuffix(self, "_test")
		if strings.HasSuffix(self, ".test") {
			continue
		}
		self = strings.TrimSuffix(self, "_test")
		deps := p.Deps
		if external {
			deps = p.Imports // they run the application, which imports every command
		}
		if isCommand(self) {
			commands[self] = true
		}
		if self == app && variant == "" {
			for _, imp := range p.Imports {
				appImports[imp] = true
			}
		}
		for _, dep := range deps {
			dep, _, _ = strings.Cut(dep, " ")
			switch {
			case isCommand(self) && isCommand(dep) && dep != self:
				t.Errorf("%s depends on the command %s: a command imports the shared layer and libraries only", p.ImportPath, dep)
			case below(self) && !external && (isCommand(dep) || dep == app):
				t.Errorf("%s depends on %s: the shared layer and the tests' helpers sit below every command", p.ImportPath, dep)
			}
		}
	}
	if len(commands) < 11 {
		t.Errorf("go list found %d command packages, want the 11 of queens help", len(commands))
	}
	for c := range commands {
		if !appImports[c] {
			t.Errorf("the application does not import %s: every command package is a command it lists", c)
		}
	}
}
