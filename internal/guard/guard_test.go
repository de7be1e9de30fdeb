//go:build !windows

package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/testkit"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	outside := tree(t, map[string]string{"secret.json": `{"x":1}`, "dir/c.json": `{}`})
	root := tree(t, map[string]string{
		".mcp.json":              `{}`,
		".roo/":                  "",
		".continue/config.json":  `{}`,
		"notadir":                "x",
		"sub/deeper/config.json": `{}`,
	})
	symlink(t, filepath.Join(outside, "secret.json"), filepath.Join(root, "linked.json"))
	symlink(t, filepath.Join(outside, "dir"), filepath.Join(root, "linkdir"))
	symlink(t, filepath.Join(root, "sub"), filepath.Join(root, "innerlink"))
	symlink(t, filepath.Join(root, "nowhere"), filepath.Join(root, "dangling"))
	p := testkit.Project(t, root)

	tests := []struct {
		name    string
		rel     string
		exists  bool
		wantErr string // substring; "" means no error
	}{
		{"file", ".mcp.json", true, ""},
		{"directory marker", ".roo", true, ""},
		{"nested", ".continue/config.json", true, ""},
		{"backslash-free slash form", "sub/deeper/config.json", true, ""},
		{"missing", "CLAUDE.md", false, ""},
		{"missing parent", ".vscode/extensions.json", false, ""},
		{"file as parent", "notadir/x.json", false, ""},
		{"symlinked file", "linked.json", false, "project path crosses a symbolic link or reparse point: " + filepath.Join(root, "linked.json")},
		{"symlinked parent", "linkdir/c.json", false, "project path crosses a symbolic link or reparse point: " + filepath.Join(root, "linkdir")},
		{"link inside the project is still refused", "innerlink/deeper/config.json", false, "reparse point: " + filepath.Join(root, "innerlink")},
		{"dangling link", "dangling", false, "reparse point"},
		{"dotdot escape", "../x.json", false, "outside the project root"},
		{"dotdot inside", "sub/../.mcp.json", true, ""},
		{"absolute inside", filepath.Join(root, ".mcp.json"), true, ""},
		{"absolute outside", filepath.Join(outside, "secret.json"), false, "outside the project root"},
		{"root itself", ".", false, "names the project root itself"},
		{"empty", "", false, "invalid project path"},
		{"NUL byte", "a\x00b", false, "invalid project path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Check(p, tt.rel)
			abs, exists := e.Path, e.Exists
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Check(%q) error: %v", tt.rel, err)
				}
				if !contain.Within(root, abs) {
					t.Errorf("abs %q not within root %q", abs, root)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Check(%q) error = %v, want containing %q", tt.rel, err, tt.wantErr)
			}
			if exists != tt.exists {
				t.Errorf("exists = %v, want %v", exists, tt.exists)
			}
		})
	}
}

func TestCheckRootThroughLink(t *testing.T) {
	t.Parallel()
	// The project root itself may be reached through a link (the user's chosen
	// directory): binding resolves it once; only components below it are walked, from
	// the held directory, without following. (Absolute paths spelled under the link are
	// mcpconfig's to map onto the bound project: see its TestExplicitSource.)
	real := tree(t, map[string]string{".mcp.json": `{"mcpServers":{}}`})
	alias := filepath.Join(t.TempDir(), "alias")
	symlink(t, real, alias)
	p := testkit.Project(t, alias)
	e, err := Check(p, ".mcp.json")
	if err != nil || !e.Exists || e.Path != filepath.Join(real, ".mcp.json") || e.Kind != KindFile {
		t.Fatalf("Check through root link = %+v, %v", e, err)
	}
	if _, err := ReadProjectJSON(p, filepath.Join(real, ".mcp.json")); err != nil {
		t.Fatalf("absolute path under the bound root: %v", err)
	}
}

func TestCheckMetadataFailureFailsClosed(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"a/b.json": `{}`})
	p := testkit.Project(t, root)
	w := walker{openDir: func(d *Dir, name string) (*Dir, Info, error) {
		if name == "a" {
			return nil, Info{}, &fs.PathError{Op: "open", Path: d.child(name), Err: syscall.EACCES}
		}
		return d.OpenDir(name)
	}}
	e, err := w.check(p, "a/b.json")
	if err == nil || !strings.Contains(err.Error(), "metadata could not be established for "+filepath.Join(root, "a")) {
		t.Fatalf("err = %v, want metadata failure", err)
	}
	if e.Exists {
		t.Error("exists must be false on a metadata failure")
	}
	if _, err := w.read(p, "a/b.json"); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a read must fail closed, got %v", err)
	}
}

