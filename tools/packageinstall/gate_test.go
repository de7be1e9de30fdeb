package packageinstall

import (
	"context"
	"fmt"
	"github.com/windows-dev-agent/wda/runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/pmtest"
)

// TestThroughGate runs plan and execute over MCP: the schema's maxLength refuses a
// 257-character id before the handler (an invalid_input result with isError), and the
// structured result of a plan echoes back into a successful execute.
func TestThroughGate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("winget", pmtest.Config{RequireInvalidated: true})
	reg := tools.New()
	reg.Register(New(DefaultDeps()))
	ctx := context.Background()
	srv := runtime.NewServer(reg, runtime.Options{DataDir: w.Env.DataDir, ProjectDir: w.Env.ProjectDir, Getenv: w.Env.Getenv})
	cs := mcptest.Connect(t, srv)
	call := func(args map[string]any) (map[string]any, error) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "package_install", Arguments: args})
		if err != nil {
			return nil, err
		}
		m, _ := res.StructuredContent.(map[string]any)
		if res.IsError {
			return m, fmt.Errorf("%v", m["error"])
		}
		return m, nil
	}
	if m, err := call(map[string]any{"package_id": strings.Repeat("a", 257)}); err == nil || !strings.Contains(err.Error(), "package_id") || m["status"] != "invalid_input" {
		t.Errorf("257 characters: %v, err = %v", m, err)
	}
	if m, err := call(map[string]any{"package_id": "-x"}); err == nil || !strings.Contains(err.Error(), "package_id must match") {
		t.Errorf("an id starting with '-': %v, err = %v", m, err)
	}
	p, err := call(map[string]any{"package_id": "Contoso.App"})
	if err != nil || p["status"] != "planned" || p["execution_started"] != false {
		t.Fatalf("plan: %v %v", p, err)
	}
	// The plan says the identity once, in execute_arguments, which are passed back.
	if _, has := p["executable"]; has {
		t.Errorf("the plan restates the executable outside execute_arguments: %v", p)
	}
	out, err := call(p["execute_arguments"].(map[string]any))
	if err != nil || out["status"] != "completed" || out["environment_cache_invalidated"] != true || out["returncode"] != float64(0) {
		t.Fatalf("execute: %v %v", out, err)
	}
	if _, ran := w.Ran(); !ran {
		t.Error("the fake never ran")
	}
}
