// Command mcpsession drives `wda mcp` over stdio with the MCP Go SDK's client for a
// scripted session of the audit export (docs/telemetry.md): it lists the tools and makes
// a few calls, then closes the session. Not shipped.
//
//	go run ./internal/auditexport/testdata/mcpsession /path/to/wda
//	go run ./internal/auditexport/testdata/mcpsession http://127.0.0.1:8765/mcp TOKEN  (wda serve --http)
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpsession", Version: "1"}, nil)
	var tr mcp.Transport
	if strings.HasPrefix(os.Args[1], "http") {
		hc := &http.Client{Transport: bearer{os.Args[2]}}
		tr = &mcp.StreamableClientTransport{Endpoint: os.Args[1], HTTPClient: hc}
	} else {
		cmd := exec.Command(os.Args[1], "mcp", "--host", "generic")
		cmd.Stderr = os.Stderr
		tr = &mcp.CommandTransport{Command: cmd}
	}
	cs, err := c.Connect(ctx, tr, nil)
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

// bearer adds the token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
