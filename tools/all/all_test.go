package all_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/runtime"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

func TestRegistryOrder(t *testing.T) {
	want := []string{"env_inspect", "tool_discover", "capability_run", "workflow_plan", "package_search",
		"package_install", "sandbox_run", "ecosystem_scan", "logs_query", "mcp_audit"}
	if diff := cmp.Diff(want, runtime.Default().Names()); diff != "" {
		t.Fatalf("registry order (-want +got):\n%s", diff)
	}
}

func TestServerLists(t *testing.T) {
	ctx := context.Background()
	srv := runtime.NewServer(runtime.Default(), runtime.Options{Env: runtime.Env{DataDir: t.TempDir(), ProjectDir: t.TempDir()}})
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 10 {
		t.Fatalf("got %d tools", len(res.Tools))
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "env_inspect", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", r.Content[0].(*mcp.TextContent).Text)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "env_inspect", Arguments: map[string]any{"force_refresh": "false"}})
	t.Logf("err=%v", err)
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "logs_query", Arguments: map[string]any{"last_n": 120.0}})
	t.Logf("err=%v", err)
}
