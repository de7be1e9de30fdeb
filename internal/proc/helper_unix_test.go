//go:build !windows

package proc

import "syscall"

// escapeAttr puts the grandchild in a new session, i.e. outside the run's process group.
func escapeAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
