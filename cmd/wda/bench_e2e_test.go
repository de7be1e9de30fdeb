package main

// Process-level benchmarks against the real binary. They report ratios next to floors
// measured in the same run (the claims are ratios, not absolute times):
//
//	go test -run '^$' -bench . -benchtime 200x ./cmd/wda

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// medianRun starts argv n times with stdin and returns the median wall time.
func medianRun(b *testing.B, n int, stdin []byte, env []string, argv ...string) time.Duration {
	b.Helper()
	d := make([]time.Duration, 0, n)
	for range n {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(stdin)
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v", argv, err)
		}
		d = append(d, time.Since(start))
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkHookProcess measures a Claude PreToolUse hook process answering a read-only
// event, next to /bin/true (the floor of any process) and `python3 -I -c pass` (the
// floor of any Python hook).
func BenchmarkHookProcess(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) here")
	}
	event := []byte(`{"session_id":"bench","tool_name":"PowerShell","tool_input":{"command":"Get-ChildItem C:\\src"}}`)
	env := append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+b.TempDir())
	n := max(b.N, 20)
	b.ResetTimer()
	hook := medianRun(b, n, event, env, wdaBin, "hook", "claude", "pre-tool-use")
	floor := medianRun(b, n, nil, env, truePath)
	b.ReportMetric(float64(hook.Microseconds()), "hook-µs")
	b.ReportMetric(float64(floor.Microseconds()), "true-µs")
	b.ReportMetric(float64(hook)/float64(floor), "hook/true")
	// python3 as found on PATH may be a version-manager shim (pyenv's is a shell
	// script); the interpreter itself is measured too, as the honest floor.
	if py, err := exec.LookPath("python3"); err == nil {
		pyd := medianRun(b, n, nil, env, py, "-I", "-c", "pass")
		b.ReportMetric(float64(pyd)/float64(hook), "python3-on-PATH/hook")
		if out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output(); err == nil {
			real := strings.TrimSpace(string(out))
			pyd = medianRun(b, n, nil, env, real, "-I", "-c", "pass")
			b.ReportMetric(float64(pyd.Microseconds()), "python-µs")
			b.ReportMetric(float64(pyd)/float64(hook), "python/hook")
		}
	}
}

// BenchmarkColdStartToolsList is server start to the first tools/list answer.
func BenchmarkColdStartToolsList(b *testing.B) {
	for b.Loop() {
		cs, _ := listedServer(b)
		cs.Close()
	}
}

// listedServer starts wda mcp, connects and answers one tools/list.
func listedServer(b *testing.B) (*mcp.ClientSession, *exec.Cmd) {
	b.Helper()
	ctx := context.Background()
	cmd := exec.Command(wdaBin, "mcp")
	cmd.Env = append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+b.TempDir())
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		b.Fatal(err)
	}
	return cs, cmd
}

// BenchmarkStdioWorkflowPlanPercentiles reports p50 and p99 of single workflow_plan
// round trips over stdio.
func BenchmarkStdioWorkflowPlanPercentiles(b *testing.B) {
	cs := startServer(b, "2025-06-18")
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "workflow_plan", Arguments: map[string]any{"task": "run the go tests"}}
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(start))
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkIdleServerRSS reports the peak resident set of a server that initialised and
// listed its tools (Linux: VmHWM from /proc).
func BenchmarkIdleServerRSS(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc")
	}
	var peak float64
	for b.Loop() {
		cs, cmd := listedServer(b)
		status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "status"))
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
				peak = max(peak, kb/1024)
			}
		}
		cs.Close()
	}
	b.ReportMetric(peak, "peak-RSS-MiB")
}
