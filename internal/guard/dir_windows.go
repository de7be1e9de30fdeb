//go:build windows

package guard

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Dir is a directory held open by handle. Every child is opened with NtCreateFile
// relative to it (OBJECT_ATTRIBUTES.RootDirectory) and FILE_OPEN_REPARSE_POINT, so a
// reparse point is opened as itself and refused, never followed, and nothing above a
// held directory is looked up again. Held handles never share delete access: while one
// is open, nobody can rename, replace or delete that node.
type Dir struct {
	h     windows.Handle
	path  string
	share uint32
	info  Info
}

func shareOf(mode Mode) uint32 {
	if mode == Frozen {
		return windows.FILE_SHARE_READ
	}
	return windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE
}

func dirFromFile(f *os.File, path string, mode Mode) (*Dir, error) {
	var h windows.Handle
	p := windows.CurrentProcess()
	if err := windows.DuplicateHandle(p, windows.Handle(f.Fd()), p, &h, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	info, err := infoOf(h)
	if err != nil {
		windows.CloseHandle(h)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &Dir{h: h, path: path, share: shareOf(mode), info: info}, nil
}

// checkName refuses what is not one plain component. A ':' would name an alternate
// data stream of the node before it, which NtCreateFile opens as asked.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "\\/:\x00") {
		return errName
	}
	return nil
}

// ntOpen opens name relative to d without following a reparse point.
func (d *Dir) ntOpen(name string, access, share, options uint32) (windows.Handle, error) {
	if err := checkName(name); err != nil {
		return windows.InvalidHandle, err
	}
	un, err := windows.NewNTUnicodeString(name)
	if err != nil {
		return windows.InvalidHandle, errName
	}
	oa := windows.OBJECT_ATTRIBUTES{RootDirectory: d.h, ObjectName: un, Attributes: windows.OBJ_CASE_INSENSITIVE}
	oa.Length = uint32(unsafe.Sizeof(oa))
	var h windows.Handle
	var iosb windows.IO_STATUS_BLOCK
	err = windows.NtCreateFile(&h, access|windows.SYNCHRONIZE, &oa, &iosb, nil, 0, share, windows.FILE_OPEN,
		options|windows.FILE_OPEN_REPARSE_POINT|windows.FILE_SYNCHRONOUS_IO_NONALERT|windows.FILE_OPEN_FOR_BACKUP_INTENT, 0, 0)
	if err != nil {
		return windows.InvalidHandle, ntError(err)
	}
	return h, nil
}

// ntError maps the statuses a walk meets to the package's causes.
func ntError(err error) error {
	var st windows.NTStatus
	if !errors.As(err, &st) {
		return err
	}
	switch st {
	case windows.STATUS_OBJECT_NAME_NOT_FOUND, windows.STATUS_OBJECT_PATH_NOT_FOUND, windows.STATUS_NO_SUCH_FILE,
		windows.STATUS_DELETE_PENDING:
		return fs.ErrNotExist
	case windows.STATUS_NOT_A_DIRECTORY:
		return ErrNotDir
	case windows.STATUS_FILE_IS_A_DIRECTORY:
		return ErrNotRegular
	case windows.STATUS_OBJECT_NAME_INVALID:
		return errName
	}
	return st.Errno()
}

// infoOf reads a handle's metadata. Any reparse point (symbolic link, junction, mount
// point, App Execution Alias, cloud placeholder…) is a link.
func infoOf(h windows.Handle) (Info, error) {
	var bi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bi); err != nil {
		return Info{}, err
	}
	n := Info{Size: int64(bi.FileSizeHigh)<<32 | int64(bi.FileSizeLow), Links: uint64(bi.NumberOfLinks),
		ID: FileID{Dev: uint64(bi.VolumeSerialNumber), Ino: uint64(bi.FileIndexHigh)<<32 | uint64(bi.FileIndexLow)}}
	disk := false
	if bi.FileAttributes&(windows.FILE_ATTRIBUTE_REPARSE_POINT|windows.FILE_ATTRIBUTE_DIRECTORY) == 0 {
		t, err := windows.GetFileType(h)
		disk = err == nil && t == windows.FILE_TYPE_DISK
	}
	n.Kind = kindOfAttrs(bi.FileAttributes, disk)
	return n, nil
}

// kindOfAttrs: the reparse attribute decides before anything else, so a reparse point
// that looks like a plain file or directory is still a link.
func kindOfAttrs(attrs uint32, disk bool) Kind {
	switch {
	case attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		return KindLink
	case attrs&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		return KindDir
	case disk:
		return KindFile
	}
	return KindOther
}

