// Package gemini is the Gemini CLI host adapter (docs/hosts/gemini.md).
//
// Gemini CLI expands ${workspacePath} in an extension's server configuration, and
// dist/gemini sets WINDOWS_DEV_AGENT_PROJECT_DIR from it, so the project-scoped tools
// bind as under Claude Code (host.Contained): an absent or blank argument means the
// workspace, a relative one is taken under it, an absolute one must lie inside it,
// and containment is decided on the opened directory. A workspace the host did not
// give (or left unexpanded) refuses every project-scoped call.
//
// It must never mutate the process environment or the shared tool schemas, and never
// write to stdout.
package gemini
