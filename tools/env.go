package tools

import (
	"io"
	"os"
	"time"
)

// Env is what a handler may know about the call's surroundings. The pipeline builds one
// per call from the server's options and the call's binding; it is passed as an
// argument, never through a context, so nothing can forge one.
type Env struct {
	// Host is "claude", "codex" or "generic".
	Host string
	// DataDir holds the cache, the audit log and sandbox bundles. Never inside the
	// plugin code tree.
	DataDir string
	// ProjectDir is the active project's directory (the root every project argument
	// is contained in).
	ProjectDir string
	// Project is the call's bound project directory, opened once: set for a
	// project-scoped tool (one with a ProjectArg), nil otherwise. Handlers use it for
	// every file access and as the working directory of what they start.
	Project *Project
	// Getenv reads the environment a handler is allowed to see (PATH, APPDATA, HOME…).
	Getenv func(string) string
	// Progress, when set, receives progress of long work; see Report.
	Progress func(Progress)
}

// Lookup reads a variable through Getenv (os.Getenv when unset).
func (e *Env) Lookup(key string) string {
	if e.Getenv != nil {
		return e.Getenv(key)
	}
	return os.Getenv(key)
}

// Report forwards p to the caller's progress sink, if it asked for progress.
func (e *Env) Report(p Progress) {
	if e != nil && e.Progress != nil {
		e.Progress(p)
	}
}

// Progress is one report of long work: how long it has run and what it last printed,
// and, for work made of a known number of steps, how many are done.
type Progress struct {
	Elapsed time.Duration
	// Message is a short human line, e.g. the last line of output (bounded).
	Message string
	// Done of Total steps are finished, when Total is not zero (tool_discover's probes).
	// A call reports either counted or timed progress, never both: MCP's progress
	// value must grow, and the two do not share a unit.
	Done, Total int
}

// Project is a bound project directory: the path it was found at and the directory
// held open, so that what the call reads or starts is exactly what was checked
// (docs/safety.md, project containment).
type Project struct {
	// Path is the absolute, link-free path of the directory when it was bound.
	Path string
	// Root is the directory itself; files are opened relative to it, never by path.
	Root *os.Root
	// Named is the directory as the call named it, absolute, before any link was
	// resolved ("" when unknown): a path the user wrote under it still counts as the
	// project's even when the project is reached through a link.
	Named string
	// hold keeps the directory from being renamed or deleted while the call runs, where
	// the OS allows it (Windows); nil elsewhere.
	hold io.Closer
}

// NewProject makes a Project of an opened root. hold, when not nil, is closed with it.
func NewProject(path string, root *os.Root, hold io.Closer) *Project {
	return &Project{Path: path, Root: root, hold: hold}
}

// Dir opens the directory itself, for use as a child's working directory. The caller
// closes it.
func (p *Project) Dir() (*os.File, error) { return p.Root.Open(".") }

// Close releases the directory. The pipeline calls it when the call has ended.
func (p *Project) Close() error {
	if p == nil {
		return nil
	}
	err := p.Root.Close()
	if p.hold != nil {
		if herr := p.hold.Close(); err == nil {
			err = herr
		}
	}
	return err
}
