package home

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestCandidates is the order of each OS, tested everywhere.
func TestCandidates(t *testing.T) {
	t.Parallel()
	all := env(map[string]string{"HOME": "h", "USERPROFILE": "u", "HOMEDRIVE": "C:", "HOMEPATH": `\Users\d`})
	for goos, want := range map[string][]string{
		"windows": {"u", "h", `C:\Users\d`},
		"linux":   {"h", "u"},
		"darwin":  {"h", "u"},
	} {
		if d := cmp.Diff(want, candidates(goos, all)); d != "" {
			t.Errorf("%s (-want +got):\n%s", goos, d)
		}
	}
	half := env(map[string]string{"HOMEDRIVE": "C:"})
	if d := cmp.Diff([]string{"", ""}, candidates("windows", half)); d != "" {
		t.Errorf("HOMEDRIVE without HOMEPATH is no candidate (-want +got):\n%s", d)
	}
}

// TestDir is the value rule on this OS: the first candidate that is an absolute path
// wins, trimmed and cleaned; relative and unexpanded values are skipped.
func TestDir(t *testing.T) {
	t.Parallel()
	abs := func(p string) string { // an absolute path on this OS
		if runtime.GOOS == "windows" {
			return `C:` + filepath.FromSlash(p)
		}
		return p
	}
	first, second := "HOME", "USERPROFILE"
	if runtime.GOOS == "windows" {
		first, second = second, first
	}
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"first wins", map[string]string{first: abs("/a"), second: abs("/b")}, abs("/a")},
		{"second when the first is unset", map[string]string{second: abs("/b")}, abs("/b")},
		{"trimmed and cleaned", map[string]string{first: "  " + abs("/a/x/../b/") + " "}, abs("/a/b")},
		{"blank skipped", map[string]string{first: "   ", second: abs("/b")}, abs("/b")},
		{"relative skipped", map[string]string{first: "home", second: abs("/b")}, abs("/b")},
		{"unexpanded skipped", map[string]string{first: "${HOME}", second: "%USERPROFILE%"}, ""},
		{"none", nil, ""},
	}
	for _, c := range cases {
		if got := Dir(env(c.env)); got != c.want {
			t.Errorf("%s: Dir = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	h := filepath.Join(string(filepath.Separator)+"home", "u")
	if runtime.GOOS == "windows" {
		h = `C:` + h
	}
	g := env(map[string]string{"HOME": h, "USERPROFILE": h})
	cases := map[string]string{
		"~":      h,
		"~/a/b":  filepath.Join(h, "a", "b"),
		`~\a`:    filepath.Join(h, "a"),
		"/abs":   "/abs",
		"rel":    "rel",
		"~other": "~other",
		"x/~/y":  "x/~/y",
		"":       "",
	}
	for in, want := range cases {
		if got := Expand(in, g); got != want {
			t.Errorf("Expand(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Expand("~/a", env(nil)); got != "~/a" {
		t.Errorf("without a home, Expand(~/a) = %q, want it unchanged", got)
	}
}

// FuzzExpand: a path without a leading ~ is never changed, and an expanded one is
// absolute whatever follows the ~.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"~", "~/", `~\`, "~/a/../..", "~x", "a~", "", "~//", `~\..\x`} {
		f.Add(s)
	}
	h := filepath.Join(string(filepath.Separator)+"home", "u")
	if runtime.GOOS == "windows" {
		h = `C:` + h
	}
	g := env(map[string]string{"HOME": h, "USERPROFILE": h})
	f.Fuzz(func(t *testing.T, p string) {
		got := Expand(p, g)
		expands := p == "~" || len(p) > 1 && p[0] == '~' && (p[1] == '/' || p[1] == '\\')
		if !expands && got != p {
			t.Fatalf("Expand(%q) = %q, want it unchanged", p, got)
		}
		if expands && !filepath.IsAbs(got) {
			t.Fatalf("Expand(%q) = %q, not absolute", p, got)
		}
	})
}
