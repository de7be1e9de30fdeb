//go:build !windows

package proc

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// defaultPath is searched when PATH is empty or unset.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// resolve is a `which` that skips empty and relative PATH entries (they would mean the
// cwd) and accepts only regular files with an execute bit. The returned path is the
// PATH entry joined with name, links not resolved, so argv[0]-sensitive programs keep
// their name.
func (r PathResolver) resolve(name string) (string, bool) {
	if strings.Contains(name, "/") {
		if filepath.IsAbs(name) && isExecutableFile(name) {
			return filepath.Clean(name), true
		}
		return "", false
	}
	path := r.getenv("PATH")
	if path == "" {
		path = defaultPath
	}
	seen := map[string]bool{}
	for _, dir := range filepath.SplitList(path) {
		dir = strings.TrimSpace(dir)
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		dir = filepath.Clean(dir)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if p := filepath.Join(dir, name); isExecutableFile(p) {
			return p, true
		}
	}
	return "", false
}

// executableMode: a regular file with an execute bit.
func executableMode(fi fs.FileInfo) bool { return fileLike(fi) && fi.Mode().Perm()&0o111 != 0 }

// fileLike: a regular file.
func fileLike(fi fs.FileInfo) bool { return fi.Mode().IsRegular() }
