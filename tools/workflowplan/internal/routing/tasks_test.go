package routing_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

// script is a package.json script run by runner, as internal/projecttasks reads it.
func script(runner, name, body string) routing.ProjectTask {
	return routing.ProjectTask{ID: "npm:" + name, Source: "npm", Name: name, Argv: []string{runner, "run", name},
		Definition: []string{body}, File: "package.json", Line: 3, Available: true}
}

// target is a Makefile, justfile or Taskfile task ("make", "just", "task").
func target(runner, name string, body ...string) routing.ProjectTask {
	file := map[string]string{"make": "Makefile", "just": "justfile", "task": "Taskfile.yml"}[runner]
	return routing.ProjectTask{ID: runner + ":" + name, Source: runner, Name: name, Argv: []string{runner, name},
		Definition: body, File: file, Line: 1, Available: true}
}

// TestProjectTasks: the project's own tasks are candidates and, within the project,
// the strongest evidence (docs/tools/workflow_plan.md, "Project tasks"; issue 23 §1,
// §3), without breaking the seed's rules.
func TestProjectTasks(t *testing.T) {
	t.Parallel()
	cat := mustLoadShipped()
	all := map[string]string{}
	for _, id := range cat.IDs() {
		cp, _ := cat.Get(id)
		all[id] = cp.Tools[0].Name
	}
	node := goProject("package.json#scripts.test", "package.json#scripts.lint", "eslint.config.js",
		"package.json#devDependencies.prettier", "package-lock.json")
	vscodeRunTests := routing.ProjectTask{ID: "vscode:Run Tests", Source: "vscode", Name: "Run Tests",
		Argv: []string{"sh", "-c", "vstest.console"}, Definition: []string{"vstest.console"}, File: ".vscode/tasks.json", Available: true}
	tests := []struct {
		name      string
		task      string
		project   *routing.ProjectEvidence
		tasks     []routing.ProjectTask
		status    string
		target    string   // matched or selected candidate
		tied      []string // ambiguous
		available map[string]string
	}{
		{name: "dev server is the dev script", task: "start the dev server", project: node,
			tasks:  []routing.ProjectTask{script("npm", "dev", "vite"), script("npm", "start", "node server.js")},
			status: routing.Selected, target: "npm:dev"},
		{name: "start alone is the start script", task: "start the app", project: node,
			tasks:  []routing.ProjectTask{script("npm", "dev", "vite"), script("npm", "start", "node server.js")},
			status: routing.Selected, target: "npm:start"},
		{name: "watch mode is the dev script", task: "run in watch mode", project: node,
			tasks: []routing.ProjectTask{script("npm", "dev", "vite")}, status: routing.Selected, target: "npm:dev"},
		{name: "format script before the generic formatter", task: "format the code", project: node,
			tasks:  []routing.ProjectTask{script("npm", "format", "prettier --write .")},
			status: routing.Selected, target: "npm:format"},
		{name: "the same command is the capability", task: "lint the code", project: node,
			tasks:  []routing.ProjectTask{script("npm", "lint", "eslint ."), script("npm", "test", "vitest run")},
			status: routing.Selected, target: "lint-npm"},
		{name: "npm test is the test script", task: "run the tests", project: node,
			tasks:  []routing.ProjectTask{script("npm", "test", "vitest run")},
			status: routing.Selected, target: "test-npm"},
		{name: "the runner follows the project", task: "run the tests", project: goProject("package.json#scripts.test", "bun.lock"),
			tasks: []routing.ProjectTask{script("bun", "test", "bun test")}, status: routing.Selected, target: "npm:test"},
		{name: "a quoted command is taken as written", task: "npm test", project: goProject("package.json#scripts.test", "bun.lock"),
			tasks: []routing.ProjectTask{script("bun", "test", "bun test")}, status: routing.Selected, target: "test-npm"},
		{name: "quoted script", task: "pnpm dev", project: goProject("package.json#scripts.test", "pnpm-lock.yaml"),
			tasks: []routing.ProjectTask{script("pnpm", "dev", "next dev")}, status: routing.Selected, target: "npm:dev"},
		{name: "entry point beats project files", task: "run the tests", project: goProject("go.mod"),
			tasks: []routing.ProjectTask{target("make", "test", "go test -race ./...")}, status: routing.Selected, target: "make:test"},
		{name: "entry point that runs something else", task: "run the tests", project: goProject("go.mod"),
			tasks: []routing.ProjectTask{target("make", "test", "./run-tests.sh")}, status: routing.Selected, target: "make:test"},
		{name: "a named subject is the catalog's", task: "run the go tests", project: goProject("go.mod"),
			tasks: []routing.ProjectTask{target("make", "test", "go test -race ./...")}, status: routing.Selected, target: "test-go"},
		{name: "two entry points tie", task: "run the tests", project: goProject("go.mod"),
			tasks:  []routing.ProjectTask{target("make", "test", "go test ./..."), target("just", "test", "go test ./...")},
			status: routing.Ambiguous, tied: []string{"just:test", "make:test"}},
		{name: "a script of another ecosystem ties", task: "run the tests", project: goProject("go.mod", "package.json#scripts.test"),
			tasks:  []routing.ProjectTask{script("npm", "test", "vitest")},
			status: routing.Ambiguous, tied: []string{"test-go", "test-npm"}},
		{name: "fmt means format", task: "format the code", project: goProject("go.mod"),
			tasks: []routing.ProjectTask{target("just", "fmt", "gofmt -w .")}, status: routing.Selected, target: "just:fmt"},
		{name: "a formatting report is not the formatter", task: "check the formatting", project: goProject("go.mod"),
			tasks: []routing.ProjectTask{target("just", "fmt", "gofmt -w .")}, status: routing.Selected, target: "formatting-go"},
		{name: "quoted target", task: "make clean", project: goProject(),
			tasks: []routing.ProjectTask{target("make", "build", "cc main.c"), target("make", "clean", "rm -f app")}, status: routing.Selected, target: "make:clean"},
		{name: "run alone names no task", task: "run the app", project: goProject(),
			tasks: []routing.ProjectTask{vscodeRunTests}, status: routing.Ambiguous, tied: []string{"run-cargo", "run-dotnet", "run-go"}},
		{name: "a vscode task by its label", task: "run the tests", project: goProject(),
			tasks: []routing.ProjectTask{vscodeRunTests}, status: routing.Selected, target: "vscode:Run Tests"},
		{name: "generic words alone still select nothing", task: "run it", project: goProject(),
			tasks: []routing.ProjectTask{target("make", "build", "cc main.c")}, status: routing.NoMatch},
		{name: "unavailable runner does not fall through", task: "run the tests", project: goProject("go.mod"),
			tasks: []routing.ProjectTask{func() routing.ProjectTask {
				x := target("make", "test", "go test ./...")
				x.Available = false
				return x
			}()}, status: routing.MatchedUnavailable, target: "make:test"},
		{name: "environment of its own is never the capability", task: "run the tests", project: node,
			tasks: []routing.ProjectTask{func() routing.ProjectTask {
				x := script("npm", "test", "vitest")
				x.Argv, x.Env = []string{"npm", "test"}, true
				return x
			}()}, status: routing.Ambiguous, tied: []string{"npm:test", "test-npm"}},
		{name: "install stays package setup", task: "install git", project: goProject(),
			tasks: []routing.ProjectTask{target("make", "install", "cp app /usr/local/bin")}, status: routing.PackageSetup},
		{name: "a question stays the other tool's", task: "is go installed", project: goProject("go.mod"),
			tasks: []routing.ProjectTask{target("make", "test", "go test ./...")}, status: routing.OtherTool},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			avail := all
			if tt.available != nil {
				avail = tt.available
			}
			r := routing.Plan(cat, routing.Request{Task: tt.task, Available: avail2(avail), Project: tt.project, Tasks: tt.tasks})
			if r.SelectionStatus != tt.status {
				t.Fatalf("selection %s, want %s (%+v)", r.SelectionStatus, tt.status, r.RouteDiscriminator)
			}
			switch tt.status {
			case routing.Selected:
				if r.SelectedCandidate == nil || r.SelectedCandidate.Capability != tt.target || r.Selected == nil || *r.Selected != tt.target {
					t.Fatalf("selected %v, want %s", r.Selected, tt.target)
				}
				class := r.SelectedCandidate.SafetyClass
				if strings.Contains(tt.target, ":") && class != tools.ApprovalRequired {
					t.Errorf("a project task's class in the plan is %s, want approval-required", class)
				}
				nextTool(t, r, routing.ToolCapabilityRun, map[string]any{"capability": tt.target}, class)
			case routing.MatchedUnavailable:
				if r.MatchedCandidate == nil || r.MatchedCandidate.Capability != tt.target {
					t.Fatalf("matched %+v, want %s", r.MatchedCandidate, tt.target)
				}
			case routing.Ambiguous:
				if diff := cmp.Diff(tt.tied, r.RouteDiscriminator.Candidates); diff != "" {
					t.Errorf("tied (-want +got):\n%s", diff)
				}
			}
			// A task that runs exactly a capability's command is that capability: listed once.
			ids := map[string]bool{}
			for _, c := range r.CandidateCapabilities {
				if ids[c.Capability] {
					t.Errorf("%s listed twice", c.Capability)
				}
				ids[c.Capability] = true
			}
		})
	}
}

