//go:build linux

package proc

import "golang.org/x/sys/unix"

// reserveBeforeReap: Linux can wait with WNOWAIT, leaving the leader a zombie.
const reserveBeforeReap = true

// waitExitNoReap blocks until pid has exited without reaping it.
func waitExitNoReap(pid int) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return
		}
	}
}
