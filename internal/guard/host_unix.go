//go:build unix

package guard

import (
	"os"

	"golang.org/x/sys/unix"
)

// openPlain opens a host file without blocking on a FIFO or device named as one.
func openPlain(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK, 0)
}
