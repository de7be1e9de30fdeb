// Package hosttest holds test helpers for the host adapters: a registry of probe tools
// that echo what the gate bound, and a connected in-memory MCP client.
package hosttest

import (
	"context"
	"encoding/json"
	"github.com/windows-dev-agent/wda/runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/tools"
)

// ProjectIn is the input of the project-scoped probe.
type ProjectIn struct {
	Cwd     string `json:"cwd,omitempty" jsonschema:"description=Project directory."`
	Execute bool   `json:"execute,omitempty" jsonschema:"default=false,description=Plan or run."`
}

// PlainIn is the input of the probe that is not project-scoped.
type PlainIn struct {
	Path string `json:"path,omitempty" jsonschema:"description=Any path, passed through."`
}

// Out echoes what the handler saw.
type Out struct {
	tools.Status
	Cwd        string `json:"cwd,omitempty"`
	Path       string `json:"path,omitempty"`
	ProjectDir string `json:"project_dir,omitempty"`
	DataDir    string `json:"data_dir,omitempty"`
	Host       string `json:"host,omitempty"`
}

// Registry holds "scoped" (ProjectArg cwd) and "plain" (not project-scoped).
func Registry() *tools.Registry {
	reg := tools.New()
	reg.Register(tools.Define(tools.Def[ProjectIn, Out]{
		Name: "scoped", Description: "project-scoped probe", ProjectArg: "cwd",
		Classes: tools.Classification{Base: tools.ReadOnly}, Statuses: []string{"ok"},
		Handle: func(_ context.Context, env *tools.Env, in ProjectIn) (Out, error) {
			return Out{Status: tools.Status{Status: "ok"}, Cwd: in.Cwd, ProjectDir: env.Project.Path, DataDir: env.DataDir, Host: env.Host}, nil
		},
	}))
	reg.Register(tools.Define(tools.Def[PlainIn, Out]{
		Name: "plain", Description: "plain probe",
		Classes: tools.Classification{Base: tools.ReadOnly}, Statuses: []string{"ok"},
		Handle: func(_ context.Context, env *tools.Env, in PlainIn) (Out, error) {
			return Out{Status: tools.Status{Status: "ok"}, Path: in.Path, ProjectDir: env.ProjectDir, DataDir: env.DataDir, Host: env.Host}, nil
		},
	}))
	return reg
}

// Session is a connected client.
type Session struct{ *mcp.ClientSession }

// Open serves reg with opts over in-memory transports and returns a connected client.
func Open(t testing.TB, reg *tools.Registry, opts runtime.Options) *Session {
	t.Helper()
	ctx := context.Background()
	srv := runtime.NewServer(reg, opts)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "hosttest", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return &Session{cs}
}

// Call calls a tool and returns its structured result, failing the test on a
// protocol error.
func (cs *Session) Call(t testing.TB, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: structured content is not a JSON object: %v", name, err)
	}
	return m
}

// NoAudit is an audit sink that records nothing.
type NoAudit struct{}

// RecordCall drops rec.
func (NoAudit) RecordCall(context.Context, runtime.CallRecord) {}

// Env returns a getenv over m.
func Env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
