package main

import (
	"fmt"
	"io"

	"github.com/windows-dev-agent/wda/runtime"
)

// hostByName picks the host adapter.
func hostByName(name string, _ func(string) string) (runtime.Host, error) {
	switch name {
	case "generic", "":
		return runtime.GenericHost{}, nil
	}
	return nil, fmt.Errorf("unknown host %q (want claude, codex or generic)", name)
}

// auditSink is the audit log every call is recorded in.
func auditSink() runtime.AuditSink { return nil }

// startup runs the server's start-up chores before serving.
func startup(runtime.Options, io.Writer) {}

func runHook(_ []string, _ io.Reader, _, stderr io.Writer, _ func(string) string) int {
	fmt.Fprintln(stderr, "wda hook: hooks are not wired in this build")
	return 0
}
