package main

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinksNoSDKNorTools: the hook binary must not link the MCP SDK, a tool package, the
// schema machinery, the MCP core, SHA-256 hashing or the OpenTelemetry export: each would add package initialisation to a process
// that hosts start on every tool call.
func TestLinksNoSDKNorTools(t *testing.T) {
	t.Parallel()
	// go/build lists module packages with the go command, which a Windows test binary
	// run under Wine has not got; Linux and the windows-latest job run this.
	if !goOnPath() {
		t.Skip("needs the go command on PATH")
	}
	forbidden := []string{
		"github.com/modelcontextprotocol/go-sdk",
		"github.com/invopop/jsonschema",
		"github.com/google/jsonschema-go",
		"github.com/windows-dev-agent/wda/runtime",
		"github.com/windows-dev-agent/wda/schema",
		"github.com/windows-dev-agent/wda/tools/",
		"net/http",
		// The managed policy is read on every call of this server's tools, its hash
		// only by the long-lived commands (internal/policy/inforce, docs/policy.md).
		"github.com/windows-dev-agent/wda/internal/policy/inforce",
		"crypto/sha256",
		// The audit export (docs/telemetry.md) links the OpenTelemetry SDK and gRPC,
		// whose initialisation a hook must never pay.
		"github.com/windows-dev-agent/wda/internal/auditexport",
		"go.opentelemetry.io",
		"google.golang.org/grpc",
	}
	seen := map[string]bool{}
	var walk func(path string)
	walk = func(path string) {
		if seen[path] || path == "C" {
			return
		}
		seen[path] = true
		pkg, err := build.Import(path, ".", 0)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			walk(imp)
		}
	}
	walk("github.com/windows-dev-agent/wda/cmd/wda-hook")
	for p := range seen {
		for _, f := range forbidden {
			if p == f || strings.HasPrefix(p, f+"/") || (strings.HasSuffix(f, "/") && strings.HasPrefix(p, f)) {
				t.Errorf("wda-hook links %s", p)
			}
		}
	}
	if !seen["github.com/windows-dev-agent/wda/host/hook"] {
		t.Fatal("the walk did not reach host/hook; the test is not looking at the binary")
	}
}

// goOnPath reports whether a go command is on PATH. It looks by hand: only internal/proc
// may import os/exec (docs/process-runner.md).
func goOnPath() bool {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		for _, name := range []string{"go", "go.exe"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
				return true
			}
		}
	}
	return false
}
