package guard

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/windows-dev-agent/wda/tools"
)

// Kind is what no-follow metadata says a node is.
type Kind uint8

const (
	// KindOther is a FIFO, socket, device or anything else that is neither a regular
	// file, a directory nor a link.
	KindOther Kind = iota
	KindFile
	KindDir
	// KindLink is a symbolic link, a junction or any other reparse point.
	KindLink
	// KindUnknown: a directory listing that does not say (Entries only).
	KindUnknown
)

// DirEntry is one name of a directory listing, with what the listing itself tells of
// it: its kind and inode where the system reports them (Linux getdents), else
// KindUnknown and 0. A caller that acts on it opens the name without following it and
// compares the handle's metadata with the entry.
type DirEntry struct {
	Name string
	Kind Kind
	Ino  uint64
}

// Info is the metadata of one node, read without following it (Stat) or from the handle
// that opened it (OpenDir, OpenFile).
type Info struct {
	Kind Kind
	// Size is the length of a regular file in bytes.
	Size int64
	// Links is the number of hard links of the node (Unix st_nlink, Windows
	// NumberOfLinks). A regular file with more than one may also be a file outside the
	// project, so readers and staging refuse it (docs/safety/project-reads.md).
	Links uint64
	// ID identifies the object, so an open can be compared with the Stat before it.
	ID FileID
}

// FileID is the identity of a file system object: device and inode on Unix, volume
// serial number and file index on Windows.
type FileID struct{ Dev, Ino uint64 }

// Sentinel causes of a refused open, for errors.Is.
var (
	// ErrLink: the node is a symbolic link, junction or other reparse point.
	ErrLink = errors.New("symbolic link or reparse point")
	// ErrNotDir: OpenDir met something that is not a directory.
	ErrNotDir = errors.New("not a directory")
	// ErrNotRegular: OpenFile met something that is not a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrAlias: on Windows, the name opened a node whose own name differs (an 8.3 short
	// name such as PROGRA~1), so what was named is not what would be reported.
	ErrAlias = errors.New("the name is an alias of another name")
	// errName: a name that is not one plain component (a separator, "..", a Windows
	// stream or a NUL); callers split paths before they get here.
	errName = errors.New("not a single path component")
)

// Mode says how the nodes a walk holds open may be shared with other processes. It
// matters on Windows only, where a held handle's share mode decides what others can do;
// on Unix a descriptor never stops anyone.
type Mode uint8

const (
	// Shared lets others read and write the nodes held open, never rename or delete
	// them: for short reads of configuration files an editor may have open.
	Shared Mode = iota
	// Frozen lets others only read the nodes held open: while staging copies a tree,
	// nothing in it can be changed, renamed or deleted.
	Frozen
)

// OpenRoot opens the project's bound directory (its held root, never its path) as the
// start of a no-follow walk. The caller closes it.
func OpenRoot(p *tools.Project, mode Mode) (*Dir, error) {
	if p == nil || p.Root == nil {
		return nil, errors.New("the project directory is not bound")
	}
	f, err := p.Root.Open(".")
	if err != nil {
		return nil, fmt.Errorf("the project directory could not be opened: %v", unwrapPath(err))
	}
	defer f.Close()
	return dirFromFile(f, p.Path, mode)
}

// Path is the directory's display path: the project's bound path joined with the names
// walked. It is for messages only; nothing is ever opened by it.
func (d *Dir) Path() string { return d.path }

// Info is the directory's own metadata, read from its handle when it was opened.
func (d *Dir) Info() Info { return d.info }

func (d *Dir) child(name string) string { return filepath.Join(d.path, name) }
