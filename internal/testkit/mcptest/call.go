// Package mcptest holds the test helpers that need the MCP core: a tool called through
// the real pipeline in process (Call, CallResult) and a connected in-memory client
// (Connect). They live apart from package testkit so that packages the core depends
// on can still use testkit's file and schema helpers in their own tests.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/claude"
	"github.com/windows-dev-agent/wda/host/codex"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

// Call runs tool with args through the pipeline a host's call takes (validation, the
// project binding of env.Host — generic unless "claude" or "codex" — in
// env.ProjectDir, classification, the handler), over an in-memory MCP connection, and
// returns the structured result checked against the output schema, as a map and as
// compact JSON. No audit record is written. A protocol error ends the test.
func Call(t testing.TB, tool tools.Tool, env *tools.Env, args tools.Args) (map[string]any, []byte) {
	t.Helper()
	res := CallResult(t, tool, env, args)
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T", tool.Name(), res.Content[0])
	}
	var m map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if err := testkit.CheckOutput(tool, m); err != nil {
		t.Fatalf("%s output does not conform to its output schema: %v\n%s", tool.Name(), err, b)
	}
	if !res.IsError {
		// The text is the server's own encoding, indented: compact it to keep its order.
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(tc.Text)); err == nil {
			b = c.Bytes()
		}
	}
	return m, b
}

// CallResult is Call returning the whole tool result.
func CallResult(t testing.TB, tool tools.Tool, env *tools.Env, args tools.Args) *mcp.CallToolResult {
	t.Helper()
	if env == nil {
		env = &tools.Env{}
	}
	reg := tools.New()
	reg.Register(tool)
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var h host.Host
	switch env.Host {
	case "claude":
		h = claude.New(env.ProjectDir, getenv)
	case "codex":
		h = codex.New(env.DataDir)
	default:
		h = host.NewGeneric(env.ProjectDir, getenv)
	}
	srv := runtime.NewServer(reg, runtime.Options{Host: h, DataDir: env.DataDir, ProjectDir: env.ProjectDir,
		Getenv: getenv, Audit: discard{}})
	cs := Connect(t, srv)
	if args == nil {
		args = tools.Args{}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool.Name(), Arguments: map[string]any(args)})
	if err != nil {
		t.Fatalf("%s(%v): %v", tool.Name(), args, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: empty content", tool.Name())
	}
	return res
}

type discard struct{}

func (discard) RecordCall(context.Context, runtime.CallRecord) {}
