package main

// Process-level benchmarks against the real binary. They report ratios next to floors
// measured in the same run (the claims are ratios, not absolute times):
//
//	go test -run '^$' -bench . -benchtime 200x ./cmd/wda
//
// The binary is built with the release flags (e2e_test.go's TestMain).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
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

// BenchmarkColdStartToolsList is a server's start to its first tools/list answer, as a
// client sees it (process start, initialize, tools/list), in rounds alternating with
// /bin/true so the ratio is against a floor measured under the same load. The hooks'
// process figures are in cmd/wda-hook.
func BenchmarkColdStartToolsList(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) here")
	}
	runTrue := func() time.Duration {
		t0 := time.Now()
		if err := exec.Command(truePath).Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var start, floor []time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			floor = append(floor, runTrue())
		}
		t0 := time.Now()
		cs, _ := listedServer(b)
		start = append(start, time.Since(t0))
		cs.Close()
		if i%2 == 1 {
			floor = append(floor, runTrue())
		}
	}
	b.StopTimer()
	s, f := median(start), median(floor)
	b.ReportMetric(float64(s.Microseconds())/1000, "start-ms")
	b.ReportMetric(float64(f.Microseconds())/1000, "true-ms")
	b.ReportMetric(float64(s)/float64(f), "start/true")
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
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

// BenchmarkStdioWorkflowPlanLines is the same round trip with a client that costs
// next to nothing: it writes each request as one line and reads the answer's line,
// decoding only the first answer in full (to check it is a plan) and, after that,
// checking each line's id and that it holds a result. It is the server's latency
// over stdio; the go-sdk client above adds its own decoding of the 28 KB answer, which
// a host's client does in its own time.
func BenchmarkStdioWorkflowPlanLines(b *testing.B) {
	cmd := exec.Command(wdaBin, "mcp", "--host", "generic")
	cmd.Env = append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+b.TempDir(), "WINDOWS_DEV_AGENT_PROJECT_DIR="+repoRoot(b))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	lines := bufio.NewReaderSize(stdout, 1<<16)
	send := func(msg string) {
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	answer := func(id int) []byte {
		line, err := lines.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":`+strconv.Itoa(id)+`,"result":`)) {
			b.Fatalf("answer to %d: %.200s", id, line)
		}
		return line
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`)
	answer(0)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call := func(id int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"workflow_plan","arguments":{"task":"run the go tests"}}}`
	}
	send(call(1))
	var first struct {
		Result struct {
			StructuredContent struct {
				Status string `json:"status"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(answer(1), &first); err != nil || first.Result.StructuredContent.Status != "planned" {
		b.Fatalf("first answer: %+v %v", first, err)
	}
	d := make([]time.Duration, 0, b.N)
	id := 1
	for b.Loop() {
		id++
		msg := call(id)
		start := time.Now()
		send(msg)
		answer(id)
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
