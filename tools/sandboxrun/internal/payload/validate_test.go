package payload

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/guard"
)

func TestValidateRefusals(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"a/b/c.txt": "c", "a/d.txt": "d", "top.txt": "t", "empty/": ""})
	abs := filepath.Join(ws, "a")
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"blank", []string{""}, "payload_paths must be a list of non-empty workspace-relative paths"},
		{"spaces only", []string{"  \t"}, "payload_paths must be a list of non-empty workspace-relative paths"},
		{"blank after a good one", []string{"top.txt", " "}, "payload_paths must be a list of non-empty workspace-relative paths"},
		{"absolute", []string{abs}, "must stay inside the workspace"},
		{"rooted", []string{"/a"}, "must stay inside the workspace"},
		{"dotdot", []string{"../x"}, "must stay inside the workspace"},
		{"inner dotdot", []string{"a/../top.txt"}, "must stay inside the workspace"},
		{"trailing dotdot", []string{"a/.."}, "must stay inside the workspace"},
		{"NUL", []string{"a\x00b"}, "NUL"},
		{"duplicate", []string{"a", "a"}, "overlap or duplicate"},
		{"duplicate spelled differently", []string{"a", "./a/"}, "overlap or duplicate"},
		{"child after parent", []string{"a", "a/b"}, "overlap or duplicate"},
		{"parent after child", []string{"a/b/c.txt", "a"}, "overlap or duplicate"},
		{"workspace and child", []string{".", "top.txt"}, "overlap or duplicate"},
		{"missing", []string{"nope"}, "payload path does not exist: nope"},
		{"missing child", []string{"a/nope"}, "payload path does not exist: a/nope"},
		{"file as parent", []string{"top.txt/x"}, "payload path does not exist: top.txt/x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sel, err := Validate(bind(t, ws), tc.paths)
			errContains(t, err, tc.want)
			if sel != nil {
				t.Fatalf("refused selection returned %+v", sel)
			}
		})
	}
}

func TestValidateCountsAcrossRoots(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"a/b/c.txt": "ccc", "a/d.txt": "dd", "top.txt": "t", "z/": ""})
	tests := []struct {
		paths   []string
		entries int
		bytes   int64
	}{
		{[]string{"top.txt"}, 1, 1},
		{[]string{"z"}, 1, 0},
		{[]string{"a"}, 4, 5},                         // a, a/b, a/b/c.txt, a/d.txt
		{[]string{"a/b", "a/d.txt", "top.txt"}, 4, 6}, // roots count
		{[]string{"."}, 7, 6},                         // the workspace itself is an entry
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.paths, ","), func(t *testing.T) {
			t.Parallel()
			sel, err := Validate(bind(t, ws), tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			if sel.Entries != tc.entries || sel.Bytes != tc.bytes {
				t.Fatalf("entries, bytes = %d, %d; want %d, %d", sel.Entries, sel.Bytes, tc.entries, tc.bytes)
			}
			if diff := cmp.Diff(tc.paths, sel.Paths); diff != "" {
				t.Fatalf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEntryBudget: the budget counts every entry including the selected root, so a
// folder with 9,999 files is exactly 10,000 entries and one more file is refused.
func TestEntryBudget(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	dir := filepath.Join(ws, "many")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range MaxEntries - 1 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sel, err := Validate(bind(t, ws), []string{"many"})
	if err != nil {
		t.Fatalf("10,000 entries refused: %v", err)
	}
	if sel.Entries != MaxEntries {
		t.Fatalf("entries = %d, want %d", sel.Entries, MaxEntries)
	}
	if err := os.WriteFile(filepath.Join(dir, "one-more"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Validate(bind(t, ws), []string{"many"})
	errContains(t, err, "exceeds the Sandbox staging entry budget")

	// Cumulative across roots: the second root tips it over.
	if err := os.Remove(filepath.Join(dir, "one-more")); err != nil {
		t.Fatal(err)
	}
	tree(t, ws, map[string]string{"other.txt": "x"})
	_, err = Validate(bind(t, ws), []string{"many", "other.txt"})
	errContains(t, err, "exceeds the Sandbox staging entry budget")
}

// TestByteBudget uses sparse files, so 1 GiB costs no disk.
func TestByteBudget(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	sparse := func(name string, size int64) {
		t.Helper()
		f, err := os.Create(filepath.Join(ws, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
	}
	sparse("exact.bin", MaxBytes)
	sparse("over.bin", MaxBytes+1)
	sparse("half1.bin", MaxBytes/2)
	sparse("half2.bin", MaxBytes/2+1)
	if _, err := Validate(bind(t, ws), []string{"exact.bin"}); err != nil {
		t.Fatalf("exactly 1 GiB refused: %v", err)
	}
	_, err := Validate(bind(t, ws), []string{"over.bin"})
	errContains(t, err, "exceeds the Sandbox staging byte budget")
	_, err = Validate(bind(t, ws), []string{"half1.bin", "half2.bin"})
	errContains(t, err, "exceeds the Sandbox staging byte budget")
}

// TestMetadataFailsClosed: a metadata error that is not "missing" refuses the payload,
// both on the way to a root and inside it.
func TestMetadataFailsClosed(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"a/b/c.txt": "c", "a/b/d.txt": "d"})
	p := bind(t, ws)
	for _, victim := range []string{"a", "a/b", "a/b/d.txt"} {
		t.Run(victim, func(t *testing.T) {
			t.Parallel()
			bad := filepath.Join(p.Path, filepath.FromSlash(victim))
			stat := func(d *guard.Dir, name string) (guard.Info, error) {
				if filepath.Join(d.Path(), name) == bad {
					return guard.Info{}, &fs.PathError{Op: "lstat", Path: bad, Err: fs.ErrPermission}
				}
				return d.Stat(name)
			}
			_, err := validate(p, []string{"a/b"}, defaultLimits, stat)
			errContains(t, err, "payload metadata could not be established for "+victim)
		})
	}
}

// TestPreOrder: a node is examined before its children are listed, so a refused node
// is never descended into.
func TestPreOrder(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"t/x/deep/f.txt": "f", "t/y.txt": "y"})
	p := bind(t, ws)
	var seen []string
	stat := func(d *guard.Dir, name string) (guard.Info, error) {
		rel, _ := filepath.Rel(p.Path, filepath.Join(d.Path(), name))
		seen = append(seen, filepath.ToSlash(rel))
		n, err := d.Stat(name)
		if name == "x" {
			n.Kind = guard.KindLink // as if x were a junction
		}
		return n, err
	}
	_, err := validate(p, []string{"t"}, defaultLimits, stat)
	errContains(t, err, "payload contains a symbolic link or reparse point: t/x")
	for _, s := range seen {
		if strings.HasPrefix(s, "t/x/") {
			t.Fatalf("walk descended below the refused node: %v", seen)
		}
	}
}

func TestValidateNames(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	names := []string{"with space/inner file.txt", "ünïcödé/日本語.txt", "emoji-🙂.txt"}
	if runtime.GOOS != "windows" {
		names = append(names, "trailing-dot./x.txt", "trailing-space /y.txt")
	}
	files := map[string]string{}
	for _, n := range names {
		files[n] = "content of " + n
	}
	tree(t, ws, files)
	var roots []string
	for _, n := range names {
		roots = append(roots, strings.SplitN(n, "/", 2)[0])
	}
	sel, err := Validate(bind(t, ws), roots)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, n := range names {
		want += 1 + strings.Count(n, "/") // the file plus its folder, if any
	}
	if sel.Entries != want {
		t.Fatalf("entries = %d, want %d for %v", sel.Entries, want, roots)
	}
}
