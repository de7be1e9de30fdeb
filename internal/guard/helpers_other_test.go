//go:build !windows

package guard

import (
	"os"
	"path/filepath"
	"testing"
)

// tree creates files (path → content; a trailing "/" makes a directory) under a new
// temporary root and returns the root with links resolved.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if p[len(p)-1] == '/' {
			mkdir(t, full)
			continue
		}
		mkdir(t, filepath.Dir(full))
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot create symlinks here: %v", err)
	}
}
