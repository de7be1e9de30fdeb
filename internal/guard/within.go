package guard

import (
	"path/filepath"
	"runtime"
	"strings"
)

// Within reports whether p is root itself or lies under it. Both must be absolute; the
// comparison is lexical and component-wise (never a string prefix, so /a/bc is not under
// /a/b) and case-insensitive on Windows, where volume names are compared the same way.
func Within(root, p string) bool {
	if !filepath.IsAbs(root) || !filepath.IsAbs(p) {
		return false
	}
	rv, rc := split(root)
	pv, pc := split(p)
	if !sameName(rv, pv) || len(pc) < len(rc) {
		return false
	}
	for i := range rc {
		if !sameName(rc[i], pc[i]) {
			return false
		}
	}
	return true
}

// split returns the volume name and the non-empty components of the cleaned path.
func split(p string) (string, []string) {
	p = filepath.Clean(p)
	vol := filepath.VolumeName(p)
	var comps []string
	for _, c := range strings.Split(p[len(vol):], string(filepath.Separator)) {
		if c != "" && c != "." {
			comps = append(comps, c)
		}
	}
	return vol, comps
}

// sameName compares one path component (or volume) the way the file system does.
func sameName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
