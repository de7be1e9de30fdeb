package gen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Write makes dir hold exactly files under the payload roots: new and changed files are
// written atomically (temp file + rename), unchanged ones are not touched, and files
// that are no longer generated are removed. bin/ folders and *.zip / *.sha256 build
// outputs are left alone.
func Write(dir string, files map[string][]byte) error {
	for name, data := range files {
		if err := WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data); err != nil {
			return err
		}
	}
	stale, err := Stale(dir, files)
	if err != nil {
		return err
	}
	for _, name := range stale {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes data to p atomically (temp file + rename), leaving an unchanged
// file untouched.
func WriteFile(p string, data []byte) error {
	if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".gen-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name()) // best effort: werr is the failure to report
	}
	return werr
}

// Existing lists the generated-looking files under dir's payload roots (slash paths).
func Existing(dir string) ([]string, error) {
	var out []string
	for _, root := range Roots {
		base := filepath.Join(dir, root)
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == base {
					return fs.SkipDir
				}
				return err
			}
			if d.IsDir() && d.Name() == "bin" {
				return fs.SkipDir
			}
			if d.IsDir() || isBuildOutput(d.Name()) {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Stale lists files under the payload roots that Render no longer produces.
func Stale(dir string, files map[string][]byte) ([]string, error) {
	existing, err := Existing(dir)
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, name := range existing {
		if _, ok := files[name]; !ok {
			stale = append(stale, name)
		}
	}
	return stale, nil
}

func isBuildOutput(name string) bool {
	return strings.HasSuffix(name, ".zip") || strings.HasSuffix(name, ".sha256") || strings.HasPrefix(name, ".gen-")
}
