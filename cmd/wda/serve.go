package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/stdio"
	"github.com/windows-dev-agent/wda/runtime"
)

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("wda mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hostName := fs.String("host", "generic", "host adapter: "+strings.Join(config.Hosts, ", "))
	dataDir := fs.String("data-dir", "", "data directory (default: WINDOWS_DEV_AGENT_DATA_DIR or the host's own)")
	project := fs.String("project", "", "project directory of the generic host (default: WINDOWS_DEV_AGENT_PROJECT_DIR or the current directory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	s, err := newSession(*hostName, config.Flags{DataDir: *dataDir, ProjectDir: *project}, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "wda mcp: %v\n", err)
		return 2
	}
	startup(s, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv := runtime.NewServer(s.reg, s.opts)
	err = srv.Run(ctx, &stdio.Transport{In: stdin, Out: stdout})
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
		fmt.Fprintf(stderr, "wda mcp: %v\n", err)
		return 1
	}
	return 0
}

// callTool runs one tool through the same server, pipeline and audit as `wda mcp`,
// over an in-memory connection.
func callTool(ctx context.Context, s *session, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	srv := runtime.NewServer(s.reg, s.opts)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wda-cli", Version: wda.Version}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	var a any = map[string]any{}
	if len(args) > 0 {
		a = args
	}
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: a})
}

// structured returns the result's structured content as a map.
func structured(res *mcp.CallToolResult) map[string]any {
	if m, ok := res.StructuredContent.(map[string]any); ok {
		return m
	}
	var m map[string]any
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && json.Unmarshal([]byte(tc.Text), &m) == nil {
			return m
		}
	}
	return nil
}
