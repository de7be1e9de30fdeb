package payload

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/tools"
)

// Budgets, cumulative across all selected roots (docs/tools/sandbox_run.md, staging).
const (
	// MaxEntries counts every file and directory staged, each selected root included.
	MaxEntries = 10000
	// MaxBytes is the total of regular-file bytes (1 GiB).
	MaxBytes int64 = 1 << 30
)

// limits lets tests shrink the budgets; production always uses defaultLimits.
type limits struct {
	entries int
	bytes   int64
}

var defaultLimits = limits{entries: MaxEntries, bytes: MaxBytes}

// Selection is a validated payload: what Validate saw at nomination time. Stage does
// not trust it beyond the lexical shape of the paths: everything is checked again,
// through the same bound workspace.
type Selection struct {
	// Workspace is the workspace's bound path (for messages and the bundle check).
	Workspace string
	// Paths are the payload paths as given, in order.
	Paths []string
	// Entries and Bytes are the totals counted at nomination.
	Entries int
	Bytes   int64

	project *tools.Project // the bound workspace, held open by the call
	roots   [][]string     // components of each path, workspace-relative
}

// Validate checks payload paths against the bound workspace p without following any
// link or reading any file content: every directory is opened relative to its held
// parent, every node's metadata read without following it. An error is an
// invalid_input refusal and its message is meant for the caller.
func Validate(p *tools.Project, paths []string) (*Selection, error) {
	return validate(p, paths, defaultLimits, (*guard.Dir).Stat)
}

// statFunc is validation's one seam: how a child's metadata is read. Tests pass one
// that fails or lies for a chosen node; production passes (*guard.Dir).Stat.
type statFunc func(d *guard.Dir, name string) (guard.Info, error)

func validate(p *tools.Project, paths []string, lim limits, stat statFunc) (*Selection, error) {
	if p == nil {
		return nil, errors.New("the workspace is not bound")
	}
	sel := &Selection{Workspace: p.Path, Paths: slices.Clone(paths), project: p}
	for _, path := range paths {
		comps, err := parsePath(path)
		if err != nil {
			return nil, err
		}
		for _, prev := range sel.roots {
			if overlaps(prev, comps) {
				return nil, errors.New("payload paths overlap or duplicate one another")
			}
		}
		sel.roots = append(sel.roots, comps)
	}
	root, err := guard.OpenRoot(p, guard.Shared)
	if err != nil {
		return nil, fmt.Errorf("payload metadata could not be established for .: %v", err)
	}
	defer root.Close()
	w := &walker{lim: lim, stat: stat}
	for _, comps := range sel.roots {
		if err := w.root(root, comps); err != nil {
			return nil, err
		}
	}
	sel.Entries, sel.Bytes = w.entries, w.bytes
	return sel, nil
}

// walker is the depth-first pre-order walk of a selection: a node is counted and
// examined before its children are listed, so a link directory is refused before any
// descent. Budgets accumulate across roots.
type walker struct {
	lim     limits
	stat    statFunc
	entries int
	bytes   int64
}

// root descends from the workspace to one selected root through held directories, so a
// link parent is refused even when its target is inside the workspace, then walks it.
func (w *walker) root(ws *guard.Dir, comps []string) error {
	if len(comps) == 0 {
		// "." is the workspace itself, an entry like any other.
		if err := w.count(); err != nil {
			return err
		}
		return w.walkDir(ws, ".")
	}
	cur := ws
	var held []*guard.Dir
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Close()
		}
	}()
	for i, c := range comps[:len(comps)-1] {
		rel := relString(comps[:i+1])
		info, err := w.stat(cur, c)
		if err := parentErr(info, err, rel, comps); err != nil {
			return err
		}
		next, _, err := cur.OpenDir(c)
		if err != nil {
			return openErr(rel, err, true)
		}
		held = append(held, next)
		cur = next
	}
	last, rel := comps[len(comps)-1], relString(comps)
	info, err := w.stat(cur, last)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("payload path does not exist: %s", rel)
	case err != nil:
		return fmt.Errorf("payload metadata could not be established for %s: %v", rel, unwrapPath(err))
	case info.Kind == guard.KindLink:
		return fmt.Errorf("payload path crosses a symbolic link or reparse point: %s", rel)
	}
	return w.walk(cur, last, relPath{relString(comps[:len(comps)-1]), last}, info)
}

// parentErr words what a directory on the way to a selected root must not be.
func parentErr(info guard.Info, err error, rel string, comps []string) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("payload path does not exist: %s", relString(comps))
	case err != nil:
		return fmt.Errorf("payload metadata could not be established for %s: %v", rel, unwrapPath(err))
	case info.Kind == guard.KindLink:
		return fmt.Errorf("payload path crosses a symbolic link or reparse point: %s", rel)
	case info.Kind != guard.KindDir:
		return fmt.Errorf("payload path does not exist: %s", relString(comps))
	}
	return nil
}

// walk counts and checks the node name of parent (seen as info), then its children.
// rel names it in messages.
func (w *walker) walk(parent *guard.Dir, name string, rel relPath, info guard.Info) error {
	if err := w.count(); err != nil {
		return err
	}
	if info.Kind != guard.KindFile || info.Links > 1 {
		if err := admit(info, rel.String()); err != nil {
			return err
		}
	}
	if info.Kind == guard.KindFile {
		w.bytes += info.Size
		if w.bytes > w.lim.bytes {
			return fmt.Errorf("payload exceeds the Sandbox staging byte budget of %d bytes", w.lim.bytes)
		}
		return nil
	}
	r := rel.String()
	d, _, err := parent.OpenDir(name)
	if err != nil {
		return openErr(r, err, false)
	}
	defer d.Close()
	return w.walkDir(d, r)
}

func (w *walker) count() error {
	w.entries++
	if w.entries > w.lim.entries {
		return fmt.Errorf("payload exceeds the Sandbox staging entry budget of %d entries", w.lim.entries)
	}
	return nil
}

// walkDir checks the children of the held directory d.
func (w *walker) walkDir(d *guard.Dir, rel string) error {
	names, err := d.Names()
	if err != nil {
		return fmt.Errorf("payload could not be enumerated safely: %s: %v", rel, unwrapPath(err))
	}
	for _, n := range names {
		childRel := relPath{rel, n}
		ci, err := w.stat(d, n)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("payload could not be enumerated safely: %s vanished during the walk", childRel.String())
			}
			return fmt.Errorf("payload metadata could not be established for %s: %v", childRel.String(), unwrapPath(err))
		}
		if err := w.walk(d, n, childRel, ci); err != nil {
			return err
		}
	}
	return nil
}

// admit refuses what is never staged, in the words of the contract: links, nodes that
// are neither files nor directories, and files with more than one hard link (the same
// file may be linked from outside the workspace; docs/tools/sandbox_run.md).
func admit(info guard.Info, rel string) error {
	switch {
	case info.Kind == guard.KindLink:
		return fmt.Errorf("payload contains a symbolic link or reparse point: %s", rel)
	case info.Kind == guard.KindOther:
		return fmt.Errorf("payload contains something that is neither a regular file nor a directory: %s", rel)
	case info.Kind == guard.KindFile && info.Links > 1:
		return fmt.Errorf("payload contains a file with more than one hard link, which may be a file outside the workspace: %s", rel)
	}
	return nil
}

// unwrapPath drops the *PathError wrapper: messages name the relative path already and
// must not leak the host's absolute layout twice.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func joinRel(rel, name string) string {
	if rel == "." {
		return name
	}
	return rel + "/" + name
}
