//go:build !windows

package proc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathResolverUnix(t *testing.T) {
	root := t.TempDir()
	a, b, empty := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "empty")
	for _, d := range []string{a, b, empty, filepath.Join(a, "isdir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string, mode os.FileMode) {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(a, "tool"), 0o755)
	write(filepath.Join(b, "tool"), 0o755)
	write(filepath.Join(a, "noexec"), 0o644)
	write(filepath.Join(b, "noexec"), 0o755)
	write(filepath.Join(b, "onlyb"), 0o755)
	if err := os.Symlink(filepath.Join(b, "onlyb"), filepath.Join(a, "linked")); err != nil {
		t.Fatal(err)
	}
	// A relative PATH entry must never be searched, even if it exists relative to the cwd.
	t.Chdir(root)
	write(filepath.Join(root, "cwdtool"), 0o755)

	tests := []struct {
		name, path, in, want string
		ok                   bool
	}{
		{"first directory wins", a + ":" + b, "tool", filepath.Join(a, "tool"), true},
		{"directory order", b + ":" + a, "tool", filepath.Join(b, "tool"), true},
		{"non-executable skipped", a + ":" + b, "noexec", filepath.Join(b, "noexec"), true},
		{"directory named like the tool skipped", a + ":" + b, "isdir", "", false},
		{"link kept as found", a, "linked", filepath.Join(a, "linked"), true},
		{"whitespace trimmed", a, "  tool  ", filepath.Join(a, "tool"), true},
		{"blank", a, "  ", "", false},
		{"missing", a + ":" + b, "nothere", "", false},
		{"relative entry skipped", ".:" + empty, "cwdtool", "", false},
		{"empty entry skipped", ":" + empty, "cwdtool", "", false},
		{"relative name with directory", a, "./tool", "", false},
		{"relative name with subdirectory", root, "a/tool", "", false},
		{"absolute executable", "", filepath.Join(b, "onlyb"), filepath.Join(b, "onlyb"), true},
		{"absolute non-executable", "", filepath.Join(a, "noexec"), "", false},
		{"absolute directory", "", a, "", false},
		{"absolute missing", "", filepath.Join(a, "missing"), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewResolver(func(k string) string {
				if k == "PATH" {
					return tc.path
				}
				return ""
			})
			got, ok := r.Resolve(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("Resolve(%q) with PATH=%q = %q, %v; want %q, %v", tc.in, tc.path, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestPathResolverNilGetenvReadsProcessEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "proc-test-tool"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	got, ok := PathResolver{}.Resolve("proc-test-tool")
	if !ok || got != filepath.Join(dir, "proc-test-tool") {
		t.Errorf("Resolve = %q, %v", got, ok)
	}
}

func TestSamePathUnix(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	g := filepath.Join(dir, "g")
	os.WriteFile(f, nil, 0o644)
	os.WriteFile(g, nil, 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(f, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		a, b string
		want bool
	}{
		{f, f, true},
		{f, link, true},
		{f, filepath.Join(dir, ".", "f"), true},
		{f, g, false},
		{f, "f", false},
		{dir, dir, false},
		{f, filepath.Join(dir, "missing"), false},
	}
	for _, tc := range tests {
		if got := SamePath(tc.a, tc.b); got != tc.want {
			t.Errorf("SamePath(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
