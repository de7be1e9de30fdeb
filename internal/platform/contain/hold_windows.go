package contain

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/windows"
)

// holdDir opens the bound directory a second time without FILE_SHARE_DELETE, so that
// neither it nor (NTFS refuses to rename a folder with an open descendant) any folder
// above it can be renamed or deleted while the call uses it: a child process started
// with its path as working directory gets exactly this directory. The second handle
// must be the same file as the first (volume serial and file id), or the directory
// moved in between and the call is refused.
func holdDir(d *os.File, final string) (io.Closer, error) {
	p, err := windows.UTF16PtrFromString(final)
	if err != nil {
		return nil, ErrOutside
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return nil, ErrOutside
	}
	var a, b windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(windows.Handle(d.Fd()), &a) != nil ||
		windows.GetFileInformationByHandle(h, &b) != nil ||
		a.VolumeSerialNumber != b.VolumeSerialNumber || a.FileIndexHigh != b.FileIndexHigh || a.FileIndexLow != b.FileIndexLow {
		_ = windows.CloseHandle(h)
		return nil, ErrOutside
	}
	return handleCloser(h), nil
}

type handleCloser windows.Handle

func (h handleCloser) Close() error { return windows.CloseHandle(windows.Handle(h)) }

func isNotDirWindows(err error) bool {
	return errors.Is(err, windows.ERROR_PATH_NOT_FOUND) || errors.Is(err, windows.ERROR_DIRECTORY)
}
