package projecttasks

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestIdentityCoversEveryField: changing any field of a task, or splitting one text in
// two, gives another DefinitionSHA256.
func TestIdentityCoversEveryField(t *testing.T) {
	t.Parallel()
	base := func() Task {
		return Task{Source: SourceNPM, Name: "build", Argv: []string{"npm", "run", "build"}, Cwd: ".",
			Env: map[string]string{"A": "1"}, Lang: LangShell, Definition: []string{"tsc -b", "vite build"},
			Implicit: []string{"git describe"}}
	}
	baseCtx := []string{"prebuild", "rimraf dist"}
	want := identity(&Task{Source: SourceNPM, Name: "build", Argv: []string{"npm", "run", "build"}, Cwd: ".",
		Env: map[string]string{"A": "1"}, Lang: LangShell, Definition: []string{"tsc -b", "vite build"},
		Implicit: []string{"git describe"}}, baseCtx)
	if got := identity(ptr(base()), baseCtx); got != want || len(got) != 64 {
		t.Fatalf("identity is not a stable hex SHA-256: %q vs %q", got, want)
	}
	mutations := map[string]func(t *Task, ctx *[]string){
		"source":             func(t *Task, _ *[]string) { t.Source = SourceMake },
		"name":               func(t *Task, _ *[]string) { t.Name = "build2" },
		"argv":               func(t *Task, _ *[]string) { t.Argv[0] = "pnpm" },
		"argv split":         func(t *Task, _ *[]string) { t.Argv = []string{"npm", "run build"} },
		"cwd":                func(t *Task, _ *[]string) { t.Cwd = "web" },
		"env value":          func(t *Task, _ *[]string) { t.Env["A"] = "2" },
		"env added":          func(t *Task, _ *[]string) { t.Env["B"] = "" },
		"env key moved":      func(t *Task, _ *[]string) { t.Env = map[string]string{"A1": ""} },
		"lang":               func(t *Task, _ *[]string) { t.Lang = LangScript },
		"definition char":    func(t *Task, _ *[]string) { t.Definition[1] = "vite build!" },
		"definition split":   func(t *Task, _ *[]string) { t.Definition = []string{"tsc", "-b", "vite build"} },
		"definition joined":  func(t *Task, _ *[]string) { t.Definition = []string{"tsc -b vite build"} },
		"definition added":   func(t *Task, _ *[]string) { t.Definition = append(t.Definition, "") },
		"implicit":           func(t *Task, _ *[]string) { t.Implicit = nil },
		"implicit moved":     func(t *Task, _ *[]string) { t.Definition = append(t.Definition, t.Implicit...); t.Implicit = nil },
		"context":            func(_ *Task, c *[]string) { *c = []string{"prebuild", "rimraf dist2"} },
		"context dropped":    func(_ *Task, c *[]string) { *c = nil },
		"definition to argv": func(t *Task, _ *[]string) { t.Argv = append(t.Argv, t.Definition...) },
	}
	for name, m := range mutations {
		tk, ctx := base(), append([]string{}, baseCtx...)
		m(&tk, &ctx)
		if got := identity(&tk, ctx); got == want {
			t.Errorf("%s: the identity did not change", name)
		}
	}
}

func ptr(t Task) *Task { return &t }

