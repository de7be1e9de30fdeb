package capability_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
)

// project is an absolute project path of this system.
func projectPath() string {
	if runtime.GOOS == "windows" {
		return `C:\work\project`
	}
	return "/work/project"
}

func TestProgramRel(t *testing.T) {
	t.Parallel()
	proj := projectPath()
	type rc struct {
		cwd, name, rel string
		isPath         bool
		refusal        string
	}
	cases := []rc{
		{".", "npm", "", false, ""},
		{".", "powershell", "", false, ""},
		{".", "./tools/run.sh", "tools/run.sh", true, ""},
		{"sub", "./run.sh", "sub/run.sh", true, ""},
		{"sub", "../tools/run.sh", "tools/run.sh", true, ""},
		{"sub", "../../run.sh", "", true, "leaves the project"},
		{".", "..", "", true, "leaves the project"},
		{".", "./", "", true, "leaves the project"},
		{".", ".", "", true, "leaves the project"},
		{".", filepath.Join(proj, "bin", "x"), "bin/x", true, ""},
		{".", proj, "", true, "leaves the project"},
		{".", filepath.Join(proj+"-other", "x"), "", true, "absolute path outside the project"},
		{".", filepath.Join(filepath.Dir(proj), "x"), "", true, "absolute path outside the project"},
	}
	if runtime.GOOS == "windows" {
		cases = append(cases,
			rc{".", `tools\x.exe`, "tools/x.exe", true, ""},
			rc{".", `C:x.exe`, "", true, "relative to a drive"},
			rc{".", `\x.exe`, "", true, "relative to a drive"},
			rc{".", `\\server\share\x.exe`, "", true, "absolute path outside the project"},
			rc{".", `c:\WORK\Project\bin\x.exe`, "bin/x.exe", true, ""})
	}
	for _, c := range cases {
		rel, isPath, refusal := capability.ProgramRel(proj, c.cwd, c.name)
		if rel != c.rel || isPath != c.isPath || !strings.Contains(refusal, c.refusal) || (c.refusal == "") != (refusal == "") {
			t.Errorf("ProgramRel(%s, %s) = %q %v %q, want %q %v %q", c.cwd, c.name, rel, isPath, refusal, c.rel, c.isPath, c.refusal)
		}
	}
}

// FuzzProgramRel: a path it accepts lies inside the project, and a bare name it passes
// on has no directory in it (the PATH resolver never reads the working directory).
func FuzzProgramRel(f *testing.F) {
	for _, s := range [][2]string{{".", "./tools/run.sh"}, {"sub", "../x"}, {".", "../x"}, {".", "/abs/x"},
		{".", `C:x`}, {".", `\x`}, {".", `tools\x.exe`}, {"a/b", "../../c/./d"}, {".", "npm"}, {".", ""}} {
		f.Add(s[0], s[1])
	}
	proj := projectPath()
	f.Fuzz(func(t *testing.T, cwd, name string) {
		if cwd != "." && !filepath.IsLocal(filepath.FromSlash(cwd)) {
			t.Skip() // the reader's Cwd never leaves the directory read
		}
		rel, isPath, refusal := capability.ProgramRel(proj, cwd, name)
		if !isPath {
			if refusal != "" || rel != "" || strings.ContainsAny(name, `/`+string(filepath.Separator)) || filepath.VolumeName(name) != "" {
				t.Fatalf("bare %q: rel %q refusal %q", name, rel, refusal)
			}
			return
		}
		if refusal != "" {
			if rel != "" {
				t.Fatalf("%q refused (%s) with rel %q", name, refusal, rel)
			}
			return
		}
		abs := filepath.Join(proj, filepath.FromSlash(rel))
		if !filepath.IsLocal(filepath.FromSlash(rel)) || !contain.Within(proj, abs) || abs == proj {
			t.Fatalf("%q in %q accepted as %q, outside the project", name, cwd, rel)
		}
	})
}
