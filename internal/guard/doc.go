// Package guard owns bounded, containment-checked reads of small JSON configuration
// files: project files (under a project root, tools.md §6.5) and host files (outside any
// project, e.g. ~/.claude.json or an explicit config_path).
//
// A project read walks from the resolved project root one component at a time with
// no-follow metadata. A missing component means "missing" (not an error); a symbolic
// link, a junction or any other reparse point anywhere on the way is an error, and so
// is a component whose metadata cannot be established (fail closed). The file is then
// opened exactly once, and the open itself is verified against the walk: on Unix every
// component is opened relative to its parent with O_NOFOLLOW, on Windows the opened
// handle's final path (GetFinalPathNameByHandleW) must equal the requested path, so a
// parent swapped for a junction between the check and the open is rejected. At most
// limit+1 bytes are read through that handle: the 2 MiB budget is enforced on bytes
// actually read, never on a prior size stat.
//
// Decisions where the spec is silent: a leading UTF-8 byte order mark is accepted and
// skipped (Windows editors and PowerShell write one); a path that is not a regular file
// (directory, FIFO, device, pipe) is refused before any byte is read, so a planted FIFO
// cannot hang a read.
//
// It must never follow a link inside a project, never start a process, never write
// anything, and never trust a size reported by stat.
package guard
