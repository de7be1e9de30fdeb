package contain_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestWithinWindows is the Windows case and volume rule: names and volumes compare
// without case, either separator counts, and a path without a drive (\x) or relative
// to a drive (C:x) is never within anything.
func TestWithinWindows(t *testing.T) {
	t.Parallel()
	cases := []struct {
		root, p string
		want    bool
	}{
		{`C:\Work\Project`, `c:\work\project\src`, true},
		{`C:\Work\Project`, `C:\WORK\PROJECT`, true},
		{`C:\Work\Project`, `C:/Work/Project/src`, true},
		{`C:\Work\Project`, `D:\Work\Project\src`, false},
		{`C:\Work\Project`, `C:\Work\Project-other`, false},
		{`C:\Work\Project`, `C:\Work`, false},
		{`\\srv\share\proj`, `\\SRV\Share\proj\x`, true},
		{`\\srv\share\proj`, `\\srv\elsewhere\proj\x`, false},
		{`C:\Work\Project`, `\Work\Project\x`, false},
		{`C:\Work\Project`, `C:Work\Project\x`, false},
	}
	for _, c := range cases {
		if got := contain.Within(c.root, c.p); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", c.root, c.p, got, c.want)
		}
	}
	if !contain.Same(`C:\Work\Project`, `c:\WORK\project\`) || !contain.SameName("Project", "PROJECT") {
		t.Error("case variants must be the same name on Windows")
	}
}

// TestResolveDirCase: a path typed in another case resolves to the same final path,
// without the verbatim prefix.
func TestResolveDirCase(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "MixedCase")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := contain.ResolveDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := contain.ResolveDir(strings.ToUpper(dir))
	if err != nil {
		t.Fatal(err)
	}
	if !contain.Same(a, b) {
		t.Errorf("%q and %q should be the same directory", a, b)
	}
	if strings.HasPrefix(a, `\\?\`) {
		t.Errorf("verbatim prefix left in %q", a)
	}
}

// TestJunctionEscape: a junction inside the project that points outside resolves
// outside (filepath.EvalSymlinks would miss it since Go 1.23) and cannot be bound;
// one that points inside binds to its target.
func TestJunctionEscape(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	proj := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(proj, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	escape, inner := filepath.Join(proj, "junction"), filepath.Join(proj, "inner")
	if !testkit.Junction(outside, escape) || !testkit.Junction(filepath.Join(proj, "sub"), inner) {
		t.Skip("junctions cannot be created here (Wine has no reparse points)")
	}
	r, err := contain.NewRoot(proj)
	if err != nil {
		t.Fatal(err)
	}
	got, err := contain.ResolveDir(escape)
	if err != nil {
		t.Fatal(err)
	}
	if contain.Within(r.Path, got) {
		t.Fatalf("junction %q resolved to %q, inside %q", escape, got, r.Path)
	}
	for _, v := range []string{"junction", escape, filepath.Join("junction", ".")} {
		if p, err := r.Open(v); !errors.Is(err, contain.ErrOutside) {
			t.Errorf("Open(%q) = %v, %v; want ErrOutside", v, p, err)
		}
	}
	p, err := r.Open("inner")
	if err != nil {
		t.Fatalf("Open(inner): %v", err)
	}
	defer p.Close()
	if want := filepath.Join(r.Path, "sub"); !contain.Same(p.Path, want) {
		t.Errorf("Open(inner).Path = %q, want %q", p.Path, want)
	}
}

// TestHoldForbidsRename: while a bound directory is open, neither it nor the project
// above it can be renamed, so a child started in it gets exactly that directory; once
// the binding is closed, both can.
func TestHoldForbidsRename(t *testing.T) {
	t.Parallel()
	if testkit.UnderWine() {
		t.Skip("Wine renames open directories")
	}
	base := testkit.TempDir(t)
	proj := filepath.Join(base, "project")
	if err := os.MkdirAll(filepath.Join(proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := contain.NewRoot(proj)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Open("sub")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(proj, "sub"), filepath.Join(proj, "moved")); err == nil {
		t.Error("the bound directory was renamed while held")
	}
	if err := os.Rename(proj, filepath.Join(base, "moved-project")); err == nil {
		t.Error("the directory above the bound one was renamed while held")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(proj, "sub"), filepath.Join(proj, "moved")); err != nil {
		t.Errorf("rename after Close: %v", err)
	}
}
