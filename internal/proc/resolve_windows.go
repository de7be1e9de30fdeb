//go:build windows

package proc

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/platform/home"
)

// resolveExts are the only candidate extensions, in preference order. PATHEXT is
// ignored and .bat/.cmd are never candidates.
var resolveExts = []string{".exe", ".com", ".ps1"}

func allowedExt(ext string) bool {
	for _, e := range resolveExts {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

// resolve implements docs/process-runner.md §2 for Windows: directory order dominates,
// then extension order.
func (r PathResolver) resolve(name string) (string, bool) {
	if filepath.IsAbs(name) {
		if allowedExt(filepath.Ext(name)) && isExecutableFile(name) {
			return filepath.Clean(name), true
		}
		return "", false
	}
	if filepath.VolumeName(name) != "" || strings.ContainsAny(name, `\/`) {
		return "", false
	}
	var candidates []string
	if ext := filepath.Ext(name); ext != "" {
		if !allowedExt(ext) {
			return "", false
		}
		candidates = []string{name}
	} else {
		for _, e := range resolveExts {
			candidates = append(candidates, name+e)
		}
	}
	for _, dir := range r.searchDirs() {
		for _, c := range candidates {
			if p := filepath.Join(dir, c); isExecutableFile(p) {
				return p, true
			}
		}
	}
	return "", false
}

// searchDirs is PATH (or the system default) with each entry trimmed, unquoted, its
// %VARIABLES% and a leading ~ expanded (internal/platform/home); empty entries,
// relative entries, the process cwd and case-insensitive duplicates are dropped.
func (r PathResolver) searchDirs() []string {
	path := r.getenv("PATH")
	if strings.TrimSpace(path) == "" {
		root := r.getenv("SystemRoot")
		if root == "" {
			root = `C:\Windows`
		}
		path = root + `\System32;` + root + `;` + root + `\System32\Wbem`
	}
	cwd, _ := os.Getwd()
	seen := map[string]bool{}
	var dirs []string
	for _, e := range strings.Split(path, ";") {
		e = strings.TrimSpace(e)
		e = strings.TrimSpace(strings.Trim(e, `"`))
		e = home.Expand(ExpandPercent(e, r.getenv), r.getenv)
		if e == "" || !filepath.IsAbs(e) {
			continue
		}
		e = filepath.Clean(e)
		if cwd != "" && contain.Same(e, cwd) {
			continue
		}
		key := strings.ToLower(e)
		if seen[key] {
			continue
		}
		seen[key] = true
		dirs = append(dirs, e)
	}
	return dirs
}

// fileLike accepts regular files and, because os.Stat cannot follow an App Execution
// Alias (IO_REPARSE_TAG_APPEXECLINK, e.g. WindowsApps\winget.exe) and reports it as
// ModeIrregular, irregular non-directories too. Fingerprint later accepts only the
// alias tag among reparse points, so any other oddity fails identity, not resolution.
func fileLike(fi fs.FileInfo) bool {
	m := fi.Mode()
	return m.IsRegular() || m&fs.ModeIrregular != 0 && !m.IsDir()
}

// executableMode: Windows has no execute bit; the extension rules decide.
func executableMode(fi fs.FileInfo) bool { return fileLike(fi) }
