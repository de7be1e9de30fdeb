//go:build !windows

package discovery

import (
	"errors"
	"syscall"
)

// isNotDir reports ENOTDIR: a PATH entry that is a file is simply not a directory.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
