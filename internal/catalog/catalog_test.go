package catalog_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

func TestShippedCatalog(t *testing.T) {
	c, err := catalog.Load(wda.CapabilitiesYAML)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"inspect-git", "log-git", "diff-git", "create-pr", "test-go", "build-go", "vet-go", "format-go", "formatting-go", "restore-go", "run-go", "test-dotnet", "build-dotnet", "format-dotnet", "formatting-dotnet", "restore-dotnet", "run-dotnet", "build-msbuild", "test-python", "lint-python", "lint-pylint", "format-python", "formatting-python", "restore-uv", "restore-pip", "lint-javascript", "test-npm", "lint-npm", "build-npm", "restore-npm", "restore-pnpm", "restore-yarn", "restore-bun", "format-prettier", "formatting-prettier", "test-cargo", "build-cargo", "check-cargo", "clippy-cargo", "format-cargo", "formatting-cargo", "restore-cargo", "run-cargo", "configure-cmake", "build-cmake", "test-cmake"}
	if diff := cmp.Diff(want, c.IDs()); diff != "" {
		t.Fatalf("ids (-want +got):\n%s", diff)
	}
	type row struct {
		Safety       tools.Class
		Tags         []string
		Tools        []catalog.Tool
		ProjectFiles []string
	}
	// The safety classes are the reviewed ones of docs/catalog.md: read-only only for
	// what cannot change anything, reversible for builds, tests and lints that write
	// build output or caches, approval-required for anything that publishes.
	wantCaps := map[string]row{
		"inspect-git":         {tools.ReadOnly, []string{"git", "status", "inspection", "branch"}, []catalog.Tool{{"git", []string{"git", "--no-optional-locks", "-c", "core.fsmonitor=false", "status", "--short", "--branch"}}}, []string{".git"}},
		"log-git":             {tools.ReadOnly, []string{"git", "log", "history", "commits"}, []catalog.Tool{{"git", []string{"git", "--no-optional-locks", "-c", "core.fsmonitor=false", "log", "--no-show-signature", "--no-ext-diff", "--no-textconv", "--oneline", "--decorate", "--max-count=30"}}}, []string{".git"}},
		"diff-git":            {tools.ReadOnly, []string{"git", "diff", "changes", "patch"}, []catalog.Tool{{"git", []string{"git", "--no-optional-locks", "-c", "core.fsmonitor=false", "diff", "--no-ext-diff", "--no-textconv"}}}, []string{".git"}},
		"create-pr":           {tools.ApprovalRequired, []string{"git", "github", "gh", "pr", "pull-request", "publish"}, []catalog.Tool{{"gh", []string{"gh", "pr", "create", "--fill"}}}, nil},
		"test-go":             {tools.Reversible, []string{"go", "golang", "test"}, []catalog.Tool{{"go", []string{"go", "test", "./..."}}}, []string{"go.mod", "go.work"}},
		"build-go":            {tools.Reversible, []string{"go", "golang", "build", "compile"}, []catalog.Tool{{"go", []string{"go", "build", "./..."}}}, []string{"go.mod", "go.work"}},
		"vet-go":              {tools.Reversible, []string{"go", "golang", "vet", "lint", "check"}, []catalog.Tool{{"go", []string{"go", "vet", "./..."}}}, []string{"go.mod", "go.work"}},
		"format-go":           {tools.ApprovalRequired, []string{"go", "golang", "format", "reformat", "formatter"}, []catalog.Tool{{"go", []string{"go", "fmt", "./..."}}}, []string{"go.mod", "go.work"}},
		"formatting-go":       {tools.ReadOnly, []string{"go", "golang", "gofmt", "formatting", "formatted", "unformatted"}, []catalog.Tool{{"gofmt", []string{"gofmt", "-l", "."}}}, []string{"go.mod", "go.work"}},
		"restore-go":          {tools.ApprovalRequired, []string{"go", "golang", "restore", "install", "reinstall"}, []catalog.Tool{{"go", []string{"go", "mod", "download"}}}, []string{"go.mod", "go.work"}},
		"run-go":              {tools.ApprovalRequired, []string{"go", "golang", "run", "start", "launch"}, []catalog.Tool{{"go", []string{"go", "run", "."}}}, []string{"go.mod"}},
		"test-dotnet":         {tools.Reversible, []string{"dotnet", "csharp", "fsharp", "solution", "test"}, []catalog.Tool{{"dotnet", []string{"dotnet", "test"}}}, []string{"*.sln", "*.slnx", "*.csproj", "*.fsproj", "*.vbproj", "global.json"}},
		"build-dotnet":        {tools.Reversible, []string{"dotnet", "csharp", "fsharp", "solution", "build", "compile"}, []catalog.Tool{{"dotnet", []string{"dotnet", "build"}}}, []string{"*.sln", "*.slnx", "*.csproj", "*.fsproj", "*.vbproj", "global.json"}},
		"format-dotnet":       {tools.ApprovalRequired, []string{"dotnet", "csharp", "fsharp", "format", "reformat", "formatter"}, []catalog.Tool{{"dotnet", []string{"dotnet", "format"}}}, []string{"*.sln", "*.slnx", "*.csproj", "*.fsproj", "*.vbproj", "global.json"}},
		"formatting-dotnet":   {tools.Reversible, []string{"dotnet", "csharp", "fsharp", "formatting", "formatted", "unformatted"}, []catalog.Tool{{"dotnet", []string{"dotnet", "format", "--verify-no-changes"}}}, []string{"*.sln", "*.slnx", "*.csproj", "*.fsproj", "*.vbproj", "global.json"}},
		"restore-dotnet":      {tools.Reversible, []string{"dotnet", "csharp", "fsharp", "nuget", "restore", "install", "reinstall"}, []catalog.Tool{{"dotnet", []string{"dotnet", "restore"}}}, []string{"*.sln", "*.slnx", "*.csproj", "*.fsproj", "*.vbproj", "global.json"}},
		"run-dotnet":          {tools.ApprovalRequired, []string{"dotnet", "csharp", "fsharp", "run", "start", "launch"}, []catalog.Tool{{"dotnet", []string{"dotnet", "run"}}}, []string{"*.csproj", "*.fsproj", "*.vbproj"}},
		"build-msbuild":       {tools.Reversible, []string{"msbuild", "visual-studio", "vcxproj", "c++", "cpp", "solution", "build", "compile"}, []catalog.Tool{{"msbuild", []string{"msbuild", "-nologo", "-restore"}}}, []string{"*.vcxproj"}},
		"test-python":         {tools.Reversible, []string{"python", "pytest", "test"}, []catalog.Tool{{"pytest", []string{"pytest"}}}, []string{"pytest.ini", "conftest.py", "pyproject.toml", "setup.cfg", "tox.ini", "setup.py"}},
		"lint-python":         {tools.Reversible, []string{"python", "ruff", "lint"}, []catalog.Tool{{"ruff", []string{"ruff", "check", "."}}}, []string{"ruff.toml", ".ruff.toml", "pyproject.toml#tool.ruff"}},
		"lint-pylint":         {tools.Reversible, []string{"pylint", "lint"}, []catalog.Tool{{"pylint", []string{"pylint", "--recursive=y", "."}}}, []string{".pylintrc", "pylintrc", "pyproject.toml#tool.pylint"}},
		"format-python":       {tools.ApprovalRequired, []string{"python", "ruff", "format", "reformat", "formatter"}, []catalog.Tool{{"ruff", []string{"ruff", "format", "."}}}, []string{"ruff.toml", ".ruff.toml", "pyproject.toml#tool.ruff"}},
		"formatting-python":   {tools.Reversible, []string{"python", "ruff", "formatting", "formatted", "unformatted"}, []catalog.Tool{{"ruff", []string{"ruff", "format", "--check", "."}}}, []string{"ruff.toml", ".ruff.toml", "pyproject.toml#tool.ruff"}},
		"restore-uv":          {tools.ApprovalRequired, []string{"python", "uv", "restore", "install", "reinstall"}, []catalog.Tool{{"uv", []string{"uv", "sync", "--locked"}}}, []string{"uv.lock"}},
		"restore-pip":         {tools.ApprovalRequired, []string{"python", "pip", "requirements", "restore", "install", "reinstall"}, []catalog.Tool{{"pip", []string{"pip", "install", "-r", "requirements.txt"}}}, []string{"requirements.txt"}},
		"lint-javascript":     {tools.Reversible, []string{"eslint", "javascript", "typescript", "lint"}, []catalog.Tool{{"eslint", []string{"eslint", "."}}}, []string{"eslint.config.*", ".eslintrc*", "package.json#eslintConfig", "package.json#devDependencies.eslint"}},
		"test-npm":            {tools.Reversible, []string{"npm", "node", "nodejs", "javascript", "typescript", "script", "test"}, []catalog.Tool{{"npm", []string{"npm", "test"}}}, []string{"package.json#scripts.test"}},
		"lint-npm":            {tools.Reversible, []string{"npm", "node", "nodejs", "script", "lint"}, []catalog.Tool{{"npm", []string{"npm", "run", "lint"}}}, []string{"package.json#scripts.lint"}},
		"build-npm":           {tools.Reversible, []string{"npm", "node", "nodejs", "javascript", "typescript", "script", "build"}, []catalog.Tool{{"npm", []string{"npm", "run", "build"}}}, []string{"package.json#scripts.build"}},
		"restore-npm":         {tools.ApprovalRequired, []string{"npm", "node", "nodejs", "javascript", "typescript", "restore", "install", "reinstall"}, []catalog.Tool{{"npm", []string{"npm", "ci"}}}, []string{"package-lock.json", "npm-shrinkwrap.json"}},
		"restore-pnpm":        {tools.ApprovalRequired, []string{"pnpm", "node", "nodejs", "javascript", "typescript", "restore", "install", "reinstall"}, []catalog.Tool{{"pnpm", []string{"pnpm", "install", "--frozen-lockfile"}}}, []string{"pnpm-lock.yaml"}},
		"restore-yarn":        {tools.ApprovalRequired, []string{"yarn", "node", "nodejs", "javascript", "typescript", "restore", "install", "reinstall"}, []catalog.Tool{{"yarn", []string{"yarn", "install", "--frozen-lockfile"}}}, []string{"yarn.lock"}},
		"restore-bun":         {tools.ApprovalRequired, []string{"bun", "node", "nodejs", "javascript", "typescript", "restore", "install", "reinstall"}, []catalog.Tool{{"bun", []string{"bun", "install", "--frozen-lockfile"}}}, []string{"bun.lock", "bun.lockb"}},
		"format-prettier":     {tools.ApprovalRequired, []string{"prettier", "javascript", "typescript", "format", "reformat", "formatter"}, []catalog.Tool{{"prettier", []string{"prettier", "--write", "."}}}, []string{".prettierrc", ".prettierrc.*", "prettier.config.*", "package.json#prettier", "package.json#devDependencies.prettier"}},
		"formatting-prettier": {tools.Reversible, []string{"prettier", "javascript", "typescript", "formatting", "formatted", "unformatted"}, []catalog.Tool{{"prettier", []string{"prettier", "--check", "."}}}, []string{".prettierrc", ".prettierrc.*", "prettier.config.*", "package.json#prettier", "package.json#devDependencies.prettier"}},
		"test-cargo":          {tools.Reversible, []string{"rust", "cargo", "test"}, []catalog.Tool{{"cargo", []string{"cargo", "test"}}}, []string{"Cargo.toml"}},
		"build-cargo":         {tools.Reversible, []string{"rust", "cargo", "build", "compile"}, []catalog.Tool{{"cargo", []string{"cargo", "build"}}}, []string{"Cargo.toml"}},
		"check-cargo":         {tools.Reversible, []string{"rust", "cargo", "check"}, []catalog.Tool{{"cargo", []string{"cargo", "check"}}}, []string{"Cargo.toml"}},
		"clippy-cargo":        {tools.Reversible, []string{"rust", "cargo", "clippy", "lint"}, []catalog.Tool{{"cargo", []string{"cargo", "clippy"}}}, []string{"Cargo.toml"}},
		"format-cargo":        {tools.ApprovalRequired, []string{"rust", "cargo", "rustfmt", "format", "reformat", "formatter"}, []catalog.Tool{{"cargo", []string{"cargo", "fmt"}}}, []string{"Cargo.toml"}},
		"formatting-cargo":    {tools.Reversible, []string{"rust", "cargo", "formatting", "formatted", "unformatted"}, []catalog.Tool{{"cargo", []string{"cargo", "fmt", "--check"}}}, []string{"Cargo.toml"}},
		"restore-cargo":       {tools.Reversible, []string{"rust", "cargo", "restore", "install", "reinstall"}, []catalog.Tool{{"cargo", []string{"cargo", "fetch", "--locked"}}}, []string{"Cargo.toml"}},
		"run-cargo":           {tools.ApprovalRequired, []string{"rust", "cargo", "run", "start", "launch"}, []catalog.Tool{{"cargo", []string{"cargo", "run"}}}, []string{"Cargo.toml"}},
		"configure-cmake":     {tools.Reversible, []string{"cmake", "configure", "c++", "cpp"}, []catalog.Tool{{"cmake", []string{"cmake", "-S", ".", "-B", "build"}}}, []string{"CMakeLists.txt"}},
		"build-cmake":         {tools.Reversible, []string{"cmake", "c++", "cpp", "build", "compile"}, []catalog.Tool{{"cmake", []string{"cmake", "--build", "build"}}}, []string{"CMakeLists.txt"}},
		"test-cmake":          {tools.Reversible, []string{"cmake", "ctest", "c++", "cpp", "test"}, []catalog.Tool{{"ctest", []string{"ctest", "--test-dir", "build", "--output-on-failure"}}}, []string{"CMakeLists.txt"}},
	}
	if len(wantCaps) != len(want) {
		t.Fatalf("%d rows for %d ids", len(wantCaps), len(want))
	}
	for id, w := range wantCaps {
		cp, ok := c.Get(id)
		if !ok {
			t.Fatalf("%s missing", id)
		}
		if cp.ID != id || cp.Description == "" {
			t.Errorf("%s: id %q description %q", id, cp.ID, cp.Description)
		}
		if diff := cmp.Diff(w, row{cp.Safety, cp.Tags, cp.Tools, cp.ProjectFiles}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", id, diff)
		}
	}
}

