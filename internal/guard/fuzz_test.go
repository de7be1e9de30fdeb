package guard

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCheck asserts the containment contract for arbitrary relative paths against a
// fixed tree holding a link: a path Check accepts is lexically inside the root, no
// component of an existing one is a link, and Within agrees with filepath.Rel.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{".mcp.json", "a/b.json", "../x", "a/../../x", "link/x", "a//b.json",
		"./a/./b.json", "/etc/passwd", "a/b.json/..", `a\b.json`, "C:x", "..", ".", "a/link2"} {
		f.Add(s)
	}
	root, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	for _, d := range []string{"a", "outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "a", "b.json"), []byte(`{}`), 0o644)
	os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{}`), 0o644)
	proj := filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(proj, "a"), 0o755)
	os.WriteFile(filepath.Join(proj, "a", "b.json"), []byte(`{}`), 0o644)
	os.WriteFile(filepath.Join(proj, ".mcp.json"), []byte(`{}`), 0o644)
	links := os.Symlink(filepath.Join(root, "outside"), filepath.Join(proj, "link")) == nil &&
		os.Symlink(filepath.Join(root, "a", "b.json"), filepath.Join(proj, "a", "link2")) == nil
	f.Fuzz(func(t *testing.T, rel string) {
		abs, exists, err := Check(proj, rel)
		if err != nil {
			if exists {
				t.Fatalf("Check(%q) reported exists with error %v", rel, err)
			}
			return
		}
		if !Within(proj, abs) {
			t.Fatalf("Check(%q) = %q, outside %q", rel, abs, proj)
		}
		r, rerr := filepath.Rel(proj, abs)
		if rerr != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			t.Fatalf("Within disagrees with filepath.Rel for %q: %q %v", abs, r, rerr)
		}
		if !exists {
			return
		}
		cur := proj
		for _, c := range strings.Split(r, string(filepath.Separator)) {
			cur = filepath.Join(cur, c)
			fi, err := os.Lstat(cur)
			if err != nil {
				t.Fatalf("Check(%q) exists but %s: %v", rel, cur, err)
			}
			if links && fi.Mode()&fs.ModeSymlink != 0 {
				t.Fatalf("Check(%q) accepted a link at %s", rel, cur)
			}
		}
	})
}

// FuzzWithin checks Within against filepath.Rel on arbitrary absolute paths.
func FuzzWithin(f *testing.F) {
	f.Add("/a/b", "/a/b/c")
	f.Add("/a/b", "/a/bc")
	f.Add("/a/b/", "/a/b/../b/c")
	f.Add("/", "/x")
	f.Fuzz(func(t *testing.T, root, p string) {
		if !filepath.IsAbs(root) || !filepath.IsAbs(p) || strings.ContainsRune(root+p, 0) {
			if Within(root, p) && (!filepath.IsAbs(root) || !filepath.IsAbs(p)) {
				t.Fatalf("Within accepted a relative path: %q %q", root, p)
			}
			return
		}
		r, err := filepath.Rel(root, p)
		inside := err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
		if got := Within(root, p); got != inside && filepath.Separator == '/' {
			t.Fatalf("Within(%q, %q) = %v, filepath.Rel says %q (%v)", root, p, got, r, err)
		}
	})
}
