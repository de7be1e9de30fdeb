//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

type osPlatform struct{}

func (osPlatform) linkLike(fi fs.FileInfo) bool {
	return fi.Mode()&fs.ModeSymlink != 0
}

// openUnder re-walks the path with openat, one component relative to the previous
// directory descriptor, each with O_NOFOLLOW: a component swapped for a symlink after
// Check fails here instead of being followed, and nothing can escape the root.
func (osPlatform) openUnder(t target) (*os.File, error) {
	dir, err := unix.Open(t.root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("could not open project root %s: %w", t.root, err)
	}
	cur := t.root
	for i, c := range t.comps {
		cur = filepath.Join(cur, c)
		last := i == len(t.comps)-1
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if last {
			flags |= unix.O_NONBLOCK // a FIFO planted as the config must not block the open
		} else {
			flags |= unix.O_DIRECTORY
		}
		fd, err := openat(dir, c, flags)
		unix.Close(dir)
		if err != nil {
			if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) && isLinkAt(t.root, t.comps[:i+1]) {
				return nil, &LinkError{Path: cur}
			}
			return nil, &fs.PathError{Op: "open", Path: cur, Err: err}
		}
		dir = fd
	}
	var st unix.Stat_t
	if err := unix.Fstat(dir, &st); err != nil {
		unix.Close(dir)
		return nil, fmt.Errorf("metadata could not be established for %s: %w", t.abs, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(dir)
		return nil, fmt.Errorf("not a regular file: %s", t.abs)
	}
	return os.NewFile(uintptr(dir), t.abs), nil
}

// openat retries on EINTR, which a signal can cause on a slow file system.
func openat(dir int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// isLinkAt tells a symlink (some systems answer O_DIRECTORY|O_NOFOLLOW on a link with
// ENOTDIR) from a plain non-directory.
func isLinkAt(root string, comps []string) bool {
	fi, err := os.Lstat(filepath.Join(append([]string{root}, comps...)...))
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

func (osPlatform) openPlain(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK, 0)
}
