package payload

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Budgets, cumulative across all selected roots (tools.md §5.1).
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
// not trust it beyond the lexical shape of the paths: everything is checked again.
type Selection struct {
	// Workspace is the workspace's real absolute path.
	Workspace string
	// Paths are the payload paths as given, in order.
	Paths []string
	// Entries and Bytes are the totals counted at nomination.
	Entries int
	Bytes   int64

	roots [][]string // components of each path, workspace-relative
}

// Validate checks payload paths against the workspace (tools.md §5.1) without
// following any link or reading any file content. An error is an invalid_input refusal
// and its message is meant for the caller.
func Validate(workspace string, paths []string) (*Selection, error) {
	return validate(workspace, paths, defaultLimits)
}

// lstatFn is the metadata read used by validation; tests replace it to simulate
// metadata that cannot be read (the test process runs as root, so chmod cannot).
var lstatFn = lstatNode

func validate(workspace string, paths []string, lim limits) (*Selection, error) {
	// The workspace itself may be reached through links (it is the caller's project);
	// its contents may not.
	ws, err := realDir(workspace)
	if err != nil {
		return nil, err
	}
	sel := &Selection{Workspace: ws, Paths: slices.Clone(paths)}
	for _, p := range paths {
		comps, err := parsePath(p)
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
	w := &walker{lim: lim}
	for _, comps := range sel.roots {
		info, err := walkComponents(ws, comps)
		if err != nil {
			return nil, err
		}
		if err := w.walk(filepath.Join(append([]string{ws}, comps...)...), relString(comps), info); err != nil {
			return nil, err
		}
	}
	sel.Entries, sel.Bytes = w.entries, w.bytes
	return sel, nil
}

// walkComponents reads each component from the workspace down to the target without
// following links, so a link parent is refused even when its target is inside the
// workspace (§5.1 step 3c). It returns the target's metadata.
func walkComponents(ws string, comps []string) (nodeInfo, error) {
	info, err := lstatFn(ws)
	if err != nil {
		return nodeInfo{}, fmt.Errorf("payload metadata could not be established for %s: %v", ".", err)
	}
	cur := ws
	for i, c := range comps {
		cur = filepath.Join(cur, c)
		rel := relString(comps[:i+1])
		info, err = lstatFn(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nodeInfo{}, fmt.Errorf("payload path does not exist: %s", relString(comps))
		case err != nil:
			return nodeInfo{}, fmt.Errorf("payload metadata could not be established for %s: %v", rel, unwrapPath(err))
		case info.kind == kindLink:
			return nodeInfo{}, fmt.Errorf("payload path crosses a symbolic link or reparse point: %s", rel)
		case i < len(comps)-1 && info.kind != kindDir:
			return nodeInfo{}, fmt.Errorf("payload path does not exist: %s", relString(comps))
		}
	}
	// Defence in depth (§5.1 step 3d): with no link on the way the real path is the
	// lexical one, but a resolver that disagrees is a reason to refuse.
	if real, err := filepath.EvalSymlinks(cur); err != nil || !within(ws, real) {
		return nodeInfo{}, fmt.Errorf("payload path escapes the workspace: %s", relString(comps))
	}
	return info, nil
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
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

// walker is the depth-first pre-order walk of §5.1 step 3e: a node is counted and
// examined before its children are listed, so a link directory is refused before any
// descent. Budgets accumulate across roots.
type walker struct {
	lim     limits
	entries int
	bytes   int64
}

func (w *walker) walk(path, rel string, info nodeInfo) error {
	w.entries++
	if w.entries > w.lim.entries {
		return fmt.Errorf("payload exceeds the Sandbox staging entry budget of %d entries", w.lim.entries)
	}
	switch info.kind {
	case kindLink:
		return fmt.Errorf("payload contains a symbolic link or reparse point: %s", rel)
	case kindOther:
		return fmt.Errorf("payload contains something that is neither a regular file nor a directory: %s", rel)
	case kindFile:
		w.bytes += info.size
		if w.bytes > w.lim.bytes {
			return fmt.Errorf("payload exceeds the Sandbox staging byte budget of %d bytes", w.lim.bytes)
		}
		return nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return fmt.Errorf("payload could not be enumerated safely: %s: %v", rel, unwrapPath(err))
	}
	for _, e := range entries {
		child := filepath.Join(path, e.Name())
		childRel := joinRel(rel, e.Name())
		ci, err := lstatFn(child)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("payload could not be enumerated safely: %s vanished during the walk", childRel)
			}
			return fmt.Errorf("payload metadata could not be established for %s: %v", childRel, unwrapPath(err))
		}
		if err := w.walk(child, childRel, ci); err != nil {
			return err
		}
	}
	return nil
}

func joinRel(rel, name string) string {
	if rel == "." {
		return name
	}
	return rel + "/" + name
}

// realDir is the absolute path of the existing directory p with links resolved. The
// workspace comes bound by the pipeline, so this only normalises it.
func realDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("Not a directory: %s", p)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("Not a directory: %s", abs)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("Not a directory: %s", abs)
	}
	return real, nil
}