func TestReadProjectJSON(t *testing.T) {
	t.Parallel()
	big := `{"k":"` + strings.Repeat("x", 3<<20) + `"}`
	exact := `{"k":"` + strings.Repeat("x", Limit-8) + `"}`
	if len(exact) != Limit {
		t.Fatalf("fixture size %d", len(exact))
	}
	root := tree(t, map[string]string{
		"ok.json":       `{"mcpServers":{"a":{"command":"x"}}}`,
		"bom.json":      "\xEF\xBB\xBF{\"a\":true}",
		"badutf8.json":  "{\"a\":\"\xff\xfe\"}",
		"array.json":    `[1,2]`,
		"string.json":   `"x"`,
		"null.json":     `null`,
		"broken.json":   `{"a":`,
		"trailing.json": `{"a":1} {"b":2}`,
		"empty.json":    ``,
		"big.json":      big,
		"exact.json":    exact,
		"over.json":     exact + " ",
		"dir.json/":     "",
		"n.json":        `{"n":12345678901234567890}`,
	})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testkit.Project(t, root)
	tests := []struct {
		rel     string
		want    map[string]any
		wantErr string
	}{
		{"ok.json", map[string]any{"mcpServers": map[string]any{"a": map[string]any{"command": "x"}}}, ""},
		{"bom.json", map[string]any{"a": true}, ""},
		{"n.json", map[string]any{"n": json.Number("12345678901234567890")}, ""},
		{"badutf8.json", nil, "not valid UTF-8"},
		{"array.json", nil, "root JSON value is not an object"},
		{"string.json", nil, "root JSON value is not an object"},
		{"null.json", nil, "root JSON value is not an object"},
		{"broken.json", nil, "invalid JSON"},
		{"trailing.json", nil, "invalid JSON"},
		{"empty.json", nil, "invalid JSON"},
		{"big.json", nil, "JSON config exceeds 2097152 byte read limit"},
		{"over.json", nil, "JSON config exceeds 2097152 byte read limit"},
		{"dir.json", nil, "not a regular file"},
		{"fifo.json", nil, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			got, err := ReadProjectJSON(p, tt.rel)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	t.Run("exactly the limit", func(t *testing.T) {
		m, err := ReadProjectJSON(p, "exact.json")
		if err != nil || len(m["k"].(string)) != Limit-8 {
			t.Fatalf("a file of exactly %d bytes must be read: %v", Limit, err)
		}
	})
	t.Run("missing", func(t *testing.T) {
		_, err := ReadProjectJSON(p, "nope/none.json")
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("err = %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("too large is ErrTooLarge", func(t *testing.T) {
		if _, err := ReadProjectJSON(p, "big.json"); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestBudgetCountsBytesRead hands the bounded reader a stream whose length nothing can
// tell in advance (a pipe): the budget must still stop it on the bytes read.
func TestBudgetCountsBytesRead(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		defer w.Close()
		w.Write(bytes.Repeat([]byte(" "), Limit))
		w.Write([]byte(" {}"))
	}()
	if _, err := readBounded(r); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge from the bytes read", err)
	}
}

// TestParentSwappedAfterBinding replaces a directory on the way with a symbolic link to
// an outside directory after the project was bound: the walk opens each component from
// its held parent without following, so the link is refused.
func TestParentSwappedAfterBinding(t *testing.T) {
	t.Parallel()
	outside := tree(t, map[string]string{"cfg/config.json": `{"leak":true}`})
	root := tree(t, map[string]string{"cfg/config.json": `{"leak":false}`})
	p := testkit.Project(t, root)
	if err := os.Rename(filepath.Join(root, "cfg"), filepath.Join(root, "cfg.old")); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(outside, "cfg"), filepath.Join(root, "cfg"))
	m, err := ReadProjectJSON(p, "cfg/config.json")
	var le *LinkError
	if !errors.As(err, &le) || le.Path != filepath.Join(root, "cfg") {
		t.Fatalf("got %v, %v; want a LinkError naming the swapped parent", m, err)
	}
}

func TestFileSwappedAfterBinding(t *testing.T) {
	t.Parallel()
	outside := tree(t, map[string]string{"config.json": `{"leak":true}`})
	root := tree(t, map[string]string{".mcp.json": `{"leak":false}`})
	p := testkit.Project(t, root)
	f := filepath.Join(root, ".mcp.json")
	os.Remove(f)
	symlink(t, filepath.Join(outside, "config.json"), f)
	if _, err := ReadProjectJSON(p, ".mcp.json"); err == nil || !strings.Contains(err.Error(), "reparse point") {
		t.Fatalf("err = %v, want the link refused", err)
	}
}

// TestProjectSwappedAfterBinding: the bound directory itself is renamed away and its
// name given to a link to outside; reads go through the held directory, so they read
// what was bound.
func TestProjectSwappedAfterBinding(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	sub, outside := filepath.Join(base, "project", "sub"), filepath.Join(base, "outside")
	testkit.WriteFile(t, filepath.Join(sub, ".mcp.json"), `{"where":"inside"}`)
	testkit.WriteFile(t, filepath.Join(outside, ".mcp.json"), `{"where":"OUTSIDE"}`)
	p, err := testkit.Bind(filepath.Join(base, "project"), "sub")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := os.Rename(sub, sub+".moved"); err != nil {
		t.Fatal(err)
	}
	symlink(t, outside, sub)
	m, err := ReadProjectJSON(p, ".mcp.json")
	if err != nil || m["where"] != "inside" {
		t.Fatalf("read %v, %v through the bound project; want the bound directory's file", m, err)
	}
}

// TestSwapRace: while each read runs, another goroutine swaps a directory on the way
// (and, in the second half, the bound directory itself) for a link to an outside
// directory holding the same names. No read may ever return the outside content.
func TestSwapRace(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		where := "inside"
		if d == outside {
			where = "OUTSIDE-MARKER"
		}
		testkit.WriteFile(t, filepath.Join(d, "sub", "cfg", "config.json"), `{"where":"`+where+`"}`)
		testkit.WriteFile(t, filepath.Join(d, "cfg", "config.json"), `{"where":"`+where+`"}`)
	}
	testkit.NeedSwaps(t, base)
	const runs = 300
	for i := range runs {
		victim, rel, bind := filepath.Join(root, "sub", "cfg"), "cfg/config.json", "sub"
		if i%2 == 1 {
			victim, bind = filepath.Join(root, "sub"), "sub" // the bound directory itself
		}
		p, err := testkit.Bind(root, bind)
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(outside, "sub", "cfg")
		if victim == filepath.Join(root, "sub") {
			target = filepath.Join(outside, "sub")
		}
		var got map[string]any
		var rerr error
		testkit.SwapDuring(t, victim, target, func() { got, rerr = ReadProjectJSON(p, rel) })
		p.Close()
		if got["where"] == "OUTSIDE-MARKER" {
			t.Fatalf("run %d read the outside directory through a swapped %s", i, victim)
		}
		if rerr != nil && !strings.Contains(rerr.Error(), "reparse point") && !errors.Is(rerr, fs.ErrNotExist) {
			t.Fatalf("run %d: unexpected error %v", i, rerr)
		}
	}
}

// TestHardLinks: a regular file with more than one link may be a file outside the
// project under a second name; it is refused, by name, before a byte is read.
func TestHardLinks(t *testing.T) {
	t.Parallel()
	outside := tree(t, map[string]string{"secret.json": `{"mcpServers":{"SECRET":{"command":"x"}}}`})
	root := tree(t, map[string]string{"own.json": `{}`, "sub/": ""})
	for _, l := range []struct{ from, to string }{
		{filepath.Join(outside, "secret.json"), filepath.Join(root, ".mcp.json")},
		{filepath.Join(outside, "secret.json"), filepath.Join(root, "sub", "config.json")},
		{filepath.Join(root, "own.json"), filepath.Join(root, "twin.json")}, // inside, but indistinguishable
	} {
		if err := os.Link(l.from, l.to); err != nil {
			t.Skipf("hard links cannot be made here: %v", err)
		}
	}
	p := testkit.Project(t, root)
	for _, rel := range []string{".mcp.json", "sub/config.json", "own.json", "twin.json"} {
		b, err := ReadProject(p, rel)
		var he *HardLinkError
		if !errors.As(err, &he) || he.Path != filepath.Join(root, filepath.FromSlash(rel)) || b != nil {
			t.Errorf("ReadProject(%q) = %q, %v; want a HardLinkError naming it", rel, b, err)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("the error carries file content: %v", err)
		}
	}
	// Existence is not a read: Check still reports the name.
	if e, err := Check(p, ".mcp.json"); err != nil || !e.Exists {
		t.Errorf("Check = %+v, %v", e, err)
	}
}

func TestReadHostJSON(t *testing.T) {
	t.Parallel()
	dir := tree(t, map[string]string{
		"real.json":  `{"mcpServers":{}}`,
		"big.json":   strings.Repeat(" ", Limit) + "{}",
		"arr.json":   `[]`,
		"adir.json/": "",
	})
	symlink(t, filepath.Join(dir, "real.json"), filepath.Join(dir, "link.json"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, wantErr string
	}{
		{"plain", "real.json", ""},
		{"host reads follow links", "link.json", ""},
		{"too large", "big.json", "JSON config exceeds 2097152 byte read limit"},
		{"non-object", "arr.json", "root JSON value is not an object"},
		{"directory", "adir.json", "not a regular file"},
		{"fifo does not block", "fifo.json", "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadHostJSON(filepath.Join(dir, tt.file))
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
	if _, err := ReadHostJSON(filepath.Join(dir, "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing host file: %v", err)
	}
}

// TestEntries: the listing names every child once, sorted, and where the system
// reports kinds and inodes (Linux), they are the ones no-follow metadata gives.
func TestEntries(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{"b.txt": "b", "a/": "", "c/d.txt": "d"})
	symlink(t, "b.txt", filepath.Join(root, "link"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenRoot(testkit.Project(t, root), Shared)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	es, err := d.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
		if e.Kind == KindUnknown {
			continue
		}
		info, err := d.Stat(e.Name)
		if err != nil || info.Kind != e.Kind || info.ID.Ino != e.Ino {
			t.Errorf("%s: listing says %v/%d, Stat says %+v, %v", e.Name, e.Kind, e.Ino, info, err)
		}
	}
	if diff := cmp.Diff([]string{"a", "b.txt", "c", "fifo", "link"}, names); diff != "" {
		t.Errorf("names (-want +got)\n%s", diff)
	}
	if d.Info().Kind != KindDir {
		t.Errorf("root info %+v", d.Info())
	}
}
