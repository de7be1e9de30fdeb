package pmtest

import (
	"time"

	"golang.org/x/sys/unix"
)

// Gone reports whether pid has ended within d. A kill is delivered asynchronously, so
// a test that killed a tree must wait for its members to end, not look at once; the
// wait is on the process itself (a pidfd becomes readable when it exits), not a sleep.
func Gone(pid int, d time.Duration) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return !Alive(pid) // no such process any more (or pidfd unsupported: look once)
	}
	defer unix.Close(fd)
	if !Alive(pid) {
		return true // a zombie: it has exited, only not been reaped
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(d.Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		return err == nil && n > 0 || !Alive(pid)
	}
}
