// Package sandboxrun is the sandbox_run tool (tools.md §3.7): it plans or runs a
// command in the isolation backend its isolation_requirement fixes — WSL for
// linux_compatibility, the project's Dev Container for project_reproducibility,
// Windows Sandbox for untrusted_windows with a validated, staged, read-only payload.
//
// It owns the decision order of §3.7 (steps 1–12), the argv of each backend, and the
// lifetime of a launched Sandbox bundle (removed when the Sandbox process exits). It
// delegates everything else: payload validation, staging and cleanup to
// runtime/payload, the WSL route state to runtime/discovery, the Dev Container config
// walk to runtime/guard, identity echo to runtime/plan, and every process start to
// runtime/proc.
//
// Decisions where the spec is silent: a command containing a NUL character is
// invalid_input (no backend could carry it); a .devcontainer/devcontainer.json that
// exists but is not a regular file does not configure a Dev Container; the executing
// Sandbox result exposes cleanup_path (the seed's contract) while argv keeps the
// "<managed-config>.wsb" placeholder.
//
// It must never resolve a Windows-owned binary through PATH, never start a process
// except through runtime/proc, never create a bundle while planning, and never let a
// Sandbox child write to the server's stdout (proc.Launch puts all three stdio streams
// on the null device).
package sandboxrun
