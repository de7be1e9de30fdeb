package projecttasks

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// fakeRoot is the project path the golden tests bind, per target OS: the path is only
// displayed and substituted for ${workspaceFolder}, so a fixed one keeps the golden
// files (and the identities in them) the same on every machine.
var fakeRoot = map[string]string{"linux": "/work/project", "windows": `C:\work\project`}

// layoutProject binds testdata/layouts/<name> as a project whose path reads as fakeRoot.
func layoutProject(t testing.TB, name, goos string) *tools.Project {
	t.Helper()
	return dirProject(t, filepath.Join("testdata", "layouts", name), fakeRoot[goos])
}

// dirProject binds dir with its handle held, as the pipeline does, but with display
// path shown.
func dirProject(t testing.TB, dir, shown string) *tools.Project {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		t.Fatal(err)
	}
	if shown == "" {
		shown = abs
	}
	p := tools.NewProject(shown, root, nil)
	t.Cleanup(func() { p.Close() })
	return p
}

type goldenDoc struct {
	Set      Set       `json:"set"`
	Warnings []Warning `json:"warnings"`
}

func TestGolden(t *testing.T) {
	cases := []struct{ layout, dir string }{
		{"node-npm", ""}, {"node-pnpm", ""}, {"node-yarn", ""}, {"node-bun", ""}, {"node-bunlock", ""},
		{"vscode", ""}, {"make", ""}, {"just", ""}, {"taskfile", ""}, {"typical", ""},
		{"monorepo", ""}, {"monorepo", "packages/web"},
	}
	for _, c := range cases {
		for _, goos := range []string{"linux", "windows"} {
			name := c.layout
			if c.dir != "" {
				name += "+" + filepath.Base(c.dir)
			}
			name += "." + goos
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				set, warns := Read(layoutProject(t, c.layout, goos), Options{Dir: c.dir, GOOS: goos})
				if warns == nil {
					warns = []Warning{}
				}
				got, err := json.MarshalIndent(goldenDoc{set, warns}, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				testkit.Golden(t, filepath.Join("testdata", "golden", name+".json"), append(got, '\n'), *update)
			})
		}
	}
}
