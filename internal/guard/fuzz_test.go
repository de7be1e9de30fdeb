package guard

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/testkit"
)

// FuzzCheck asserts the containment contract for arbitrary relative paths against a
// fixed tree holding links: a path Check accepts is lexically inside the bound root,
// and no component of an existing one is a link.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{".mcp.json", "a/b.json", "../x", "a/../../x", "link/x", "a//b.json",
		"./a/./b.json", "/etc/passwd", "a/b.json/..", `a\b.json`, "C:x", "..", ".", "a/link2"} {
		f.Add(s)
	}
	root := testkit.TempDir(f)
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
	links := testkit.Symlink(filepath.Join(root, "outside"), filepath.Join(proj, "link")) &&
		testkit.Symlink(filepath.Join(root, "a", "b.json"), filepath.Join(proj, "a", "link2"))
	p := testkit.Project(f, proj)
	f.Fuzz(func(t *testing.T, rel string) {
		e, err := Check(p, rel)
		if err != nil {
			if e.Exists {
				t.Fatalf("Check(%q) reported exists with error %v", rel, err)
			}
			return
		}
		r, ok := contain.Rel(proj, e.Path)
		if !ok || r == "." {
			t.Fatalf("Check(%q) = %q, not below %q", rel, e.Path, proj)
		}
		if !e.Exists {
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

// decodeErrors is the whole vocabulary of DecodeObject's errors: fixed words and a
// position, never a byte of the input.
var decodeErrors = regexp.MustCompile(`^(invalid JSON: (syntax error|unexpected end of input|data after the top-level value) at line [1-9][0-9]*, column [1-9][0-9]*|invalid JSON|config is not valid UTF-8|root JSON value is not an object)$`)

// FuzzDecodeObject asserts DecodeObject's errors come only from that vocabulary, with
// a line no greater than the input's.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":`, `{"a": 1,}`, `root:x:0:0:root:/root:/bin/bash`, "{\n\"k\": tru\n}",
		`{"a":1} x`, `[1]`, "\xEF\xBB\xBF{}", `{"s":"\u00"}`, ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := DecodeObject(data)
		if err == nil {
			return
		}
		if !decodeErrors.MatchString(err.Error()) {
			t.Fatalf("error outside the vocabulary: %q", err)
		}
		var line, col int
		if n, _ := fmtSscanf(err.Error(), &line, &col); n == 2 && line > strings.Count(string(data), "\n")+1 {
			t.Fatalf("line %d beyond the input: %q", line, err)
		}
	})
}
