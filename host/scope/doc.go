// Package scope owns project-path containment for the host adapters and hooks
// (hosts.md §3): resolving a directory with every link followed, and deciding whether
// one resolved directory lies inside another.
//
// Containment is decided by path components after resolution, never by string prefix
// (a sibling such as <parent>/project-other must not pass for <parent>/project), and
// case-insensitively on Windows. On Windows, resolution asks the file system for the
// final path of an open handle (GetFinalPathNameByHandle), because since Go 1.23
// filepath.EvalSymlinks no longer follows junctions (mount points): a junction inside a
// project that points outside it must count as outside.
//
// The package must never create, change or delete anything on disk.
package scope
