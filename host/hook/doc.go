// Package hook implements the host hooks as subcommands of the one binary:
//
//	wda hook claude pre-tool-use|post-tool-use|post-tool-use-failure|stop [--data-dir DIR] [--session-id ID]
//	wda hook codex  pre-tool-use|permission-request|post-tool-use|stop    [--data-dir DIR]
//	wda hook copilot pre-tool-use                                        [--data-dir DIR]
//
// Each reads one JSON event on stdin and answers as docs/hooks.md describes:
//   - Claude PreToolUse only tightens: forbidden → deny, approval-required and checkpoint
//     → ask, read-only and reversible → no output; unparsable input → deny; an event
//     over 1 MiB → ask, undecoded (docs/safety/shell-classifier.md, "Limits"). It never
//     answers allow.
//   - Codex PreToolUse answers only deny: a forbidden call, or a project-scoped Windows
//     Dev Agent call whose project argument is missing, relative, not a directory or
//     outside the event's cwd (or the event has no usable cwd); unparsable input or an
//     event over 1 MiB → deny.
//   - Codex PermissionRequest allows only proven-safe plans: package_install without
//     execute:true, and capability_run (not executing) and workflow_plan whose absolute
//     project directory resolves inside the event's cwd; forbidden → deny; everything
//     else (sandbox_run planning included) gets no answer, so Codex prompts.
//   - Copilot CLI preToolUse (copilot.go) tightens like the Claude gate (forbidden → deny,
//     approval-required and checkpoint → ask) and denies a project-scoped call whose
//     project argument is not an absolute directory inside the event's cwd, like the
//     Codex PreToolUse; unparsable input → deny. It never answers allow, because
//     Copilot would then skip its own prompt (docs/hosts/copilot.md). What
//     write_bash and write_powershell type into a running shell is read as the shell
//     receives it (typed.go) and classified as a command line.
//   - In every PreToolUse hook a shell command the classifier finds read-only or
//     reversible that may start git is approval-required when the repository at the
//     event's cwd names a program git would run, or cannot be checked (gitconfig.go;
//     docs/hooks.md, "Read-only git and the repository's configuration").
//   - In every permission hook a call of this server's tools that the managed policy
//     refuses is denied with the pipeline's message (policy.go; docs/policy.md, "Rules").
//   - The trace hooks write one derived audit record and print nothing.
//   - The Stop hooks print one {"systemMessage": …} with the session's counts, and
//     nothing when the session has no events.
//
// Every permission hook appends one audit record (execution_outcome not_applicable).
// The data dir is --data-dir, else WINDOWS_DEV_AGENT_DATA_DIR, else the host's own
// (Claude: CLAUDE_PLUGIN_DATA; Codex: ${CODEX_HOME:-~/.codex}/plugins/data/windows-dev-agent;
// Copilot: COPILOT_PLUGIN_DATA, the folder its server gets as PLUGIN_DATA).
//
// Decisions worth knowing:
//   - The Claude Stop hook prints a JSON systemMessage (its text is the "Session Audit"
//     report), and like Codex's prints nothing without a session id or without events:
//     a hook never shows unscoped history.
//   - The trace hooks record only this server's tools (any of the three prefixes), so a
//     misconfigured matcher cannot put other tools' names in the audit log.
//   - PermissionRequest allows only when the call's class is also read-only, so a
//     stricter Classify can never be overridden by the allow rules.
//   - A value the host forgot to expand (a literal ${CLAUDE_PLUGIN_DATA}) counts as unset.
//
// Output is empty or exactly one JSON object on stdout; warnings go to stderr. Exit
// status is 0 for every event, whatever the input (a panic is recovered: the permission
// hooks then fail closed as for unparsable input); only a malformed command line (an
// installation error) exits 2. The package must never write anything but that one
// object to stdout, and never store tool input or output (host/classify and
// internal/audit see to that).
package hook
