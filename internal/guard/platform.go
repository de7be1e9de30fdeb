package guard

import (
	"io/fs"
	"os"
)

// platform is the OS-specific part of a guarded read, kept small so the walk and the
// read budget are the same code everywhere. Each OS has one implementation:
// platform_windows.go (reparse attributes, final-path verification), platform_unix.go
// (a symlink stands in for a reparse point; openat with O_NOFOLLOW) and
// platform_other.go (a re-check fallback for other systems).
type platform interface {
	// linkLike reports whether no-follow metadata describes a link or reparse point.
	linkLike(fi fs.FileInfo) bool
	// openUnder opens t for reading so that the handle provably refers to the file at
	// t.root + t.comps reached without any link, and is a regular file.
	openUnder(t target) (*os.File, error)
	// openPlain opens a host file for reading without blocking on FIFOs or devices.
	openPlain(path string) (*os.File, error)
}

var sys platform = osPlatform{}
