//go:build unix

package projectscan

import "syscall"

// openFlags: a FIFO swapped in for a checked file must not block the open.
const openFlags = syscall.O_NONBLOCK
