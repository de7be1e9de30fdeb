package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/windows-dev-agent/wda/runtime"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/stdio"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

// options builds the server options every command shares: the host, the data dir, the
// project dir and the audit sink.
func options(hostName, dataDir string, getenv func(string) string) (runtime.Options, error) {
	if dataDir != "" {
		// Adapters read the data dir from the environment per call (Codex rebinds it);
		// --data-dir wins by answering for that variable, never by setting process env.
		base := getenv
		getenv = func(k string) string {
			if k == "WINDOWS_DEV_AGENT_DATA_DIR" {
				return dataDir
			}
			return base(k)
		}
	}
	h, err := hostByName(hostName, getenv)
	if err != nil {
		return runtime.Options{}, err
	}
	catalog := wda.CapabilitiesYAML
	if p := getenv("WINDOWS_DEV_AGENT_CATALOG"); p != "" {
		// A replacement catalog is read once at start-up; a bad path is a start-up error,
		// a bad catalog surfaces per call as configuration_error / a clear error.
		if catalog, err = os.ReadFile(p); err != nil {
			return runtime.Options{}, fmt.Errorf("WINDOWS_DEV_AGENT_CATALOG: %w", err)
		}
	}
	env := tools.Env{Getenv: getenv, DataDir: dataDirFor(h, dataDir, getenv), Catalog: catalog}
	return runtime.Options{Host: h, Env: env, Audit: auditSink()}, nil
}

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("wda mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := fs.String("host", "generic", "host adapter: claude, codex or generic")
	dataDir := fs.String("data-dir", "", "data directory (default: WINDOWS_DEV_AGENT_DATA_DIR or the user cache dir)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	opts, err := options(*host, *dataDir, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "wda mcp: %v\n", err)
		return 2
	}
	startup(opts, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	srv := runtime.NewServer(tools.Default(), opts)
	err = srv.Run(ctx, &stdio.Transport{In: stdin, Out: stdout})
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) && !errors.Is(err, mcp.ErrConnectionClosed) {
		fmt.Fprintf(stderr, "wda mcp: %v\n", err)
		return 1
	}
	return 0
}

// callTool runs one tool through the same server, gate and audit as `wda mcp`, over an
// in-memory connection.
func callTool(ctx context.Context, opts runtime.Options, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	srv := runtime.NewServer(tools.Default(), opts)
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
