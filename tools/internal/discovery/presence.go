package discovery

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// searchPath is the sanitized executable search path of docs/discovery.md,
// "Command presence". It is built once per discovery and never includes the process
// working directory, so an executable planted in the cwd is never evidence. Presence is a
// file-system fact: no tool is ever launched.
type searchPath struct {
	dirs    []string
	exts    []string // PATHEXT (lowercase) on Windows; [""] elsewhere
	windows bool
	lstat   func(string) (fs.FileInfo, error)
}

// defaultPathExt is PATHEXT when the variable is empty. PowerShell's "Application"
// includes .cmd/.bat, so presence may report a tool the execution resolver refuses.
const defaultPathExt = ".COM;.EXE;.BAT;.CMD"

// newSearchPath sanitizes PATH: split on the list separator, skip blanks, trim
// whitespace and quotes, expand %VAR% (Windows), drop entries that are not rooted,
// that normalize to cwd, or that duplicate an earlier entry (case-insensitively on
// Windows).
func newSearchPath(getenv func(string) string, cwd string, windows bool) searchPath {
	sep := ":"
	if windows {
		sep = ";"
	}
	sp := searchPath{windows: windows, lstat: os.Lstat, exts: []string{""}}
	if windows {
		pathext := getenv("PATHEXT")
		if strings.TrimSpace(pathext) == "" {
			pathext = defaultPathExt
		}
		sp.exts = nil
		for _, e := range strings.Split(pathext, ";") {
			if e = strings.ToLower(strings.TrimSpace(e)); strings.HasPrefix(e, ".") && !contains(sp.exts, e) {
				sp.exts = append(sp.exts, e)
			}
		}
	}
	cwdKey := sp.key(normalizeDir(cwd))
	seen := map[string]bool{}
	for _, entry := range strings.Split(getenv("PATH"), sep) {
		entry = strings.Trim(strings.TrimSpace(entry), `"'`)
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		if windows {
			entry = proc.ExpandPercent(entry, getenv)
		}
		if !filepath.IsAbs(entry) {
			continue
		}
		dir := normalizeDir(entry)
		k := sp.key(dir)
		if (cwd != "" && k == cwdKey) || seen[k] {
			continue
		}
		seen[k] = true
		sp.dirs = append(sp.dirs, dir)
	}
	return sp
}

func (sp searchPath) key(p string) string {
	if sp.windows {
		return strings.ToLower(p)
	}
	return p
}

// normalizeDir cleans a path and removes trailing separators (keeping a root).
func normalizeDir(p string) string {
	if p == "" {
		return ""
	}
	c := filepath.Clean(p)
	for len(c) > 1 && os.IsPathSeparator(c[len(c)-1]) && filepath.Dir(c) != c {
		c = c[:len(c)-1]
	}
	return c
}

// has reports whether an application called name is on the sanitized path. It uses
// Lstat on Windows, because App Execution Aliases are zero-byte reparse points that
// a following stat may fail to open; elsewhere it requires an executable non-directory
// (following links, as a shell does). A metadata error other than "not found" leaves
// the fact unknown unless another directory establishes it.
func (sp searchPath) has(name string) *bool {
	uncertain := false
	for _, dir := range sp.dirs {
		for _, ext := range sp.exts {
			p := filepath.Join(dir, name+ext)
			var fi fs.FileInfo
			var err error
			if sp.windows {
				fi, err = sp.lstat(p)
			} else {
				fi, err = os.Stat(p)
			}
			switch {
			case err == nil && !fi.IsDir() && (sp.windows || fi.Mode().Perm()&0o111 != 0):
				return True()
			case err != nil && !errors.Is(err, fs.ErrNotExist) && !isNotDir(err):
				uncertain = true
			}
		}
	}
	if uncertain {
		return nil
	}
	return False()
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
