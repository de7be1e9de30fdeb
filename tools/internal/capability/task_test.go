package capability_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/projecttasks"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
)

// taskCatalog holds capabilities whose argv some project tasks below repeat exactly.
const taskCatalog = `
lint-npm: {description: d, safety: reversible, tools: [{name: npm, argv: [npm, run, lint]}]}
test-go: {description: d, safety: reversible, tools: [{name: go, argv: [go, test, ./...]}]}
build-task: {description: d, safety: reversible, tools: [{name: task, argv: [task, build]}]}
py-just: {description: d, safety: read-only, tools: [{name: just, argv: [just, py]}]}
`

// taskResolver resolves bare names from its map and absolute paths of existing regular
// files as themselves, as the real resolver does on Unix.
type taskResolver map[string]string

func (r taskResolver) Resolve(name string) (string, bool) {
	if filepath.IsAbs(name) {
		fi, err := os.Stat(name)
		return name, err == nil && fi.Mode().IsRegular()
	}
	p, ok := r[name]
	return p, ok
}

// newProject writes files into a fresh directory and binds it as the pipeline does.
func newProject(t *testing.T, files map[string]string) *tools.Project {
	t.Helper()
	dir := testkit.TempDir(t)
	testkit.Tree(t, dir, files, 0o755)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := tools.NewProject(dir, root, nil)
	t.Cleanup(func() { p.Close() })
	return p
}

// dirRunner is a fakeRunner that also reads the working directory's handle while
// the run lasts (the engine closes it afterwards).
type dirRunner struct {
	fakeRunner
	dir os.FileInfo
}

func (d *dirRunner) Run(ctx context.Context, req proc.Request) proc.Receipt {
	if req.DirHandle != nil {
		d.dir, _ = req.DirHandle.Stat()
	}
	return d.fakeRunner.Run(ctx, req)
}

func taskEngine(t *testing.T, runner proc.Runner) *capability.Engine {
	t.Helper()
	cat, err := catalog.Load([]byte(taskCatalog))
	if err != nil {
		t.Fatal(err)
	}
	return &capability.Engine{
		Catalog: cat,
		Resolver: taskResolver{"npm": "/usr/bin/npm", "make": "/usr/bin/make", "go": "/usr/bin/go",
			"sh": "/bin/sh", "task": "/usr/bin/task", "just": "/usr/bin/just"},
		Runner: runner,
		Fingerprint: func(string) (proc.Identity, error) {
			return proc.Identity{Kind: proc.KindFile, SHA256: shaA}, nil
		},
		SamePath: func(a, b string) bool { return a == b },
		Environ:  func() []string { return []string{"PATH=/usr/bin", "FOO=old", "HOME=/home/u"} },
		GOOS:     "linux", // the same tasks on every system (a VS Code shell task runs sh -c)
	}
}

// sha is the definition identity a fresh read gives id.
func sha(t *testing.T, p *tools.Project, id string) string {
	t.Helper()
	set, _ := projecttasks.Read(p, projecttasks.Options{GOOS: "linux"})
	task, ok := set.Lookup(id)
	if !ok {
		t.Fatalf("%s not read", id)
	}
	return task.DefinitionSHA256
}

const packageJSON = `{"scripts": {
  "dev": "vite",
  "lint": "eslint .",
  "clean": "diskpart /s x",
  "prebuild": "diskpart /s y",
  "build": "tsc",
  "broken": 5
}}`

// tasksJSON's task Abs names elsewhere, an absolute path outside the project.
const tasksJSON = `{
  "version": "2.0.0",
  "tasks": [
    {"label": "Go Test", "type": "process", "command": "go", "args": ["test", "./..."]},
    {"label": "Go Test Env", "type": "process", "command": "go", "args": ["test", "./..."],
     "options": {"cwd": "${workspaceFolder}/sub", "env": {"FOO": "bar", "CGO_ENABLED": "0"}}},
    {"label": "Echo", "type": "shell", "command": "echo hi"},
    {"label": "Local", "type": "process", "command": "./tools/run.sh", "args": ["x"]},
    {"label": "Missing", "type": "process", "command": "./tools/none.sh"},
    {"label": "Up", "type": "process", "command": "../outside.sh"},
    {"label": "Abs", "type": "process", "command": ELSEWHERE},
    {"label": "Linked", "type": "process", "command": "./linkdir/run.sh"}
  ]
}`

const makefile = "X := $(shell echo)\n\nall: test wipe\n\ntest:\n\tgo test ./...\n\nwipe:\n\tformat C:\n"

