package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memDirs is a folder tree for findProjectRoot: each folder's entry names.
type memDirs map[string][]string

func (m memDirs) names(dir string) ([]string, error) {
	if l, ok := m[filepath.Clean(dir)]; ok {
		return l, nil
	}
	return nil, errors.New("no such folder")
}

func TestFindProjectRoot(t *testing.T) {
	t.Parallel()
	root := string(filepath.Separator)
	if vol := filepath.VolumeName(os.TempDir()); vol != "" {
		root = vol + root
	}
	p := func(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }
	home := p("home", "me")
	cases := []struct {
		name       string
		dirs       memDirs
		start      string
		want, mark string
	}{
		{"go.mod two levels up", memDirs{p("home", "me", "src", "gomod"): {"go.mod", "internal"}},
			p("home", "me", "src", "gomod", "internal", "sub"), p("home", "me", "src", "gomod"), "go.mod"},
		{"the nearest wins over .git above", memDirs{p("home", "me", "repo"): {".git"}, p("home", "me", "repo", "web"): {"package.json"}},
			p("home", "me", "repo", "web", "src"), p("home", "me", "repo", "web"), "package.json"},
		{"the current folder itself", memDirs{p("home", "me", "app"): {"Cargo.toml"}}, p("home", "me", "app"), p("home", "me", "app"), "Cargo.toml"},
		{"a solution by extension, any case", memDirs{p("home", "me", "cs"): {"README.md", "App.SLN"}}, p("home", "me", "cs", "App"), p("home", "me", "cs"), "App.SLN"},
		{"makefile spellings", memDirs{p("home", "me", "c"): {"makefile"}}, p("home", "me", "c", "src"), p("home", "me", "c"), "makefile"},
		{"marker order names it", memDirs{p("home", "me", "m"): {"package.json", "go.mod", ".git"}}, p("home", "me", "m", "x"), p("home", "me", "m"), "go.mod"},
		{"the home folder's .vscode is no project", memDirs{home: {".vscode", "Makefile"}}, p("home", "me", "Downloads", "x"), p("home", "me", "Downloads", "x"), ""},
		{"nothing above home either", memDirs{p("home"): {".git"}}, p("home", "me", "a"), p("home", "me", "a"), ""},
		{"home itself when started there", memDirs{home: {".git"}}, home, home, ".git"},
		{"the volume root is no project", memDirs{p(): {".git"}}, p("srv", "x"), p("srv", "x"), ""},
		{"outside home, up to below the root", memDirs{p("srv"): {"go.work"}}, p("srv", "x", "y"), p("srv"), "go.work"},
		{"an unreadable folder is passed over", memDirs{p("home", "me", "r"): {".git"}}, p("home", "me", "r", "locked", "in"), p("home", "me", "r"), ".git"},
		{"a bare extension is no project file", memDirs{p("home", "me", "e"): {".sln", ".csproj"}}, p("home", "me", "e", "f"), p("home", "me", "e", "f"), ""},
		{"nothing at all", memDirs{}, p("home", "me", "n"), p("home", "me", "n"), ""},
	}
	for _, c := range cases {
		got, mark := findProjectRoot(c.start, home, c.dirs.names)
		if got != c.want || mark != c.mark {
			t.Errorf("%s: (%q, %q), want (%q, %q)", c.name, got, mark, c.want, c.mark)
		}
	}
}

// FuzzFindProjectRoot: whatever the folders hold, the root is the start or a folder
// above it, never the home folder or above it when the start is below home, and never
// a volume's root unless the search started there.
func FuzzFindProjectRoot(f *testing.F) {
	f.Add("/home/me/src/app/internal", "/home/me", "/home/me/src/app", "go.mod")
	f.Add("/home/me/x", "/home/me", "/home/me", ".vscode")
	f.Add("/srv/a/b", "/home/me", "/", ".git")
	f.Add("/", "", "/", "Makefile")
	f.Add(`C:\Users\me\src`, `C:\Users\me`, `C:\Users\me\src`, "App.csproj")
	f.Fuzz(func(t *testing.T, start, home, markerDir, name string) {
		if !filepath.IsAbs(start) {
			return
		}
		dirs := memDirs{filepath.Clean(markerDir): {name}}
		got, mark := findProjectRoot(start, home, dirs.names)
		s := filepath.Clean(start)
		if got != s && !strings.HasPrefix(s, strings.TrimSuffix(got, string(filepath.Separator))+string(filepath.Separator)) {
			t.Fatalf("root %q is not %q or above it", got, s)
		}
		if mark == "" && got != s {
			t.Fatalf("no marker, yet root %q is not the start %q", got, s)
		}
		if mark != "" && (mark != name || !projectMarker(name) || filepath.Clean(markerDir) != got) {
			t.Fatalf("marker %q at %q; the tree has %q at %q", mark, got, name, markerDir)
		}
		if got != s && filepath.Dir(got) == got {
			t.Fatalf("a volume root %q was chosen from %q", got, s)
		}
		if h := filepath.Clean(home); home != "" && got != s && strings.HasPrefix(s, h+string(filepath.Separator)) &&
			(samePath(got, h) || !strings.HasPrefix(got, h+string(filepath.Separator))) {
			t.Fatalf("%q is home %q or above it, from %q", got, h, s)
		}
	})
}

// TestProjectFoundUpward: with neither --project nor WINDOWS_DEV_AGENT_PROJECT_DIR,
// a command run in a subfolder works on the project it is in, and says so on stderr
// (issue 25 §2: from gomod/internal/sub, `wda plan run the tests` found nothing).
func TestProjectFoundUpward(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	delete(f.env, "WINDOWS_DEV_AGENT_PROJECT_DIR")
	mod := filepath.Join(f.home, "gomod")
	sub := filepath.Join(mod, "internal", "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	goTool := "go"
	if filepath.Separator == '\\' {
		goTool = "go.exe"
	}
	if err := os.WriteFile(filepath.Join(f.bin, goTool), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.wd = sub
	r := f.run(t, noTTY, nil, "plan", "run", "the", "tests")
	// One golden for every OS: the paths in it are written with the OS's separator.
	r.stdout, r.stderr = filepath.ToSlash(r.stdout), filepath.ToSlash(r.stderr)
	golden(t, "plan-from-subfolder", []string{"plan", "run", "the", "tests"}, r)
	if !strings.Contains(r.stdout, "Selected:  test-go") || !strings.Contains(r.stderr, "wda: project $HOME/gomod") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// In the project's root, or with the project named, nothing is said.
	f.wd = mod
	if r := f.run(t, noTTY, nil, "plan", "run", "the", "tests"); r.stderr != "" {
		t.Fatalf("in the root: %s", r.stderr)
	}
	f.wd = sub
	if r := f.run(t, noTTY, nil, "plan", "run", "the", "tests", "--project", sub); r.stderr != "" || strings.Contains(r.stdout, "Selected:") {
		t.Fatalf("--project names the subfolder: %s%s", r.stdout, r.stderr)
	}
}
