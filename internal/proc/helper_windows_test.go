//go:build windows

package proc

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// escapeAttr asks for breakaway from the job; the runner's job does not allow it, so
// on Windows the grandchild stays contained (which is the point).
func escapeAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
}
