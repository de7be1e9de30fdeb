// Package discovery owns the environment snapshot that env_inspect returns: the canonical
// tri-state model (docs/discovery.md, "Snapshot"), the producers that fill it (a native
// Windows producer, a PowerShell producer for optional features only, and a portable
// producer for Linux and macOS), the data-dir cache with its generation token
// (docs/discovery.md, "The cache"), and the static WSL route state that sandbox_run plans
// with (docs/discovery.md, "WSL route state"). This package's contract is
// docs/discovery.md.
//
// Tri-states are *bool: true = observed present, false = observed absent, nil = not
// established. A nil is never collapsed to false on the way through the cache, the
// model output or the audit log, and every tri-state key is always emitted (as null).
//
// It must never:
//   - start a process except through internal/proc (the PowerShell producer and
//     vswhere.exe are the only processes; developer tools are never launched);
//   - launch wsl.exe, for discovery or for route planning;
//   - contact another host: the Docker engine probe connects only to a local Unix socket
//     or a local named pipe, and never runs the docker client;
//   - collect or emit the keys of docs/discovery.md, "Never collected" (username, domain,
//     computer name, git identity, module inventory, PATH contents, environment values);
//   - write to stdout (logs go to the injected slog.Logger, stderr by default);
//   - serve or publish a cache entry produced under an older generation.
//
// Deliberate decisions (docs/discovery.md, "Decisions"):
//   - available_isolation_options lists "wsl" by wsl_available (the router's
//     authority), not by wsl_installed; probe_states.wsl still follows wsl_installed.
//   - logical_processors is the processor count; processor_packages (sockets) keeps a
//     name that cannot be read as one. docker_installed (the client on the path) and
//     docker_running (a local engine answers) are separate facts.
//   - The Store WSL package fact is read natively from the per-user AppModel package
//     repository in the registry instead of Get-AppxPackage, so PowerShell is used for
//     optional features only. A missing repository key leaves the fact null.
//   - Optional features are queried with Get-WindowsOptionalFeature -Online and, when
//     that fails (it needs elevation), with Win32_OptionalFeature (no elevation):
//     InstallState 1 = Enabled, 2 = Disabled, 3 = Absent (false); anything else is
//     not established.
//   - dev_drive_state is "unsupported_api" with dev_drive_enabled null and no error
//     when GetDeveloperDriveEnablementState does not exist (older Windows builds).
//   - Off Windows every Windows-only fact is null and one error names the platform,
//     so a Linux or macOS snapshot is always degraded: that is honest, not a failure.
//   - The snapshot carries "schema_version": 2 as its first key (docs/discovery.md,
//     "Schema history"); a cache file of another version is a miss.
package discovery