// TestDefinitionEditChangesSHA edits each source's file on disk the way a repository
// change would and reads it again: the edited task's DefinitionSHA256 changes, a read
// without edits gives the same one, and (for package.json and tasks.json, whose tasks
// do not depend on the rest of the file) other tasks keep theirs.
func TestDefinitionEditChangesSHA(t *testing.T) {
	cases := []struct {
		name, file, content, old, new, id string
		othersStay                        bool
	}{
		{"npm script", "package.json", `{"scripts": {"build": "vite build", "dev": "vite"}}`, `"vite build"`, `"vite build --debug"`, "npm:build", true},
		{"npm pre script", "package.json", `{"scripts": {"prebuild": "rimraf dist", "build": "vite build", "dev": "vite"}}`, `rimraf dist`, `rimraf dist out`, "npm:build", true},
		{"npm runner", "package.json", `{"scripts": {"build": "vite build"}}`, "", "", "npm:build", false},
		{"vscode command", ".vscode/tasks.json", `{"version": "2.0.0", "tasks": [{"label": "b", "type": "shell", "command": "go build"}, {"label": "c", "command": "go"}]}`, `go build`, `go build -race`, "vscode:b", true},
		{"vscode args", ".vscode/tasks.json", `{"version": "2.0.0", "tasks": [{"label": "b", "command": "go", "args": ["vet"]}, {"label": "c", "command": "go"}]}`, `["vet"]`, `["vet", "./..."]`, "vscode:b", true},
		{"vscode cwd", ".vscode/tasks.json", `{"version": "2.0.0", "tasks": [{"label": "b", "command": "go", "options": {"cwd": "a"}}, {"label": "c", "command": "go"}]}`, `"cwd": "a"`, `"cwd": "b"`, "vscode:b", true},
		{"vscode windows override", ".vscode/tasks.json", `{"version": "2.0.0", "tasks": [{"label": "b", "command": "go", "linux": {"args": ["x"]}}, {"label": "c", "command": "go"}]}`, `["x"]`, `["y"]`, "vscode:b", true},
		{"make recipe", "Makefile", "test:\n\tgo test ./...\nbuild:\n\tgo build\n", "go test", "go test -race", "make:test", false},
		{"make prerequisite recipe", "Makefile", "test: gen\n\tgo test ./...\ngen:\n\tgo generate\n", "go generate", "rm -rf /", "make:test", false},
		{"make variable", "Makefile", "GO = go\ntest:\n\t$(GO) test ./...\n", "GO = go", "GO = evil", "make:test", false},
		{"just recipe", "justfile", "fmt:\n    cargo fmt\nlint:\n    cargo clippy\n", "cargo fmt", "cargo fmt --all", "just:fmt", false},
		{"just setting", "justfile", "set shell := ['bash', '-c']\nfmt:\n    cargo fmt\n", "'bash'", "'zsh'", "just:fmt", false},
		{"taskfile command", "Taskfile.yml", "version: '3'\ntasks:\n  lint:\n    cmds: [golangci-lint run]\n  fmt: gofmt -w .\n", "golangci-lint run", "golangci-lint run --fix", "task:lint", false},
		{"taskfile variable", "Taskfile.yml", "version: '3'\nvars:\n  X: a\ntasks:\n  lint:\n    cmds: ['echo {{.X}}']\n", "X: a", "X: b", "task:lint", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := testkit.TempDir(t)
			path := filepath.Join(dir, filepath.FromSlash(c.file))
			testkit.WriteFile(t, path, c.content)
			p := dirProject(t, dir, "")
			before, warns := Read(p, Options{GOOS: "linux"})
			again, _ := Read(p, Options{GOOS: "linux"})
			if len(warns) != 0 {
				t.Fatalf("warnings: %v", warns)
			}
			tb, ok := before.Lookup(c.id)
			if !ok {
				t.Fatalf("%s not found in %v", c.id, ids(before.Tasks))
			}
			if ta, _ := again.Lookup(c.id); ta.DefinitionSHA256 != tb.DefinitionSHA256 {
				t.Fatalf("two reads of the same file disagree")
			}
			if c.old == "" {
				// The runner changes with a lockfile; so does the identity.
				testkit.WriteFile(t, filepath.Join(dir, "pnpm-lock.yaml"), "")
			} else {
				if !strings.Contains(c.content, c.old) {
					t.Fatalf("the edit does not apply")
				}
				testkit.WriteFile(t, path, strings.Replace(c.content, c.old, c.new, 1))
			}
			after, warns := Read(p, Options{GOOS: "linux"})
			if len(warns) != 0 {
				t.Fatalf("warnings after the edit: %v", warns)
			}
			ta, ok := after.Lookup(c.id)
			if !ok {
				t.Fatalf("%s gone after the edit", c.id)
			}
			if ta.DefinitionSHA256 == tb.DefinitionSHA256 {
				t.Errorf("the edit left DefinitionSHA256 unchanged: %+v", ta)
			}
			if !c.othersStay {
				return
			}
			for _, o := range before.Tasks {
				if o.ID == c.id || strings.Contains(strings.Join(o.Definition, "\n"), c.old) {
					continue
				}
				if n, _ := after.Lookup(o.ID); n.DefinitionSHA256 != o.DefinitionSHA256 {
					t.Errorf("%s changed too", o.ID)
				}
			}
		})
	}
}

// TestRunTexts: what a task runs includes what it needs (helpers too), each once, and
// a need the set cannot resolve makes the list incomplete.
func TestRunTexts(t *testing.T) {
	t.Parallel()
	set, _ := Read(layoutProject(t, "just", "linux"), Options{GOOS: "linux"})
	texts, complete := set.RunTexts("just:fmt")
	var got []string
	for _, x := range texts {
		got = append(got, x.Task+" "+x.Text)
	}
	want := []string{
		"just:fmt version := `git describe --tags`",
		"just:_helper echo helper",
		"just:setup rustup component add clippy",
		"just:lint cargo clippy -- -D warnings \\\n  -A clippy::needless_return",
		"just:fmt cargo fmt --all",
		"just:fmt cargo fmt --check",
	}
	if !complete || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("RunTexts(just:fmt) = %q, complete %v", got, complete)
	}
	if _, ok := set.Lookup("just:_helper"); ok {
		t.Error("Lookup offers a helper")
	}
	if _, complete := set.RunTexts("just:nope"); complete {
		t.Error("an unknown id is complete")
	}

	dir := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(dir, "Taskfile.yml"), "version: '3'\nincludes:\n  docs: ./docs\ntasks:\n  a:\n    deps: [docs:build]\n    cmds: [echo a]\n")
	set, _ = Read(dirProject(t, dir, ""), Options{GOOS: "linux"})
	if _, complete := set.RunTexts("task:a"); complete {
		t.Error("a task needing an included Taskfile's task is complete")
	}

	set, _ = Read(layoutProject(t, "vscode", "linux"), Options{GOOS: "linux"})
	texts, complete = set.RunTexts("vscode:Run tests")
	if !complete || len(texts) != 1 || texts[0].Text != "go test ./... -run Test Foo" || texts[0].Lang != LangArgv {
		t.Errorf("RunTexts(vscode:Run tests) = %+v", texts)
	}
}
