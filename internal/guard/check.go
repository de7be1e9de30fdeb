package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/tools"
)

// linkMessage starts the error of a path that crosses a link; its wording is a contract
// (docs/safety/project-reads.md) that callers and tests match on "reparse point".
const linkMessage = "project path crosses a symbolic link or reparse point: "

// LinkError reports a symbolic link, junction or other reparse point on a project path.
type LinkError struct{ Path string }

func (e *LinkError) Error() string { return linkMessage + e.Path }

// HardLinkError reports a project file with more than one hard link: the same file may
// be linked from outside the project, so reading it could read outside.
type HardLinkError struct{ Path string }

func (e *HardLinkError) Error() string {
	return "project file has more than one hard link, so it may be a file outside the project: " + e.Path
}

// Entry is what Check found at a project path.
type Entry struct {
	// Path is the absolute display path (the bound project path joined with rel).
	Path string
	// Exists is false when a component is missing or an intermediate one is not a
	// directory.
	Exists bool
	// Kind is the final component's kind when it exists (never KindLink: a link is a
	// *LinkError).
	Kind Kind
}

// Check walks rel (relative to the bound project, or absolute and lexically inside its
// path) from the project's held directory, one component at a time, each opened
// relative to its parent without following links. A missing component (or an
// intermediate one that is not a directory) is "missing", not an error; a link or
// reparse point anywhere is a *LinkError; metadata that cannot be established is an
// error (fail closed). Nothing is read.
func Check(p *tools.Project, rel string) (Entry, error) {
	return defaultWalker.check(p, rel)
}

// walker is the walk with its one seam: how a directory is opened below its parent.
// Tests build their own walker to inject a failure a real file system will not
// produce on demand; production uses defaultWalker.
type walker struct {
	openDir func(d *Dir, name string) (*Dir, Info, error)
}

var defaultWalker = walker{openDir: (*Dir).OpenDir}

// at is a walk that reached the parent of the final component.
type at struct {
	abs    string
	parent *Dir // nil when a component on the way is missing
	name   string
	held   []*Dir
}

func (a *at) close() {
	for i := len(a.held) - 1; i >= 0; i-- {
		a.held[i].Close()
	}
}

// walk opens the project's root and every directory on the way to rel's last component.
func (w walker) walk(p *tools.Project, rel string, mode Mode) (*at, error) {
	if p == nil {
		return nil, errors.New("the project directory is not bound")
	}
	comps, err := locate(p.Path, rel)
	if err != nil {
		return nil, err
	}
	a := &at{abs: filepath.Join(append([]string{p.Path}, comps...)...), name: comps[len(comps)-1]}
	root, err := OpenRoot(p, mode)
	if err != nil {
		return nil, err
	}
	a.held = append(a.held, root)
	cur := root
	for _, c := range comps[:len(comps)-1] {
		next, _, err := w.openDir(cur, c)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, ErrNotDir):
			return a, nil
		case errors.Is(err, ErrLink):
			a.close()
			return nil, &LinkError{Path: cur.child(c)}
		case err != nil:
			a.close()
			return nil, metadataErr(cur.child(c), err)
		}
		a.held = append(a.held, next)
		cur = next
	}
	a.parent = cur
	return a, nil
}

func (w walker) check(p *tools.Project, rel string) (Entry, error) {
	a, err := w.walk(p, rel, Shared)
	if err != nil {
		return Entry{}, err
	}
	defer a.close()
	e := Entry{Path: a.abs}
	if a.parent == nil {
		return e, nil
	}
	info, err := a.parent.Stat(a.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return e, nil
	case err != nil:
		return e, metadataErr(a.abs, err)
	case info.Kind == KindLink:
		return e, &LinkError{Path: a.abs}
	}
	e.Exists, e.Kind = true, info.Kind
	return e, nil
}

func metadataErr(path string, err error) error {
	return fmt.Errorf("metadata could not be established for %s: %v", path, unwrapPath(err))
}

// locate splits rel into clean components under base (the bound project path) that
// cannot climb out of it.
func locate(base, rel string) ([]string, error) {
	if rel == "" || strings.ContainsRune(rel, 0) {
		return nil, fmt.Errorf("invalid project path %q", rel)
	}
	if filepath.IsAbs(rel) {
		r, ok := contain.Rel(base, rel)
		if !ok {
			return nil, fmt.Errorf("project path is outside the project root %s: %s", base, rel)
		}
		rel = r
	} else if contain.Anchored(rel) {
		// C:foo or \foo on Windows: relative to something other than the root.
		return nil, fmt.Errorf("project path %q is not relative to the project root", rel)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == "." {
		return nil, fmt.Errorf("project path %q names the project root itself", rel)
	}
	comps := strings.Split(clean, string(filepath.Separator))
	if comps[0] == ".." {
		return nil, fmt.Errorf("project path is outside the project root %s: %s", base, rel)
	}
	for _, c := range comps {
		if checkName(c) != nil {
			return nil, fmt.Errorf("invalid project path %q", rel)
		}
	}
	if !filepath.IsLocal(clean) { // Windows: a reserved device name such as NUL
		return nil, fmt.Errorf("invalid project path %q", rel)
	}
	return comps, nil
}

// unwrapPath drops the *fs.PathError wrapper whose path the message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
