// Package hostcheck proves a distribution (dist/release, docs/release.md) with the
// real, pinned host clients, offline (docs/hostcheck.md). It installs the clients into
// a cache folder, builds dist/release for HEAD unless one is given or already there,
// and installs each payload of the release as a user would:
//
//   - Claude Code and Codex from the distribution's marketplace folder, in sessions
//     where a loopback stand-in plays the model from a script (scripted.go):
//     env_inspect answers from the shipped binary, a Bash `format C:` is denied by the
//     hook, an executing capability_run is asked;
//   - the MCP Inspector against the shipped server;
//   - the Agent Plugin into the Copilot CLI and the extension into Gemini CLI, with a
//     stand-in model that calls one tool and reads what came back (fakes.go);
//   - the MCP Bundles with mcpb, the registry entry with the registry's own
//     publisher and validator (a loopback /v0/validate);
//   - under Wine, the Windows builds of Claude Code and Codex, and the bundle's
//     wda.exe against its static responses.
//
// Checks are grouped (Group, Check, RunGroups in run.go); it prints one line per
// check and a summary. Every client runs with a fresh home folder, so nothing it
// writes reaches the user's configuration. It starts processes only through
// internal/proc and writes nothing under the repository except dist/release when it
// builds one.
package hostcheck
