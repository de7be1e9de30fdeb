package workflowplan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/workflowplan"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/projectscan"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

// fakePath makes a PATH directory holding empty executables with these names.
func fakePath(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if runtime.GOOS == "windows" {
			n += ".exe"
		}
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// world is a project, a PATH and the tool running with a catalog.
type world struct {
	*tools.Env
	tool tools.Tool
}

func call(t *testing.T, w world, args map[string]any) map[string]any {
	t.Helper()
	m, _ := mcptest.Call(t, w.tool, w.Env, args)
	return m
}

// envWith is a world whose PATH is path and whose catalog is cat (nil: the shipped one).
func envWith(t *testing.T, path string, cat []byte) world {
	project := t.TempDir()
	d := workflowplan.DefaultDeps()
	if cat != nil {
		d.Catalog = func() (*catalog.Catalog, error) { return catalog.Load(cat) }
	}
	env := &tools.Env{ProjectDir: project, Getenv: func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}}
	return world{env, workflowplan.New(d)}
}

func TestPlanShippedCatalog(t *testing.T) {
	env := envWith(t, fakePath(t, "pytest", "go"), nil)
	tests := []struct {
		task, status, selected string
	}{
		{"run the Python tests", routing.Selected, "test-python"},
		{"run the go tests", routing.Selected, "test-go"},
		{"build the dotnet project", routing.MatchedUnavailable, ""},
		{"run tests", routing.NoMatch, ""},
	}
	for _, tt := range tests {
		m := call(t, env, map[string]any{"task": "  " + tt.task + "\n", "context": ""})
		if m["status"] != "planned" || m["task"] != tt.task || m["selection_status"] != tt.status || m["execution_started"] != false {
			t.Errorf("%q: status %v task %q selection %v", tt.task, m["status"], m["task"], m["selection_status"])
		}
		sel, _ := m["selected_candidate"].(map[string]any)
		if got, _ := sel["capability"].(string); got != tt.selected {
			t.Errorf("%q: selected %q, want %q", tt.task, got, tt.selected)
		}
		if m["project_dir"] != mustReal(t, env.ProjectDir) {
			t.Errorf("project_dir %v, want %s", m["project_dir"], env.ProjectDir)
		}
		if n, all := len(m["candidate_capabilities"].([]any)), len(shipped(t).IDs()); n != all {
			t.Errorf("%d candidates, want all %d", n, all)
		}
		if n := len(m["phases"].([]any)); n != 4 {
			t.Errorf("%d phases", n)
		}
	}
}

func TestPythonWithoutPytest(t *testing.T) {
	env := envWith(t, fakePath(t, "ruff"), nil)
	m := call(t, env, map[string]any{"task": "run the Python tests"})
	if m["selection_status"] != routing.MatchedUnavailable || m["selected_candidate"] != nil {
		t.Fatalf("got %v", m)
	}
	if mc := m["matched_candidate"].(map[string]any); mc["capability"] != "test-python" || mc["available_tool"] != nil {
		t.Errorf("matched %v", mc)
	}
}

func TestRefusals(t *testing.T) {
	good := envWith(t, "", nil)
	tests := []struct {
		name   string
		env    world
		args   map[string]any
		status string
		errSub string
	}{
		{"blank task", good, map[string]any{"task": "  "}, "invalid_input", "task must not be blank"},
		{"bad cwd", good, map[string]any{"task": "x", "cwd": filepath.Join(good.ProjectDir, "missing")}, "invalid_input", "Not a directory"},
		{"catalog error", envWith(t, "", []byte("a: {description: d}")), map[string]any{"task": "x"}, "configuration_error", `capability "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := call(t, tt.env, tt.args)
			if m["status"] != tt.status || !strings.Contains(m["error"].(string), tt.errSub) || m["execution_started"] != false {
				t.Fatalf("got %v", m)
			}
			if _, ok := m["phases"]; ok {
				t.Errorf("refusal carries plan fields: %v", m)
			}
		})
	}
}

func TestTieOutputConforms(t *testing.T) {
	cat := []byte(`
alpha: {description: a, tags: [widget], tools: [{name: alpha-tool, argv: [alpha-tool]}]}
beta: {description: b, tags: [widget], tools: [{name: beta-tool, argv: [beta-tool]}]}
`)
	m := call(t, envWith(t, fakePath(t, "beta-tool"), cat), map[string]any{"task": "the widget"})
	d := m["route_discriminator"].(map[string]any)
	if m["selection_status"] != routing.Ambiguous || d["availability"].(map[string]any)["alpha"] != nil {
		t.Fatalf("got %v", m)
	}
}

func TestClassify(t *testing.T) {
	if c := workflowplan.New(workflowplan.DefaultDeps()).Classify(tools.Args{"task": "x"}); c != tools.ReadOnly {
		t.Fatalf("class %s", c)
	}
}

func shipped(t *testing.T) *catalog.Catalog {
	c, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustReal(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The tool hands the bound project handle and every project_files entry of the catalog
// to Deps.Scan, and routes on what it reports.
func TestScanDependency(t *testing.T) {
	t.Parallel()
	w := envWith(t, fakePath(t, "go"), nil)
	var gotRoot string
	var gotWanted []string
	d := workflowplan.DefaultDeps()
	d.Scan = func(root *os.Root, wanted []string) projectscan.Result {
		gotRoot, gotWanted = root.Name(), wanted
		// Read is nil: the tool must still answer with the array its schema promises.
		return projectscan.Result{Found: []string{"go.mod"}, Files: []string{"go.mod"},
			Skipped: []projectscan.Skipped{{File: "package.json", Reason: "a symbolic link; links are not followed"}}}
	}
	m := call(t, world{w.Env, workflowplan.New(d)}, map[string]any{"task": "run the tests"})
	if m["selection_status"] != routing.Selected || m["selected_candidate"].(map[string]any)["capability"] != "test-go" {
		t.Fatalf("got %v", m)
	}
	if gotRoot != mustReal(t, w.ProjectDir) {
		t.Errorf("scanned root %q, want the bound project %q", gotRoot, w.ProjectDir)
	}
	for _, e := range []string{"go.mod", "*.sln", "package.json#scripts.test", "pyproject.toml#tool.ruff", "Cargo.toml", "CMakeLists.txt", ".git"} {
		if !slices.Contains(gotWanted, e) {
			t.Errorf("wanted entries lack %q: %v", e, gotWanted)
		}
	}
	ev := m["project_evidence"].(map[string]any)
	if ev["inspected"] != true || fmt.Sprint(ev["found"]) != "[go.mod]" || fmt.Sprint(ev["skipped"]) != "[map[file:package.json reason:a symbolic link; links are not followed]]" {
		t.Errorf("project evidence %v", ev)
	}
}
