// Package host chooses the host adapter of a server by name: Claude Code, Codex, or the
// generic host that binds nothing.
//
// The adapters themselves live in host/claude and host/codex; the pieces they share
// live in their own packages so the adapters can import them without a cycle:
// host/scope (project containment by path components after resolving links) and
// host/classify (the host-neutral safety classifier the hooks use) and host/hostenv
// (reading host-provided variables, treating unexpanded placeholders as unset). The
// hook subcommands are host/hook.
//
// Package host must never mutate process environment (per-call state travels in the
// *runtime.Env a Bind receives) and never write to stdout.
package host
