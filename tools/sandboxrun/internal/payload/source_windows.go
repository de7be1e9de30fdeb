//go:build windows

package payload

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// winDir holds a directory handle opened with read access and FILE_SHARE_READ only:
// while it is open nobody can rename, replace or delete it (that needs DELETE access,
// which the share mode denies), so listing and staging its children by path is
// stable. path is the directory's verified final path.
type winDir struct {
	h    windows.Handle
	path string
}

const dirAccess = windows.FILE_LIST_DIRECTORY | windows.FILE_READ_ATTRIBUTES | windows.SYNCHRONIZE

// errNotItself: the handle's final path differs from the requested one (a link on the
// way, an 8.3 short name, a mount point).
var errNotItself = errors.New("opened node is not the requested path")

func openRoot(ws string) (srcDir, error) {
	// The workspace itself may be reached through links (it is the caller's project);
	// its final path becomes the base every child's final path must extend.
	h, err := createFile(ws, dirAccess, windows.FILE_FLAG_BACKUP_SEMANTICS)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: ws, Err: err}
	}
	p, err := finalPath(h)
	if err != nil {
		windows.CloseHandle(h)
		return nil, &os.PathError{Op: "open", Path: ws, Err: err}
	}
	return &winDir{h: h, path: p}, nil
}

func createFile(path string, access, flags uint32) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return windows.InvalidHandle, err
	}
	return windows.CreateFile(p, access, windows.FILE_SHARE_READ, nil, windows.OPEN_EXISTING, flags, 0)
}

// finalPath maps a handle back to its DOS path without the \\?\ prefix.
func finalPath(h windows.Handle) (string, error) {
	buf := make([]uint16, windows.MAX_PATH)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), 0)
		if err != nil {
			return "", err
		}
		if n < uint32(len(buf)) {
			p := windows.UTF16ToString(buf[:n])
			switch {
			case strings.HasPrefix(p, `\\?\UNC\`):
				p = `\\` + p[len(`\\?\UNC\`):]
			case strings.HasPrefix(p, `\\?\`):
				p = p[len(`\\?\`):]
			}
			return p, nil
		}
		buf = make([]uint16, n)
	}
}

func samePath(a, b string) bool { return strings.EqualFold(filepath.Clean(a), filepath.Clean(b)) }

func (d *winDir) Names() ([]string, error) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

func (d *winDir) Stat(name string) (nodeInfo, error) { return lstatNode(filepath.Join(d.path, name)) }

// openChecked opens path itself (never a reparse target) and proves from the handle
// that it is a non-reparse node of the wanted kind whose final path is path.
func (d *winDir) openChecked(name string, want nodeInfo, access, flags uint32) (windows.Handle, int64, error) {
	path := filepath.Join(d.path, name)
	beforeOpen(path)
	h, err := createFile(path, access, flags|windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if err != nil {
		return windows.InvalidHandle, 0, err
	}
	fail := func(err error) (windows.Handle, int64, error) {
		windows.CloseHandle(h)
		return windows.InvalidHandle, 0, err
	}
	var bi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bi); err != nil {
		return fail(err)
	}
	isDir := bi.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0
	switch {
	case bi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		return fail(errSwappedLink)
	case want.kind == kindDir && !isDir, want.kind == kindFile && isDir:
		return fail(errChanged)
	}
	if want.kind == kindFile {
		if t, err := windows.GetFileType(h); err != nil || t != windows.FILE_TYPE_DISK {
			return fail(errChanged)
		}
	}
	fp, err := finalPath(h)
	if err != nil {
		return fail(err)
	}
	if !samePath(fp, path) {
		return fail(errNotItself)
	}
	return h, int64(bi.FileSizeHigh)<<32 | int64(bi.FileSizeLow), nil
}

func (d *winDir) OpenDir(name string, want nodeInfo) (srcDir, error) {
	h, _, err := d.openChecked(name, want, dirAccess, windows.FILE_FLAG_BACKUP_SEMANTICS)
	if err != nil {
		return nil, err
	}
	return &winDir{h: h, path: filepath.Join(d.path, name)}, nil
}

func (d *winDir) OpenFile(name string, want nodeInfo) (*os.File, int64, error) {
	h, size, err := d.openChecked(name, want, windows.GENERIC_READ, windows.FILE_FLAG_SEQUENTIAL_SCAN)
	if err != nil {
		return nil, 0, err
	}
	return os.NewFile(uintptr(h), filepath.Join(d.path, name)), size, nil
}

func (d *winDir) Close() error { return windows.CloseHandle(d.h) }