// Stat reads a child's metadata without following it: the child is opened for its
// attributes only, sharing everything, and closed again.
func (d *Dir) Stat(name string) (Info, error) {
	h, err := d.ntOpen(name, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, 0)
	if err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: d.child(name), Err: err}
	}
	defer windows.CloseHandle(h)
	info, err := infoOf(h)
	if err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: d.child(name), Err: err}
	}
	return info, nil
}

func (d *Dir) openKind(name string, access, options uint32, want Kind, mismatch error) (windows.Handle, Info, error) {
	h, err := d.ntOpen(name, access, d.share, options)
	if err != nil {
		return windows.InvalidHandle, Info{}, &fs.PathError{Op: "open", Path: d.child(name), Err: err}
	}
	info, err := infoOf(h)
	switch {
	case err != nil:
	case info.Kind == KindLink:
		err = ErrLink
	case info.Kind != want:
		err = mismatch
	default:
		err = sameName(h, name)
	}
	if err != nil {
		windows.CloseHandle(h)
		return windows.InvalidHandle, Info{}, &fs.PathError{Op: "open", Path: d.child(name), Err: err}
	}
	return h, info, nil
}

// sameName refuses a node whose own name is not the one it was opened by, other than by
// case: NTFS also finds a node by its 8.3 short name (PROGRA~1), and what a caller
// named must be what is staged and reported.
func sameName(h windows.Handle, name string) error {
	buf := make([]byte, 4+2*260)
	for {
		err := windows.GetFileInformationByHandleEx(h, windows.FileNameInfo, &buf[0], uint32(len(buf)))
		if err == windows.ERROR_MORE_DATA && len(buf) < 1<<17 {
			buf = make([]byte, 2*len(buf))
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	n := int(*(*uint32)(unsafe.Pointer(&buf[0]))) / 2
	if n > (len(buf)-4)/2 {
		return ErrAlias
	}
	u := unsafe.Slice((*uint16)(unsafe.Pointer(&buf[4])), n)
	full := windows.UTF16ToString(u)
	base := full[strings.LastIndexAny(full, `\/`)+1:]
	if !strings.EqualFold(base, name) {
		return ErrAlias
	}
	return nil
}

// OpenDir opens a child directory without following it. A reparse point is ErrLink,
// anything else that is not a directory ErrNotDir, a missing child fs.ErrNotExist.
func (d *Dir) OpenDir(name string) (*Dir, Info, error) {
	h, info, err := d.openKind(name, windows.FILE_LIST_DIRECTORY|windows.FILE_TRAVERSE|windows.FILE_READ_ATTRIBUTES,
		windows.FILE_DIRECTORY_FILE, KindDir, ErrNotDir)
	if err != nil {
		return nil, Info{}, err
	}
	return &Dir{h: h, path: d.child(name), share: d.share, info: info}, info, nil
}

// OpenFile opens a child disk file for reading without following it; a directory,
// pipe, device or reparse point is refused from the handle.
func (d *Dir) OpenFile(name string) (*File, error) {
	h, info, err := d.openKind(name, windows.GENERIC_READ, windows.FILE_NON_DIRECTORY_FILE|windows.FILE_SEQUENTIAL_ONLY,
		KindFile, ErrNotRegular)
	if err != nil {
		if errors.Is(err, ErrNotDir) { // FILE_NON_DIRECTORY_FILE met a directory
			err = &fs.PathError{Op: "open", Path: d.child(name), Err: ErrNotRegular}
		}
		return nil, err
	}
	p := d.child(name)
	return &File{f: os.NewFile(uintptr(h), p), path: p, info: info}, nil
}

// Names lists the directory's entries, sorted, enumerating the held handle itself
// (GetFileInformationByHandleEx through os.File.ReadDir on a duplicate).
func (d *Dir) Names() ([]string, error) {
	var h windows.Handle
	p := windows.CurrentProcess()
	if err := windows.DuplicateHandle(p, d.h, p, &h, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(h), d.path)
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	slices.Sort(names)
	return names, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return windows.CloseHandle(d.h) }

// File is a disk file opened by OpenFile.
type File struct {
	f    *os.File
	path string
	info Info
}

// Info is the metadata of the opened file, from the handle.
func (f *File) Info() Info { return f.info }

// Path is the file's display path.
func (f *File) Path() string { return f.path }

// Fd is the handle; it stays owned by f.
func (f *File) Fd() uintptr { return f.f.Fd() }

// Read reads from the file; io.EOF at its end.
func (f *File) Read(p []byte) (int, error) { return f.f.Read(p) }

// Close releases the file.
func (f *File) Close() error { return f.f.Close() }
