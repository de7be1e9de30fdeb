//go:build !unix && !windows

package guard

import (
	"errors"
	"io/fs"
	"os"
)

// errUnsupported: this system offers no way to open a child relative to a held
// directory without following links, so project reads fail closed.
var errUnsupported = errors.New("guarded project reads are not supported on this system")

// Dir is never opened here.
type Dir struct {
	path string
	info Info
}

func dirFromFile(*os.File, string, Mode) (*Dir, error) { return nil, errUnsupported }

func (d *Dir) Stat(name string) (Info, error) {
	return Info{}, &fs.PathError{Op: "lstat", Path: d.child(name), Err: errUnsupported}
}
func (d *Dir) OpenDir(name string) (*Dir, Info, error) {
	return nil, Info{}, &fs.PathError{Op: "open", Path: d.child(name), Err: errUnsupported}
}
func (d *Dir) OpenFile(name string) (*File, error) {
	return nil, &fs.PathError{Op: "open", Path: d.child(name), Err: errUnsupported}
}
func (d *Dir) Names() ([]string, error) { return nil, errUnsupported }
func (d *Dir) Close() error             { return nil }

// File is never opened here.
type File struct{ path string }

func (f *File) Info() Info               { return Info{} }
func (f *File) Path() string             { return f.path }
func (f *File) Fd() uintptr              { return ^uintptr(0) }
func (f *File) Read([]byte) (int, error) { return 0, errUnsupported }
func (f *File) Close() error             { return nil }

func openPlain(path string) (*os.File, error) { return os.Open(path) }

func checkName(name string) error {
	if name == "" || name == "." || name == ".." {
		return errName
	}
	return nil
}
