// Package hostcheck proves the generated payloads with the real host clients, offline
// (docs/hostcheck.md): it installs the pinned clients into a cache folder, copies each
// payload from dist/ into a temporary folder with this machine's wda and wda-hook in
// its bin/, lets each client install, validate, list and call it, and prints one line
// per check (PASS or FAIL and its name) and a summary line.
//
// Where a client needs a model (Copilot CLI, Gemini CLI) it is pointed at a loopback
// stand-in that calls one tool and reports what came back; where it needs a registry
// (mcp-publisher validate) a loopback endpoint answers with the registry's own
// validator, built from its pinned module. Every client runs with a fresh home
// folder, so nothing it writes reaches the user's own configuration.
//
// It starts processes only through internal/proc and never writes under dist/.
package hostcheck
