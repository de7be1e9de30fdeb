// Command mcpsession drives `wda mcp` over stdio with the MCP Go SDK's client for a
// scripted session of the audit export (docs/telemetry.md): it lists the tools and makes
// a few calls, then closes the session. Not shipped.
//
//	go run ./internal/auditexport/testdata/mcpsession /path/to/wda
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpsession", Version: "1"}, nil)
	cmd := exec.Command(os.Args[1], "mcp", "--host", "generic")
	cmd.Stderr = os.Stderr
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatal(err)
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"env_inspect", map[string]any{}},
		{"capability_run", map[string]any{"capability": "no.such.capability"}},
		{"capability_run", map[string]any{"capability": "git.status", "extra": "--token=s3cr3t-in-args"}},
		{"logs_query", map[string]any{"limit": 3}},
		{"workflow_plan", map[string]any{"goal": "install git with secret s3cr3t-in-args"}},
	}
	for _, call := range calls {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
		if err != nil {
			fmt.Printf("%s: error %v\n", call.tool, err)
			continue
		}
		fmt.Printf("%s: isError=%v\n", call.tool, res.IsError)
	}
	if err := cs.Close(); err != nil {
		log.Print(err)
	}
}
