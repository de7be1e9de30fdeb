package contain_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/testkit"
)

// tree builds <base>/project/{sub/marker, file} and <base>/outside/secret and returns
// the resolved base.
func tree(t *testing.T) string {
	t.Helper()
	base := testkit.TempDir(t)
	for _, d := range []string{"project/sub", "project/sub/deeper", "outside", "project-other"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testkit.WriteFile(t, filepath.Join(base, "project", "sub", "marker"), "inside")
	testkit.WriteFile(t, filepath.Join(base, "project", "file"), "x")
	testkit.WriteFile(t, filepath.Join(base, "outside", "marker"), "outside")
	return base
}

func TestOpen(t *testing.T) {
	t.Parallel()
	base := tree(t)
	project := filepath.Join(base, "project")
	links := testkit.Symlink(filepath.Join(base, "outside"), filepath.Join(project, "escape")) &&
		testkit.Symlink("sub", filepath.Join(project, "alias")) &&
		testkit.Symlink(filepath.Join(project, "sub"), filepath.Join(project, "absalias")) &&
		testkit.Symlink(project, filepath.Join(base, "project-link"))
	r, err := contain.NewRoot(project)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, value string
		want        string // Project.Path relative to project, or
		notDir      bool
		outside     bool
		needsLinks  bool
	}{
		{name: "blank is the root", value: "", want: "."},
		{name: "relative", value: "sub", want: "sub"},
		{name: "relative nested", value: "sub/deeper", want: filepath.Join("sub", "deeper")},
		{name: "absolute inside", value: filepath.Join(project, "sub"), want: "sub"},
		{name: "dot-dot escape", value: "../outside", outside: true},
		{name: "dot-dot back inside", value: "sub/../sub", want: "sub"},
		{name: "absolute outside", value: filepath.Join(base, "outside"), outside: true},
		{name: "absolute outside, missing", value: filepath.Join(base, "nowhere"), outside: true},
		{name: "sibling sharing the prefix", value: filepath.Join(base, "project-other"), outside: true},
		{name: "missing inside", value: "missing", notDir: true},
		{name: "a file", value: "file", notDir: true},
		{name: "link to outside", value: "escape", outside: true, needsLinks: true},
		{name: "link inside to inside", value: "alias", want: "sub", needsLinks: true},
		{name: "absolute link inside to inside", value: "absalias", want: "sub", needsLinks: true},
		{name: "through a link to the root", value: filepath.Join(base, "project-link", "sub"), outside: true, needsLinks: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.needsLinks && !links {
				t.Skip("symbolic links cannot be created here")
			}
			p, err := r.Open(c.value)
			var nd *contain.NotDirError
			switch {
			case c.outside:
				if !errors.Is(err, contain.ErrOutside) {
					t.Fatalf("Open(%q) = %v, %v; want ErrOutside", c.value, p, err)
				}
				return
			case c.notDir:
				if !errors.As(err, &nd) {
					t.Fatalf("Open(%q) = %v, %v; want NotDirError", c.value, p, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open(%q): %v", c.value, err)
			}
			defer p.Close()
			want := filepath.Join(r.Path, c.want)
			if !contain.Within(want, p.Path) || !contain.Within(p.Path, want) {
				t.Fatalf("Path = %q, want %q", p.Path, want)
			}
		})
	}
	if links {
		// The project reached through a link is accepted in its lexical form, and the
		// binding remembers that form (Named) beside the final path.
		lr, err := contain.NewRoot(filepath.Join(base, "project-link"))
		if err != nil {
			t.Fatal(err)
		}
		for value, named := range map[string]string{
			filepath.Join(base, "project-link", "sub"): filepath.Join(base, "project-link", "sub"),
			"sub": filepath.Join(base, "project-link", "sub"),
			"":    filepath.Join(base, "project-link"),
		} {
			p, err := lr.Open(value)
			if err != nil {
				t.Fatalf("lexical root, %q: %v", value, err)
			}
			if p.Named != named || p.Path == named {
				t.Errorf("%q: Named %q Path %q, want Named %q and a resolved Path", value, p.Named, p.Path, named)
			}
			p.Close()
		}
	}
}

// TestOpenHoldsTheDirectory: once bound, swapping the directory for a link to outside
// changes nothing about what the call reads (the race of issue 15, item 1).
func TestOpenHoldsTheDirectory(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("on Windows the held directory cannot be renamed at all; TestHoldForbidsRename")
	}
	base := tree(t)
	project := filepath.Join(base, "project")
	r, err := contain.NewRoot(project)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Open("sub")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := os.Rename(filepath.Join(project, "sub"), filepath.Join(base, "moved")); err != nil {
		t.Fatal(err)
	}
	if !testkit.Symlink(filepath.Join(base, "outside"), filepath.Join(project, "sub")) {
		t.Skip("symbolic links cannot be created here")
	}
	b, err := p.Root.ReadFile("marker")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "inside" {
		t.Fatalf("read %q through the bound project, want the original directory's marker", b)
	}
}
