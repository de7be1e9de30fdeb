package capabilityrun_test

import (
	"encoding/json"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/capabilityrun"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args tools.Args
		want tools.Class
	}{
		{tools.Args{"capability": "create-pr"}, tools.ReadOnly},
		{tools.Args{"capability": "create-pr", "execute": false}, tools.ReadOnly},
		{tools.Args{"capability": "create-pr", "execute": "true"}, tools.ReadOnly},
		{tools.Args{"capability": "inspect-git", "execute": true}, tools.ReadOnly},
		{tools.Args{"capability": "test-python", "execute": true}, tools.Reversible},
		{tools.Args{"capability": "test-go", "execute": true, "extra_args": []any{}}, tools.Reversible},
		{tools.Args{"capability": "create-pr", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "no-such", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "test-python", "execute": true, "extra_args": []any{"-k", "x"}}, tools.ApprovalRequired},
		{tools.Args{"capability": "inspect-git", "execute": true, "extra_args": []any{"--porcelain"}}, tools.ApprovalRequired},
	}
	tool := capabilityrun.New(capabilityrun.DefaultDeps())
	for _, tt := range tests {
		if got := tool.Classify(tt.args); got != tt.want {
			t.Errorf("Classify(%v) = %s, want %s", tt.args, got, tt.want)
		}
	}
}

