package main

import (
	"fmt"
	"github.com/windows-dev-agent/wda/runtime"
	"io"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/hook"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/tools/sandboxrun"
)

// hostByName picks the host adapter.
func hostByName(name string, getenv func(string) string) (host.Host, error) {
	return config.ByName(name, getenv)
}

// dataDirFor is the data dir in force: --data-dir, else the host's own rule.
func dataDirFor(h host.Host, flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	return config.DataDir(h, getenv)
}

// auditSink is the audit log every call is recorded in.
func auditSink() runtime.AuditSink { return audit.Sink{} }

// startup runs the server's start-up chores before serving: Windows Sandbox bundles
// left by a crashed server are swept. A failure is only reported; serving goes on.
func startup(opts runtime.Options, stderr io.Writer) {
	if err := sandboxrun.SweepStale(opts.Env.DataDir); err != nil {
		fmt.Fprintf(stderr, "wda mcp: sweeping stale sandbox bundles: %v\n", err)
	}
}

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return hook.Main(args, stdin, stdout, stderr, getenv)
}
