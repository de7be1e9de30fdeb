package main

// End-to-end tests against the real binary over stdio. This file (and only files named
// *e2e*_test.go under cmd/) may use os/exec: the go-sdk's CommandTransport needs an
// *exec.Cmd to spawn the server the way a host does.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda"
)

var wdaBin string

func TestMain(m *testing.M) {
	holdIfAsked()
	dir, err := os.MkdirTemp("", "wda-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Under Wine the test binary cannot run the Linux go tool, so CI builds wda.exe
	// beforehand and names it here.
	if prebuilt := os.Getenv("WDA_TEST_BINARY"); prebuilt != "" {
		wdaBin = prebuilt
	} else {
		wdaBin = filepath.Join(dir, "wda")
		if goruntime.GOOS == "windows" {
			wdaBin += ".exe"
		}
		// The release flags (docs/release.md), so the tests and the process-level
		// benchmarks exercise the binary users get: static, no cgo, trimmed paths.
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", wdaBin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building wda:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the module root (two levels up from cmd/wda).
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func startServer(t testing.TB, version string, extraEnv ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(wdaBin, "mcp", "--host", "generic")
	cmd.Env = append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+t.TempDir(), "WINDOWS_DEV_AGENT_PROJECT_DIR="+repoRoot(t))
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestE2EStdio(t *testing.T) {
	want := []string{"capability_run", "ecosystem_scan", "env_inspect", "logs_query", "mcp_audit",
		"package_install", "package_search", "sandbox_run", "tool_discover", "workflow_plan"}
	for _, version := range []string{"2025-06-18", ""} {
		name := version
		if name == "" {
			name = "latest"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			cs := startServer(t, version)
			init := cs.InitializeResult()
			if init == nil || init.ServerInfo == nil || init.ServerInfo.Name != wda.ServerName || init.ServerInfo.Version != wda.Version {
				t.Fatalf("serverInfo = %+v", init)
			}
			if version != "" && init.ProtocolVersion != version {
				t.Fatalf("negotiated %q, asked %q", init.ProtocolVersion, version)
			}
			lt, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range lt.Tools {
				names = append(names, tl.Name)
				if tl.Annotations == nil || tl.OutputSchema == nil {
					t.Errorf("%s lacks annotations or an output schema", tl.Name)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, want) {
				t.Fatalf("tools = %v", names)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "workflow_plan", Arguments: map[string]any{"task": "run the go tests"}})
			if err != nil {
				t.Fatal(err)
			}
			out := res.StructuredContent.(map[string]any)
			if out["status"] != "planned" {
				t.Fatalf("workflow_plan = %v", out)
			}
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "capability_run", Arguments: map[string]any{"capability": "test-go"}})
			if err != nil {
				t.Fatal(err)
			}
			out = res.StructuredContent.(map[string]any)
			if out["status"] != "planned" && out["status"] != "unavailable" {
				t.Fatalf("capability_run plan = %v", out)
			}
		})
	}
}

// BenchmarkStdioWorkflowPlan is one tools/call workflow_plan round trip over the real
// binary's stdio.
func BenchmarkStdioWorkflowPlan(b *testing.B) {
	cs := startServer(b, "2025-06-18")
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "workflow_plan", Arguments: map[string]any{"task": "run the go tests"}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
}
