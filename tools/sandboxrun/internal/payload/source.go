package payload

import "os"

// srcDir is a source directory held open while its children are examined and staged.
// Implementations guarantee that every node they hand out is the node the requested
// path names, reached without following a link (source_other.go, source_windows.go).
type srcDir interface {
	// Names lists the directory's entries, sorted.
	Names() ([]string, error)
	// Stat reads a child's metadata without following it.
	Stat(name string) (nodeInfo, error)
	// OpenDir opens the child directory seen by Stat as want, refusing anything else.
	OpenDir(name string, want nodeInfo) (srcDir, error)
	// OpenFile opens the regular file seen by Stat as want, refusing anything else, and
	// returns it with its size read from the open handle.
	OpenFile(name string, want nodeInfo) (*os.File, int64, error)
	Close() error
}

// hookBeforeOpen, when set by a test, runs after a node's no-follow metadata was read
// and before it is opened: the window in which a swap must be caught.
var hookBeforeOpen func(path string)

func beforeOpen(path string) {
	if hookBeforeOpen != nil {
		hookBeforeOpen(path)
	}
}
