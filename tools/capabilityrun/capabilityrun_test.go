package capabilityrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/windows-dev-agent/wda/runtime"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/capabilityrun"
)

func TestClassify(t *testing.T) {
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
	for _, tt := range tests {
		if got := capabilityrun.Tool.Classify(tt.args); got != tt.want {
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

func env(t *testing.T, pathDir string, cat string) *tools.Env {
	e := &tools.Env{ProjectDir: t.TempDir(), Getenv: func(k string) string {
		if k == "PATH" {
			return pathDir
		}
		return ""
	}}
	if cat != "" {
		e.Catalog = []byte(cat)
	}
	return e
}

func call(t *testing.T, e *tools.Env, args tools.Args) map[string]any {
	t.Helper()
	m, _ := testkit.Call(t, capabilityrun.Tool, e, args)
	return m
}

func TestPlanShippedCapability(t *testing.T) {
	dir, path := toolDir(t, "pytest", "#!/bin/sh\n")
	m := call(t, env(t, dir, ""), tools.Args{"capability": "test-python", "extra_args": []any{}, "execute": false, "timeout_seconds": json.Number("120")})
	real, _ := filepath.EvalSymlinks(path)
	if m["status"] != "planned" || m["executable"] != real || m["tool"] != "pytest" || m["safety_class"] != "reversible" ||
		m["base_safety_class"] != "reversible" || m["requires_host_approval"] != true || m["execution_started"] != false ||
		m["executable_identity_kind"] != "file" || len(m["executable_identity_sha256"].(string)) != 64 {
		t.Fatalf("plan %v", m)
	}
	if argv := m["argv"].([]any); len(argv) != 1 || argv[0] != real {
		t.Errorf("argv %v", argv)
	}
	for _, k := range []string{"succeeded", "returncode", "stdout"} {
		if _, ok := m[k]; ok {
			t.Errorf("a plan carries receipt field %s", k)
		}
	}
}

func TestRefusals(t *testing.T) {
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
			m := call(t, e, tt.args)
			if m["status"] != tt.status || !strings.Contains(m["error"].(string), tt.errSub) || m["execution_started"] != false {
				t.Fatalf("got %v", m)
			}
		})
	}
	if m := call(t, e, tools.Args{"capability": "nope"}); len(m["available"].([]any)) != 9 {
		t.Errorf("available %v", m["available"])
	}
}

func TestForbiddenBlockedByHandler(t *testing.T) {
	// The gate blocks forbidden calls it can classify from the shipped catalog; an
	// embedder's own catalog is still enforced by the engine.
	dir, _ := toolDir(t, "nuker", "#!/bin/sh\n")
	e := env(t, dir, "nuke: {description: d, safety: forbidden, tools: [{name: nuker, argv: [nuker]}]}")
	m := call(t, e, tools.Args{"capability": "nuke", "execute": true})
	if m["status"] != "blocked" || m["error"] != "Capability is forbidden" || m["execution_started"] != false {
		t.Fatalf("got %v", m)
	}
}

func TestCatalogErrorIsProtocolError(t *testing.T) {
	ctx := context.Background()
	reg := tools.New()
	reg.Register(capabilityrun.Tool)
	srv := runtime.NewServer(reg, runtime.Options{Env: tools.Env{DataDir: t.TempDir(), ProjectDir: t.TempDir(),
		Catalog: []byte("broken: {description: d, tools: []}")}})
	cs := testkit.Connect(t, srv)
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "capability_run", Arguments: map[string]any{"capability": "broken"}})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32000 || !strings.Contains(we.Message, "capability catalog could not be loaded") ||
		!strings.Contains(we.Message, `capability "broken"`) {
		t.Fatalf("got %v, want a -32000 error naming the catalog problem", err)
	}
}
