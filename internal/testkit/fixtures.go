package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TempDir is t.TempDir with links resolved (on macOS it lies below /var, a link to
// /private/var), so paths a tool reports after resolving compare equal to the paths a
// test built.
func TempDir(t testing.TB) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// WriteFile writes content to p, creating its parent directories.
func WriteFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Tree creates files under root: name (slash-separated) → content, a name ending in
// "/" is a directory. Files get mode, directories 0o755.
func Tree(t testing.TB, root string, files map[string]string, mode os.FileMode) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// Symlink makes link point at target and reports whether a link now exists; false
// means this system cannot make one (Wine's os.Symlink reports success without
// creating anything, so the effect is checked, not the return value).
func Symlink(target, link string) bool {
	if os.Symlink(target, link) != nil {
		return false
	}
	fi, err := os.Lstat(link)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}
