//go:build !windows

package payload

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"
)

// unixDir holds a directory descriptor. Children are reached with openat relative to
// it and O_NOFOLLOW, so no component above can be swapped for a link once the
// directory is open, and the final component is never followed either.
type unixDir struct {
	fd   int
	path string // for listing through *os.File and for messages
}

func openRoot(ws string) (srcDir, error) {
	fd, err := unix.Open(ws, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("workspace could not be opened: %v", err)
	}
	return &unixDir{fd: fd, path: ws}, nil
}

func (d *unixDir) Names() ([]string, error) {
	// Dup so the *os.File owns its own descriptor; d.fd stays usable for openat.
	fd, err := unix.Dup(d.fd)
	if err != nil {
		return nil, err
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

func (d *unixDir) Stat(name string) (nodeInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nodeInfo{}, &os.PathError{Op: "lstat", Path: filepath.Join(d.path, name), Err: err}
	}
	return infoFromStat(&st), nil
}

func infoFromStat(st *unix.Stat_t) nodeInfo {
	n := nodeInfo{size: st.Size, id: fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		n.kind = kindLink
	case unix.S_IFREG:
		n.kind = kindFile
	case unix.S_IFDIR:
		n.kind = kindDir
	default:
		n.kind = kindOther
	}
	return n
}

// openChecked opens name under d without following it and proves, with fstat on the
// new descriptor, that it is the object the preceding no-follow stat saw.
func (d *unixDir) openChecked(name string, want nodeInfo, flags int) (int, nodeInfo, error) {
	beforeOpen(filepath.Join(d.path, name))
	fd, err := unix.Openat(d.fd, name, flags|unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		// ELOOP (EMLINK on some BSDs) is O_NOFOLLOW meeting a link; ENOTDIR is
		// O_DIRECTORY meeting something else. Either way the node changed after the stat.
		if now, serr := d.Stat(name); serr == nil && now.kind == kindLink {
			return -1, nodeInfo{}, errSwappedLink
		}
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK) {
			return -1, nodeInfo{}, errSwappedLink
		}
		if errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ENOENT) {
			return -1, nodeInfo{}, errChanged
		}
		return -1, nodeInfo{}, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, nodeInfo{}, err
	}
	got := infoFromStat(&st)
	if got.kind != want.kind || got.id != want.id {
		unix.Close(fd)
		return -1, nodeInfo{}, errChanged
	}
	// O_NONBLOCK only kept a FIFO swapped in after the stat from blocking the open; the
	// fstat proved this is a file or directory, so restore ordinary blocking reads.
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return -1, nodeInfo{}, err
	}
	return fd, got, nil
}

func (d *unixDir) OpenDir(name string, want nodeInfo) (srcDir, error) {
	fd, _, err := d.openChecked(name, want, unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	return &unixDir{fd: fd, path: filepath.Join(d.path, name)}, nil
}

func (d *unixDir) OpenFile(name string, want nodeInfo) (*os.File, int64, error) {
	fd, got, err := d.openChecked(name, want, 0)
	if err != nil {
		return nil, 0, err
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.path, name)), got.size, nil
}

func (d *unixDir) Close() error { return unix.Close(d.fd) }

// errNotItself is Windows-only (a final-path mismatch); on Unix openat with O_NOFOLLOW
// from a held parent cannot reach anything but the named child.
var errNotItself = errors.New("opened node is not the requested path")
