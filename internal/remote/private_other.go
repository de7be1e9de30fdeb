//go:build !windows

package remote

import (
	"fmt"
	"os"
	"syscall"
)

// private refuses a file that anyone but its owner may read or write (any group or
// other permission bit), or that belongs to another user than the server's: the
// service account must own its tokens.
func private(_ *os.File, fi os.FileInfo) error {
	if m := fi.Mode().Perm(); m&0o077 != 0 {
		return fmt.Errorf("mode %04o lets others read it: chmod 600 it (only the service account may read the tokens)", m)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("owned by uid %d, not by the server's uid %d", st.Uid, os.Geteuid())
	}
	return nil
}
