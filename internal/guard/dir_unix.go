//go:build unix

package guard

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Dir is a directory held open by descriptor. Every child is reached with openat or
// fstatat relative to it and O_NOFOLLOW / AT_SYMLINK_NOFOLLOW: no component above can be
// swapped once the directory is open, and no component at all is ever followed.
type Dir struct {
	fd   int
	path string
	info Info
}

func dirFromFile(f *os.File, path string, _ Mode) (*Dir, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(s uintptr) {
		fd, derr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, fmt.Errorf("the project directory could not be opened: %v", derr)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("the project directory could not be opened: %v", err)
	}
	return &Dir{fd: fd, path: path, info: infoOf(&st)}, nil
}

func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return errName
	}
	return nil
}

// Stat reads a child's metadata without following it. A missing child satisfies
// errors.Is(err, fs.ErrNotExist).
func (d *Dir) Stat(name string) (Info, error) {
	if err := checkName(name); err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: d.child(name), Err: err}
	}
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == nil {
			return infoOf(&st), nil
		}
		if err != unix.EINTR {
			return Info{}, &fs.PathError{Op: "lstat", Path: d.child(name), Err: err}
		}
	}
}

func infoOf(st *unix.Stat_t) Info {
	n := Info{Size: st.Size, Links: uint64(st.Nlink), ID: FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		n.Kind = KindLink
	case unix.S_IFREG:
		n.Kind = KindFile
	case unix.S_IFDIR:
		n.Kind = KindDir
	default:
		n.Kind = KindOther
	}
	return n
}

// open opens a child without following it and returns the descriptor with the
// metadata of what it opened. ErrLink when the child is a link (O_NOFOLLOW answers
// ELOOP, some BSDs EMLINK, and O_DIRECTORY on a link may answer ENOTDIR first).
func (d *Dir) open(name string, flags int) (int, Info, error) {
	if err := checkName(name); err != nil {
		return -1, Info{}, &fs.PathError{Op: "open", Path: d.child(name), Err: err}
	}
	fd, err := openat(d.fd, name, flags|unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NOCTTY)
	if err != nil {
		switch {
		case errors.Is(err, unix.ELOOP), errors.Is(err, unix.EMLINK):
			err = ErrLink
		case errors.Is(err, unix.ENOTDIR):
			err = ErrNotDir
			if now, serr := d.Stat(name); serr == nil && now.Kind == KindLink {
				err = ErrLink
			}
		}
		return -1, Info{}, &fs.PathError{Op: "open", Path: d.child(name), Err: err}
	}
	var st unix.Stat_t
	for {
		err := unix.Fstat(fd, &st)
		if err == nil {
			return fd, infoOf(&st), nil
		}
		if err != unix.EINTR {
			unix.Close(fd)
			return -1, Info{}, &fs.PathError{Op: "fstat", Path: d.child(name), Err: err}
		}
	}
}

// OpenDir opens a child directory without following it. A link is ErrLink, anything
// else that is not a directory ErrNotDir, a missing child fs.ErrNotExist.
func (d *Dir) OpenDir(name string) (*Dir, Info, error) {
	fd, info, err := d.open(name, unix.O_DIRECTORY)
	if err != nil {
		return nil, Info{}, err
	}
	if info.Kind != KindDir {
		unix.Close(fd)
		return nil, Info{}, &fs.PathError{Op: "open", Path: d.child(name), Err: ErrNotDir}
	}
	return &Dir{fd: fd, path: d.child(name), info: info}, info, nil
}

// OpenFile opens a child regular file for reading without following it. The open is
// non-blocking, so a FIFO or device swapped in after a Stat cannot hang it; it is
// refused by the fstat that follows (ErrNotRegular). A regular file ignores the flag.
func (d *Dir) OpenFile(name string) (*File, error) {
	fd, info, err := d.open(name, unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	if info.Kind != KindFile {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: d.child(name), Err: ErrNotRegular}
	}
	return &File{fd: fd, dir: d, name: name, info: info}, nil
}

// Names lists the directory's entries, sorted. It reads through a fresh descriptor of
// the same directory (openat "."), so the listing has its own offset.
func (d *Dir) Names() ([]string, error) {
	fd, err := openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	slices.Sort(names)
	return names, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return unix.Close(d.fd) }

// File is a regular file opened by OpenFile. It is a bare descriptor, not an *os.File:
// registering a file with the runtime poller costs system calls a regular file does not
// need, once per file of a staged tree (docs/tools/sandbox_run.md, staging).
type File struct {
	fd   int
	dir  *Dir // for the display path only
	name string
	info Info
}

// Info is the metadata of the opened file, from the descriptor.
func (f *File) Info() Info { return f.info }

// Path is the file's display path.
func (f *File) Path() string { return f.dir.child(f.name) }

// Fd is the descriptor, for a kernel copy (copy_file_range); it stays owned by f.
func (f *File) Fd() uintptr { return uintptr(f.fd) }

// Read reads from the file; io.EOF at its end.
func (f *File) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := unix.Read(f.fd, p)
	for err == unix.EINTR {
		n, err = unix.Read(f.fd, p)
	}
	switch {
	case err != nil:
		return 0, &fs.PathError{Op: "read", Path: f.Path(), Err: err}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Close releases the file.
func (f *File) Close() error { return unix.Close(f.fd) }

// openat retries an open a signal interrupted (a slow or network file system can
// return EINTR).
func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}
