//go:build windows

package guard

import (
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// openPlain refuses anything but a disk file before a byte is read, so a named pipe or
// device given as config_path cannot block the read.
func openPlain(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	info, err := infoOf(h)
	if err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("metadata could not be established for %s: %w", path, err)
	}
	if info.Kind != KindFile {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("not a regular file: %s", path)
	}
	return os.NewFile(uintptr(h), path), nil
}
