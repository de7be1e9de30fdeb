package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools/all"
)

// BenchmarkCall measures one tools/call through the whole pipeline (decode, validate,
// bind, classify, handler, result, audit) over an in-memory connection, for the two
// calls a model makes most: a capability_run plan and a workflow_plan.
//
//	go test -run '^$' -bench Call -benchmem ./runtime
func BenchmarkCall(b *testing.B) {
	project := b.TempDir()
	bin := b.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}
	srv := runtime.NewServer(all.New(all.Config{}), runtime.Options{DataDir: b.TempDir(), ProjectDir: project, Getenv: getenv})
	cs := mcptest.Connect(b, srv)
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"capability_run", map[string]any{"capability": "test-go"}},
		{"workflow_plan", map[string]any{"task": "run the go tests"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			params := &mcp.CallToolParams{Name: c.name, Arguments: c.args}
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), params)
				if err != nil || res.IsError {
					b.Fatalf("%v %v", res, err)
				}
			}
		})
	}
}
