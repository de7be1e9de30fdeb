// Package contain decides containment of paths, resolves a path to the directory it
// leads to (ResolveDir), and binds a call's project argument to an opened directory
// inside a root (docs/platform.md; docs/safety.md, "Project containment").
//
// Containment is decided by path components after resolution, never by string prefix
// (a sibling such as <parent>/project-other is not inside <parent>/project), with one
// case rule per OS: case-insensitive on Windows, exact elsewhere (on macOS a case
// mismatch fails closed rather than open).
//
// It must never create, change or delete anything on disk.
package contain

import (
	"os"
	"path/filepath"
	"strings"
)

// Within reports whether p equals root or lies below it, comparing path components of
// the cleaned paths. Both must already be resolved absolute paths; a relative operand
// is never within anything.
func Within(root, p string) bool {
	_, ok := Rel(root, p)
	return ok
}

// Same reports whether a and b are the same absolute path under the platform's case
// rule (each within the other). Like Within, it compares names, so both must already
// be resolved.
func Same(a, b string) bool {
	rel, ok := Rel(a, b)
	return ok && rel == "."
}

// Rel returns p relative to root ("." for root itself) when Within(root, p).
func Rel(root, p string) (string, bool) {
	if !filepath.IsAbs(root) || !filepath.IsAbs(p) {
		return "", false
	}
	root, p = filepath.Clean(root), filepath.Clean(p)
	rv, pv := filepath.VolumeName(root), filepath.VolumeName(p)
	if !SameName(rv, pv) {
		return "", false
	}
	rc, pc := components(root[len(rv):]), components(p[len(pv):])
	if len(pc) < len(rc) {
		return "", false
	}
	for i := range rc {
		if !SameName(rc[i], pc[i]) {
			return "", false
		}
	}
	if len(pc) == len(rc) {
		return ".", true
	}
	return filepath.Join(pc[len(rc):]...), true
}

// components splits a volume-less cleaned path into its non-empty names.
func components(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
}

// SameName compares two path components (or volume names) the way the platform's file
// system does for the purpose of containment.
func SameName(a, b string) bool {
	if caseInsensitive {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// Anchored reports whether p is not a plain relative path: absolute, or carrying a
// volume or a leading separator (Windows' C:x and \x). Such a path must never be
// joined under a root as if it were relative.
func Anchored(p string) bool {
	return filepath.IsAbs(p) || filepath.VolumeName(p) != "" || (p != "" && os.IsPathSeparator(p[0]))
}
