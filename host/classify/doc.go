// Package classify is the host-neutral safety classifier of the hooks (hosts.md §2.1,
// tools.md §8.2): a hook event's tool name and tool_input map to a runtime.Class.
//
// Shell tools (Bash, PowerShell) go through the shell classifier, first match wins:
// forbidden patterns, approval patterns, dynamic shell syntax (approval), read-only
// prefixes, reversible prefixes, otherwise approval; all case-insensitive. A command
// containing ; | && || & > < $( @( a backtick, CR or LF never inherits a read-only or
// reversible prefix. Windows Dev Agent MCP tools (any of the three host prefixes) go to
// the tool's own Classify in the registry; anything else is approval-required.
//
// The package runs on the hook path, whose start-up latency matters, so it does no
// package-level initialisation work: the regular expressions are compiled on first use.
// It must never read files, the environment, or write anywhere.
package classify
