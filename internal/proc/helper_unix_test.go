//go:build !windows

package proc

import (
	"fmt"
	"os"
	"syscall"
)

// escapeAttr puts the grandchild in a new session, i.e. outside the run's process group.
func escapeAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// fileKey identifies a file by device and inode.
func fileKey(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
}
