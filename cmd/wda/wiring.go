package main

import (
	"fmt"
	"io"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/hook"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/runtime/audit"
	"github.com/windows-dev-agent/wda/runtime/payload"
)

// hostByName picks the host adapter.
func hostByName(name string, getenv func(string) string) (runtime.Host, error) {
	return host.ByName(name, getenv)
}

// dataDirFor is the data dir in force: --data-dir, else the host's own rule.
func dataDirFor(h runtime.Host, flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	return host.DataDir(h, getenv)
}

// auditSink is the audit log every call is recorded in.
func auditSink() runtime.AuditSink { return audit.Sink{} }

// startup runs the server's start-up chores before serving: Windows Sandbox bundles
// left by a crashed server are swept. A failure is only reported; serving goes on.
func startup(opts runtime.Options, stderr io.Writer) {
	if err := payload.SweepStale(opts.Env.DataDir); err != nil {
		fmt.Fprintf(stderr, "wda mcp: sweeping stale sandbox bundles: %v\n", err)
	}
}

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return hook.Main(args, stdin, stdout, stderr, getenv)
}
