package workflowplan_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all" // the other tools, whose schemas next_tool must satisfy
	"github.com/windows-dev-agent/wda/tools/workflowplan"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// projects are the fixture projects, by layout. A name ending in / is a directory.
var projects = map[string]map[string]string{
	"empty":  {},
	"git":    {".git/": ""},
	"go":     {"go.mod": "module example.com/x\n", "main.go": "package main\n", ".git/": ""},
	"dotnet": {"App.sln": "", "App.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\" />", ".git/": ""},
	"cpp":    {"App.sln": "", "App.vcxproj": "<Project />"},
	"node": {"package.json": `{"name": "x", "scripts": {"test": "node --test", "lint": "eslint .", "build": "tsc"},
		"devDependencies": {"eslint": "^9", "typescript": "^5"}}`, "eslint.config.js": "export default [];\n"},
	// A Node project with each lockfile, and scripts beyond test, lint and build.
	"node-npm": {"package.json": `{"name": "web", "scripts": {"dev": "vite", "start": "node server.js", "test": "vitest run",
		"lint": "eslint .", "build": "vite build", "format": "prettier --write ."},
		"devDependencies": {"prettier": "^3", "eslint": "^9", "vite": "^6", "vitest": "^3"}}`, "package-lock.json": "{}", ".git/": ""},
	"node-pnpm": {"package.json": `{"name": "app", "scripts": {"dev": "next dev", "build": "next build", "start": "next start", "test": "jest"}}`,
		"pnpm-lock.yaml": "lockfileVersion: '9.0'\n"},
	"node-yarn": {"package.json": `{"name": "app", "scripts": {"start": "react-scripts start", "build": "react-scripts build", "test": "react-scripts test"}}`,
		"yarn.lock": "# yarn lockfile v1\n"},
	"node-bun": {"package.json": `{"name": "api", "scripts": {"dev": "bun --watch index.ts", "test": "bun test"}}`, "bun.lock": "{}", "index.ts": ""},
	// A monorepo: the root package.json runs the workspaces' scripts.
	"monorepo": {"package.json": `{"private": true, "workspaces": ["packages/*"], "scripts": {"build": "npm run build --workspaces", "test": "npm test --workspaces"}}`,
		"package-lock.json": "{}", "packages/": "", "packages/web/package.json": `{"name": "web", "scripts": {"dev": "vite"}}`,
		"packages/api/package.json": `{"name": "api", "scripts": {"start": "node index.js"}}`},
	// npm init's placeholder test script always fails: it is no evidence of tests.
	"node-init":  {"package.json": `{"name": "x", "scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`},
	"python":     {"pyproject.toml": "[project]\nname = \"x\"\n[tool.pytest.ini_options]\naddopts = \"-q\"\n[tool.ruff]\nline-length = 100\n", "uv.lock": "version = 1\n"},
	"python-req": {"requirements.txt": "requests==2.32.3\n", "pytest.ini": "[pytest]\n", "app.py": ""},
	"pylint":     {"pyproject.toml": "[project]\nname = \"x\"\n[tool.pylint.main]\njobs = 2\n"},
	"rust":       {"Cargo.toml": "[package]\nname = \"x\"\n", "Cargo.lock": "version = 3\n", "src/": ""},
	"cmake":      {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\n"},
	"polyglot":   {"go.mod": "module x\n", "package.json": `{"scripts": {"test": "vitest"}}`},
	// Projects whose tasks are declared in a task runner's file.
	"make":   {"Makefile": "build:\n\tcc -o app main.c\ntest: build\n\t./app --self-test\nlint:\n\tclang-tidy main.c\nclean:\n\trm -f app\n", "main.c": ""},
	"just":   {"justfile": "fmt:\n    gofmt -w .\ntest:\n    go test ./...\nserve:\n    go run ./cmd/server\n", "go.mod": "module example.com/j\n"},
	"vscode": {".vscode/": "", ".vscode/tasks.json": `{"version": "2.0.0", "tasks": [{"label": "Build Release", "type": "shell", "command": "msbuild", "args": ["/p:Configuration=Release"], "group": "build"}, {"label": "Run Tests", "type": "shell", "command": "vstest.console", "group": "test"}]}`, "main.cpp": ""},
	// A Go module whose Makefile is how the project builds and tests itself.
	"go-make": {"go.mod": "module example.com/m\n", "Makefile": "build:\n\tgo build -o bin/app ./cmd/app\ntest:\n\tgo test -race ./...\nlint:\n\tgolangci-lint run\n"},
	// A Taskfile project (Go).
	"taskfile": {"go.mod": "module example.com/t\n", "Taskfile.yml": "version: '3'\ntasks:\n  test:\n    desc: Run the unit tests\n    cmds:\n      - go test ./...\n  lint:\n    cmds:\n      - golangci-lint run\n  docs:\n    desc: Build the documentation site\n    cmds:\n      - hugo\n"},
	// Two task runner files that both declare a test task.
	"make-just": {"Makefile": "test:\n\t./run-tests.sh\n", "justfile": "test:\n    ./run-tests.sh\n"},
	// A package.json that does not parse beside a Makefile: the warning does not stop routing.
	"broken": {"package.json": `{"scripts": {"dev": "vite",}`, "Makefile": "dev:\n\t./serve.sh\n"},
}

// allTools are the executables of every shipped capability, the task runners, and the
// shells VS Code shell tasks run in.
var allTools = []string{"git", "gh", "go", "gofmt", "dotnet", "msbuild", "pytest", "ruff", "pylint", "pip", "uv", "eslint",
	"prettier", "npm", "pnpm", "yarn", "bun", "cargo", "cmake", "ctest", "make", "just", "task", "sh", "powershell"}

// phrasing is one task in one project layout. want is the route a developer means:
// "<selection_status>" or "<selection_status>:<target>", the target being the
// selected or matched capability, the tied capabilities joined by commas, the
// package_setup query or the other tool's name (a project task is named by its id,
// npm:dev).
// got is the router's answer when it is not what is meant (a known miss), in the same
// form; empty means the route is the one meant.
type phrasing struct {
	task, context string
	project       string // a key of projects
	noTools       bool   // an empty PATH instead of allTools
	want, got     string
}

// phrasingTable is the routing contract in examples (docs/tools/workflow_plan.md): how a
// new user phrases everyday tasks, in every layout. Rows are not chosen to pass: a
// task routed other than a developer means it keeps its miss in got.
var phrasingTable = []phrasing{
	// Tool names in the task discriminate.
	{task: "run pytest", project: "empty", want: "selected:test-python"},
	{task: "run eslint", project: "empty", want: "selected:lint-javascript"},
	{task: "run ruff", project: "empty", want: "selected:lint-python"},
	{task: "run pylint", project: "empty", want: "selected:lint-pylint"},
	{task: "dotnet test", project: "empty", want: "selected:test-dotnet"},
	{task: "dotnet build", project: "empty", want: "selected:build-dotnet"},
	{task: "build the solution with msbuild", project: "empty", want: "selected:build-msbuild"},
	{task: "npm test", project: "empty", want: "selected:test-npm"},
	{task: "run the lint script with npm", project: "empty", want: "selected:lint-npm"},
	{task: "npm run build", project: "empty", want: "selected:build-npm"},
	{task: "cargo build", project: "empty", want: "selected:build-cargo"},
	{task: "cargo test", project: "empty", want: "selected:test-cargo"},
	{task: "go build", project: "empty", want: "selected:build-go"},
	{task: "go vet", project: "empty", want: "selected:vet-go"},
	{task: "configure cmake", project: "empty", want: "selected:configure-cmake"},
	{task: "cmake build", project: "empty", want: "selected:build-cmake"},
	{task: "git status", project: "empty", want: "selected:inspect-git"},
	{task: "git diff", project: "empty", want: "selected:diff-git"},
	{task: "gh pr create", project: "empty", want: "selected:create-pr"},
	// Languages, ecosystems and other subject words.
	{task: "run the .NET tests", project: "empty", want: "selected:test-dotnet"},
	{task: "build my C# solution", project: "empty", want: "selected:build-dotnet"},
	{task: "run the F# tests", project: "empty", want: "selected:test-dotnet"},
	{task: "run the go tests", project: "empty", want: "selected:test-go"},
	{task: "compile the golang packages", project: "empty", want: "selected:build-go"},
	{task: "lint the go code", project: "empty", want: "selected:vet-go"},
	{task: "run the rust tests", project: "empty", want: "selected:test-cargo"},
	{task: "run the javascript tests", project: "empty", want: "selected:test-npm"},
	{task: "lint the typescript code", project: "empty", want: "selected:lint-javascript"},
	{task: "show the git log", project: "empty", want: "selected:log-git"},
	{task: "show recent commits", project: "empty", want: "selected:log-git"},
	{task: "show my uncommitted changes", project: "empty", want: "selected:diff-git"},
	{task: "what is the status of my branch", project: "empty", want: "selected:inspect-git"},
	{task: "open a pull request", project: "empty", want: "selected:create-pr"},
	{task: "run the tests", context: "this is a .NET project, use dotnet", project: "empty", want: "selected:test-dotnet"},
	// The project's own files decide when the task does not.
	{task: "run the tests", project: "go", want: "selected:test-go"},
	{task: "build it", project: "go", want: "selected:build-go"},
	{task: "lint", project: "go", want: "selected:vet-go"},
	{task: "go ahead and run the tests", project: "python", want: "selected:test-python"},
	{task: "run the tests", project: "dotnet", want: "selected:test-dotnet"},
	{task: "build", project: "dotnet", want: "selected:build-dotnet"},
	{task: "run the tests", project: "node", want: "selected:test-npm"},
	{task: "build the project", project: "node", want: "selected:build-npm"},
	{task: "run the tests", project: "python", want: "selected:test-python"},
	{task: "lint the code", project: "python", want: "selected:lint-python"},
	{task: "lint the code", project: "pylint", want: "selected:lint-pylint"},
	{task: "run the tests", project: "rust", want: "selected:test-cargo"},
	{task: "build", project: "rust", want: "selected:build-cargo"},
	{task: "build", project: "cmake", want: "selected:build-cmake"},
	{task: "build the C++ project", project: "cmake", want: "selected:build-cmake"},
	{task: "build the C++ project", project: "cpp", want: "selected:build-msbuild"},
	{task: "run the go tests", project: "polyglot", want: "selected:test-go"},
	{task: "run the python tests", project: "go", want: "selected:test-python"},
	{task: "show the status", project: "git", want: "selected:inspect-git"},
	{task: "create a pull request", project: "git", want: "selected:create-pr"},
	// Install tasks go to package setup, never to a capability that names the package.
	{task: "install git", project: "empty", want: "package_setup:git"},
	{task: "install git", project: "go", want: "package_setup:git"},
	{task: "Install Git for Windows", project: "empty", want: "package_setup:Git for Windows"},
	{task: "please install the latest Python", project: "python", want: "package_setup:Python"},
	{task: "install the .NET SDK", project: "dotnet", want: "package_setup:.NET SDK"},
	{task: "winget install --id Git.Git -e", project: "empty", want: "package_setup:Git.Git"},
	{task: "choco install cmake", project: "cmake", want: "package_setup:cmake"},
	{task: "scoop install gh", project: "git", want: "package_setup:gh"},
	{task: "install eslint", project: "node", noTools: true, want: "package_setup:eslint"},
	{task: "install ripgrep", project: "rust", want: "package_setup:ripgrep"},
	{task: "pip install ruff", project: "python", want: "no_match"},
	{task: "npm install lodash", project: "node-npm", want: "no_match"},
	{task: "uninstall git", project: "git", want: "package_setup:git"},
	{task: "upgrade node with winget", project: "node", want: "package_setup:node"},
	{task: "install", project: "empty", want: "no_match"},
	// Without a lockfile the catalog has no `npm install`; npm ci needs package-lock.json.
	{task: "npm install", project: "node", want: "no_match", got: "selected:restore-npm"},
	{task: "install the dependencies", project: "node", want: "no_match", got: "ambiguous:restore-bun,restore-npm,restore-pnpm,restore-uv,restore-yarn"},
	// Ties stay ties: neither availability nor description wording breaks them.
	{task: "run dotnet", project: "empty", want: "selected:run-dotnet"},
	{task: "use npm", project: "empty", want: "ambiguous:build-npm,lint-npm,restore-npm,test-npm"},
	{task: "git", project: "empty", want: "ambiguous:diff-git,inspect-git,log-git"}, // create-pr's description does not say Git
	{task: "build my solution", project: "empty", want: "ambiguous:build-dotnet,build-msbuild"},
	{task: "build the C++ project", project: "empty", want: "ambiguous:build-cmake,build-msbuild"},
	{task: "build", project: "cpp", want: "selected:build-msbuild", got: "ambiguous:build-dotnet,build-msbuild"}, // dotnet cannot build a .vcxproj
	{task: "lint the code", project: "node", want: "selected:lint-npm"},                                          // the lint script runs eslint: lint-javascript yields
	{task: "run the tests", project: "polyglot", want: "ambiguous:test-go,test-npm"},
	{task: "run the tests", project: "polyglot", noTools: true, want: "ambiguous:test-go,test-npm"},
	{task: "run prettier", project: "empty", want: "ambiguous:format-prettier,formatting-prettier"},
	{task: "run the app", project: "empty", want: "ambiguous:run-cargo,run-dotnet,run-go"},
	// No match: generic words without evidence, unknown tools, nothing in common.
	{task: "run the tests", project: "empty", want: "no_match"},
	{task: "run the tests", project: "git", want: "no_match"},
	{task: "run the tests", project: "node-init", want: "no_match"},
	{task: "build", project: "empty", want: "no_match"},
	{task: "run mypy", project: "python", want: "no_match"},
	{task: "deploy to production", project: "go", want: "no_match"},
	{task: "deploy the go app", project: "go", want: "no_match", got: "ambiguous:build-go,test-go,vet-go"},
	{task: "paint the fence", project: "empty", want: "no_match"},
	{task: "create the go module", project: "go", want: "no_match"},
	{task: "update the dependencies", project: "node-npm", want: "no_match"},
	{task: "fetch the latest changes", project: "git", want: "no_match", got: "selected:diff-git"},
	{task: "run it", project: "go", want: "no_match"},
	// Matched but unavailable: no fallback to a weaker candidate.
	{task: "run pytest", project: "empty", noTools: true, want: "matched_unavailable:test-python"},
	{task: "run the tests", project: "go", noTools: true, want: "matched_unavailable:test-go"},
	{task: "build with msbuild", project: "cpp", noTools: true, want: "matched_unavailable:build-msbuild"},
	{task: "open a pull request", project: "git", noTools: true, want: "matched_unavailable:create-pr"},
	{task: "format the code", project: "go", noTools: true, want: "matched_unavailable:format-go"},

	// Everyday verbs (issue 23 §2). Go.
	{task: "format the code", project: "go", want: "selected:format-go"},
	{task: "format my Go code", project: "empty", want: "selected:format-go"},
	{task: "go fmt", project: "empty", want: "selected:format-go"},
	{task: "reformat the sources", project: "go", want: "selected:format-go"},
	{task: "fix the formatting", project: "go", want: "selected:format-go", got: "selected:formatting-go"},
	{task: "check the formatting", project: "go", want: "selected:formatting-go"},
	{task: "is the code formatted?", project: "go", want: "selected:formatting-go"},
	{task: "list unformatted files", project: "go", want: "selected:formatting-go"},
	{task: "gofmt -l .", project: "empty", want: "selected:formatting-go"},
	{task: "check my go code", project: "go", want: "selected:vet-go"},
	{task: "check the code", project: "go", want: "selected:vet-go"},
	{task: "vet the code", project: "go", want: "selected:vet-go"},
	{task: "compile", project: "go", want: "selected:build-go"},
	{task: "run the unit tests", project: "go", want: "selected:test-go"},
	{task: "download the dependencies", project: "go", want: "selected:restore-go"},
	{task: "go mod download", project: "empty", want: "selected:restore-go"},
	{task: "install the dependencies", project: "go", want: "selected:restore-go"},
	{task: "run the program", project: "go", want: "selected:run-go"},
	{task: "start the server", project: "go", want: "selected:run-go"},
	{task: "go run .", project: "empty", want: "selected:run-go"},
	{task: "run main.go", project: "go", want: "selected:run-go"},
	// .NET.
	{task: "format the code", project: "dotnet", want: "selected:format-dotnet"},
	{task: "dotnet format", project: "empty", want: "selected:format-dotnet"},
	{task: "verify the formatting", project: "dotnet", want: "selected:formatting-dotnet"},
	{task: "dotnet format --verify-no-changes", project: "empty", want: "selected:formatting-dotnet"},
	{task: "restore the nuget packages", project: "dotnet", want: "selected:restore-dotnet"},
	{task: "dotnet restore", project: "empty", want: "selected:restore-dotnet"},
	{task: "restore packages", project: "dotnet", want: "selected:restore-dotnet"},
	{task: "install the dependencies", project: "dotnet", want: "selected:restore-dotnet"},
	{task: "run the app", project: "dotnet", want: "selected:run-dotnet"},
	{task: "dotnet run", project: "empty", want: "selected:run-dotnet"},
	{task: "start the application", project: "dotnet", want: "selected:run-dotnet"},
	{task: "compile the solution", project: "dotnet", want: "selected:build-dotnet"},
	{task: "run the C# tests", project: "dotnet", want: "selected:test-dotnet"},
	// Python.
	{task: "format the code", project: "python", want: "selected:format-python"},
	{task: "ruff format", project: "empty", want: "selected:format-python"},
	{task: "check the formatting", project: "python", want: "selected:formatting-python"},
	{task: "install the dependencies", project: "python", want: "selected:restore-uv"},
	{task: "uv sync", project: "empty", want: "selected:restore-uv"},
	{task: "sync the virtual environment", project: "python", want: "selected:restore-uv"},
	{task: "pip install -r requirements.txt", project: "python-req", want: "selected:restore-pip"},
	{task: "install the requirements", project: "python-req", want: "selected:restore-pip"},
	{task: "run the tests", project: "python-req", want: "selected:test-python"},
	{task: "lint the python code", project: "python", want: "selected:lint-python"},
	// Node, with each lockfile, and a monorepo.
	{task: "npm ci", project: "empty", want: "selected:restore-npm"},
	{task: "npm run test", project: "empty", want: "selected:test-npm"}, // not "npm run build" quoted in part
	{task: "install the dependencies", project: "node-npm", want: "selected:restore-npm"},
	{task: "npm install", project: "node-npm", want: "selected:restore-npm"},
	{task: "reinstall node_modules", project: "node-npm", want: "selected:restore-npm"},
	{task: "install the dependencies", project: "node-pnpm", want: "selected:restore-pnpm"},
	{task: "pnpm install", project: "node-pnpm", want: "selected:restore-pnpm"},
	{task: "install the dependencies", project: "node-yarn", want: "selected:restore-yarn"},
	{task: "yarn install", project: "node-yarn", want: "selected:restore-yarn"},
	{task: "install the packages", project: "node-bun", want: "selected:restore-bun"},
	{task: "bun install", project: "node-bun", want: "selected:restore-bun"},
	{task: "prettier --check", project: "empty", want: "selected:formatting-prettier"},
	{task: "check the formatting with prettier", project: "node-npm", want: "selected:formatting-prettier"},
	{task: "run the tests", project: "node-npm", want: "selected:test-npm"},
	// The project runs its scripts with pnpm or yarn: its test script, not npm test
	// (npm:test runs "npm run test" only where npm is the project's runner, and then it
	// is test-npm itself).
	{task: "run the tests", project: "node-pnpm", want: "selected:npm:test"},
	{task: "run the tests", project: "node-yarn", want: "selected:npm:test"},
	{task: "build the project", project: "node-npm", want: "selected:build-npm"},
	{task: "build it", project: "node-yarn", want: "selected:npm:build"},
	{task: "install the dependencies", project: "monorepo", want: "selected:restore-npm"},
	{task: "run all the tests", project: "monorepo", want: "selected:test-npm"},
	{task: "build everything", project: "monorepo", want: "selected:build-npm"},
	// Rust.
	{task: "cargo check", project: "empty", want: "selected:check-cargo"},
	{task: "check the code", project: "rust", want: "selected:check-cargo"},
	{task: "run clippy", project: "rust", want: "selected:clippy-cargo"},
	{task: "lint the rust code", project: "empty", want: "selected:clippy-cargo"},
	{task: "cargo clippy", project: "empty", want: "selected:clippy-cargo"},
	{task: "lint the code", project: "rust", want: "selected:clippy-cargo"},
	{task: "format the code", project: "rust", want: "selected:format-cargo"},
	{task: "cargo fmt", project: "empty", want: "selected:format-cargo"},
	{task: "run rustfmt", project: "rust", want: "selected:format-cargo"},
	{task: "cargo fmt --check", project: "empty", want: "selected:formatting-cargo"},
	{task: "check the formatting", project: "rust", want: "selected:formatting-cargo"},
	{task: "fetch the dependencies", project: "rust", want: "selected:restore-cargo"},
	{task: "cargo fetch", project: "empty", want: "selected:restore-cargo"},
	{task: "cargo run", project: "empty", want: "selected:run-cargo"},
	{task: "run the binary", project: "rust", want: "selected:run-cargo"},
	// CMake.
	{task: "run the tests", project: "cmake", want: "selected:test-cmake"},
	{task: "run ctest", project: "empty", want: "selected:test-cmake"},
	{task: "configure the project", project: "cmake", want: "selected:configure-cmake"},
	{task: "generate the build files", project: "cmake", want: "selected:configure-cmake", got: "selected:build-cmake"},

	// Questions another tool answers (issue 23 §3).
	{task: "check my MCP config", project: "go", want: "other_tool:mcp_audit"},
	{task: "check my MCP config", project: "empty", want: "other_tool:mcp_audit"},
	{task: "which MCP servers are configured?", project: "node-npm", want: "other_tool:mcp_audit"},
	{task: "audit the MCP servers in my user config", project: "empty", want: "other_tool:mcp_audit"},
	{task: "run the MCP server tests", project: "go", want: "selected:test-go"},
	{task: "what's installed", project: "empty", want: "other_tool:env_inspect"},
	{task: "what is installed on this machine?", project: "go", want: "other_tool:env_inspect"},
	{task: "is docker installed", project: "dotnet", want: "other_tool:env_inspect"},
	{task: "is docker running?", project: "empty", want: "other_tool:env_inspect"},
	{task: "is WSL enabled", project: "empty", want: "other_tool:env_inspect"},
	{task: "is Hyper-V on", project: "empty", want: "other_tool:env_inspect"},
	{task: "do I have git", project: "git", want: "other_tool:env_inspect"},
	{task: "is go installed", project: "go", want: "other_tool:env_inspect"},
	{task: "check that python is installed", project: "python", want: "other_tool:env_inspect"},
	{task: "what's my environment", project: "empty", want: "other_tool:env_inspect"},
	{task: "what Windows version is this", project: "empty", want: "other_tool:env_inspect"},
	{task: "show my dev environment", project: "node-npm", want: "other_tool:env_inspect"},
	{task: "which Python do I have", project: "python", want: "other_tool:tool_discover"},
	{task: "what version of node is installed", project: "node-npm", want: "other_tool:tool_discover"},
	{task: "what go version do I have", project: "go", want: "other_tool:tool_discover"},
	{task: "what tools do I have", project: "empty", want: "other_tool:tool_discover"},
	{task: "which editors are installed", project: "empty", want: "other_tool:tool_discover"},
	{task: "which package managers do I have", project: "empty", want: "other_tool:tool_discover"},
	{task: "where is git installed", project: "git", want: "other_tool:tool_discover"},
	{task: "is uv installed", project: "python", want: "other_tool:tool_discover"},
	{task: "find a package for ripgrep", project: "empty", want: "other_tool:package_search"},
	{task: "search winget for 7zip", project: "empty", want: "other_tool:package_search"},
	{task: "is there a scoop package for jq?", project: "go", want: "other_tool:package_search"},
	{task: "run this in Linux", project: "empty", want: "other_tool:sandbox_run"},
	{task: "run the go tests in WSL", project: "go", want: "other_tool:sandbox_run"},
	{task: "run `make check` in wsl", project: "make", want: "other_tool:sandbox_run"},
	{task: "try the build in the dev container", project: "node-npm", want: "other_tool:sandbox_run"},
	{task: "run this installer in Windows Sandbox", project: "empty", want: "other_tool:sandbox_run"},
	{task: "install ripgrep in WSL", project: "empty", want: "other_tool:sandbox_run"},
	{task: "scan my AI setup", project: "empty", want: "other_tool:ecosystem_scan"},
	{task: "which VS Code extensions are recommended", project: "node-npm", want: "other_tool:ecosystem_scan"},
	{task: "list my installed VS Code extensions", project: "empty", want: "other_tool:ecosystem_scan"},
	{task: "what agent config files does this repo have", project: "git", want: "other_tool:ecosystem_scan"},
	{task: "what failed earlier", project: "go", want: "other_tool:logs_query"},
	{task: "show the audit log", project: "empty", want: "other_tool:logs_query"},
	{task: "what did you install?", project: "empty", want: "other_tool:logs_query"},
	{task: "which calls needed my approval", project: "empty", want: "other_tool:logs_query"},
	{task: "show the recent sandbox runs", project: "empty", want: "other_tool:logs_query"},
	{task: "what commands did you run today", project: "node-npm", want: "other_tool:logs_query"},

	// Held out: written after the router was tuned on the rows above, and never tuned
	// for; their misses stay recorded.
	{task: "please run the unit tests", project: "dotnet", want: "selected:test-dotnet"},
	{task: "kick off a build", project: "rust", want: "selected:build-cargo"},
	{task: "tidy up the formatting", project: "rust", want: "selected:format-cargo", got: "selected:formatting-cargo"},
	{task: "are there any lint warnings?", project: "go", want: "selected:vet-go"},
	{task: "restore dependencies", project: "node-pnpm", want: "selected:restore-pnpm"},
	{task: "get the packages", project: "dotnet", want: "selected:restore-dotnet", got: "no_match"},
	{task: "launch the program", project: "rust", want: "selected:run-cargo"},
	{task: "typecheck the project", project: "node-npm", want: "no_match"},
	{task: "what's on my PATH", project: "empty", want: "other_tool:tool_discover", got: "no_match"},
	{task: "do I have node installed", project: "empty", want: "other_tool:env_inspect"},
	{task: "which version of dotnet am I on", project: "dotnet", want: "other_tool:tool_discover"},
	{task: "show me what went wrong before", project: "empty", want: "other_tool:logs_query", got: "no_match"},
	{task: "look up the winget id for VS Code", project: "empty", want: "other_tool:package_search"},
	{task: "execute this script inside WSL", project: "empty", want: "other_tool:sandbox_run"},
	{task: "are my MCP servers set up right", project: "go", want: "other_tool:mcp_audit"},
	{task: "list the extensions this workspace recommends", project: "node-npm", want: "other_tool:ecosystem_scan"},
	{task: "compile the rust crate", project: "empty", want: "selected:build-cargo"},
	{task: "run the python linter", project: "python", want: "selected:lint-python", got: "ambiguous:formatting-python,lint-python,test-python"},
	{task: "check the C# code style", project: "dotnet", want: "selected:formatting-dotnet", got: "no_match"},
	{task: "build and run the app", project: "go", want: "selected:run-go", got: "selected:build-go"},
	{task: "is cargo installed", project: "rust", want: "other_tool:tool_discover"},
	{task: "run the tests in a linux container", project: "go", want: "other_tool:sandbox_run"},
	{task: "pytest -x", project: "python", want: "selected:test-python"},
	{task: "audit the AI agent configuration", project: "empty", want: "other_tool:ecosystem_scan"},
	{task: "build for release", project: "dotnet", want: "selected:build-dotnet"},

	// The project's own tasks (issue 23 §1, §3): within a project they are the strongest
	// evidence. A package.json script weighs as much as project files; a task of the
	// Makefile, justfile, Taskfile or .vscode/tasks.json, the project's own entry
	// points, more. A task that runs exactly a capability's command is that capability.
	{task: "start the dev server", project: "node-npm", want: "selected:npm:dev"},
	{task: "npm run dev", project: "node-npm", want: "selected:npm:dev"},
	{task: "run the dev script", project: "node-npm", want: "selected:npm:dev"},
	{task: "run in watch mode", project: "node-npm", want: "selected:npm:dev"},
	{task: "format the code", project: "node-npm", want: "selected:npm:format"}, // the format script runs prettier
	{task: "start the app", project: "node-npm", want: "selected:npm:start"},
	{task: "lint the code", project: "node-npm", want: "selected:lint-npm"}, // npm:lint is "npm run lint", lint-npm's command
	{task: "npm run lint", project: "node-npm", want: "selected:lint-npm"},
	{task: "npm test", project: "node-npm", want: "selected:test-npm"},
	{task: "pnpm dev", project: "node-pnpm", want: "selected:npm:dev"},
	{task: "start the dev server", project: "node-pnpm", want: "selected:npm:dev"},
	{task: "npm test", project: "node-pnpm", want: "selected:test-npm"}, // quoted as written, not the project's runner
	{task: "yarn start", project: "node-yarn", want: "selected:npm:start"},
	{task: "bun run dev", project: "node-bun", want: "selected:npm:dev"},
	{task: "run the tests", project: "node-bun", want: "selected:npm:test"},
	// The dev script is packages/web's: only the root's tasks are read.
	{task: "start the dev server", project: "monorepo", want: "selected:npm:dev", got: "ambiguous:run-cargo,run-dotnet,run-go"},
	{task: "run make test", project: "make", want: "selected:make:test"},
	{task: "build", project: "make", want: "selected:make:build"},
	{task: "run the tests", project: "make", want: "selected:make:test"},
	{task: "lint the code", project: "make", want: "selected:make:lint"},
	{task: "make clean", project: "make", want: "selected:make:clean"},
	{task: "run the tests", project: "make", noTools: true, want: "matched_unavailable:make:test"},
	{task: "just test", project: "just", want: "selected:just:test"},
	{task: "run the tests", project: "just", want: "selected:just:test"},
	{task: "format the code", project: "just", want: "selected:just:fmt"},
	{task: "just serve", project: "just", want: "selected:just:serve"},
	{task: "start the server", project: "just", want: "selected:just:serve"},
	{task: "run the go tests", project: "just", want: "selected:test-go"}, // the task names Go: the catalog's go test
	{task: "run the Build Release task", project: "vscode", want: "selected:vscode:Build Release"},
	{task: "build release", project: "vscode", want: "selected:vscode:Build Release"},
	{task: "run the tests", project: "vscode", want: "selected:vscode:Run Tests"},
	{task: "run the tests", project: "go-make", want: "selected:make:test"},
	{task: "build", project: "go-make", want: "selected:make:build"},
	{task: "lint the code", project: "go-make", want: "selected:make:lint"},
	{task: "run the go tests", project: "go-make", want: "selected:test-go"},
	{task: "check the formatting", project: "go-make", want: "selected:formatting-go"},
	{task: "run the tests", project: "taskfile", want: "selected:task:test"},
	{task: "task lint", project: "taskfile", want: "selected:task:lint"},
	{task: "build the docs", project: "taskfile", want: "selected:task:docs"},
	{task: "run the tests", project: "make-just", want: "ambiguous:just:test,make:test"},
	{task: "start the dev server", project: "broken", want: "selected:make:dev"},
	{task: "run the tests", project: "polyglot", want: "ambiguous:test-go,test-npm"}, // vitest is not go: two ecosystems

	// Held out: project-task rows written after the rules above were tuned, and never
	// tuned for; their misses stay recorded.
	{task: "kick off the dev server", project: "node-pnpm", want: "selected:npm:dev"},
	{task: "serve the app locally", project: "just", want: "selected:just:serve"},
	{task: "run the unit tests", project: "make", want: "selected:make:test"},
	{task: "tidy the formatting", project: "node-npm", want: "selected:npm:format", got: "selected:formatting-prettier"},
	{task: "run the linter", project: "go-make", want: "selected:make:lint", got: "no_match"},
	{task: "compile the project", project: "go-make", want: "selected:make:build", got: "selected:build-go"},
	{task: "run the test task", project: "taskfile", want: "selected:task:test"},
	{task: "execute the Run Tests task", project: "vscode", want: "selected:vscode:Run Tests"},
	{task: "start it in dev mode", project: "node-bun", want: "selected:npm:dev"},
	{task: "clean the build output", project: "make", want: "selected:make:clean", got: "no_match"},
	{task: "run the docs task", project: "taskfile", want: "selected:task:docs"},
	{task: "yarn build", project: "node-yarn", want: "selected:npm:build"},
	{task: "pnpm run build", project: "node-pnpm", want: "selected:npm:build"},
	{task: "run all tests", project: "just", want: "selected:just:test"},
	{task: "format everything", project: "just", want: "selected:just:fmt"},
}

// outcome is one golden row: what a reviewer needs to see why.
type outcome struct {
	Task            string         `json:"task"`
	Context         string         `json:"context,omitempty"`
	Project         string         `json:"project"`
	Tools           string         `json:"tools"`
	SelectionStatus string         `json:"selection_status"`
	Capability      string         `json:"capability,omitempty"`
	Tied            []string       `json:"tied,omitempty"`
	Rank            []any          `json:"rank,omitempty"`
	Evidence        []any          `json:"project_evidence,omitempty"`
	Setup           map[string]any `json:"package_setup,omitempty"`
	NextTool        map[string]any `json:"next_tool,omitempty"`
	Reason          string         `json:"reason,omitempty"`
	// Meant is the route a developer means when the answer is another (a miss).
	Meant string `json:"meant,omitempty"`
}

// answer is the route as the table writes it.
func (o outcome) answer() string {
	target := o.Capability
	switch o.SelectionStatus {
	case routing.Ambiguous:
		target = strings.Join(o.Tied, ",")
	case routing.PackageSetup:
		target = str(o.Setup["query"])
	case routing.OtherTool:
		target = str(o.NextTool["name"])
	}
	if target == "" {
		return o.SelectionStatus
	}
	return o.SelectionStatus + ":" + target
}

// floorRouted is the least share of phrasings routed as a developer means them (issue
// 23 §4 asks for 90%).
const floorRouted = 0.93

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
	layouts := map[string]bool{}
	meant := 0
	run := func(p phrasing) outcome {
		path, tools := all, "all"
		if p.noTools {
			path, tools = none, "none"
		}
		dir := filepath.Join(base, p.project)
		env := &toolsEnv{dir: dir, path: path}
		args := map[string]any{"task": p.task}
		if p.context != "" {
			args["context"] = p.context
		}
		m, _ := mcptest.Call(t, tool, env.env(), args)
		if nt, ok := m["next_tool"].(map[string]any); ok {
			checkNextTool(t, p.task, nt, m, mustReal(t, dir))
		}
		o := outcome{Task: p.task, Context: p.context, Project: p.project, Tools: tools, SelectionStatus: str(m["selection_status"])}
		if c, ok := m["matched_candidate"].(map[string]any); ok {
			o.Capability = str(c["capability"])
		}
		if ps, ok := m["package_setup"].(map[string]any); ok {
			o.Setup = ps
		}
		if nt, ok := m["next_tool"].(map[string]any); ok {
			o.NextTool = nt
			// The bound directory differs per run: the golden file names it.
			if a, ok := nt["arguments"].(map[string]any); ok {
				for k, v := range a {
					if v == mustReal(t, dir) {
						a[k] = "<project>"
					}
				}
			}
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
		if m["execution_started"] != false {
			t.Errorf("%q: execution_started %v", p.task, m["execution_started"])
		}
		expect := p.want
		if p.got != "" {
			expect, o.Meant = p.got, p.want
		}
		if got := o.answer(); got != expect {
			t.Errorf("%q in %s (tools %s): %s, want %s (%s)", p.task, p.project, tools, got, expect, o.Reason)
		}
		layouts[p.project] = true
		return o
	}
	var rows []outcome
	for _, p := range phrasingTable {
		if p.got == "" {
			meant++
		}
		o := run(p)
		counts[o.SelectionStatus]++
		rows = append(rows, o)
	}
	total := len(phrasingTable)
	if total < 150 || len(layouts) < 10 {
		t.Errorf("%d phrasings in %d layouts; issue 23 §4 asks for at least 150 in at least 10", total, len(layouts))
	}
	for _, s := range []string{routing.Selected, routing.Ambiguous, routing.MatchedUnavailable, routing.NoMatch, routing.PackageSetup, routing.OtherTool} {
		if counts[s] == 0 {
			t.Errorf("no phrasing ends %s", s)
		}
	}
	share := float64(meant) / float64(len(phrasingTable))
	summary := fmt.Sprintf("%d phrasings in %d layouts: %d selected, %d ambiguous, %d matched_unavailable, %d no_match, %d package_setup, %d other_tool; "+
		"routed as meant: %d of %d (%.1f%%)",
		total, len(layouts), counts[routing.Selected], counts[routing.Ambiguous], counts[routing.MatchedUnavailable], counts[routing.NoMatch],
		counts[routing.PackageSetup], counts[routing.OtherTool], meant, len(phrasingTable), 100*share)
	t.Log(summary)
	if share < floorRouted {
		t.Errorf("routed as meant below the floor (%.0f%%): %s", 100*floorRouted, summary)
	}
	b, err := json.MarshalIndent(struct {
		Summary   string    `json:"summary"`
		Phrasings []outcome `json:"phrasings"`
	}{summary, rows}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, filepath.Join("testdata", "phrasings.golden.json"), append(b, '\n'), *update)
}

// checkNextTool holds a next_tool to the tool it names, as registered: the name is a
// tool of this server, the arguments (with the missing ones supplied) are valid for its
// input schema, a project-scoped tool gets the bound directory, and the execute phase's
// class is the class the tool gives that call (its execute:true call when it plans
// first).
func checkNextTool(t *testing.T, task string, nt, m map[string]any, dir string) {
	t.Helper()
	name := str(nt["name"])
	tl, ok := tools.Default().Lookup(name)
	if !ok || name == "workflow_plan" {
		t.Errorf("%q: next_tool %q is not another tool of this server", task, name)
		return
	}
	args := maps.Clone(nt["arguments"].(map[string]any))
	if pa := tl.ProjectArg(); pa != "" && args[pa] != dir {
		t.Errorf("%q: %s's project argument %s = %v, want the bound directory", task, name, pa, args[pa])
	}
	if pa := tl.ProjectArg(); pa != routing.ProjectArgs[name] {
		t.Errorf("routing.ProjectArgs[%s] = %q, the tool's is %q", name, routing.ProjectArgs[name], pa)
	}
	if missing, _ := nt["missing"].([]any); len(missing) > 0 {
		for _, f := range missing {
			if _, given := args[str(f)]; given {
				t.Errorf("%q: %v is both given and missing", task, f)
			}
			args[str(f)] = "example"
		}
	} else if str(nt["reason"]) == "" {
		t.Errorf("%q: next_tool without a reason", task)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schema.Validate(schema.In(tl), raw); err != nil {
		t.Errorf("%q: next_tool arguments %s are not valid for %s: %v", task, raw, name, err)
	}
	if _, plans := schema.In(tl).Properties.Get("execute"); plans {
		args["execute"] = true
	}
	phases, _ := m["phases"].([]any)
	if len(phases) != 4 {
		t.Fatalf("%q: %d phases", task, len(phases))
	}
	execute := str(phases[2].(map[string]any)["safety_class"])
	if got := string(tl.Classify(tools.Args(args))); got != execute && m["selection_status"] != routing.PackageSetup {
		t.Errorf("%q: the execute phase says %s, %s classifies the call %s", task, execute, name, got)
	}
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
