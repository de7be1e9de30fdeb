package contain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/windows-dev-agent/wda/internal/platform/finalpath"
	"github.com/windows-dev-agent/wda/tools"
)

// NotDirError refuses a path that is not an existing directory (for Root.Open, one
// inside the root). Its text is the contract "Not a directory: <path>".
type NotDirError struct{ Path string }

func (e *NotDirError) Error() string { return fmt.Sprintf("Not a directory: %s", e.Path) }

// ErrOutside refuses a path that does not stay inside the root. It says the same
// whether or not anything exists out there, so a refusal reveals nothing about the
// rest of the disk.
var ErrOutside = errors.New("the path does not stay inside the root")

// Root is the directory the calls of a session are contained in, resolved once.
type Root struct {
	// Path is the root's final path, resolved when the session started.
	Path string
	// Lexical is the root as it was configured (it may run through links); absolute
	// arguments under it are accepted as well, so a project reached through a link
	// (macOS /tmp, a mapped folder) works with the paths its user sees.
	Lexical string
}

// ResolveDir returns the final path of the existing directory p (made absolute): the
// directory is opened, following every symbolic link and, on Windows, every junction
// (filepath.EvalSymlinks no longer follows junctions), and the path is taken from the
// handle (finalpath.Of). Anything else (a missing path, a file, an unreadable path) is
// a *NotDirError naming the absolute form of p.
//
// The answer is a name, and a name can be re-pointed after it was read: use it to
// decide (containment of one directory in another), and Root.Open for a directory the
// caller goes on to use.
func ResolveDir(p string) (string, error) {
	_, final, err := resolveDir(p)
	return final, err
}

// resolveDir is ResolveDir that also returns the absolute form of p.
func resolveDir(p string) (abs, final string, err error) {
	abs, err = filepath.Abs(p)
	if err != nil {
		return "", "", &NotDirError{Path: p}
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", "", &NotDirError{Path: abs}
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return "", "", &NotDirError{Path: abs}
	}
	final, err = finalpath.Of(f)
	if err != nil {
		return "", "", &NotDirError{Path: abs}
	}
	return abs, final, nil
}

// NewRoot resolves the directory p (made absolute) into a Root.
func NewRoot(p string) (Root, error) {
	abs, final, err := resolveDir(p)
	if err != nil {
		return Root{}, err
	}
	return Root{Path: final, Lexical: filepath.Clean(abs)}, nil
}

// Open binds value (a project argument with any ~ already expanded; "" means the root
// itself) to the directory it names inside r, opened: a relative value is taken under
// the root, an absolute one must lie under Path or Lexical. Every later access goes
// through the returned handle, so swapping a directory for a link after Open changes
// nothing (docs/safety.md). Refusals are *NotDirError (inside, but not a directory)
// or ErrOutside.
func (r Root) Open(value string) (*tools.Project, error) {
	p, err := r.open(value)
	if err == nil {
		p.Named = r.named(value)
	}
	return p, err
}

// named is value as an absolute path under the root as configured.
func (r Root) named(value string) string {
	value = strings.TrimSpace(value)
	switch {
	case value == "":
		return r.Lexical
	case Anchored(value):
		abs, err := filepath.Abs(value)
		if err != nil {
			return ""
		}
		return abs
	}
	return filepath.Join(r.Lexical, value)
}

func (r Root) open(value string) (*tools.Project, error) {
	value = strings.TrimSpace(value)
	rel := "."
	switch {
	case value == "":
	case Anchored(value):
		abs, err := filepath.Abs(value)
		if err != nil {
			return nil, ErrOutside
		}
		var ok bool
		if rel, ok = Rel(r.Path, abs); !ok {
			if rel, ok = Rel(r.Lexical, abs); !ok {
				return nil, ErrOutside
			}
		}
	default:
		rel = filepath.Clean(value)
		if rel != "." && !filepath.IsLocal(rel) {
			return nil, ErrOutside
		}
	}
	top, err := os.OpenRoot(r.Path)
	if err != nil {
		return nil, &NotDirError{Path: r.Path}
	}
	sub := top
	if rel != "." {
		sub, err = top.OpenRoot(rel)
		if err != nil {
			// Stat through the same root: it never looks outside it, so this tells a
			// file or a missing name inside from a link without revealing anything
			// beyond the root.
			fi, serr := top.Stat(rel)
			_ = top.Close()
			if notDir(err) || (serr == nil && !fi.IsDir()) {
				return nil, &NotDirError{Path: filepath.Join(r.Path, rel)}
			}
			return r.openThroughLink(rel)
		}
		_ = top.Close()
	}
	p, err := bind(r, sub)
	if err != nil {
		_ = sub.Close()
		return nil, err
	}
	return p, nil
}

// openThroughLink handles what os.Root refuses on principle: a path through an
// absolute link. The directory is opened following links and its final path, taken
// from the handle, decides; a link leading outside, and any failure at all, is
// ErrOutside, whether or not its target exists.
func (r Root) openThroughLink(rel string) (*tools.Project, error) {
	f, err := os.Open(filepath.Join(r.Path, rel))
	if err != nil {
		return nil, ErrOutside
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.IsDir() {
		return nil, ErrOutside
	}
	final, err := finalpath.Of(f)
	if err != nil || !Within(r.Path, final) {
		return nil, ErrOutside
	}
	sub, err := os.OpenRoot(final)
	if err != nil {
		return nil, ErrOutside
	}
	if !sameDir(f, sub) {
		_ = sub.Close()
		return nil, ErrOutside
	}
	p, err := bind(r, sub)
	if err != nil {
		_ = sub.Close()
		return nil, err
	}
	return p, nil
}

// sameDir reports whether the root opened by path is the directory that was checked.
func sameDir(checked *os.File, root *os.Root) bool {
	d, err := root.Open(".")
	if err != nil {
		return false
	}
	defer d.Close()
	a, err1 := checked.Stat()
	b, err2 := d.Stat()
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// bind finds the final path of the opened directory, checks it once more against the
// root (defence in depth: os.Root already refuses escapes) and holds it.
func bind(r Root, sub *os.Root) (*tools.Project, error) {
	d, err := sub.Open(".")
	if err != nil {
		return nil, ErrOutside
	}
	defer d.Close()
	final, err := finalpath.Of(d)
	if err != nil || !Within(r.Path, final) {
		return nil, ErrOutside
	}
	hold, err := holdDir(d, final)
	if err != nil {
		return nil, err
	}
	return tools.NewProject(final, sub, hold), nil
}

func notDir(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || isNotDirWindows(err)
}
