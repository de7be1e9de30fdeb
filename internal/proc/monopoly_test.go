package proc

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// procDir is this package's directory relative to the module root: the only place
// allowed to create processes.
const procDir = "internal/proc"

// forbiddenCalls are the process-creation functions of each package, by import path.
var forbiddenCalls = map[string][]string{
	"os":                       {"StartProcess"},
	"syscall":                  {"StartProcess", "ForkExec", "Exec", "CreateProcess", "CreateProcessAsUser"},
	"golang.org/x/sys/unix":    {"Exec"},
	"golang.org/x/sys/windows": {"CreateProcess", "CreateProcessAsUser", "ShellExecute"},
}

// forbiddenImports may not be imported at all outside procDir (execabs is os/exec).
var forbiddenImports = []string{"os/exec", "golang.org/x/sys/execabs"}

// e2eException reports whether rel is an end-to-end test of the built binary, the one
// place outside procDir allowed to import os/exec (to start `wda` itself): files
// named *e2e*_test.go under cmd/.
func e2eException(rel string) bool {
	base := filepath.Base(rel)
	return strings.HasPrefix(rel, "cmd/") && strings.HasSuffix(base, "_test.go") && strings.Contains(base, "e2e")
}

// fakeProgramException reports whether rel is the fake package manager the tests run as
// a child: it impersonates a third-party program (winget spawning a grandchild that
// holds its stdout), so it is not this module's process creation.
func fakeProgramException(rel string) bool {
	return filepath.ToSlash(rel) == "tools/internal/pmtest/fake.go"
}

// TestProcessCreationMonopoly: only internal/proc may create processes
// (docs/process-runner.md). Every .go file of the module, tests included, is parsed.
func TestProcessCreationMonopoly(t *testing.T) {
	root := moduleRoot(t)
	violations, err := scanMonopoly(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		t.Errorf("%s", v)
	}
}

// TestMonopolyScannerFindsViolations runs the scanner on fixtures, so the real test
// cannot pass by scanning nothing.
func TestMonopolyScannerFindsViolations(t *testing.T) {
	got, err := scanMonopoly(filepath.Join("testdata", "monopoly"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`bad/aliased.go: imports "os/exec"`,
		`bad/calls.go: calls os.StartProcess`,
		`bad/calls.go: calls sys.ForkExec`,
		`bad/calls.go: calls syscall.Exec`,
		`bad/dot.go: calls StartProcess (dot-imported from "os")`,
		`bad/dot.go: imports "os/exec"`,
		`bad/value.go: uses os.StartProcess`,
		`cmd/wda/helper_test.go: imports "os/exec"`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("violations (-want +got):\n%s", d)
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the package directory")
		}
		dir = parent
	}
}

// scanMonopoly walks root (skipping testdata, dist and .git below it) and reports every
// forbidden import and every use of a process-creation function outside procDir,
// following import aliases and dot imports.
func scanMonopoly(root string) ([]string, error) {
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || d.Name() == "dist" || d.Name() == ".git" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			if rel == procDir {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parse %s: %w", rel, err)
		}
		out = append(out, checkFile(rel, f)...)
		return nil
	})
	if err != nil && !errors.Is(err, fs.SkipAll) {
		return nil, err
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func checkFile(rel string, f *ast.File) []string {
	if fakeProgramException(rel) {
		return nil
	}
	var out []string
	local := map[string]string{} // local name -> import path, for packages with forbidden calls
	var dotted []string          // import paths imported with "."
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if slices.Contains(forbiddenImports, path) && !e2eException(rel) {
			out = append(out, fmt.Sprintf("%s: imports %q", rel, path))
		}
		if _, ok := forbiddenCalls[path]; !ok {
			continue
		}
		name := pathBase(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		switch name {
		case ".":
			dotted = append(dotted, path)
		case "_":
		default:
			local[name] = path
		}
	}
	// Any selector pkg.Func, called or taken as a value, counts.
	called := map[*ast.SelectorExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				called[sel] = true
			}
			if id, ok := n.Fun.(*ast.Ident); ok {
				for _, path := range dotted {
					if slices.Contains(forbiddenCalls[path], id.Name) {
						out = append(out, fmt.Sprintf("%s: calls %s (dot-imported from %q)", rel, id.Name, path))
					}
				}
			}
		case *ast.SelectorExpr:
			x, ok := n.X.(*ast.Ident)
			if !ok {
				return true
			}
			path, ok := local[x.Name]
			if !ok || !slices.Contains(forbiddenCalls[path], n.Sel.Name) {
				return true
			}
			verb := "uses"
			if called[n] {
				verb = "calls"
			}
			out = append(out, fmt.Sprintf("%s: %s %s.%s", rel, verb, x.Name, n.Sel.Name))
		}
		return true
	})
	return out
}

func pathBase(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}