func TestLoadOrderAndDefaults(t *testing.T) {
	src := `
zeta: {description: last letter, tools: [{name: z, argv: [z]}]}
alpha:
  description: first letter
  safety: read-only
  tools: [{name: a, argv: [a, "--flag", "two words"]}]
mid: {"description": "json style", "safety": "forbidden", "tags": ["x"], "tools": [{"name": "m", "argv": ["m"]}]}
files: {description: f, tools: [{name: f, argv: [f]}], project_files: [go.mod, "*.sln", "package.json#scripts.test", "setup.cfg#tool:pytest", "Cargo.toml#workspace.members"]}
`
	c, err := catalog.Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"zeta", "alpha", "mid", "files"}, c.IDs()); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
	z, _ := c.Get("zeta")
	if z.Safety != tools.ApprovalRequired {
		t.Errorf("absent safety = %q, want approval-required", z.Safety)
	}
	a, _ := c.Get("alpha")
	if diff := cmp.Diff([]string{"a", "--flag", "two words"}, a.Tools[0].Argv); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	m, _ := c.Get("mid")
	if m.Safety != tools.Forbidden {
		t.Errorf("mid safety = %q", m.Safety)
	}
	if z.ProjectFiles != nil {
		t.Errorf("absent project_files = %q", z.ProjectFiles)
	}
	fl, _ := c.Get("files")
	if diff := cmp.Diff([]string{"go.mod", "*.sln", "package.json#scripts.test", "setup.cfg#tool:pytest", "Cargo.toml#workspace.members"}, fl.ProjectFiles); diff != "" {
		t.Errorf("project_files (-want +got):\n%s", diff)
	}
	if _, ok := c.Get("nope"); ok {
		t.Error("Get of an unknown id succeeded")
	}
}

