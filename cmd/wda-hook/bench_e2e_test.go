package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// shippedHook is the wda-hook a release ships for this machine (go tool mage release
// writes dist/release; docs/release.md has the layout), or WDA_HOOK_BINARY.
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
		b.Skipf("no shipped wda-hook for %s/%s (run go tool mage release, or set WDA_HOOK_BINARY): %v", runtime.GOOS, runtime.GOARCH, err)
	}
	return binary, dispatch
}

// BenchmarkShippedHookProcess measures the shipped wda-hook answering a Claude
// PreToolUse event for a read-only PowerShell command (no output: the common case on
// every shell call), interleaved with /bin/true (A B A B …, so both see the same load)
// and, on Linux and macOS, with the bin/wda-hook dispatch script the hosts start there.
// It reports medians and their ratios; it asserts nothing about time.
func BenchmarkShippedHookProcess(b *testing.B) {
	binary, dispatch := shippedHook(b)
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) here")
	}
	event := []byte(`{"session_id":"bench","tool_name":"PowerShell","tool_input":{"command":"Get-ChildItem C:\\src"}}`)
	args := []string{"claude", "pre-tool-use", "--data-dir", b.TempDir()}
	runOnce := func(stdin []byte, argv ...string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v", argv, err)
		}
		d := time.Since(start)
		if out.Len() != 0 {
			b.Fatalf("%v answered a read-only event with %q", argv, out.String())
		}
		return d
	}
	n := max(b.N, 20)
	var hook, floor, via []time.Duration
	b.ResetTimer()
	for range n {
		hook = append(hook, runOnce(event, append([]string{binary}, args...)...))
		floor = append(floor, runOnce(nil, truePath))
		if dispatch != "" {
			via = append(via, runOnce(event, append([]string{dispatch}, args...)...))
		}
	}
	b.StopTimer()
	median := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	h, f := median(hook), median(floor)
	b.ReportMetric(float64(h.Microseconds()), "hook-µs")
	b.ReportMetric(float64(f.Microseconds()), "true-µs")
	b.ReportMetric(float64(h)/float64(f), "hook/true")
	if dispatch != "" {
		v := median(via)
		b.ReportMetric(float64(v.Microseconds()), "dispatch-µs")
		b.ReportMetric(float64(v)/float64(f), "dispatch/true")
	}
}
