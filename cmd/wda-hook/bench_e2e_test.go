package main

// Process-level benchmarks of the hooks as the hosts start them. Every figure is a
// median of rounds in which each candidate runs once, in an order that rotates from
// round to round (A B C, B C A, …), so all of them see the same load; the claims are
// the ratios (BENCHMARKS.md), and nothing here asserts a time.
//
//	go tool mage release   # optional: measure dist/release's own binary
//	go test -run '^$' -bench . -benchtime 400x ./cmd/wda-hook

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"

	"testing"
	"time"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// releaseBuild builds pkg (relative to the module root) with the release's flags
// (docs/release.md): what dist/release ships, less the recorded VCS stamp.
func releaseBuild(b *testing.B, pkg, name string) string {
	b.Helper()
	out := filepath.Join(b.TempDir(), name)
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", out, pkg)
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building %s: %v\n%s", pkg, err, msg)
	}
	return out
}

// shippedHook is dist/release's wda-hook for this machine when `go tool mage release`
// has run, else WDA_HOOK_BINARY, else a release-flags build of this checkout. dispatch
// is the POSIX sh script the hosts start on Linux and macOS ("" elsewhere).
func shippedHook(b *testing.B) (binary, dispatch string) {
	if p := os.Getenv("WDA_HOOK_BINARY"); p != "" {
		return p, ""
	}
	bin := filepath.Join("..", "..", "dist", "release", "claude", "bin")
	switch {
	case runtime.GOOS == "windows" && runtime.GOARCH == "amd64":
		binary = filepath.Join(bin, "wda-hook.exe")
	case runtime.GOOS == "windows":
		binary = filepath.Join(bin, "windows-"+runtime.GOARCH, "wda-hook.exe")
	default:
		binary = filepath.Join(bin, runtime.GOOS+"-"+runtime.GOARCH, "wda-hook")
		dispatch = filepath.Join(bin, "wda-hook")
	}
	if _, err := os.Stat(binary); err != nil {
		b.Logf("no dist/release (run go tool mage release to measure its bytes): building with the release flags")
		return releaseBuild(b, "./cmd/wda-hook", "wda-hook"), ""
	}
	return binary, dispatch
}

// candidate is one process to time: argv with stdin, and a check of its stdout.
type candidate struct {
	name  string
	argv  []string
	stdin []byte
	check func(stdout []byte) error
}

// interleave runs every candidate once per round for rounds rounds, rotating the
// order, and returns each one's median wall time.
func interleave(b *testing.B, rounds int, cs []candidate) map[string]time.Duration {
	b.Helper()
	times := make([][]time.Duration, len(cs))
	for r := range rounds {
		for k := range cs {
			i := (r + k) % len(cs)
			c := cs[i]
			cmd := exec.Command(c.argv[0], c.argv[1:]...)
			cmd.Stdin = bytes.NewReader(c.stdin)
			var out bytes.Buffer
			cmd.Stdout = &out
			start := time.Now()
			err := cmd.Run()
			d := time.Since(start)
			if err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
			if c.check != nil {
				if err := c.check(out.Bytes()); err != nil {
					b.Fatalf("%s: %v", c.name, err)
				}
			}
			times[i] = append(times[i], d)
		}
	}
	med := map[string]time.Duration{}
	for i, c := range cs {
		slices.Sort(times[i])
		med[c.name] = times[i][len(times[i])/2]
	}
	return med
}

func silent(out []byte) error {
	if len(out) != 0 {
		return fmt.Errorf("answered a read-only event with %q", out)
	}
	return nil
}

func report(b *testing.B, med map[string]time.Duration, ratios [][2]string) {
	for name, d := range med {
		b.ReportMetric(float64(d.Microseconds()), name+"-µs")
	}
	for _, r := range ratios {
		if med[r[0]] > 0 && med[r[1]] > 0 {
			b.ReportMetric(float64(med[r[0]])/float64(med[r[1]]), r[0]+"/"+r[1])
		}
	}
}

