package scope

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// NotDirError is the refusal of a path that does not resolve to an existing directory.
// Its text is the contract "Not a directory: <path>".
type NotDirError struct{ Path string }

func (e *NotDirError) Error() string { return fmt.Sprintf("Not a directory: %s", e.Path) }

// ResolveDir returns the absolute final path of the existing directory p, with every
// symbolic link (and, on Windows, every junction) resolved. Anything else (a missing
// path, a file, an unreadable path) is a *NotDirError naming the absolute form of p.
func ResolveDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", &NotDirError{Path: p}
	}
	real, err := resolveDir(abs)
	if err != nil {
		return "", &NotDirError{Path: abs}
	}
	return real, nil
}

// Within reports whether p equals root or lies below it, comparing path components of
// the cleaned paths (case-insensitively on Windows). Both must already be resolved
// absolute paths; a relative operand is never within anything.
func Within(root, p string) bool {
	if !filepath.IsAbs(root) || !filepath.IsAbs(p) {
		return false
	}
	root, p = filepath.Clean(root), filepath.Clean(p)
	rv, pv := filepath.VolumeName(root), filepath.VolumeName(p)
	if !sameName(rv, pv) {
		return false
	}
	rc, pc := components(root[len(rv):]), components(p[len(pv):])
	if len(pc) < len(rc) {
		return false
	}
	for i := range rc {
		if !sameName(rc[i], pc[i]) {
			return false
		}
	}
	return true
}

// components splits a volume-less cleaned path into its non-empty names.
func components(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
}

// sameName compares two path components (or volume names) the way the platform's
// file system does for the purpose of containment.
func sameName(a, b string) bool {
	if caseInsensitive {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// IsAbsolute reports whether p is absolute on this platform before any resolution:
// on Windows a drive-relative (C:x) or rooted-without-drive (\x) path is not.
func IsAbsolute(p string) bool { return filepath.IsAbs(p) }

// Anchored reports whether p is not a plain relative path: absolute, or carrying a
// volume or a leading separator (Windows' C:x and \x). Such a path must never be
// joined under a project root as if it were relative.
func Anchored(p string) bool {
	return filepath.IsAbs(p) || filepath.VolumeName(p) != "" || (p != "" && os.IsPathSeparator(p[0]))
}
