// Package classify is the host-neutral safety classifier of the hooks: a hook event's
// tool name and tool_input map to a tools.Class, with a reason for the hook's message.
//
// Shell tools (Bash, PowerShell) go through the shell classifier (Shell, Explain),
// whose contract is docs/safety/shell-classifier.md: forbidden when a forbidden rule
// matches any normalised view of the command (quotes, escapes, look-alike letters,
// extensions, path forms and base64 payloads undone); read-only or reversible only
// when the whole command is one of the allow-listed forms the classifier understands
// completely; otherwise approval-required. Windows Dev Agent's MCP tools (any of the
// three host prefixes) are classified by their declared classification (Specs);
// anything else is approval-required.
//
// The package runs on the hook path, whose start-up latency matters: its own code does
// no work at process start (no regular expressions, no tables built by code; its tables
// are constant data) and its work is linear in the command's length. The one exception
// is imported: mvdan.cc/sh/v3/syntax, bash's own grammar (issue 22), brings in
// mvdan.cc/sh/v3/fileutil, which compiles two small regular expressions when the
// process starts (about 0.09 ms; docs/safety/shell-classifier.md, "Limits"). It must never read
// files or the environment, or write anywhere.
package classify
