// Package codex is the Codex host adapter (docs/hosts/codex.md).
//
// Codex starts the server with the plugin cache as its working directory and tells it
// nothing about the session's project, so for the project-scoped tools (those whose
// ProjectArg is set) the project argument is required, must be a string, absolute
// before any resolution, and an existing directory; tools/list marks it required. The
// server cannot check containment (it does not know the session cwd): the Codex hooks
// (host/hook) bind the argument to the event cwd once the user trusts them.
//
// It must never mutate the process environment or the shared tool schemas (it returns
// copies), and never write to stdout. The codex_plugins inventory of ecosystem_scan is
// not here: tools/ecosystemscan adds it when env.Host is "codex".
package codex