// BenchmarkShippedHookProcess is the shipped wda-hook answering a Claude PreToolUse
// event for a read-only PowerShell command (no output: the common case on every shell
// call) beside its floors: /bin/true (any process), gofloor (a Go program that only
// decodes the same event) and a clean CPython importing what any Python hook imports
// (`/usr/bin/python3 -I -c "import json, re"`), and on Linux and macOS the dispatch
// script the hosts start there.
func BenchmarkShippedHookProcess(b *testing.B) {
	binary, dispatch := shippedHook(b)
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) here")
	}
	floor := releaseBuild(b, "./cmd/wda-hook/testdata/gofloor", "gofloor")
	event := []byte(`{"session_id":"bench","hook_event_name":"PreToolUse","tool_name":"PowerShell","tool_input":{"command":"Get-ChildItem C:\\src"}}`)
	args := []string{"claude", "pre-tool-use", "--data-dir", b.TempDir()}
	cs := []candidate{
		{name: "hook", argv: append([]string{binary}, args...), stdin: event, check: silent},
		{name: "true", argv: []string{truePath}},
		{name: "gofloor", argv: []string{floor}, stdin: event},
	}
	if dispatch != "" {
		cs = append(cs, candidate{name: "dispatch", argv: append([]string{dispatch}, args...), stdin: event, check: silent})
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		cs = append(cs, candidate{name: "python", argv: []string{"/usr/bin/python3", "-I", "-c", "import json, re"}, stdin: event})
	}
	b.ResetTimer()
	med := interleave(b, max(b.N, 20), cs)
	b.StopTimer()
	report(b, med, [][2]string{{"hook", "true"}, {"hook", "gofloor"}, {"gofloor", "true"}, {"dispatch", "true"}, {"python", "hook"}})
}

// BenchmarkShippedStopHook is the Claude Stop hook at the audit log's retention bound
// (two full 2 MiB segments, about 4 MiB), beside /bin/true: "1pct" where one record in
// a hundred is the session's (many sessions share the log), "all" where every record
// is (the worst case: one session filled the log, and the summary decodes all of it).
func BenchmarkShippedStopHook(b *testing.B) {
	binary, _ := shippedHook(b)
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) here")
	}
	const sid = "0f8e2d4c-6b1a-4e5f-9c3d-2a7b8e9f0a1b"
	event := []byte(`{"session_id":"` + sid + `","hook_event_name":"Stop","stop_hook_active":false}`)
	summary := func(out []byte) error {
		if !bytes.Contains(out, []byte("systemMessage")) {
			return fmt.Errorf("no summary in %q", out)
		}
		return nil
	}
	for _, c := range []struct {
		name  string
		every int
	}{{"1pct", 100}, {"all", 1}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			fillLog(b, dir, sid, c.every)
			cs := []candidate{
				{name: "stop", argv: []string{binary, "claude", "stop", "--data-dir", dir}, stdin: event, check: summary},
				{name: "true", argv: []string{truePath}},
			}
			b.ResetTimer()
			med := interleave(b, max(b.N, 20), cs)
			b.StopTimer()
			report(b, med, [][2]string{{"stop", "true"}})
		})
	}
}

// fillLog appends realistic records until both segments are full; every every-th is
// session sid's.
func fillLog(b *testing.B, dir, sid string, every int) {
	b.Helper()
	for i := 0; ; i++ {
		r := audit.Record{
			Event: audit.EventPostToolUse, Success: new(true), ExecutionStarted: new(true),
			ExecutionOutcome: audit.Succeeded, ResultStatus: new("completed"),
			SessionID: fmt.Sprintf("%08x-6b1a-4e5f-9c3d-2a7b8e9f0a1b", i),
			ToolName:  "mcp__plugin_windows-dev-agent_windows-dev-agent__capability_run",
			ToolUseID: fmt.Sprintf("toolu_01ABCDEFGHIJKLMNOPQRSTU%04d", i%10000), DurationMS: new(1234.5), ErrorPresent: new(false),
		}
		if i%every == 0 {
			r.SessionID = sid
		}
		if err := audit.Append(dir, r); err != nil {
			b.Fatal(err)
		}
		if i%64 != 0 {
			continue
		}
		prev, errPrev := os.Stat(filepath.Join(dir, audit.PrevName))
		cur, errCur := os.Stat(filepath.Join(dir, audit.LogName))
		if errPrev == nil && errCur == nil && prev.Size() >= audit.SegmentLimit-4096 && cur.Size() >= audit.SegmentLimit-4096 {
			return
		}
	}
}
