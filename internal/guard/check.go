package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// linkMessage starts the error of a path that crosses a link; its wording is a contract
// (tools.md §6.5) that callers and tests match on "reparse point".
const linkMessage = "project path crosses a symbolic link or reparse point: "

// LinkError reports a symbolic link, junction or other reparse point on a project path.
type LinkError struct{ Path string }

func (e *LinkError) Error() string { return linkMessage + e.Path }

// lstat is the no-follow metadata call of the walk; tests replace it to inject
// metadata failures that a real file system will not produce on demand.
var lstat = os.Lstat

// target is a checked project path: the resolved root and the components under it.
type target struct {
	root  string
	comps []string
	abs   string
}

// Check walks rel (relative to root, or absolute and lexically inside root) from the
// resolved project root one component at a time without following links. It returns
// the absolute path and whether it exists. A missing component (or an intermediate one
// that is not a directory) is "missing", not an error; a link or reparse point anywhere
// is a *LinkError; metadata that cannot be established is an error (fail closed).
func Check(root, rel string) (abs string, exists bool, err error) {
	t, exists, err := check(root, rel)
	return t.abs, exists, err
}

func check(root, rel string) (target, bool, error) {
	r, comps, err := locate(root, rel)
	if err != nil {
		return target{}, false, err
	}
	t := target{root: r, comps: comps, abs: filepath.Join(append([]string{r}, comps...)...)}
	cur := r
	for i, c := range comps {
		cur = filepath.Join(cur, c)
		fi, err := lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return t, false, nil
		}
		if err != nil {
			return t, false, fmt.Errorf("metadata could not be established for %s: %w", cur, unwrapPath(err))
		}
		if sys.linkLike(fi) {
			return t, false, &LinkError{Path: cur}
		}
		if i < len(comps)-1 && !fi.IsDir() {
			return t, false, nil // a file where a directory should be: the target cannot exist
		}
	}
	if !Within(r, t.abs) {
		return t, false, fmt.Errorf("project path is outside the project root %s: %s", r, t.abs)
	}
	return t, true, nil
}

// locate resolves the project root (the root itself may legitimately be reached through
// a link: it is the user's chosen directory) and splits rel into clean components that
// cannot climb out of it.
func locate(root, rel string) (string, []string, error) {
	if strings.TrimSpace(root) == "" {
		return "", nil, errors.New("project root is blank")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", nil, fmt.Errorf("project root could not be made absolute: %w", err)
	}
	r, err := filepath.EvalSymlinks(absRoot)
	if err != nil {
		return "", nil, fmt.Errorf("metadata could not be established for project root %s: %w", absRoot, unwrapPath(err))
	}
	if rel == "" || strings.ContainsRune(rel, 0) {
		return "", nil, fmt.Errorf("invalid project path %q", rel)
	}
	if filepath.IsAbs(rel) {
		var base string
		switch {
		case Within(r, rel):
			base = r
		case Within(absRoot, rel):
			base = absRoot
		default:
			return "", nil, fmt.Errorf("project path is outside the project root %s: %s", r, rel)
		}
		rel, err = filepath.Rel(base, filepath.Clean(rel))
		if err != nil {
			return "", nil, fmt.Errorf("project path is outside the project root %s: %w", r, err)
		}
	} else if filepath.VolumeName(rel) != "" || strings.HasPrefix(filepath.ToSlash(rel), "/") {
		// C:foo or \foo on Windows: relative to something other than the root.
		return "", nil, fmt.Errorf("project path %q is not relative to the project root", rel)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == "." {
		return "", nil, fmt.Errorf("project path %q names the project root itself", rel)
	}
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", nil, fmt.Errorf("project path is outside the project root %s: %s", r, rel)
	}
	_, comps := split(clean)
	return r, comps, nil
}

// unwrapPath drops the *fs.PathError wrapper whose path the message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
