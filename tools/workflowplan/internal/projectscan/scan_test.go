package projectscan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/projectscan"
)

// secret is planted in fixtures: no result may ever carry file content.
const secret = "s3cr3t-T0KEN"

// fixture writes files (a name ending in / is a directory) and opens the root.
func fixture(t *testing.T, files map[string]string) (*os.Root, string) {
	t.Helper()
	dir := testkit.TempDir(t)
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		testkit.WriteFile(t, p, content)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root, dir
}

var shippedLike = []string{".git", "go.mod", "go.work", "*.sln", "*.csproj", "*.vcxproj", "global.json",
	"pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "ruff.toml", "pyproject.toml#tool.ruff",
	"pyproject.toml#tool.pylint", "setup.cfg#tool:pytest", "tox.ini#pytest", "eslint.config.*", ".eslintrc*",
	"package.json#scripts.test", "package.json#scripts.lint", "package.json#scripts.build",
	"package.json#devDependencies.eslint", "package.json#dependencies.lodash.merge", "package.json#eslintConfig",
	"Cargo.toml", "CMakeLists.txt"}

func TestScan(t *testing.T) {
	t.Parallel()
	big := `{"scripts": {"test": "x"}, "pad": "` + strings.Repeat("x", projectscan.MaxFileBytes) + `"}`
	tests := []struct {
		name  string
		files map[string]string
		want  projectscan.Result
	}{
		{"empty project", nil, projectscan.Result{}},
		{"go module and git", map[string]string{"go.mod": "module x // " + secret, ".git/": "", "main.go": ""},
			projectscan.Result{Found: []string{".git", "go.mod"}, Files: []string{".git", "go.mod"}}},
		{"git worktree file", map[string]string{".git": "gitdir: ../x"},
			projectscan.Result{Found: []string{".git"}, Files: []string{".git"}}},
		{"dotnet globs any case, root only", map[string]string{"App.SLN": "", "Lib.csproj": "", "src/Other.vcxproj": ""},
			projectscan.Result{Found: []string{"*.csproj", "*.sln"}, Files: []string{"App.SLN", "Lib.csproj"}}},
		{"catalog spelling is reported", map[string]string{"cargo.toml": "", "cmakelists.txt": ""},
			projectscan.Result{Found: []string{"CMakeLists.txt", "Cargo.toml"}, Files: []string{"cargo.toml", "cmakelists.txt"}}},
		{"package.json scripts and dependencies", map[string]string{"package.json": "\ufeff" + `{
			"scripts": {"test": "echo \"Error: no test specified\" && exit 1", "lint": "eslint . # ` + secret + `", "build": "  "},
			"devDependencies": {"eslint": "^9"}, "dependencies": {"lodash.merge": "4"}, "eslintConfig": null}`},
			projectscan.Result{Found: []string{"package.json#dependencies.lodash.merge", "package.json#devDependencies.eslint", "package.json#scripts.lint"},
				Files: []string{"package.json"}, Read: []string{"package.json"}}},
		{"pyproject sub-tables and dotted keys", map[string]string{"pyproject.toml": "[project]\nname = 'x'\n[tool.ruff.lint]\nselect = ['E']\n[tool]\npylint.main.jobs = 2\n"},
			projectscan.Result{Found: []string{"pyproject.toml", "pyproject.toml#tool.pylint", "pyproject.toml#tool.ruff"},
				Files: []string{"pyproject.toml"}, Read: []string{"pyproject.toml"}}},
		{"ini sections, indented lines continue a value", map[string]string{
			"setup.cfg": "[metadata]\nname = x\n[tool:pytest]\naddopts = -q\n",
			"tox.ini":   "[tox]\nenv_list =\n  [pytest]\n"},
			projectscan.Result{Found: []string{"setup.cfg", "setup.cfg#tool:pytest", "tox.ini"},
				Files: []string{"setup.cfg", "tox.ini"}, Read: []string{"setup.cfg", "tox.ini"}}},
		{"eslint config globs", map[string]string{"eslint.config.mjs": "", ".eslintrc.json": "{}"},
			projectscan.Result{Found: []string{".eslintrc*", "eslint.config.*"}, Files: []string{".eslintrc.json", "eslint.config.mjs"}}},
		{"invalid JSON is skipped without its content", map[string]string{"package.json": `{"scripts": {"test": "` + secret + `"`},
			projectscan.Result{Read: []string{"package.json"}, Skipped: []projectscan.Skipped{{"package.json", "not a valid JSON object; not used"}}}},
		{"JSON that is not an object", map[string]string{"package.json": `["` + secret + `"]`},
			projectscan.Result{Read: []string{"package.json"}, Skipped: []projectscan.Skipped{{"package.json", "not a valid JSON object; not used"}}}},
		{"data after the JSON object", map[string]string{"package.json": `{"scripts": {"test": "x"}} {}`},
			projectscan.Result{Read: []string{"package.json"}, Skipped: []projectscan.Skipped{{"package.json", "not a valid JSON object (data after it); not used"}}}},
		{"invalid TOML names the line only", map[string]string{"pyproject.toml": "[tool.ruff]\n" + secret + " = = 1\n"},
			projectscan.Result{Found: []string{"pyproject.toml"}, Files: []string{"pyproject.toml"}, Read: []string{"pyproject.toml"},
				Skipped: []projectscan.Skipped{{"pyproject.toml", "not valid TOML (syntax error at line 2, column 16); not used"}}}},
		{"not UTF-8", map[string]string{"package.json": "{\"scripts\": {\"test\": \"\xff\"}}"},
			projectscan.Result{Read: []string{"package.json"}, Skipped: []projectscan.Skipped{{"package.json", "not valid UTF-8; not used"}}}},
		{"too large for the budget", map[string]string{"package.json": big},
			projectscan.Result{Skipped: []projectscan.Skipped{{"package.json", fmt.Sprintf("larger than the %d-byte read budget; not used", projectscan.MaxFileBytes)}}}},
		{"a directory where a fact file should be", map[string]string{"package.json/": "", "pyproject.toml/": ""},
			projectscan.Result{Found: []string{"pyproject.toml"}, Files: []string{"pyproject.toml"},
				Skipped: []projectscan.Skipped{{"package.json", "a directory, not a file"}, {"pyproject.toml", "a directory, not a file"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, _ := fixture(t, tt.files)
			got := projectscan.Scan(root, shippedLike)
			want := normalize(tt.want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if s := fmt.Sprint(got); strings.Contains(s, secret) {
				t.Errorf("result carries file content: %s", s)
			}
		})
	}
}

func normalize(r projectscan.Result) projectscan.Result {
	for _, p := range []*[]string{&r.Found, &r.Files, &r.Read} {
		if *p == nil {
			*p = []string{}
		}
	}
	if r.Skipped == nil {
		r.Skipped = []projectscan.Skipped{}
	}
	return r
}

func TestScanAsksOnlyForWanted(t *testing.T) {
	t.Parallel()
	root, _ := fixture(t, map[string]string{"go.mod": "", "package.json": `{"scripts": {"test": "x"}}`})
	got := projectscan.Scan(root, []string{"go.mod", "go.mod"})
	if diff := cmp.Diff(normalize(projectscan.Result{Found: []string{"go.mod"}, Files: []string{"go.mod"}}), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Entries the loader refuses are never present, whatever the tree holds.
	for _, bad := range []string{"", "src/go.mod", "go.mod#module", "*.json#scripts.test", "["} {
		if got := projectscan.Scan(root, []string{bad}); len(got.Found) != 0 || len(got.Read) != 0 {
			t.Errorf("%q: %+v", bad, got)
		}
	}
}

func TestScanLinksAreNotFollowed(t *testing.T) {
	t.Parallel()
	outside := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(outside, "package.json"), `{"scripts": {"test": "x"}}`)
	testkit.WriteFile(t, filepath.Join(outside, "go.mod"), "module x")
	root, dir := fixture(t, map[string]string{"real.toml": "[tool.ruff]\n"})
	if !testkit.Symlink(filepath.Join(outside, "package.json"), filepath.Join(dir, "package.json")) ||
		!testkit.Symlink(filepath.Join(outside, "go.mod"), filepath.Join(dir, "go.mod")) ||
		!testkit.Symlink("real.toml", filepath.Join(dir, "pyproject.toml")) {
		t.Skip("this system cannot make symbolic links")
	}
	got := projectscan.Scan(root, shippedLike)
	const why = "a symbolic link; links are not followed"
	want := normalize(projectscan.Result{Skipped: []projectscan.Skipped{{"go.mod", why}, {"package.json", why}, {"pyproject.toml", why}}})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The scan reads the directory the handle holds, not whatever is at its path now.
func TestScanReadsThroughTheHandle(t *testing.T) {
	t.Parallel()
	root, dir := fixture(t, map[string]string{"go.mod": "module x"})
	moved := dir + "-moved"
	if err := os.Rename(dir, moved); err != nil {
		t.Skipf("the open directory cannot be renamed here: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(moved) })
	testkit.WriteFile(t, filepath.Join(dir, "Cargo.toml"), "")
	got := projectscan.Scan(root, shippedLike)
	if diff := cmp.Diff([]string{"go.mod"}, got.Found); diff != "" {
		t.Errorf("found (-want +got):\n%s", diff)
	}
}

func TestScanBudgets(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	var wanted []string
	for i := range projectscan.MaxFiles + 1 {
		name := fmt.Sprintf("f%d.json", i)
		files[name] = `{"k": 1}`
		wanted = append(wanted, name+"#k")
	}
	root, _ := fixture(t, files)
	got := projectscan.Scan(root, wanted)
	if len(got.Read) != projectscan.MaxFiles || len(got.Found) != projectscan.MaxFiles {
		t.Fatalf("read %d, found %d, want %d each", len(got.Read), len(got.Found), projectscan.MaxFiles)
	}
	want := []projectscan.Skipped{{fmt.Sprintf("f%d.json", projectscan.MaxFiles), fmt.Sprintf("not read: the scan opens at most %d files", projectscan.MaxFiles)}}
	if diff := cmp.Diff(want, got.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func TestScanEntryBudget(t *testing.T) {
	t.Parallel()
	_, dir := fixture(t, nil)
	for i := range projectscan.MaxEntries + 1 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("x%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got := projectscan.Scan(root, []string{"x*"})
	if len(got.Skipped) != 1 || got.Skipped[0].File != "." || !strings.Contains(got.Skipped[0].Reason, "more than 4096 entries") {
		t.Errorf("skipped %+v", got.Skipped)
	}
	if len(got.Files) != 32 {
		t.Errorf("%d files reported, want the bound 32", len(got.Files))
	}
}

func TestScanClosedRoot(t *testing.T) {
	t.Parallel()
	root, _ := fixture(t, map[string]string{"go.mod": ""})
	root.Close()
	got := projectscan.Scan(root, []string{"go.mod"})
	want := normalize(projectscan.Result{Skipped: []projectscan.Skipped{{".", "the project's root could not be opened"}}})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
