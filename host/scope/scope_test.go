package scope

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWithin(t *testing.T) {
	root := filepath.Join(string(filepath.Separator)+"work", "project")
	sep := string(filepath.Separator)
	cases := []struct {
		name string
		p    string
		want bool
	}{
		{"root itself", root, true},
		{"root with trailing separator", root + sep, true},
		{"child", filepath.Join(root, "src"), true},
		{"grandchild", filepath.Join(root, "src", "pkg"), true},
		{"dot-dot back inside", root + sep + "src" + sep + ".." + sep + "lib", true},
		{"sibling sharing the prefix", root + "-other", false},
		{"sibling sharing the prefix without dash", root + "2", false},
		{"parent", filepath.Dir(root), false},
		{"filesystem root", sep, false},
		{"dot-dot escape", root + sep + ".." + sep + "outside", false},
		{"unrelated", filepath.Join(sep+"etc", "passwd"), false},
		{"relative operand", "project", false},
		{"empty", "", false},
	}
	if runtime.GOOS == "windows" {
		for i := range cases {
			if filepath.IsAbs(cases[i].p) || strings.HasPrefix(cases[i].p, sep) {
				cases[i].p = `C:` + cases[i].p
			}
		}
		root = `C:` + root
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Within(root, c.p); got != c.want {
				t.Errorf("Within(%q, %q) = %v, want %v", root, c.p, got, c.want)
			}
		})
	}
	if Within("project", "project") {
		t.Error("a relative root must never contain anything")
	}
}

func TestResolveDir(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "project")
	sub := filepath.Join(proj, "sub")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{sub, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(proj, "file.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	realProj, err := ResolveDir(proj)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ResolveDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	if !Within(realProj, got) {
		t.Errorf("resolved child %q not within resolved root %q", got, realProj)
	}
	for _, bad := range []string{file, filepath.Join(proj, "missing")} {
		_, err := ResolveDir(bad)
		var nd *NotDirError
		if !errors.As(err, &nd) || !strings.HasPrefix(err.Error(), "Not a directory: ") {
			t.Errorf("ResolveDir(%q) error = %v, want Not a directory", bad, err)
		}
	}
}

// A symbolic link inside the project that points outside resolves outside.
func TestResolveDirSymlinkEscape(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{proj, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(proj, "escape")
	if err := os.Symlink(outside, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if _, err := os.Lstat(link); err != nil {
		t.Skipf("symlink reported success but does not exist (Wine): %v", err)
	}
	realProj, err := ResolveDir(proj)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ResolveDir(link)
	if err != nil {
		t.Fatal(err)
	}
	if Within(realProj, got) {
		t.Errorf("link %q resolved to %q, which must not count as inside %q", link, got, realProj)
	}
	realOutside, _ := ResolveDir(outside)
	if got != realOutside {
		t.Errorf("link resolved to %q, want %q", got, realOutside)
	}
}

func TestAnchored(t *testing.T) {
	cases := map[string]bool{"": false, "sub": false, "./sub": false, "../x": false}
	if runtime.GOOS == "windows" {
		cases[`C:\x`] = true
		cases[`C:x`] = true
		cases[`\x`] = true
		cases[`\\srv\share\x`] = true
	} else {
		cases["/x"] = true
	}
	for p, want := range cases {
		if got := Anchored(p); got != want {
			t.Errorf("Anchored(%q) = %v, want %v", p, got, want)
		}
	}
}
