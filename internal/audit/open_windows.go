//go:build windows

package audit

import (
	"os"

	"golang.org/x/sys/windows"
)

// openRead opens a segment for reading with FILE_SHARE_DELETE as well as read/write
// sharing: os.Open omits delete sharing, and a reader holding agent.log that way would
// make a concurrent writer's rotation (rename over agent.log.1) fail.
func openRead(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}
