// Package payload owns Windows Sandbox payload staging (tools.md §5): nomination-time
// validation of workspace-relative payload_paths, execute-time staging of a fresh bundle
// under <data dir>/sandbox-runs, the run.wsb and run.cmd it contains, and bundle cleanup
// (removal of one bundle and the stale-bundle sweep run at server start-up).
//
// Validation (Validate) is metadata only: every component is read without following
// links, and a symbolic link, junction or any other reparse point anywhere on the way
// to or inside a selected root is refused, as are FIFOs, sockets and devices. Staging
// (Stage) trusts nothing that Validate saw: it recounts the budgets from zero and opens
// each directory and file exactly once, checking that the object it opened is the one
// the path named (Unix: openat from the held parent with O_NOFOLLOW and an fstat that
// must match the no-follow stat; Windows: a share-read-only handle whose final path must
// equal the requested path), and copies files from that handle into destinations it
// creates exclusively. Any failure removes the whole bundle.
//
// Decisions where the spec is silent, written down here:
//   - "." selects the whole workspace; it overlaps every other entry.
//   - On Windows, components that Win32 would silently rewrite or redirect (trailing dot
//     or space, ':' alternate streams, reserved device names such as NUL or COM1) are
//     refused at nomination, because the staged name could differ from the reviewed one.
//   - Overlaps are compared case-folded on Windows and macOS (case-insensitive file
//     systems by default), case-sensitively elsewhere.
//   - Staging refuses a payload that contains the data dir's sandbox-runs folder, so a
//     bundle can never copy itself.
//
// It must never follow a link while validating or staging, never write outside the
// bundle it created, never start a process (the caller launches Windows Sandbox through
// internal/proc), and never delete a directory that lacks the bundle marker.
package payload
