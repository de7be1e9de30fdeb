package payload

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const outsideSecret = "OUTSIDE-SECRET"

// FuzzPayloadPaths feeds arbitrary payload path lists (newline-separated) through
// Validate and Stage against a workspace with links pointing inside and outside, and
// asserts: nothing from outside the workspace is ever staged, every staged file is a
// byte-for-byte copy of the same-named regular file in the workspace, and no error
// (from Validate or Stage) leaves a bundle behind.
func FuzzPayloadPaths(f *testing.F) {
	root := f.TempDir()
	ws, outside, data := filepath.Join(root, "ws"), filepath.Join(root, "outside"), filepath.Join(root, "data")
	tree(f, outside, map[string]string{"secret.txt": outsideSecret, "dir/secret.txt": outsideSecret})
	tree(f, ws, map[string]string{
		"src/a.txt": "a", "src/sub/b.txt": "b", "clean/x.txt": "x", "clean/y/z.txt": "z",
		"README.md": "readme", "with space/ü.txt": "u", "empty/": "",
		"deep/1/2/3/ok.txt": "ok",
	})
	links := map[string]string{ // link → target; on Windows without privilege they are skipped
		"outlink":           filepath.Join(outside, "dir"),
		"outfile":           filepath.Join(outside, "secret.txt"),
		"inlink":            filepath.Join(ws, "clean"),
		"deep/1/2/3/escape": filepath.Join(outside, "secret.txt"),
		"src/sub/up":        "../../..",
	}
	for l, target := range links {
		_ = os.Symlink(target, filepath.Join(ws, filepath.FromSlash(l)))
	}
	for _, seed := range []string{"src", "src\nREADME.md", "clean", "outlink/secret.txt", "inlink/x.txt", "deep",
		".", "../outside/secret.txt", "src/../../outside", "/etc/passwd", "src\nsrc/a.txt", "with space", "src/sub/up/outside"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, list string) {
		paths := strings.Split(list, "\n")
		if len(paths) > 16 {
			paths = paths[:16]
		}
		sel, err := Validate(bind(t, ws), paths)
		if err != nil {
			noBundles(t, data)
			return
		}
		b, err := Stage(data, sel, "echo fuzz")
		if err != nil {
			noBundles(t, data)
			return
		}
		payloadDir := filepath.Join(b.Share, PayloadDir)
		err = filepath.WalkDir(payloadDir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(payloadDir, p)
			src := filepath.Join(ws, rel)
			if d.Type()&fs.ModeSymlink != 0 {
				t.Errorf("a link was staged: %s", rel)
				return nil
			}
			fi, err := os.Lstat(src)
			if err != nil || fi.Mode()&fs.ModeSymlink != 0 || fi.IsDir() != d.IsDir() {
				t.Errorf("staged %s has no same-kind, link-free source in the workspace (%v)", rel, err)
				return nil
			}
			if d.IsDir() {
				return nil
			}
			got, _ := os.ReadFile(p)
			want, _ := os.ReadFile(src)
			if strings.Contains(string(got), outsideSecret) || string(got) != string(want) {
				t.Errorf("staged %s = %q, workspace has %q", rel, got, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := Remove(b.Dir); err != nil {
			t.Fatal(err)
		}
		noBundles(t, data)
	})
}

func noBundles(t *testing.T, data string) {
	t.Helper()
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("bundle left behind: %v", n)
	}
}
