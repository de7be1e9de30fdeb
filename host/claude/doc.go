// Package claude is the Claude Code host adapter (docs/hosts/claude.md).
//
// It binds the project argument of the project-scoped tools (those whose ProjectArg is
// set) to the active Claude project, WINDOWS_DEV_AGENT_PROJECT_DIR (which .mcp.json sets
// from ${CLAUDE_PROJECT_DIR}), resolved once when the server starts: an absent or blank
// argument means the project root; a relative one is taken under the root; an absolute
// one must lie inside it. The directory is opened and checked by its handle
// (internal/platform/contain), so a link inside the project that leads outside, a ../
// escape and a sibling sharing the root's prefix are all refused, and swapping a
// directory after the check changes nothing. Refusals are *host.BindError values,
// which the pipeline answers as invalid_input results. Other tools pass through.
//
// It must never mutate the process environment or the shared tool schemas, and never
// write to stdout.
package claude