// toolDir makes a PATH directory with one executable named name. On Unix it is a
// shell script printing its arguments; on Windows only planning is exercised.
func toolDir(t *testing.T, name, script string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	if goruntime.GOOS == "windows" {
		name += ".exe"
	}
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// world is a project, a PATH and the tool running with a catalog.
type world struct {
	*tools.Env
	tool tools.Tool
}

// env is a world whose PATH is pathDir and whose catalog is cat ("" for the shipped).
func env(t *testing.T, pathDir string, cat string) world {
	e := &tools.Env{ProjectDir: t.TempDir(), Getenv: func(k string) string {
		if k == "PATH" {
			return pathDir
		}
		return ""
	}}
	return world{e, capabilityrun.New(deps(cat))}
}

func deps(cat string) capabilityrun.Deps {
	d := capabilityrun.DefaultDeps()
	if cat != "" {
		d.Catalog = func() (*catalog.Catalog, error) { return catalog.Load([]byte(cat)) }
	}
	return d
}

func call(t *testing.T, w world, args tools.Args) map[string]any {
	t.Helper()
	m, _ := mcptest.Call(t, w.tool, w.Env, args)
	return m
}

func TestPlanShippedCapability(t *testing.T) {
	t.Parallel()
	dir, path := toolDir(t, "pytest", "#!/bin/sh\n")
	m := call(t, env(t, dir, ""), tools.Args{"capability": "test-python", "extra_args": []any{}, "execute": false, "timeout_seconds": json.Number("120")})
	real, _ := filepath.EvalSymlinks(path)
	ea, _ := m["execute_arguments"].(map[string]any)
	if m["status"] != "planned" || ea["expected_executable"] != real || m["safety_class"] != "reversible" || m["execution_started"] != false ||
		ea["expected_executable_identity_kind"] != "file" || len(ea["expected_executable_identity_sha256"].(string)) != 64 {
		t.Fatalf("plan %v", m)
	}
	if argv := m["argv"].([]any); len(argv) != 1 || argv[0] != real {
		t.Errorf("argv %v", argv)
	}
	if ea, _ := m["execute_arguments"].(map[string]any); ea["execute"] != true || ea["expected_executable"] != real ||
		ea["capability"] != "test-python" || ea["timeout_seconds"] != nil {
		t.Errorf("execute_arguments %v", m["execute_arguments"])
	}
	for _, k := range []string{"succeeded", "returncode", "stdout"} {
		if _, ok := m[k]; ok {
			t.Errorf("a plan carries receipt field %s", k)
		}
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	dir, _ := toolDir(t, "pytest", "#!/bin/sh\n")
	e := env(t, dir, "")
	tests := []struct {
		name   string
		args   tools.Args
		status string
		errSub string
	}{
		{"unknown", tools.Args{"capability": "nope"}, "unknown_capability", "nope"},
		{"no tool", tools.Args{"capability": "create-pr"}, "unavailable", "gh"},
		{"bad cwd", tools.Args{"capability": "test-python", "cwd": filepath.Join(e.ProjectDir, "missing")}, "invalid_input", "Not a directory"},
		{"empty extra arg", tools.Args{"capability": "test-python", "extra_args": []any{""}}, "invalid_input", "extra_args[0]"},
		{"no echo", tools.Args{"capability": "test-python", "execute": true}, "invalid_input", "expected_executable"},
		{"other path", tools.Args{"capability": "test-python", "execute": true, "expected_executable": filepath.Join(dir, "other"),
			"expected_executable_identity_kind": "file", "expected_executable_identity_sha256": strings.Repeat("a", 64)}, "stale_plan", "no longer matches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := call(t, e, tt.args)
			if m["status"] != tt.status || !strings.Contains(m["error"].(string), tt.errSub) || m["execution_started"] != false {
				t.Fatalf("got %v", m)
			}
		})
	}
	shipped, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if m := call(t, e, tools.Args{"capability": "nope"}); len(m["available"].([]any)) != len(shipped.IDs()) {
		t.Errorf("available %v, want every shipped id", m["available"])
	}
}

// TestReplacementCatalogClass: the class of a call comes from the catalog the tool runs
// with, so a replacement catalog's forbidden capability is blocked by the pipeline
// before the handler, and its approval-required one is classified as such.
func TestReplacementCatalogClass(t *testing.T) {
	t.Parallel()
	dir, _ := toolDir(t, "nuker", "#!/bin/sh\n")
	cat := "nuke: {description: d, safety: forbidden, tools: [{name: nuker, argv: [nuker]}]}\n" +
		"look: {description: d, safety: approval-required, tools: [{name: nuker, argv: [nuker]}]}"
	e := env(t, dir, cat)
	m := call(t, e, tools.Args{"capability": "nuke", "execute": true})
	if m["status"] != "blocked" || !strings.Contains(m["error"].(string), "classified forbidden") || m["execution_started"] != false {
		t.Fatalf("got %v", m)
	}
	if c := e.tool.Classify(tools.Args{"capability": "look", "execute": true}); c != tools.ApprovalRequired {
		t.Fatalf("look classified %s", c)
	}
	if m := call(t, e, tools.Args{"capability": "look"}); m["safety_class"] != "approval-required" || m["execute_arguments"] == nil {
		t.Fatalf("plan of look: %v", m)
	}
	// A forbidden capability still plans (for review) but offers no executing call.
	if m := call(t, e, tools.Args{"capability": "nuke"}); m["status"] != "planned" || m["execute_arguments"] != nil {
		t.Fatalf("plan of nuke: %v", m)
	}
}

// TestForbiddenCommandInArguments (issue 22 §1, §2 of "Through this server's own
// tools"): extra arguments carrying a forbidden command, and a replacement catalog that
// calls a forbidden argv read-only, are classified forbidden and blocked by the
// pipeline before anything starts; the hooks' table classifies them the same way.
func TestForbiddenCommandInArguments(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "ran")
	script := "#!/bin/sh\necho ran > '" + marker + "'\n"
	dir := t.TempDir()
	for _, name := range []string{"git", "cmd", "pwsh", "wsl"} {
		p := filepath.Join(dir, name)
		if goruntime.GOOS == "windows" {
			p += ".exe"
		}
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cat := `
inspect-git: {description: d, safety: read-only, tools: [{name: git, argv: [git, status]}]}
shell: {description: d, safety: read-only, tools: [{name: cmd, argv: [cmd]}]}
ps: {description: d, safety: reversible, tools: [{name: pwsh, argv: [pwsh, -NoProfile]}]}
clean: {description: d, safety: approval-required, tools: [{name: wsl, argv: [wsl, rm, -rf]}]}
wipe: {description: d, safety: read-only, tools: [{name: cmd, argv: [cmd, /c, format, "D:"]}]}
`
	tests := []struct {
		cat   string
		args  tools.Args
		class tools.Class
	}{
		{"", tools.Args{"capability": "inspect-git", "extra_args": []any{"/c", "format", "D:"}}, tools.Forbidden},
		{cat, tools.Args{"capability": "shell", "extra_args": []any{"/c", "format", "D:"}}, tools.Forbidden},
		{cat, tools.Args{"capability": "ps", "extra_args": []any{"-Command", "Format-Volume -DriveLetter D"}}, tools.Forbidden},
		{cat, tools.Args{"capability": "clean", "extra_args": []any{"/mnt/c/Windows/System32"}}, tools.Forbidden},
		{cat, tools.Args{"capability": "wipe"}, tools.Forbidden},
		// What is not forbidden keeps its class.
		{cat, tools.Args{"capability": "clean", "extra_args": []any{"/tmp/out"}}, tools.ApprovalRequired},
		{cat, tools.Args{"capability": "shell"}, tools.ReadOnly},
		{"", tools.Args{"capability": "inspect-git", "extra_args": []any{"--porcelain"}}, tools.ApprovalRequired},
	}
	for _, tt := range tests {
		e := env(t, dir, tt.cat)
		plan := call(t, e, tt.args)
		// The executing call echoes the reviewed identity, so only the class stands
		// between it and the run.
		exec := tools.Args{"execute": true, "expected_executable": echoed(plan, "executable"),
			"expected_executable_identity_kind":   echoed(plan, "executable_identity_kind"),
			"expected_executable_identity_sha256": echoed(plan, "executable_identity_sha256")}
		for k, v := range tt.args {
			exec[k] = v
		}
		if got := e.tool.Classify(exec); got != tt.class {
			t.Errorf("%v: classified %s, want %s", tt.args, got, tt.class)
		}
		if tt.class != tools.Forbidden {
			continue
		}
		if plan["safety_class"] != "forbidden" || plan["execute_arguments"] != nil {
			t.Errorf("%v: plan %v, want the forbidden class and no executing call", tt.args, plan)
		}
		if m := call(t, e, exec); m["status"] != "blocked" || m["execution_started"] != false {
			t.Errorf("%v: %v, want blocked", tt.args, m)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a forbidden call ran its program")
	}
}

// TestCatalogErrorIsConfigurationError: a catalog that cannot be loaded is a domain
// outcome naming the problem, as in workflow_plan.
func TestCatalogErrorIsConfigurationError(t *testing.T) {
	t.Parallel()
	m := call(t, env(t, "", "broken: {description: d, tools: []}"), tools.Args{"capability": "broken"})
	if m["status"] != "configuration_error" || !strings.Contains(m["error"].(string), "capability catalog could not be loaded") ||
		!strings.Contains(m["error"].(string), `capability "broken"`) {
		t.Fatalf("got %v", m)
	}
}

// echoed is the plan's identity field f: execute_arguments' expected_f when the plan
// has execute_arguments, else the plan's own f (a forbidden plan has none to run).
func echoed(plan map[string]any, f string) any {
	if ea, ok := plan["execute_arguments"].(map[string]any); ok {
		return ea["expected_"+f]
	}
	return plan[f]
}

// TestPlanSaysEachThingOnce: a plan carries what execution needs, each once (issue 24):
// the argv, and execute_arguments with the identity; not the executable and identity
// again, nor a rendering of the argv, the configured tool's name, the catalog's
// description, the approval flag safety_class implies, a base class equal to the
// effective one, or the default timeout. A plan without execute_arguments (forbidden)
// keeps its identity; a base class raised by extra_args stays.
func TestPlanSaysEachThingOnce(t *testing.T) {
	t.Parallel()
	dir, path := toolDir(t, "go", "#!/bin/sh\n")
	real, _ := filepath.EvalSymlinks(path)
	cat := "wipe: {description: d, safety: forbidden, tools: [{name: go, argv: [go, clean]}]}\n" +
		"vet: {description: d, safety: reversible, tools: [{name: go, argv: [go, vet]}]}\n"
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		name    string
		args    tools.Args
		keys    []string
		argKeys []string
	}{
		{"plan", tools.Args{"capability": "vet"},
			[]string{"argv", "capability", "execute_arguments", "execution_started", "safety_class", "status"},
			[]string{"capability", "cwd", "execute", "expected_executable", "expected_executable_identity_kind", "expected_executable_identity_sha256"}},
		{"timeout and extra_args", tools.Args{"capability": "vet", "timeout_seconds": 30, "extra_args": []any{"./..."}},
			[]string{"argv", "base_safety_class", "capability", "execute_arguments", "execution_started", "safety_class", "status"},
			[]string{"capability", "cwd", "execute", "expected_executable", "expected_executable_identity_kind", "expected_executable_identity_sha256", "extra_args", "timeout_seconds"}},
		{"forbidden", tools.Args{"capability": "wipe"},
			[]string{"argv", "capability", "executable", "executable_identity_kind", "executable_identity_sha256", "execution_started", "safety_class", "status"}, nil},
	}
	for _, c := range cases {
		m := call(t, env(t, dir, cat), c.args)
		if d := cmp.Diff(c.keys, keys(m)); d != "" {
			t.Errorf("%s: keys (-want +got):\n%s\n%v", c.name, d, m)
		}
		ea, _ := m["execute_arguments"].(map[string]any)
		if d := cmp.Diff(c.argKeys, keys(ea)); d != "" {
			t.Errorf("%s: execute_arguments keys (-want +got):\n%s", c.name, d)
		}
		if echoed(m, "executable") != real || len(echoed(m, "executable_identity_sha256").(string)) != 64 {
			t.Errorf("%s: identity %v", c.name, m)
		}
	}
}
