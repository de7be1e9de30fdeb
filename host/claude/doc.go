// Package claude is the Claude Code host adapter (hosts.md §3.1, tools.md §2.3).
//
// It binds the project argument of the project-scoped tools (those whose ProjectArg is
// set) to the active Claude project, WINDOWS_DEV_AGENT_PROJECT_DIR (which .mcp.json sets
// from ${CLAUDE_PROJECT_DIR}): an absent or blank argument means the project root; a
// relative one is resolved under the root; an absolute one must resolve inside it.
// Containment is decided on resolved paths by component (host/scope), so a symlink or
// junction inside the project that leads outside, a ../ escape and a sibling sharing the
// root's prefix are all refused. Refusals are *runtime.BindError values, which the gate
// answers as invalid_input tool results. Other tools pass through untouched.
//
// It must never mutate the process environment or the shared tool schemas, and never
// write to stdout.
package claude
