// Package copilot is the host adapter of Agent Plugins hosts: the GitHub Copilot CLI,
// VS Code and Cursor loading dist/agent-plugin (docs/hosts/copilot.md).
//
// None of them tells the server the session's project: the server starts in the
// plugin folder, ${COPILOT_PROJECT_DIR} is not expanded in mcp.json, and no roots
// capability is offered. So, as under Codex, the project argument of the
// project-scoped tools is required, a string, absolute before any resolution and an
// existing directory, and tools/list marks it required (host.Absolute). Containment
// in the session's directory is the Copilot CLI preToolUse hook's check
// (`wda-hook copilot pre-tool-use`, host/hook); VS Code loads no hooks from an Agent
// Plugins package, so there its approval prompt, which shows the argument, is the
// boundary.
//
// It must never mutate the process environment or the shared tool schemas, and never
// write to stdout.
package copilot
