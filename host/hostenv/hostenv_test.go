package hostenv

import (
	"path/filepath"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestVar(t *testing.T) {
	g := env(map[string]string{
		"A": "  /x  ", "B": "${CLAUDE_PLUGIN_DATA}", "C": "   ", "D": "%APPDATA%", "E": "/data/${X}",
		"F": "C:\\100%",
	})
	for k, want := range map[string]string{"A": "/x", "B": "", "C": "", "D": "", "E": "", "F": "C:\\100%", "Z": ""} {
		if got := Var(g, k); got != want {
			t.Errorf("Var(%s) = %q, want %q", k, got, want)
		}
	}
}

func TestExpandHome(t *testing.T) {
	g := env(map[string]string{"HOME": "/home/u", "USERPROFILE": "/home/u"})
	cases := map[string]string{
		"~":      "/home/u",
		"~/a/b":  filepath.Join("/home/u", "a/b"),
		"/abs":   "/abs",
		"rel":    "rel",
		"~other": "~other",
		"x/~/y":  "x/~/y",
	}
	for in, want := range cases {
		if got := ExpandHome(in, g); got != want {
			t.Errorf("ExpandHome(%q) = %q, want %q", in, got, want)
		}
	}
}
