//go:build windows

package proc

import (
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// escapeAttr asks for breakaway from the job; the runner's job does not allow it, so
// on Windows the grandchild stays contained (which is the point).
func escapeAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
}

// fileKey has no portable inode on Windows; tests compare paths there.
func fileKey(os.FileInfo) string { return "" }
