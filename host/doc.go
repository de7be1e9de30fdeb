// Package host is the seam between the MCP core and a host adapter: the Host interface
// (how a call's project argument is bound and what the host is told at initialize), the
// refusal a binding returns, and the generic host that binds nothing.
//
// The adapters live in host/claude and host/codex; host/classify is the host-neutral
// safety classifier of the hooks, host/hook the hook subcommands and host/hostenv the
// reading of host-provided variables. Containment and the opened project directory
// are internal/platform/contain's (docs/platform.md).
//
// Package host must never mutate the process environment (per-call state travels in
// the *tools.Env a Bind receives) and never write to stdout.
package host
