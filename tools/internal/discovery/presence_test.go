package discovery

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestSearchPathWindowsFlavour(t *testing.T) {
	// The Windows rules (";" separator, %VAR%, case-insensitive duplicates, PATHEXT)
	// with host-absolute directories so the test runs anywhere.
	root := t.TempDir()
	a, b := root+"/A", root+"/B"
	env := envOf(map[string]string{
		"PATH":    ` "` + a + `" ;;relative;` + root + "/a;" + "%ROOT%/B;" + b + "/;" + root + "/cwd",
		"ROOT":    root,
		"PATHEXT": ".EXE;.Cmd;;exe;.exe",
	})
	sp := newSearchPath(env, root+"/cwd", true)
	if diff := cmp.Diff([]string{filepath.Clean(a), filepath.Clean(b)}, sp.dirs); diff != "" {
		t.Errorf("dirs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{".exe", ".cmd"}, sp.exts); diff != "" {
		t.Errorf("exts (-want +got):\n%s", diff)
	}
	if sp2 := newSearchPath(envOf(map[string]string{}), "", true); !cmp.Equal(sp2.exts, []string{".com", ".exe", ".bat", ".cmd"}) {
		t.Errorf("default PATHEXT = %v", sp2.exts)
	}
}
