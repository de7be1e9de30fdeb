package runtime_test

import (
	"context"
	"errors"
	"github.com/windows-dev-agent/wda/runtime"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/tools"
)

const secret = "SECRET-7f3a9c-do-not-log"

type auditIn struct {
	Mode    string   `json:"mode" jsonschema:"required,enum=ok,enum=fail,enum=boom,enum=done,enum=plant"`
	Execute bool     `json:"execute,omitempty" jsonschema:"default=false"`
	Secret  string   `json:"secret,omitempty"`
	Paths   []string `json:"paths,omitempty"`
}

type auditOut struct {
	tools.Status
	Succeeded *bool    `json:"succeeded,omitempty"`
	Stdout    string   `json:"stdout,omitempty"`
	Stderr    string   `json:"stderr,omitempty"`
	Argv      []string `json:"argv,omitempty"`
}

func auditHandle(_ context.Context, _ *tools.Env, in auditIn) (auditOut, error) {
	leak := in.Secret + strings.Join(in.Paths, " ")
	switch in.Mode {
	case "fail":
		return auditOut{Status: tools.Status{Status: "failed", Error: leak, ExecutionStarted: true},
			Stdout: leak, Stderr: leak, Argv: []string{"/bin/" + leak}}, nil
	case "boom":
		return auditOut{}, errors.New("handler exploded: " + leak)
	case "plant": // a status that is not a status word: issue 15.9
		return auditOut{Status: tools.Status{Status: leak}, Stdout: leak}, nil
	case "done":
		if !in.Execute {
			return auditOut{Status: tools.Status{Status: "planned"}, Argv: []string{leak}}, nil
		}
		return auditOut{Status: tools.Status{Status: "completed", ExecutionStarted: true}, Succeeded: new(true), Stdout: leak}, nil
	}
	return auditOut{Status: tools.Status{Status: "ok"}, Stdout: leak}, nil
}

func auditTool(name string, classes tools.Classification, starts tools.Cond) tools.Tool {
	statuses := []string{"ok", "failed", "planned", "completed"}
	if name != "capability_run" {
		// Not plan-first: no execute argument.
		return tools.Define(tools.Def[auditPlainIn, auditOut]{
			Name: name, Order: 1, Title: name, Description: "test probe",
			Classes: classes, Starts: starts, Statuses: statuses,
			Handle: func(ctx context.Context, env *tools.Env, in auditPlainIn) (auditOut, error) {
				return auditHandle(ctx, env, auditIn{Mode: in.Mode, Secret: in.Secret, Paths: in.Paths})
			},
		})
	}
	return tools.Define(tools.Def[auditIn, auditOut]{
		Name: name, Order: 1, Title: name, Description: "test probe",
		Classes: classes, Starts: starts, Statuses: statuses, Handle: auditHandle,
	})
}

type auditPlainIn struct {
	Mode   string   `json:"mode" jsonschema:"required,enum=ok,enum=fail,enum=boom,enum=done,enum=plant"`
	Secret string   `json:"secret,omitempty"`
	Paths  []string `json:"paths,omitempty"`
}

