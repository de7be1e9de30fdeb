// Package sandboxrun is the sandbox_run tool (docs/tools/sandbox_run.md): it plans or runs a
// command in the isolation backend its isolation_requirement fixes — WSL for
// linux_compatibility, the project's Dev Container for project_reproducibility,
// Windows Sandbox for untrusted_windows with a validated, staged, read-only payload.
//
// It owns the decision order (steps 1–12), the argv of each backend, and the lifetime
// of a launched Sandbox bundle (removed when the Sandbox process exits). It delegates
// everything else: payload validation, staging and cleanup to internal/payload (which
// reads the workspace only through the directory the call bound), the WSL route state
// to tools/internal/discovery, the Dev Container config walk to internal/guard,
// identity echo to internal/plan, and every process start to internal/proc.
//
// Decisions the contract leaves open: a command containing a NUL character is
// invalid_input (no backend could carry it); a .devcontainer/devcontainer.json that
// exists but is not a regular file does not configure a Dev Container; the executing
// Sandbox result exposes cleanup_path (the seed's contract) while argv keeps the
// "<managed-config>.wsb" placeholder.
//
// It must never resolve a Windows-owned binary through PATH, never start a process
// except through internal/proc, never create a bundle while planning, and never let a
// Sandbox child write to the server's stdout (proc.Launch puts all three stdio streams
// on the null device).
package sandboxrun
