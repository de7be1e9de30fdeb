package finalpath

import (
	"bytes"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// of asks the kernel for the descriptor's path with F_GETPATH; if the kernel refuses,
// it falls back to the name the file was opened by with links resolved, which is
// path-based (docs/platform.md).
func of(f *os.File) (string, error) {
	buf := make([]byte, unix.PathMax)
	_, _, errno := unix.Syscall(unix.SYS_FCNTL, f.Fd(), uintptr(unix.F_GETPATH), uintptr(unsafe.Pointer(&buf[0])))
	if errno == 0 {
		if n := bytes.IndexByte(buf, 0); n > 0 {
			return string(buf[:n]), nil
		}
	}
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