// connect serves reg with the default audit log in dataDir over in-memory transports.
func auditConnect(t *testing.T, reg *tools.Registry, dataDir string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv := runtime.NewServer(reg, runtime.Options{DataDir: dataDir, ProjectDir: t.TempDir(),
		Getenv: func(string) string { return "" }})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func TestSinkOneRecordPerCall(t *testing.T) {
	readOnly := tools.Classification{Base: tools.ReadOnly}
	byExecute := tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{{When: tools.WhenTrue("execute"), Class: tools.ApprovalRequired}}}
	reg := tools.New()
	reg.Register(auditTool("probe", readOnly, tools.NeverCond))
	reg.Register(auditTool("capability_run", byExecute, tools.WhenTrue("execute")))
	reg.Register(auditTool("package_search", tools.Classification{Base: tools.ApprovalRequired}, tools.AlwaysCond))
	reg.Register(auditTool("forbidden_probe", tools.Classification{Base: tools.Forbidden}, tools.NeverCond))

	base := map[string]any{"schema_version": 1.0, "lifecycle_event": "tools/call", "event": "tools/call", "host": "generic"}
	with := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name string
		tool string
		args map[string]any
		want map[string]any
	}{
		{"read-only ok", "probe", map[string]any{"mode": "ok"}, with(map[string]any{
			"tool_name": "probe", "safety_class": "read-only", "lifecycle_success": true, "success": true,
			"execution_started": false, "execution_outcome": "not_applicable", "result_status": "ok", "error_present": false})},
		{"plan", "capability_run", map[string]any{"mode": "done"}, with(map[string]any{
			"tool_name": "capability_run", "safety_class": "read-only", "lifecycle_success": true, "success": true,
			"execution_started": false, "execution_outcome": "not_executed", "result_status": "planned", "error_present": false})},
		{"executed and succeeded", "capability_run", map[string]any{"mode": "done", "execute": true}, with(map[string]any{
			"tool_name": "capability_run", "safety_class": "approval-required", "lifecycle_success": true, "success": true,
			"execution_started": true, "execution_outcome": "succeeded", "result_status": "completed", "error_present": false})},
		{"failed after start, secrets everywhere", "capability_run", map[string]any{"mode": "fail", "execute": true, "secret": secret, "paths": []any{"/home/" + secret}}, with(map[string]any{
			"tool_name": "capability_run", "safety_class": "approval-required", "lifecycle_success": true, "success": true,
			"execution_started": true, "execution_outcome": "failed", "result_status": "failed", "error_present": true})},
		{"handler error: no result, may start", "package_search", map[string]any{"mode": "boom", "secret": secret}, with(map[string]any{
			"tool_name": "package_search", "safety_class": "approval-required", "lifecycle_success": false, "success": false,
			"execution_started": nil, "execution_outcome": "unknown", "result_status": nil, "error_present": true})},
		{"invalid arguments carrying a secret", "probe", map[string]any{"mode": "ok", secret: secret}, with(map[string]any{
			"tool_name": "probe", "safety_class": "approval-required", "lifecycle_success": true, "success": true,
			"execution_started": false, "execution_outcome": "not_executed", "result_status": "invalid_input", "error_present": true,
			"refusal_rule": "unknown_argument"})}, // the argument's name is the caller's text: never kept
		{"a planted status is not established", "probe", map[string]any{"mode": "plant", "secret": secret}, with(map[string]any{
			"tool_name": "probe", "safety_class": "read-only", "lifecycle_success": true, "success": true,
			"execution_started": false, "execution_outcome": "not_applicable", "result_status": nil, "error_present": false})},
		{"forbidden is blocked", "forbidden_probe", map[string]any{"mode": "ok", "secret": secret}, with(map[string]any{
			"tool_name": "forbidden_probe", "safety_class": "forbidden", "lifecycle_success": true, "success": true,
			"execution_started": false, "execution_outcome": "not_executed", "result_status": "blocked", "error_present": true,
			"refusal_rule": "forbidden"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			cs := auditConnect(t, reg, dir)
			_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			recs, err := audit.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 {
				t.Fatalf("got %d records, want exactly 1: %v", len(recs), recs)
			}
			got := recs[0]
			if _, ok := got["ts"].(string); !ok {
				t.Errorf("ts missing: %v", got)
			}
			if d, ok := got["duration_ms"].(float64); !ok || d < 0 {
				t.Errorf("duration_ms = %v, want a non-negative number", got["duration_ms"])
			}
			delete(got, "ts")
			delete(got, "duration_ms")
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("record (-want +got):\n%s", d)
			}
			assertNoLeak(t, dir, secret, dir)
		})
	}
}

// assertNoLeak greps every retained segment for each needle.
func assertNoLeak(t *testing.T, dir string, needles ...string) {
	t.Helper()
	for _, name := range []string{audit.LogName, audit.PrevName} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		for _, n := range needles {
			if strings.Contains(string(data), n) {
				t.Errorf("%s contains %q:\n%s", name, n, data)
			}
		}
	}
}

func TestSinkSwallowsFailures(t *testing.T) {
	// The data dir is a file: the append fails, the call still answers.
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	reg := tools.New()
	reg.Register(auditTool("probe", tools.Classification{Base: tools.ReadOnly}, tools.NeverCond))
	cs := auditConnect(t, reg, file)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"mode": "ok"}})
	if err != nil || res.IsError {
		t.Fatalf("the call failed because the audit failed: %v %v", err, res)
	}
}