// elsewhere is an absolute path outside any test project, in this system's syntax.
var elsewhere = filepath.Join(os.TempDir(), "elsewhere")

func taskFiles() map[string]string {
	quoted, _ := json.Marshal(elsewhere)
	return map[string]string{
		"package.json":       packageJSON,
		"Makefile":           makefile,
		".vscode/tasks.json": strings.Replace(tasksJSON, "ELSEWHERE", string(quoted), 1),
		"tools/run.sh":       "#!/bin/sh\n",
		"sub/":               "",
		"Taskfile.yml": "version: '3'\nincludes:\n  other: ./other.yml\ntasks:\n  build:\n    deps: ['other:gen']\n" +
			"    cmds: [go test ./...]\n",
		"justfile": "py:\n    #!/usr/bin/env python3\n    print('hi')\n\ndeploy target:\n    echo {{target}}\n",
	}
}

// TestTaskPlan (issue 23 §1): a plan of each kind of project task: the argv with the
// resolved program, the definition identity, what runs, the class and its reason.
func TestTaskPlan(t *testing.T) {
	t.Parallel()
	p := newProject(t, taskFiles())
	// Windows may not allow a link, and Wine reports success without making one: the
	// effect is what counts.
	linkdir := filepath.Join(p.Path, "linkdir")
	linked := os.Symlink(filepath.Join(p.Path, "tools"), linkdir) == nil
	if fi, err := os.Lstat(linkdir); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		linked = false
	}
	e := taskEngine(t, &fakeRunner{})
	cases := []struct {
		id, status          string
		argv                []string
		base, class         tools.Class
		matches, reason     string
		runs                []string
		complete            bool
		errSub              string
		warnings, elsewhere int
	}{
		{id: "npm:dev", status: "planned", argv: []string{"/usr/bin/npm", "run", "dev"}, base: tools.ApprovalRequired,
			class: tools.ApprovalRequired, reason: "npm:dev is the project's own definition", runs: []string{"vite"},
			complete: true, warnings: 1, elsewhere: 1},
		{id: "npm:lint", status: "planned", argv: []string{"/usr/bin/npm", "run", "lint"}, base: tools.Reversible,
			class: tools.Reversible, matches: "lint-npm", reason: "catalog capability lint-npm", runs: []string{"eslint ."}, complete: true,
			warnings: 1, elsewhere: 1},
		{id: "npm:clean", status: "planned", argv: []string{"/usr/bin/npm", "run", "clean"}, base: tools.ApprovalRequired,
			class: tools.Forbidden, reason: "npm:clean runs a command the shell classifier forbids: diskpart", runs: []string{"diskpart /s x"},
			complete: true, warnings: 1, elsewhere: 1},
		// A need (npm's pre script) is classified too.
		{id: "npm:build", status: "planned", argv: []string{"/usr/bin/npm", "run", "build"}, base: tools.ApprovalRequired,
			class: tools.Forbidden, reason: "npm:prebuild runs a command the shell classifier forbids", runs: []string{"diskpart /s y", "tsc"},
			complete: true, warnings: 1, elsewhere: 1},
		// make: an implicit text, a prerequisite's recipe.
		{id: "make:test", status: "planned", argv: []string{"/usr/bin/make", "test"}, base: tools.ApprovalRequired,
			class: tools.ApprovalRequired, runs: []string{"X := $(shell echo)", "go test ./..."}, complete: true, warnings: 0, elsewhere: 2},
		{id: "make:all", status: "planned", argv: []string{"/usr/bin/make", "all"}, base: tools.ApprovalRequired,
			class: tools.Forbidden, reason: "make:wipe runs a command the shell classifier forbids", runs: []string{"X := $(shell echo)", "go test ./...", "format C:"},
			complete: true, warnings: 0, elsewhere: 2},
		// A process task whose argv is a catalog capability's: that class.
		{id: "vscode:Go Test", status: "planned", argv: []string{"/usr/bin/go", "test", "./..."}, base: tools.Reversible,
			class: tools.Reversible, matches: "test-go", runs: []string{"go test ./..."}, complete: true, elsewhere: 2},
		// The same argv with variables of its own: they may change what runs.
		{id: "vscode:Go Test Env", status: "planned", argv: []string{"/usr/bin/go", "test", "./..."}, base: tools.ApprovalRequired,
			class: tools.ApprovalRequired, runs: []string{"go test ./..."}, complete: true, elsewhere: 2},
		{id: "vscode:Echo", status: "planned", argv: []string{"/bin/sh", "-c", "echo hi"}, base: tools.ApprovalRequired,
			class: tools.ApprovalRequired, runs: []string{"echo hi"}, complete: true, elsewhere: 2},
		{id: "vscode:Local", status: "planned", argv: []string{filepath.Join(p.Path, "tools", "run.sh"), "x"},
			base: tools.ApprovalRequired, class: tools.ApprovalRequired, runs: []string{"./tools/run.sh x"}, complete: true, elsewhere: 2},
		{id: "vscode:Missing", status: "unavailable", errSub: "is not a file in the project: ./tools/none.sh",
			base: tools.ApprovalRequired, class: tools.ApprovalRequired, runs: []string{"./tools/none.sh"}, complete: true, elsewhere: 2},
		{id: "vscode:Up", status: "unavailable", errSub: "it leaves the project: ../outside.sh",
			base: tools.ApprovalRequired, class: tools.ApprovalRequired, runs: []string{"../outside.sh"}, complete: true, elsewhere: 2},
		{id: "vscode:Abs", status: "unavailable", errSub: "absolute path outside the project",
			base: tools.ApprovalRequired, class: tools.ApprovalRequired, runs: []string{elsewhere}, complete: true, elsewhere: 2},
		{id: "vscode:Linked", status: "unavailable", errSub: "a link is on its path",
			base: tools.ApprovalRequired, class: tools.ApprovalRequired, runs: []string{"./linkdir/run.sh"}, complete: true, elsewhere: 2},
		// A need the reader could not see raises a catalog match to approval-required.
		{id: "task:build", status: "planned", argv: []string{"/usr/bin/task", "build"}, base: tools.Reversible,
			class: tools.ApprovalRequired, matches: "build-task", reason: "needs a task the reader could not see", runs: []string{"go test ./..."},
			complete: false, warnings: 1, elsewhere: 1},
		// A script for another interpreter is approval-required whatever the catalog says.
		{id: "just:py", status: "planned", argv: []string{"/usr/bin/just", "py"}, base: tools.ReadOnly,
			class: tools.ApprovalRequired, matches: "py-just", reason: "script for an interpreter",
			runs: []string{"#!/usr/bin/env python3", "print('hi')"}, complete: true, elsewhere: 2},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			if c.id == "vscode:Linked" && !linked {
				t.Skip("no symbolic link")
			}
			res := e.Run(context.Background(), capability.Request{Capability: c.id, Project: p, Dir: p.Path})
			if res.Status.Status != c.status || !strings.Contains(res.Error, c.errSub) || res.ExecutionStarted {
				t.Fatalf("status %+v, want %s %q", res.Status, c.status, c.errSub)
			}
			if res.Capability != c.id || res.TaskPlan == nil || res.DefinitionSHA256 != sha(t, p, c.id) {
				t.Fatalf("task plan %+v", res.TaskPlan)
			}
			if res.BaseSafetyClass != c.base || res.SafetyClass != c.class || res.MatchesCapability != c.matches ||
				!strings.Contains(res.SafetyReason, c.reason) {
				t.Errorf("class %s (base %s, matches %q): %s", res.SafetyClass, res.BaseSafetyClass, res.MatchesCapability, res.SafetyReason)
			}
			var runs []string
			for _, x := range res.Runs {
				runs = append(runs, x.Text)
			}
			if diff := cmp.Diff(c.runs, runs); diff != "" || res.RunsComplete != c.complete {
				t.Errorf("runs (-want +got):\n%s complete %v", diff, res.RunsComplete)
			}
			if len(res.Warnings) != c.warnings || res.MoreWarnings != c.elsewhere {
				t.Errorf("warnings %v, %d more; want %d and %d more", res.Warnings, res.MoreWarnings, c.warnings, c.elsewhere)
			}
			if c.status != "planned" {
				if res.Plan != nil || len(res.CheckedTools) != 1 {
					t.Errorf("unavailable with plan %+v, checked %v", res.Plan, res.CheckedTools)
				}
				return
			}
			if res.Plan == nil || !slices.Equal(res.Argv, c.argv) || res.Executable != c.argv[0] || res.ExecutableIdentitySHA256 != shaA ||
				res.RequiresHostApproval != capability.RequiresHostApproval(c.class) {
				t.Errorf("plan %+v, want argv %q", res.Plan, c.argv)
			}
		})
	}
}

