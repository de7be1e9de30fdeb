// Package mcpconfig finds and summarises MCP server configurations for mcp_audit and
// ecosystem_scan: project .mcp.json and .continue/config.json (read through the bound
// project's held directory by internal/guard), user-level Claude configs
// (~/.claude.json, %APPDATA%\Claude\claude_desktop_config.json) and, on Codex,
// $CODEX_HOME/config.toml's [mcp_servers.*] tables (plain bounded reads). Codex configs
// are TOML 1.0, decoded by tools/internal/tomlread.
//
// A summary is structural only: per server its name, validity, transport kind
// (command|url|unknown), whether command/url/env are present, and the argument count.
// It must never return, log or put into an error a command, URL, argument or env value:
// configs routinely carry tokens in all four. Server names and file paths are returned.
// Parse errors carry a line and column, never a byte of the file
// (docs/safety/project-reads.md).
//
// For mcp_audit, Audit also runs a findings pass over the parsed configs (findings.go,
// detect.go; rules in docs/tools/mcp_audit.md, "Findings"): secret literals, unpinned
// launchers, broad filesystem roots, plain http, TLS checks off, shell wrappers,
// shadowed servers and, on Unix, files others can write. It works on the files alone:
// it must never start or contact a server, and a finding carries a rule, severity,
// server, file, line and fixed wording that may name a key, never a value. JSON line
// numbers come from a token walk that keeps positions only (lines.go).
//
// Decisions the contract leaves open: servers are listed sorted by name (JSON objects
// have no reliable order once decoded); an absent "args" counts as 0 arguments, a
// present non-list as null; presence means a non-empty value (not absent, null, false,
// zero or empty); an explicit config_path that is relative is taken relative to the
// project root, not the server's working directory, and one ending in .toml is read as
// a Codex config.
package mcpconfig
