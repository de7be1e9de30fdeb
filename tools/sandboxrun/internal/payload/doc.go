// Package payload owns Windows Sandbox payload staging (docs/tools/sandbox_run.md,
// staging): nomination-time validation of workspace-relative payload_paths, execute-time
// staging of a fresh bundle under <data dir>/sandbox-runs, the run.wsb and run.cmd it
// contains, and bundle cleanup (removal of one bundle and the stale-bundle sweep run at
// server start-up).
//
// The workspace is the directory the call bound and holds open (tools.Project); it is
// read only through that handle, with internal/guard's no-follow walk
// (docs/safety/project-reads.md). Validation (Validate) is metadata only: a symbolic
// link, junction or any other reparse point anywhere on the way to or inside a selected
// root is refused, as are FIFOs, sockets, devices and files with more than one hard
// link. Staging (Stage) trusts nothing that Validate saw: it recounts the budgets from
// zero and opens each directory and file exactly once, relative to its held parent,
// proving from the handle that it opened the node it looked at (kind, identity, a
// single link), and copies files from that handle into destinations it creates
// exclusively. Any failure removes the whole bundle.
//
// Decisions the contract leaves open, written down here:
//   - "." selects the whole workspace; it overlaps every other entry.
//   - On Windows, components that Win32 would silently rewrite or redirect (trailing dot
//     or space, ':' alternate streams, reserved device names such as NUL or COM1) are
//     refused at nomination, because the staged name could differ from the reviewed one.
//   - Overlaps are compared case-folded on Windows and macOS (case-insensitive file
//     systems by default), case-sensitively elsewhere.
//   - Staging refuses a payload that contains the data dir's sandbox-runs folder, so a
//     bundle can never copy itself.
//   - A file still growing while it is staged is staged as long as it was when opened.
//
// It must never follow a link while validating or staging, never open the workspace by
// its path, never write outside the bundle it created, never start a process (the
// caller launches Windows Sandbox through internal/proc), and never delete a directory
// that lacks the bundle marker.
package payload