// TestUnknownTask: an id of a project task's form that the project does not declare
// is unknown_capability, listing the catalog's ids and the project's tasks, with the
// warnings of that source's files (a script skipped there may be the one meant).
func TestUnknownTask(t *testing.T) {
	t.Parallel()
	p := newProject(t, map[string]string{"package.json": `{"scripts": {"dev": "vite", "test": 5}}`, "Makefile": "all:\n\ttrue\n"})
	res := taskEngine(t, &fakeRunner{}).Run(context.Background(), capability.Request{Capability: "npm:test", Project: p})
	if res.Status.Status != "unknown_capability" || res.Error != "Unknown capability: npm:test" || res.TaskPlan != nil || res.Plan != nil {
		t.Fatalf("result %+v", res)
	}
	if diff := cmp.Diff([]string{"npm:dev", "make:all"}, res.ProjectTasks); diff != "" {
		t.Errorf("project tasks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"build-task", "lint-npm", "py-just", "test-go"}, res.Available); diff != "" {
		t.Errorf("available (-want +got):\n%s", diff)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].File != "package.json" || res.Warnings[0].Rule != projecttasks.RuleShape {
		t.Errorf("warnings %v", res.Warnings)
	}
	// An unknown catalog id lists the project's tasks too: they are capabilities as well.
	res = taskEngine(t, &fakeRunner{}).Run(context.Background(), capability.Request{Capability: "start-dev", Project: p})
	if diff := cmp.Diff([]string{"npm:dev", "make:all"}, res.ProjectTasks); res.Status.Status != "unknown_capability" || diff != "" {
		t.Errorf("unknown catalog id: %s, project tasks (-want +got):\n%s", res.Status.Status, diff)
	}
	// Without a bound project there are no tasks to read.
	if res := taskEngine(t, &fakeRunner{}).Run(context.Background(), capability.Request{Capability: "npm:dev"}); res.Status.Status != "invalid_input" ||
		res.Error != capability.ErrNoProject {
		t.Errorf("no project: %+v", res.Status)
	}
}

// TestTaskExecute (issue 23 §1): an execution reads the task again and runs it only
// with both identities echoed and the definition unchanged; a forbidden task never
// runs; the run gets the task's directory by handle and its variables.
func TestTaskExecute(t *testing.T) {
	t.Parallel()
	files := taskFiles()
	p := newProject(t, files)
	echoes := func(id string) capability.Request {
		return capability.Request{Capability: id, Project: p, Dir: p.Path, Execute: true,
			Expected:                 tools.Identity{ExpectedExecutable: "/usr/bin/npm", ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: shaA},
			ExpectedDefinitionSHA256: sha(t, p, id)}
	}
	with := func(r capability.Request, f func(*capability.Request)) capability.Request { f(&r); return r }
	dev := echoes("npm:dev")
	cases := []struct {
		name   string
		req    capability.Request
		status string
		err    string
		runs   int
	}{
		{"no definition echo", with(dev, func(r *capability.Request) { r.ExpectedDefinitionSHA256 = "" }), "invalid_input", capability.ErrDefinitionMissing, 0},
		{"malformed definition echo", with(dev, func(r *capability.Request) { r.ExpectedDefinitionSHA256 = "abc" }), "invalid_input", capability.ErrDefinitionMalformed, 0},
		{"other definition", with(dev, func(r *capability.Request) { r.ExpectedDefinitionSHA256 = strings.Repeat("0", 64) }), "stale_plan", capability.ErrStaleDefinition, 0},
		{"no executable echo", with(dev, func(r *capability.Request) { r.Expected = tools.Identity{} }), "invalid_input", capability.ErrExpectedMissing, 0},
		{"other executable", with(dev, func(r *capability.Request) { r.Expected.ExpectedExecutable = "/usr/bin/pnpm" }), "stale_plan", capability.ErrStaleExecutable, 0},
		{"forbidden, echoed", echoes("npm:clean"), "blocked", capability.ErrForbidden, 0},
		{"forbidden without echo", with(echoes("npm:clean"), func(r *capability.Request) { r.ExpectedDefinitionSHA256 = "" }), "blocked", capability.ErrForbidden, 0},
		{"shell task with extra_args", with(echoes("vscode:Echo"), func(r *capability.Request) { r.ExtraArgs = []string{"; rm -rf ~"} }),
			"invalid_input", capability.ErrShellTaskExtraArgs, 0},
		{"empty extra arg", with(dev, func(r *capability.Request) { r.ExtraArgs = []string{""} }), "invalid_input", "extra_args[0] must be a non-empty string", 0},
		{"forbidden extra_args", with(dev, func(r *capability.Request) { r.ExtraArgs = []string{"/c", "format", "D:"} }), "blocked", capability.ErrForbidden, 0},
		{"required just parameter", echoes("just:deploy"), "invalid_input", "just:deploy needs 1 argument(s) for its required parameters target", 0},
		{"echoed", dev, "completed", "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runner := &fakeRunner{receipt: okReceipt()}
			res := taskEngine(t, runner).Run(context.Background(), c.req)
			if res.Status.Status != c.status || !strings.Contains(res.Error, c.err) || len(runner.got) != c.runs {
				t.Fatalf("%+v, %d runs; want %s %q, %d runs", res.Status, len(runner.got), c.status, c.err, c.runs)
			}
			if c.runs == 0 {
				return
			}
			r := runner.got[0]
			if !slices.Equal(r.Argv, []string{"/usr/bin/npm", "run", "dev"}) || r.Dir != p.Path || r.DirHandle == nil || r.Env != nil ||
				r.Expected == nil || r.Expected.SHA256 != shaA {
				t.Errorf("runner request %+v", r)
			}
		})
	}

	// A process task: its directory below the project, opened by handle; its variables
	// added to the environment, replacing those of the same name.
	dr := &dirRunner{fakeRunner: fakeRunner{receipt: okReceipt()}}
	req := echoes("vscode:Go Test Env")
	req.Expected.ExpectedExecutable = "/usr/bin/go"
	if res := taskEngine(t, dr).Run(context.Background(), req); res.Status.Status != "completed" || len(dr.got) != 1 {
		t.Fatalf("Go Test Env: %+v", res.Status)
	}
	r := dr.got[0]
	want, _ := os.Stat(filepath.Join(p.Path, "sub"))
	if r.Dir != filepath.Join(p.Path, "sub") || dr.dir == nil || !os.SameFile(dr.dir, want) {
		t.Errorf("dir %s, handle %v", r.Dir, dr.dir)
	}
	if diff := cmp.Diff([]string{"PATH=/usr/bin", "HOME=/home/u", "CGO_ENABLED=0", "FOO=bar"}, r.Env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}

	// The definition edited between plan and execution: stale, nothing runs.
	if err := os.WriteFile(filepath.Join(p.Path, "package.json"), []byte(strings.Replace(packageJSON, `"vite"`, `"vite --host"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	runner := &fakeRunner{receipt: okReceipt()}
	if res := taskEngine(t, runner).Run(context.Background(), dev); res.Status.Status != "stale_plan" || res.Error != capability.ErrStaleDefinition ||
		len(runner.got) != 0 || res.DefinitionSHA256 == dev.ExpectedDefinitionSHA256 {
		t.Fatalf("edited: %+v, %d runs", res.Status, len(runner.got))
	}
}

// TestDefinitionEchoIsForTasks: a catalog capability has no definition identity to
// echo; one given is refused, naming the field.
func TestDefinitionEchoIsForTasks(t *testing.T) {
	t.Parallel()
	res := newEngine(t, &fakeRunner{}, nil).Run(context.Background(), capability.Request{Capability: "look", ExpectedDefinitionSHA256: shaA})
	if res.Status.Status != "invalid_input" || res.Error != capability.ErrDefinitionNotTask {
		t.Fatalf("%+v", res.Status)
	}
}

// TestTaskIDsAreProjectTaskIDs: every id the reader gives, of every source, is one
// tools.IsProjectTaskID recognises, so classification never takes a catalog's word for
// a project task.
func TestTaskIDsAreProjectTaskIDs(t *testing.T) {
	t.Parallel()
	files := taskFiles()
	files["justfile"] = "fmt:\n    gofmt -l .\n"
	p := newProject(t, files)
	set, _ := projecttasks.Read(p, projecttasks.Options{})
	seen := map[projecttasks.Source]bool{}
	for _, task := range append(set.Tasks, set.Helpers...) {
		seen[task.Source] = true
		if !tools.IsProjectTaskID(task.ID) {
			t.Errorf("%s is not a project task id", task.ID)
		}
	}
	for _, s := range []projecttasks.Source{projecttasks.SourceNPM, projecttasks.SourceVSCode, projecttasks.SourceMake,
		projecttasks.SourceJust, projecttasks.SourceTask} {
		if !seen[s] || !tools.IsProjectTaskID(string(s)+":x") {
			t.Errorf("source %s: read %v, recognised %v", s, seen[s], tools.IsProjectTaskID(string(s)+":x"))
		}
	}
}
