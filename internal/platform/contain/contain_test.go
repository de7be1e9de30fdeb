package contain_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
)

// TestWithin is the component rule of Within, Rel and Same on this OS's separators;
// the case rule of each OS is TestCaseRule (here) and TestWithinWindows.
func TestWithin(t *testing.T) {
	t.Parallel()
	sep := string(filepath.Separator)
	root := filepath.Join(sep+"work", "project")
	cases := []struct {
		name string
		p    string
		rel  string // "" when p is not within root
	}{
		{"root itself", root, "."},
		{"root with trailing separator", root + sep, "."},
		{"child", filepath.Join(root, "src"), "src"},
		{"grandchild", filepath.Join(root, "src", "pkg"), filepath.Join("src", "pkg")},
		{"dot-dot back inside", root + sep + "src" + sep + ".." + sep + "lib", "lib"},
		{"doubled separators", root + sep + sep + "src", "src"},
		{"sibling sharing the prefix", root + "-other", ""},
		{"sibling sharing the prefix without dash", root + "2", ""},
		{"parent", filepath.Dir(root), ""},
		{"filesystem root", sep, ""},
		{"dot-dot escape", root + sep + ".." + sep + "outside", ""},
		{"unrelated", filepath.Join(sep+"etc", "passwd"), ""},
		{"relative operand", "project", ""},
		{"empty", "", ""},
	}
	if runtime.GOOS == "windows" {
		// \work\project is rooted but not absolute on Windows: give every rooted
		// operand a drive.
		for i := range cases {
			if strings.HasPrefix(cases[i].p, sep) {
				cases[i].p = `C:` + cases[i].p
			}
		}
		root = `C:` + root
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rel, ok := contain.Rel(root, c.p)
			if ok != (c.rel != "") || rel != c.rel {
				t.Errorf("Rel(%q, %q) = %q, %v; want %q", root, c.p, rel, ok, c.rel)
			}
			if got := contain.Within(root, c.p); got != (c.rel != "") {
				t.Errorf("Within(%q, %q) = %v", root, c.p, got)
			}
			if got := contain.Same(root, c.p); got != (c.rel == ".") {
				t.Errorf("Same(%q, %q) = %v", root, c.p, got)
			}
			if c.rel == "." && !contain.Same(c.p, root) {
				t.Errorf("Same is not symmetric for %q", c.p)
			}
		})
	}
	if contain.Within("project", "project") {
		t.Error("a relative root must never contain anything")
	}
}

// TestCaseRule: off Windows a case mismatch is a different name, even on macOS's
// usually case-insensitive volumes (it fails closed).
func TestCaseRule(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the Windows rule is TestWithinWindows")
	}
	if contain.Within("/Work/Project", "/work/project/src") || contain.Same("/a/B", "/a/b") || contain.SameName("B", "b") {
		t.Error("a case variant counted as the same name")
	}
	if !contain.SameName("b", "b") {
		t.Error("a name differs from itself")
	}
}

func TestAnchored(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{"": false, "sub": false, "./sub": false, "../x": false}
	if runtime.GOOS == "windows" {
		cases[`C:\x`] = true
		cases[`C:x`] = true
		cases[`\x`] = true
		cases[`/x`] = true
		cases[`\\srv\share\x`] = true
	} else {
		cases["/x"] = true
		cases[`\x`] = false // a file name, not a rooted path
	}
	for p, want := range cases {
		if got := contain.Anchored(p); got != want {
			t.Errorf("Anchored(%q) = %v, want %v", p, got, want)
		}
	}
}

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
		if got := contain.Within(root, p); got != want {
			t.Fatalf("Within(%q, %q) = %v, oracle %v (rel %q)", root, p, got, want, rel)
		}
		if got, ok := contain.Rel(root, p); ok && want && got != rel {
			t.Fatalf("Rel(%q, %q) = %q, oracle %q", root, p, got, rel)
		}
		// A suffix with no separator glued onto the root names a sibling that merely
		// shares the root's string prefix ("/fuzz/project0"); with a separator it may
		// legitimately lead back inside ("project0/../project/x").
		sibling := root + suffix
		if suffix != "" && !strings.ContainsAny(suffix, `/\`) && contain.Within(root, sibling) && filepath.Clean(sibling) != root {
			t.Fatalf("sibling %q counted as within %q", sibling, root)
		}
	})
}
