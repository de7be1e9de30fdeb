//go:build windows

package guard

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"
)

type osPlatform struct{}

// GetFinalPathNameByHandleW flags (x/sys/windows does not name them).
const (
	fileNameNormalized = 0x0
	volumeNameDOS      = 0x0
)

// linkLike refuses every reparse point, not only symlinks and junctions: Go maps some
// tags to ModeIrregular and others to plain files, but the attribute is always set.
func (osPlatform) linkLike(fi fs.FileInfo) bool {
	if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return true
	}
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		return d.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0
	}
	return false
}

// openUnder opens the file once (without following a reparse point in the last
// component), then requires the handle's final path to equal the root's final path plus
// the walked components. A parent swapped for a junction after Check makes the final
// path differ and is rejected; the bytes are read from this same handle.
func (osPlatform) openUnder(t target) (*os.File, error) {
	rootFinal, err := finalPathOf(t.root, windows.FILE_FLAG_BACKUP_SEMANTICS)
	if err != nil {
		return nil, fmt.Errorf("metadata could not be established for project root %s: %w", t.root, err)
	}
	h, err := createFile(t.abs, windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: t.abs, Err: err}
	}
	ok := false
	defer func() {
		if !ok {
			windows.CloseHandle(h)
		}
	}()
	final, err := finalPath(h)
	if err != nil {
		return nil, fmt.Errorf("metadata could not be established for %s: %w", t.abs, err)
	}
	want := filepath.Join(append([]string{rootFinal}, t.comps...)...)
	if !samePath(final, want) {
		return nil, &LinkError{Path: t.abs}
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return nil, fmt.Errorf("metadata could not be established for %s: %w", t.abs, err)
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		return nil, &LinkError{Path: t.abs}
	}
	if err := requireDisk(h, info, t.abs); err != nil {
		return nil, err
	}
	ok = true
	return os.NewFile(uintptr(h), t.abs), nil
}

// openPlain refuses anything but a disk file before a byte is read, so a named pipe or
// device given as config_path cannot block the read.
func (osPlatform) openPlain(path string) (*os.File, error) {
	h, err := createFile(path, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var info windows.ByHandleFileInformation
	if ft, _ := windows.GetFileType(h); ft != windows.FILE_TYPE_DISK {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("not a regular file: %s", path)
	}
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("metadata could not be established for %s: %w", path, err)
	}
	if err := requireDisk(h, info, path); err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	return os.NewFile(uintptr(h), path), nil
}

func requireDisk(h windows.Handle, info windows.ByHandleFileInformation, path string) error {
	if ft, _ := windows.GetFileType(h); ft != windows.FILE_TYPE_DISK || info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0 {
		return fmt.Errorf("not a regular file: %s", path)
	}
	return nil
}

// createFile opens for reading; other readers and writers may share, deleters may not.
func createFile(path string, flags uint32) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return windows.InvalidHandle, err
	}
	return windows.CreateFile(p, windows.GENERIC_READ, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL|flags, 0)
}

func finalPathOf(path string, flags uint32) (string, error) {
	h, err := createFile(path, flags)
	if err != nil {
		return "", err
	}
	defer windows.CloseHandle(h)
	return finalPath(h)
}

// finalPath maps a handle back to a DOS path (tools.md §6.3), without the \\?\ prefix.
func finalPath(h windows.Handle) (string, error) {
	buf := make([]uint16, windows.MAX_PATH)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), fileNameNormalized|volumeNameDOS)
		if err != nil {
			return "", err
		}
		if int(n) < len(buf) {
			return stripPrefix(windows.UTF16ToString(buf[:n])), nil
		}
		buf = make([]uint16, n+1)
	}
}

// samePath is exact-path equality: same volume, same components, case-insensitive.
func samePath(a, b string) bool {
	av, ac := split(a)
	bv, bc := split(b)
	if !strings.EqualFold(av, bv) || len(ac) != len(bc) {
		return false
	}
	for i := range ac {
		if !strings.EqualFold(ac[i], bc[i]) {
			return false
		}
	}
	return true
}
