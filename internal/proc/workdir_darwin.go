//go:build darwin

package proc

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// heldWorkDir: os/exec on macOS can only chdir by path, so the child gets the path the
// kernel reports for the held directory (F_GETPATH), checked to name that same
// directory right now. A rename between this check and the child's chdir is the
// residual window of docs/process-runner.md §5.
func heldWorkDir(h *os.File) (workDir, error) {
	fi, err := h.Stat()
	if err != nil {
		return workDir{}, err
	}
	if !fi.IsDir() {
		return workDir{}, errors.New("not a directory")
	}
	buf := make([]byte, unix.PathMax)
	_, err = unix.FcntlInt(h.Fd(), unix.F_GETPATH, int(uintptr(unsafe.Pointer(&buf[0]))))
	runtime.KeepAlive(buf)
	if err != nil {
		return workDir{}, err
	}
	path := string(buf[:max(0, bytes.IndexByte(buf, 0))])
	now, err := os.Stat(path)
	if err != nil || !os.SameFile(fi, now) {
		return workDir{}, errors.New("its path now names another directory")
	}
	return workDir{dir: path, pwd: path}, nil
}