func TestGetReturnsCopies(t *testing.T) {
	c, err := catalog.Load([]byte("a: {description: d, tags: [t], tools: [{name: tl, argv: [tl]}], project_files: [go.mod]}"))
	if err != nil {
		t.Fatal(err)
	}
	cp, _ := c.Get("a")
	cp.Tags[0] = "changed"
	cp.ProjectFiles[0] = "changed"
	cp.Tools[0].Argv[0] = "changed"
	ids := c.IDs()
	ids[0] = "changed"
	again, _ := c.Get("a")
	if again.Tags[0] != "t" || again.Tools[0].Argv[0] != "tl" || again.ProjectFiles[0] != "go.mod" || c.IDs()[0] != "a" {
		t.Fatal("catalog was mutated through a returned value")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the error
	}{
		{"empty", "", []string{"empty"}},
		{"blank", "  \n\t", []string{"empty"}},
		{"not yaml", "a: [unclosed", []string{"not valid YAML"}},
		{"duplicate id", "a: {description: d, tools: [{name: tl, argv: [tl]}]}\na: {description: d, tools: [{name: tl, argv: [tl]}]}", []string{"not valid YAML"}},
		{"list root", "- a\n- b", []string{"root must be a mapping"}},
		{"scalar root", "hello", []string{"root must be a mapping"}},
		{"null root", "null", []string{"root must be a mapping"}},
		{"empty id", `"": {description: d, tools: [{name: tl, argv: [tl]}]}`, []string{"id must be a non-empty string"}},
		{"blank id", `"  ": {description: d, tools: [{name: tl, argv: [tl]}]}`, []string{"id must be a non-empty string"}},
		{"spec not mapping", "a: [1, 2]", []string{`capability "a"`, "must be a mapping"}},
		{"spec null", "a:", []string{`capability "a"`, "must be a mapping"}},
		{"missing description", "a: {tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "description"}},
		{"blank description", "a: {description: '  ', tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "description"}},
		{"description not string", "a: {description: [x], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "description"}},
		{"bad safety", "a: {description: d, safety: safe, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "safety", `"safe"`}},
		{"checkpoint safety", "a: {description: d, safety: checkpoint, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "safety"}},
		{"safety wrong case", "a: {description: d, safety: Read-Only, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "safety"}},
		{"no tools", "a: {description: d}", []string{`capability "a"`, "tools"}},
		{"empty tools", "a: {description: d, tools: []}", []string{`capability "a"`, "tools"}},
		{"tool not mapping", "a: {description: d, tools: [git]}", []string{`capability "a"`, "tools[0]", "mapping"}},
		{"tool without name", "a: {description: d, tools: [{argv: [tl]}]}", []string{`capability "a"`, "tools[0].name"}},
		{"tool blank name", "a: {description: d, tools: [{name: '', argv: [tl]}]}", []string{`capability "a"`, "tools[0].name"}},
		{"tool without argv", "a: {description: d, tools: [{name: tl}]}", []string{`capability "a"`, "tools[0].argv"}},
		{"tool empty argv", "a: {description: d, tools: [{name: tl, argv: []}]}", []string{`capability "a"`, "tools[0].argv"}},
		{"empty argv element", "a: {description: d, tools: [{name: tl, argv: [tl, '']}]}", []string{`capability "a"`, "tools[0].argv[1]"}},
		{"null argv element", "a: {description: d, tools: [{name: tl, argv: [tl, null]}]}", []string{`capability "a"`, "tools[0].argv[1]"}},
		{"argv not list", "a: {description: d, tools: [{name: tl, argv: git status}]}", []string{`capability "a"`, "tools[0]", "argv"}},
		{"second tool bad", "a: {description: d, tools: [{name: tl, argv: [tl]}, {name: tm}]}", []string{`capability "a"`, "tools[1].argv"}},
		{"blank tag", "a: {description: d, tags: [''], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "tags[0]"}},
		{"unknown capability field", "a: {description: d, owner: me, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, `unknown field "owner"`}},
		{"removed check_argv", "a: {description: d, tools: [{name: tl, argv: [tl], check_argv: [tl, --version]}]}", []string{`capability "a"`, "tools[0]", `unknown field "check_argv"`}},
		{"removed verify_argv", "a: {description: d, tools: [{name: tl, argv: [tl], verify_argv: [tl]}]}", []string{`capability "a"`, `unknown field "verify_argv"`}},
		{"removed rollback_argv", "a: {description: d, tools: [{name: tl, argv: [tl], rollback_argv: [tl]}]}", []string{`capability "a"`, `unknown field "rollback_argv"`}},
		{"project_files not list", "a: {description: d, project_files: go.mod, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files"}},
		{"project_files blank", "a: {description: d, project_files: [''], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "non-empty"}},
		{"project_files spaced", "a: {description: d, project_files: [' go.mod'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "surrounding spaces"}},
		{"project_files path", "a: {description: d, project_files: [src/go.mod], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "not a path"}},
		{"project_files parent", "a: {description: d, project_files: [go.mod, ..], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[1]", "root"}},
		{"project_files backslash", `a: {description: d, project_files: ['..\x'], tools: [{name: tl, argv: [tl]}]}`, []string{`capability "a"`, "project_files[0]", "not a path"}},
		{"project_files drive", "a: {description: d, project_files: ['C:go.mod'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "not a path"}},
		{"project_files bad glob", "a: {description: d, project_files: ['[x'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "pattern"}},
		{"fact of a glob", "a: {description: d, project_files: ['*.json#scripts.test'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "literal file name"}},
		{"fact of unreadable kind", "a: {description: d, project_files: ['go.mod#module'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", ".json, .toml"}},
		{"fact empty key", "a: {description: d, project_files: ['package.json#'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "invalid key"}},
		{"fact empty part", "a: {description: d, project_files: ['package.json#scripts..test'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "invalid key"}},
		{"fact too long", "a: {description: d, project_files: ['package.json#" + strings.Repeat("k", 200) + "'], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "project_files[0]", "at most 200"}},
		{"error names later capability", "ok: {description: d, tools: [{name: tl, argv: [tl]}]}\nbad: {description: d, tools: []}", []string{`capability "bad"`, "tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := catalog.Load([]byte(tt.src))
			if err == nil {
				t.Fatalf("Load succeeded with ids %v", c.IDs())
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadOrShipped(t *testing.T) {
	s, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	got, err := catalog.LoadOrShipped(nil)
	if err != nil || got != s {
		t.Fatalf("nil source: %v, %v (want the shipped catalog)", got, err)
	}
	own, err := catalog.LoadOrShipped([]byte("only: {description: d, tools: [{name: tl, argv: [tl]}]}"))
	if err != nil || !cmp.Equal(own.IDs(), []string{"only"}) {
		t.Fatalf("own source: %v, %v", own, err)
	}
	if _, err := catalog.LoadOrShipped([]byte{}); err == nil {
		t.Fatal("an empty (non-nil) source must be a load error, not the shipped catalog")
	}
}
