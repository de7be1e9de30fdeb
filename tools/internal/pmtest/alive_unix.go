//go:build unix

package pmtest

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// Alive reports whether pid is a running (not zombie) process. A zombie has exited:
// in a container PID 1 may never reap it, so signal 0 alone would say "alive".
func Alive(pid int) bool {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && len(s) > i+2 {
			return s[i+2] != 'Z' && s[i+2] != 'X'
		}
	}
	return syscall.Kill(pid, 0) == nil
}
