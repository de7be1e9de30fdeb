//go:build !windows

package guard

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
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
			abs, exists, err := Check(root, tt.rel)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Check(%q) error: %v", tt.rel, err)
				}
				if !Within(root, abs) {
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
	// The project root itself may be reached through a link (the user's chosen
	// directory); only components below it are walked without following.
	real := tree(t, map[string]string{".mcp.json": `{"mcpServers":{}}`})
	alias := filepath.Join(t.TempDir(), "alias")
	symlink(t, real, alias)
	abs, exists, err := Check(alias, ".mcp.json")
	if err != nil || !exists || abs != filepath.Join(real, ".mcp.json") {
		t.Fatalf("Check through root link = %q, %v, %v", abs, exists, err)
	}
	if _, err := ReadProjectJSON(alias, filepath.Join(alias, ".mcp.json")); err != nil {
		t.Fatalf("absolute path under the unresolved root: %v", err)
	}
}

func TestCheckMetadataFailureFailsClosed(t *testing.T) {
	root := tree(t, map[string]string{"a/b.json": `{}`})
	defer func(old func(string) (fs.FileInfo, error)) { lstat = old }(lstat)
	lstat = func(p string) (fs.FileInfo, error) {
		if filepath.Base(p) == "a" {
			return nil, &fs.PathError{Op: "lstat", Path: p, Err: syscall.EACCES}
		}
		return os.Lstat(p)
	}
	_, exists, err := Check(root, "a/b.json")
	if err == nil || !strings.Contains(err.Error(), "metadata could not be established for "+filepath.Join(root, "a")) {
		t.Fatalf("err = %v, want metadata failure", err)
	}
	if exists {
		t.Error("exists must be false on a metadata failure")
	}
	if _, err := ReadProjectJSON(root, "a/b.json"); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadProjectJSON must fail closed, got %v", err)
	}
}

func TestReadProjectJSON(t *testing.T) {
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
	tests := []struct {
		rel     string
		want    map[string]any
		wantErr string
	}{
		{"ok.json", map[string]any{"mcpServers": map[string]any{"a": map[string]any{"command": "x"}}}, ""},
		{"bom.json", map[string]any{"a": true}, ""},
		{"n.json", map[string]any{"n": jsonNumber("12345678901234567890")}, ""},
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
			got, err := ReadProjectJSON(root, tt.rel)
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
		m, err := ReadProjectJSON(root, "exact.json")
		if err != nil || len(m["k"].(string)) != Limit-8 {
			t.Fatalf("a file of exactly %d bytes must be read: %v", Limit, err)
		}
	})
	t.Run("missing", func(t *testing.T) {
		_, err := ReadProjectJSON(root, "nope/none.json")
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("err = %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("too large is ErrTooLarge", func(t *testing.T) {
		if _, err := ReadProjectJSON(root, "big.json"); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestBudgetCountsBytesRead hands the reader a handle whose stat says nothing about its
// length (a pipe reports size 0): the budget must still stop an oversized stream.
func TestBudgetCountsBytesRead(t *testing.T) {
	root := tree(t, map[string]string{"c.json": `{}`})
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
	defer func(old platform) { sys = old }(sys)
	sys = pipePlatform{platform: sys, f: r}
	if _, err := ReadProjectJSON(root, "c.json"); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge from the bytes read", err)
	}
}

type pipePlatform struct {
	platform
	f *os.File
}

func (p pipePlatform) openUnder(target) (*os.File, error) { return p.f, nil }

// TestParentSwappedAfterCheck replaces a checked parent directory with a symlink to an
// outside directory between Check and the open: the open must refuse it.
func TestParentSwappedAfterCheck(t *testing.T) {
	outside := tree(t, map[string]string{"cfg/config.json": `{"leak":true}`})
	root := tree(t, map[string]string{"cfg/config.json": `{"leak":false}`})
	symlink(t, outside, filepath.Join(t.TempDir(), "probe"))
	defer func(old func()) { afterCheck = old }(afterCheck)
	afterCheck = func() {
		if err := os.Rename(filepath.Join(root, "cfg"), filepath.Join(root, "cfg.old")); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(filepath.Join(outside, "cfg"), filepath.Join(root, "cfg")); err != nil {
			t.Error(err)
		}
	}
	m, err := ReadProjectJSON(root, "cfg/config.json")
	var le *LinkError
	if !errors.As(err, &le) || le.Path != filepath.Join(root, "cfg") {
		t.Fatalf("got %v, %v; want a LinkError naming the swapped parent", m, err)
	}
}

func TestFileSwappedAfterCheck(t *testing.T) {
	outside := tree(t, map[string]string{"config.json": `{"leak":true}`})
	root := tree(t, map[string]string{".mcp.json": `{"leak":false}`})
	symlink(t, outside, filepath.Join(t.TempDir(), "probe"))
	defer func(old func()) { afterCheck = old }(afterCheck)
	afterCheck = func() {
		p := filepath.Join(root, ".mcp.json")
		os.Remove(p)
		if err := os.Symlink(filepath.Join(outside, "config.json"), p); err != nil {
			t.Error(err)
		}
	}
	if _, err := ReadProjectJSON(root, ".mcp.json"); err == nil || !strings.Contains(err.Error(), "reparse point") {
		t.Fatalf("err = %v, want the link refused", err)
	}
}

func TestReadHostJSON(t *testing.T) {
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