func avail2(m map[string]string) routing.Availability { return avail(m) }

// TestTaskArgvForSandbox: a run in WSL of the project's own task carries its command.
func TestTaskArgvForSandbox(t *testing.T) {
	t.Parallel()
	r := routing.Plan(mustLoadShipped(), routing.Request{Task: "run make test in WSL", Project: goProject(),
		Tasks: []routing.ProjectTask{target("make", "test", "./run-tests.sh")}})
	nextTool(t, r, routing.ToolSandboxRun, map[string]any{"isolation_requirement": "linux_compatibility", "command": "make test"}, tools.ApprovalRequired)
}

// TestCompactView: by default a route says what the next step needs, once (issue 24):
// only the candidates with evidence, no zero score or empty list, selected_candidate
// the id of matched_candidate, phases without entry and exit; the full view keeps
// today's breakdown.
func TestCompactView(t *testing.T) {
	t.Parallel()
	cat := mustLoadShipped()
	all := map[string]string{"test-go": "go"}
	plan := func() routing.Route {
		return routing.Plan(cat, routing.Request{Task: "run the tests", Available: avail(all), Project: goProject("go.mod")})
	}
	full, compact := plan(), plan()
	compact.SetCompact()
	var f, c map[string]any
	for _, x := range []struct {
		r *routing.Route
		m *map[string]any
	}{{&full, &f}, {&compact, &c}} {
		b, err := json.Marshal(x.r)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, x.m); err != nil {
			t.Fatal(err)
		}
	}
	if f["selected_candidate"] != "test-go" || c["selected_candidate"] != "test-go" {
		t.Errorf("selected_candidate %v / %v, want the id", f["selected_candidate"], c["selected_candidate"])
	}
	for _, k := range []string{"selection_status", "matched_candidate", "selected_candidate", "route_discriminator", "next_tool", "phases", "candidate_capabilities", "project_evidence"} {
		if _, ok := c[k]; !ok {
			t.Errorf("compact view lacks %s", k)
		}
	}
	if n := len(f["candidate_capabilities"].([]any)); n != len(cat.IDs()) {
		t.Errorf("full view: %d candidates, want every one (%d)", n, len(cat.IDs()))
	}
	var ids []string
	for _, x := range c["candidate_capabilities"].([]any) {
		m := x.(map[string]any)
		ids = append(ids, m["capability"].(string))
		for k, v := range m {
			switch v := v.(type) {
			case float64:
				if v == 0 {
					t.Errorf("%s: zero %s", m["capability"], k)
				}
			case []any:
				if len(v) == 0 {
					t.Errorf("%s: empty %s", m["capability"], k)
				}
			}
			if strings.HasSuffix(k, "_score") && k != "project_score" {
				t.Errorf("%s: %s restates the length of its matches", m["capability"], k)
			}
		}
	}
	if want := []string{"test-go", "test-cargo", "test-cmake", "test-dotnet", "test-npm", "test-python"}; !slices.Equal(ids, want) {
		t.Errorf("compact candidates %v, want those with evidence %v", ids, want)
	}
	mc := c["matched_candidate"].(map[string]any)
	if diff := cmp.Diff(map[string]any{"capability": "test-go", "description": mc["description"], "safety_class": "reversible", "available_tool": "go"}, mc); diff != "" {
		t.Errorf("compact matched_candidate (-want +got):\n%s", diff)
	}
	for _, p := range c["phases"].([]any) {
		m := p.(map[string]any)
		if _, ok := m["entry"]; ok || m["action"] == "" {
			t.Errorf("compact phase %v", m)
		}
	}
	if fp := f["phases"].([]any)[0].(map[string]any); fp["entry"] == nil || fp["exit"] == nil {
		t.Errorf("full phase %v", fp)
	}
	if _, ok := c["package_setup"]; ok {
		t.Errorf("package_setup %v outside a package_setup route", c["package_setup"])
	}
	if pe := c["project_evidence"].(map[string]any); pe["files"] != nil || pe["read"] != nil {
		t.Errorf("compact project evidence %v", pe)
	}
}
