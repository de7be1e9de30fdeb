package scope

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzWithin checks Within against an independent oracle (filepath.Rel) for a path
// built by joining arbitrary text under a fixed root, and that no sibling sharing the
// root's string prefix is ever within it.
func FuzzWithin(f *testing.F) {
	for _, s := range []string{"", "sub", "../outside", "sub/../../x", "..", "a/b/c", "-other", "./.", "../project/x"} {
		f.Add(s)
	}
	root, _ := filepath.Abs(filepath.Join(string(filepath.Separator)+"fuzz", "project"))
	f.Fuzz(func(t *testing.T, suffix string) {
		if strings.ContainsRune(suffix, 0) {
			return
		}
		p := filepath.Join(root, suffix)
		rel, err := filepath.Rel(root, p)
		want := err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
		if got := Within(root, p); got != want {
			t.Fatalf("Within(%q, %q) = %v, oracle %v (rel %q)", root, p, got, want, rel)
		}
		// A suffix with no separator glued onto the root names a sibling that merely
		// shares the root's string prefix ("/fuzz/project0"); with a separator it may
		// legitimately lead back inside ("project0/../project/x").
		sibling := root + suffix
		if suffix != "" && !strings.ContainsAny(suffix, `/\`) && Within(root, sibling) && filepath.Clean(sibling) != root {
			t.Fatalf("sibling %q counted as within %q", sibling, root)
		}
	})
}
