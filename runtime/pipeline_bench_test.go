package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools/all"
)

// BenchmarkPipeline is the server's own share of a call: the pipeline from the raw
// arguments to the encoded result and the audit record, without a transport.
//
//	go test -run '^$' -bench Pipeline -benchmem ./runtime
func BenchmarkPipeline(b *testing.B) {
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
	opts := Options{DataDir: b.TempDir(), ProjectDir: b.TempDir(), Getenv: getenv}.filled()
	reg := all.New(all.Config{})
	for name, args := range map[string]string{
		"capability_run": `{"capability":"test-go"}`,
		"workflow_plan":  `{"task":"run the go tests"}`,
	} {
		t, _ := reg.Lookup(name)
		p := &pipeline{tool: t, schemas: schema.Of(t), opts: opts}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: json.RawMessage(args)}}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := p.handle(context.Background(), req)
				if err != nil || res.IsError {
					b.Fatalf("%v %v", res, err)
				}
			}
		})
	}
}
