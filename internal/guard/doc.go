// Package guard owns guarded reads of project files and the no-follow walk they are
// built on (docs/safety/project-reads.md): Check and ReadProject for the small
// configuration files tools look at, Dir and File for walkers that need more (payload
// staging), and the plain bounded ReadHost for files outside any project (~/.claude.json,
// an explicit config_path).
//
// Every project access starts from the directory the call bound and holds open
// (tools.Project.Root), never from its path: the walk opens each component relative to
// its held parent without following it (Unix: openat with O_NOFOLLOW; Windows:
// NtCreateFile relative to the parent handle with FILE_OPEN_REPARSE_POINT), so a
// component swapped for a link at any moment is refused, and nothing above a held
// directory is ever looked up again. A symbolic link, junction or any other reparse
// point anywhere on the way is an error, even one pointing inside the project; a
// missing component is "missing"; metadata that cannot be established is an error
// (fail closed). A file is read only when it is a regular file with one hard link,
// judged on the opened handle, and at most Limit+1 bytes are read through it: the
// budget counts bytes read, never a size reported by stat.
//
// Decisions the contract leaves open: a leading UTF-8 byte order mark is accepted and
// skipped (Windows editors and PowerShell write one); a path that is not a regular file
// (directory, FIFO, device, pipe) is refused before it is opened, and the open itself
// does not block, so a planted FIFO cannot hang a read.
//
// It must never follow a link inside a project, never resolve a project path a second
// time, never start a process, never write anything, and never put a byte of a file
// into an error (parse errors give a line and column only).
package guard
