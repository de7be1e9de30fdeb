package workflowplan_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
		if got, _ := m["selected_candidate"].(string); got != tt.selected {
			t.Errorf("%q: selected %q, want %q", tt.task, got, tt.selected)
		}
		if m["project_dir"] != mustReal(t, env.ProjectDir) {
			t.Errorf("project_dir %v, want %s", m["project_dir"], env.ProjectDir)
		}
		if n := len(m["phases"].([]any)); n != 4 {
			t.Errorf("%d phases", n)
		}
		full := call(t, env, map[string]any{"task": tt.task, "detail": "full"})
		if n, all := len(full["candidate_capabilities"].([]any)), len(shipped(t).IDs()); n != all {
			t.Errorf("%q, detail full: %d candidates, want all %d", tt.task, n, all)
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
		{"bad detail", good, map[string]any{"task": "x", "detail": "verbose"}, "invalid_input", "detail"},
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
	m := call(t, world{w.Env, workflowplan.New(d)}, map[string]any{"task": "run the tests", "detail": "full"})
	if m["selection_status"] != routing.Selected || m["selected_candidate"] != "test-go" {
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

// writeProject writes files (a name ending in / is a directory) into a new directory.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for f, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// inProject is a world bound to dir with these tools on PATH.
func inProject(t *testing.T, dir string, toolNames ...string) world {
	path := fakePath(t, toolNames...)
	env := &tools.Env{ProjectDir: dir, Getenv: func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}}
	return world{env, workflowplan.New(workflowplan.DefaultDeps())}
}

// budgetRunTheTests is issue 24's figure for workflow_plan "run the tests" in a Go
// project: the three calls of a first step (env_inspect, workflow_plan,
// capability_run's plan) cost at most 3,000 characters together.
const budgetRunTheTests = 1500

// TestCompactSize: the default result says what the next step needs, once (issue 24):
// "run the tests" in a Go module, measured as the model receives it (compact JSON of
// the structured content, the project directory written as a typical Windows one).
func TestCompactSize(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"go.mod": "module example.com/app\n", "app_test.go": "package app\n"})
	w := inProject(t, dir, "go", "gofmt", "git")
	_, raw := mcptest.Call(t, w.tool, w.Env, map[string]any{"task": "run the tests"})
	real, _ := json.Marshal(mustReal(t, dir))
	fixture, _ := json.Marshal(`C:\Users\dev\src\app`)
	b := bytes.ReplaceAll(raw, real[1:len(real)-1], fixture[1:len(fixture)-1])
	n := len([]rune(string(b)))
	t.Logf("workflow_plan \"run the tests\" in a Go module: %d characters (budget %d)", n, budgetRunTheTests)
	if n > budgetRunTheTests {
		t.Errorf("%d characters, budget %d:\n%s", n, budgetRunTheTests, b)
	}
	_, fullRaw := mcptest.Call(t, w.tool, w.Env, map[string]any{"task": "run the tests", "detail": "full"})
	t.Logf("with detail full: %d characters", len([]rune(string(fullRaw))))
}

// TestDetailFull: detail "full" is the whole breakdown: every candidate with every
// score field, the phases' entry and exit, and every project evidence list.
func TestDetailFull(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"go.mod": "module example.com/app\n"})
	w := inProject(t, dir, "go")
	m := call(t, w, map[string]any{"task": "run the tests", "detail": "full"})
	cands := m["candidate_capabilities"].([]any)
	if len(cands) != len(shipped(t).IDs()) {
		t.Fatalf("%d candidates, want every capability", len(cands))
	}
	for _, c := range cands {
		for _, k := range []string{"score", "operation_score", "identity_score", "discriminating_score", "project_score", "description_score",
			"identity_matches", "discriminating_matches", "description_matches", "project_evidence", "named_tools", "description",
			"safety_class", "available_tool", "configured_tools"} {
			if _, ok := c.(map[string]any)[k]; !ok {
				t.Errorf("%v lacks %s", c.(map[string]any)["capability"], k)
			}
		}
	}
	if mc := m["matched_candidate"].(map[string]any); mc["discriminating_score"] == nil || m["selected_candidate"] != "test-go" {
		t.Errorf("matched %v, selected %v", mc, m["selected_candidate"])
	}
	for _, k := range []string{"found", "files", "read", "skipped"} {
		if _, ok := m["project_evidence"].(map[string]any)[k]; !ok {
			t.Errorf("project_evidence lacks %s", k)
		}
	}
	if p := m["phases"].([]any)[2].(map[string]any); p["entry"] == nil || p["exit"] == nil {
		t.Errorf("execute phase %v", p)
	}
}

// TestProjectTaskRoute: the bound project's own tasks are candidates (issue 23 §1, §3),
// and the call to make next runs the selected one with capability_run.
func TestProjectTaskRoute(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		"package.json":      `{"name": "web", "scripts": {"dev": "vite", "start": "node server.js", "format": "prettier --write ."}, "devDependencies": {"prettier": "^3"}}`,
		"package-lock.json": "{}"})
	w := inProject(t, dir, "npm", "prettier")
	for task, want := range map[string]string{"start the dev server": "npm:dev", "format the code": "npm:format", "npm start": "npm:start"} {
		m := call(t, w, map[string]any{"task": task})
		if m["selection_status"] != routing.Selected || m["selected_candidate"] != want {
			t.Errorf("%q: %v %v, want selected %s", task, m["selection_status"], m["selected_candidate"], want)
			continue
		}
		nt := m["next_tool"].(map[string]any)
		if diff := cmpDiff(map[string]any{"capability": want, "cwd": mustReal(t, dir)}, nt["arguments"]); nt["name"] != "capability_run" || diff != "" {
			t.Errorf("%q: next_tool %v (-want +got):\n%s", task, nt, diff)
		}
		if mc := m["matched_candidate"].(map[string]any); mc["safety_class"] != string(tools.ApprovalRequired) || mc["available_tool"] != "npm" {
			t.Errorf("%q: matched %v", task, mc)
		}
		if p := m["phases"].([]any)[2].(map[string]any); p["safety_class"] != string(tools.ApprovalRequired) {
			t.Errorf("%q: execute phase %v", task, p)
		}
	}
}

// TestTaskWarnings: what the task reader skips is reported briefly (count, the first
// three as file:line rule) and never breaks routing.
func TestTaskWarnings(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		"package.json": `{"scripts": {"dev": "vite",}`,
		"Makefile":     "dev:\n\t./serve.sh\nifeq ($(OS),Windows_NT)\nwin:\n\techo w\nendif\nifdef X\nx:\n\techo x\nendif\nifdef Y\ny:\n\techo y\nendif\n",
	})
	w := inProject(t, dir, "make", "npm")
	m := call(t, w, map[string]any{"task": "start the dev server"})
	if m["selection_status"] != routing.Selected || m["selected_candidate"] != "make:dev" {
		t.Fatalf("got %v %v", m["selection_status"], m["selected_candidate"])
	}
	tw, _ := m["project_evidence"].(map[string]any)["task_warnings"].(map[string]any)
	first, _ := tw["first"].([]any)
	if tw["count"] != float64(4) || len(first) != 3 {
		t.Fatalf("task_warnings %v, want a count of 4 and the first 3", tw)
	}
	for _, f := range first {
		if !regexpWarning.MatchString(f.(string)) {
			t.Errorf("warning %q is not file:line rule", f)
		}
	}
}

var regexpWarning = regexp.MustCompile(`^(package\.json|Makefile)(:\d+)? [a-z-]+$`)

func cmpDiff(a, b any) string { return cmp.Diff(a, b) }
