package workflowplan_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/workflowplan"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// projects are the fixture projects, one per ecosystem, by name. A name ending in / is
// a directory.
var projects = map[string]map[string]string{
	"empty":  {},
	"git":    {".git/": ""},
	"go":     {"go.mod": "module example.com/x\n", "main.go": "package main\n", ".git/": ""},
	"dotnet": {"App.sln": "", "App.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\" />", ".git/": ""},
	"cpp":    {"App.sln": "", "App.vcxproj": "<Project />"},
	"node": {"package.json": `{"name": "x", "scripts": {"test": "node --test", "lint": "eslint .", "build": "tsc"},
		"devDependencies": {"eslint": "^9", "typescript": "^5"}}`, "eslint.config.js": "export default [];\n"},
	// npm init's placeholder test script always fails: it is no evidence of tests.
	"node-init": {"package.json": `{"name": "x", "scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`},
	"python":    {"pyproject.toml": "[project]\nname = \"x\"\n[tool.pytest.ini_options]\naddopts = \"-q\"\n[tool.ruff]\nline-length = 100\n"},
	"pylint":    {"pyproject.toml": "[project]\nname = \"x\"\n[tool.pylint.main]\njobs = 2\n"},
	"rust":      {"Cargo.toml": "[package]\nname = \"x\"\n"},
	"cmake":     {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\n"},
	"polyglot":  {"go.mod": "module x\n", "package.json": `{"scripts": {"test": "vitest"}}`},
}

// allTools are the executables of every shipped capability.
var allTools = []string{"git", "gh", "go", "dotnet", "msbuild", "pytest", "ruff", "pylint", "eslint", "npm", "cargo", "cmake"}

type phrasing struct {
	task, context string
	project       string // a key of projects
	noTools       bool   // an empty PATH instead of allTools
	status        string
	// capability is the selected or matched one; for ambiguous the tied ones joined by
	// commas; for package_setup the query.
	capability string
}

// phrasingTable is the routing contract in examples (docs/tools/workflow_plan.md).
var phrasingTable = []phrasing{
	// Tool names in the task discriminate.
	{task: "run pytest", project: "empty", status: routing.Selected, capability: "test-python"},
	{task: "run eslint", project: "empty", status: routing.Selected, capability: "lint-javascript"},
	{task: "run ruff", project: "empty", status: routing.Selected, capability: "lint-python"},
	{task: "run pylint", project: "empty", status: routing.Selected, capability: "lint-pylint"},
	{task: "dotnet test", project: "empty", status: routing.Selected, capability: "test-dotnet"},
	{task: "dotnet build", project: "empty", status: routing.Selected, capability: "build-dotnet"},
	{task: "build the solution with msbuild", project: "empty", status: routing.Selected, capability: "build-msbuild"},
	{task: "npm test", project: "empty", status: routing.Selected, capability: "test-npm"},
	{task: "run the lint script with npm", project: "empty", status: routing.Selected, capability: "lint-npm"},
	{task: "npm run build", project: "empty", status: routing.Selected, capability: "build-npm"},
	{task: "cargo build", project: "empty", status: routing.Selected, capability: "build-cargo"},
	{task: "cargo test", project: "empty", status: routing.Selected, capability: "test-cargo"},
	{task: "go build", project: "empty", status: routing.Selected, capability: "build-go"},
	{task: "go vet", project: "empty", status: routing.Selected, capability: "vet-go"},
	{task: "configure cmake", project: "empty", status: routing.Selected, capability: "configure-cmake"},
	{task: "cmake build", project: "empty", status: routing.Selected, capability: "build-cmake"},
	{task: "git status", project: "empty", status: routing.Selected, capability: "inspect-git"},
	{task: "git diff", project: "empty", status: routing.Selected, capability: "diff-git"},
	{task: "gh pr create", project: "empty", status: routing.Selected, capability: "create-pr"},
	// Languages, ecosystems and other subject words.
	{task: "run the .NET tests", project: "empty", status: routing.Selected, capability: "test-dotnet"},
	{task: "build my C# solution", project: "empty", status: routing.Selected, capability: "build-dotnet"},
	{task: "run the F# tests", project: "empty", status: routing.Selected, capability: "test-dotnet"},
	{task: "run the go tests", project: "empty", status: routing.Selected, capability: "test-go"},
	{task: "compile the golang packages", project: "empty", status: routing.Selected, capability: "build-go"},
	{task: "lint the go code", project: "empty", status: routing.Selected, capability: "vet-go"},
	{task: "run the rust tests", project: "empty", status: routing.Selected, capability: "test-cargo"},
	{task: "run the javascript tests", project: "empty", status: routing.Selected, capability: "test-npm"},
	{task: "lint the typescript code", project: "empty", status: routing.Selected, capability: "lint-javascript"},
	{task: "show the git log", project: "empty", status: routing.Selected, capability: "log-git"},
	{task: "show recent commits", project: "empty", status: routing.Selected, capability: "log-git"},
	{task: "show my uncommitted changes", project: "empty", status: routing.Selected, capability: "diff-git"},
	{task: "what is the status of my branch", project: "empty", status: routing.Selected, capability: "inspect-git"},
	{task: "open a pull request", project: "empty", status: routing.Selected, capability: "create-pr"},
	{task: "run the tests", context: "this is a .NET project, use dotnet", project: "empty", status: routing.Selected, capability: "test-dotnet"},
	// The project's own files decide when the task does not.
	{task: "run the tests", project: "go", status: routing.Selected, capability: "test-go"},
	{task: "build it", project: "go", status: routing.Selected, capability: "build-go"},
	{task: "lint", project: "go", status: routing.Selected, capability: "vet-go"},
	{task: "go ahead and run the tests", project: "python", status: routing.Selected, capability: "test-python"},
	{task: "run the tests", project: "dotnet", status: routing.Selected, capability: "test-dotnet"},
	{task: "build", project: "dotnet", status: routing.Selected, capability: "build-dotnet"},
	{task: "run the tests", project: "node", status: routing.Selected, capability: "test-npm"},
	{task: "build the project", project: "node", status: routing.Selected, capability: "build-npm"},
	{task: "run the tests", project: "python", status: routing.Selected, capability: "test-python"},
	{task: "lint the code", project: "python", status: routing.Selected, capability: "lint-python"},
	{task: "lint the code", project: "pylint", status: routing.Selected, capability: "lint-pylint"},
	{task: "run the tests", project: "rust", status: routing.Selected, capability: "test-cargo"},
	{task: "build", project: "rust", status: routing.Selected, capability: "build-cargo"},
	{task: "build", project: "cmake", status: routing.Selected, capability: "build-cmake"},
	{task: "build the C++ project", project: "cmake", status: routing.Selected, capability: "build-cmake"},
	{task: "build the C++ project", project: "cpp", status: routing.Selected, capability: "build-msbuild"},
	{task: "run the go tests", project: "polyglot", status: routing.Selected, capability: "test-go"},
	{task: "run the python tests", project: "go", status: routing.Selected, capability: "test-python"},
	{task: "show the status", project: "git", status: routing.Selected, capability: "inspect-git"},
	{task: "create a pull request", project: "git", status: routing.Selected, capability: "create-pr"},
	// Install tasks go to package setup, never to a capability that names the package.
	{task: "install git", project: "empty", status: routing.PackageSetup, capability: "git"},
	{task: "install git", project: "go", status: routing.PackageSetup, capability: "git"},
	{task: "Install Git for Windows", project: "empty", status: routing.PackageSetup, capability: "Git for Windows"},
	{task: "please install the latest Python", project: "python", status: routing.PackageSetup, capability: "Python"},
	{task: "install the .NET SDK", project: "dotnet", status: routing.PackageSetup, capability: ".NET SDK"},
	{task: "winget install --id Git.Git -e", project: "empty", status: routing.PackageSetup, capability: "Git.Git"},
	{task: "choco install cmake", project: "cmake", status: routing.PackageSetup, capability: "cmake"},
	{task: "scoop install gh", project: "git", status: routing.PackageSetup, capability: "gh"},
	{task: "install eslint", project: "node", noTools: true, status: routing.PackageSetup, capability: "eslint"},
	{task: "npm install", project: "node", status: routing.NoMatch},
	{task: "pip install ruff", project: "python", status: routing.NoMatch},
	{task: "install the dependencies", project: "node", status: routing.NoMatch},
	{task: "uninstall git", project: "git", status: routing.NoMatch},
	{task: "install", project: "empty", status: routing.NoMatch},
	// Ties stay ties: neither availability nor description wording breaks them.
	{task: "run dotnet", project: "empty", status: routing.Ambiguous, capability: "build-dotnet,test-dotnet"},
	{task: "use npm", project: "empty", status: routing.Ambiguous, capability: "build-npm,lint-npm,test-npm"},
	{task: "git", project: "empty", status: routing.Ambiguous, capability: "diff-git,inspect-git,log-git"}, // create-pr's description does not say Git
	{task: "build my solution", project: "empty", status: routing.Ambiguous, capability: "build-dotnet,build-msbuild"},
	{task: "build the C++ project", project: "empty", status: routing.Ambiguous, capability: "build-cmake,build-msbuild"},
	{task: "build", project: "cpp", status: routing.Ambiguous, capability: "build-dotnet,build-msbuild"},
	{task: "lint the code", project: "node", status: routing.Ambiguous, capability: "lint-javascript,lint-npm"},
	{task: "run the tests", project: "polyglot", status: routing.Ambiguous, capability: "test-go,test-npm"},
	{task: "run the tests", project: "polyglot", noTools: true, status: routing.Ambiguous, capability: "test-go,test-npm"},
	// No match: generic words without evidence, unknown tools, nothing in common.
	{task: "run the tests", project: "empty", status: routing.NoMatch},
	{task: "run the tests", project: "git", status: routing.NoMatch},
	{task: "run the tests", project: "node-init", status: routing.NoMatch},
	{task: "build", project: "empty", status: routing.NoMatch},
	{task: "run mypy", project: "python", status: routing.NoMatch},
	{task: "deploy to production", project: "go", status: routing.NoMatch},
	{task: "paint the fence", project: "empty", status: routing.NoMatch},
	{task: "create the go module", project: "go", status: routing.NoMatch},
	// Matched but unavailable: no fallback to a weaker candidate.
	{task: "run pytest", project: "empty", noTools: true, status: routing.MatchedUnavailable, capability: "test-python"},
	{task: "run the tests", project: "go", noTools: true, status: routing.MatchedUnavailable, capability: "test-go"},
	{task: "build with msbuild", project: "cpp", noTools: true, status: routing.MatchedUnavailable, capability: "build-msbuild"},
	{task: "open a pull request", project: "git", noTools: true, status: routing.MatchedUnavailable, capability: "create-pr"},
}

// outcome is one golden row: what a reviewer needs to see why.
type outcome struct {
	Task            string            `json:"task"`
	Context         string            `json:"context,omitempty"`
	Project         string            `json:"project"`
	Tools           string            `json:"tools"`
	SelectionStatus string            `json:"selection_status"`
	Capability      string            `json:"capability,omitempty"`
	Tied            []string          `json:"tied,omitempty"`
	Rank            []any             `json:"rank,omitempty"`
	Evidence        []any             `json:"project_evidence,omitempty"`
	Setup           map[string]any    `json:"package_setup,omitempty"`
	Reason          string            `json:"reason,omitempty"`
	Summary         map[string]string `json:"-"`
}

func TestPhrasings(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	for name, files := range projects {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, content := range files {
			if strings.HasSuffix(f, "/") {
				if err := os.MkdirAll(filepath.Join(dir, f), 0o755); err != nil {
					t.Fatal(err)
				}
				continue
			}
			testkit.WriteFile(t, filepath.Join(dir, f), content)
		}
	}
	all, none := fakePath(t, allTools...), t.TempDir()
	tool := workflowplan.New(workflowplan.DefaultDeps())
	counts := map[string]int{}
	var rows []outcome
	for _, p := range phrasingTable {
		path, tools := all, "all"
		if p.noTools {
			path, tools = none, "none"
		}
		env := &toolsEnv{dir: filepath.Join(base, p.project), path: path}
		args := map[string]any{"task": p.task}
		if p.context != "" {
			args["context"] = p.context
		}
		m, _ := mcptest.Call(t, tool, env.env(), args)
		o := outcome{Task: p.task, Context: p.context, Project: p.project, Tools: tools, SelectionStatus: str(m["selection_status"])}
		if c, ok := m["matched_candidate"].(map[string]any); ok {
			o.Capability = str(c["capability"])
		}
		if ps, ok := m["package_setup"].(map[string]any); ok {
			o.Setup = ps
		}
		if d, ok := m["route_discriminator"].(map[string]any); ok {
			o.Reason = str(d["reason"])
			o.Rank, _ = d["rank"].([]any)
			if o.SelectionStatus == routing.Ambiguous {
				for _, c := range d["candidates"].([]any) {
					o.Tied = append(o.Tied, str(c))
				}
			}
		}
		if ev, ok := m["project_evidence"].(map[string]any); ok {
			o.Evidence, _ = ev["found"].([]any)
		}
		got := o.Capability
		switch o.SelectionStatus {
		case routing.Ambiguous:
			got = strings.Join(o.Tied, ",")
		case routing.PackageSetup:
			got = str(o.Setup["query"])
		}
		if o.SelectionStatus != p.status || got != p.capability {
			t.Errorf("%q in %s (tools %s): %s %q, want %s %q (%s)", p.task, p.project, tools, o.SelectionStatus, got, p.status, p.capability, o.Reason)
		}
		if m["execution_started"] != false {
			t.Errorf("%q: execution_started %v", p.task, m["execution_started"])
		}
		counts[o.SelectionStatus]++
		rows = append(rows, o)
	}
	if len(phrasingTable) < 60 {
		t.Errorf("%d phrasings; the contract asks for at least 60", len(phrasingTable))
	}
	for _, s := range []string{routing.Selected, routing.Ambiguous, routing.MatchedUnavailable, routing.NoMatch, routing.PackageSetup} {
		if counts[s] == 0 {
			t.Errorf("no phrasing ends %s", s)
		}
	}
	summary := fmt.Sprintf("%d phrasings: %d selected, %d ambiguous, %d matched_unavailable, %d no_match, %d package_setup",
		len(rows), counts[routing.Selected], counts[routing.Ambiguous], counts[routing.MatchedUnavailable], counts[routing.NoMatch], counts[routing.PackageSetup])
	t.Log(summary)
	b, err := json.MarshalIndent(struct {
		Summary   string    `json:"summary"`
		Phrasings []outcome `json:"phrasings"`
	}{summary, rows}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, filepath.Join("testdata", "phrasings.golden.json"), append(b, '\n'), *update)
}

// toolsEnv is a project directory and a PATH.
type toolsEnv struct{ dir, path string }

func (e *toolsEnv) env() *tools.Env {
	return &tools.Env{ProjectDir: e.dir, Getenv: func(k string) string {
		if k == "PATH" {
			return e.path
		}
		return ""
	}}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
