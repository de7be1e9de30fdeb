package routing

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

func shippedCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Load(wda.CapabilitiesYAML)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestOtherTool: which questions read as another tool's, with which arguments, and
// which do not (the words alone, before the capability route weighs in).
func TestOtherTool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		task string
		name string // "" means no other tool
		args map[string]any
		weak bool
	}{
		{"check my MCP config", ToolMCPAudit, map[string]any{}, true},
		{"audit the global MCP servers", ToolMCPAudit, map[string]any{"include_host": true}, true},
		{"what's installed", ToolEnvInspect, map[string]any{}, false},
		{"is docker installed?", ToolEnvInspect, map[string]any{}, false},
		{"check if git is available", ToolEnvInspect, map[string]any{}, false},
		{"do I have WSL", ToolEnvInspect, map[string]any{}, false},
		{"is visual studio installed", ToolEnvInspect, map[string]any{}, false},
		{"what Windows build is this", ToolEnvInspect, map[string]any{}, false},
		{"is uv installed", ToolToolDiscover, map[string]any{"category": "package_managers"}, false},
		{"which Python do I have", ToolToolDiscover, map[string]any{"category": "runtimes"}, false},
		{"what versions of node and git are installed", ToolToolDiscover, map[string]any{"category": "all"}, false},
		{"what tools do I have", ToolToolDiscover, map[string]any{"category": "all"}, false},
		{"where is gh", ToolToolDiscover, map[string]any{"category": "vcs"}, false},
		{"find a package for ripgrep", ToolPackageSearch, map[string]any{"query": "ripgrep"}, false},
		{"look up Git.Git on winget", ToolPackageSearch, map[string]any{"query": "Git.Git", "source": "winget"}, false},
		{"search chocolatey for", ToolPackageSearch, map[string]any{"source": "chocolatey"}, false},
		{"search scoop for --global", ToolPackageSearch, map[string]any{"source": "scoop"}, false},
		{"run `cargo test --release` in WSL", ToolSandboxRun, map[string]any{"command": "cargo test --release", "isolation_requirement": "linux_compatibility"}, false},
		{"try it in the devcontainer", ToolSandboxRun, map[string]any{"isolation_requirement": "project_reproducibility"}, false},
		{"open the download in a sandbox", ToolSandboxRun, map[string]any{"isolation_requirement": "untrusted_windows"}, false},
		{"what failed earlier", ToolLogsQuery, map[string]any{"filter": "failures"}, false},
		{"show the audit log", ToolLogsQuery, map[string]any{}, false},
		{"what did you install", ToolLogsQuery, map[string]any{"filter": "installs"}, false},
		{"scan my AI setup", ToolEcosystemScan, map[string]any{}, true},
		{"list my installed VS Code extensions", ToolEcosystemScan, map[string]any{"include_host": true}, true},
		// Not another tool's question.
		{"run the tests", "", nil, false},
		{"is the code formatted", "", nil, false},
		{"is there a go test for the parser", "", nil, false},
		{"show the git log", "", nil, false},
		{"find which package defines Foo", "", nil, false},
		{"sync the virtual environment", "", nil, false},
		{"build the VS Code extension", "", nil, false},
		{"", "", nil, false},
	}
	for _, tt := range tests {
		nt := otherTool(tt.task, nil, nil)
		if tt.name == "" {
			if nt != nil {
				t.Errorf("%q: %+v, want none", tt.task, nt)
			}
			continue
		}
		if nt == nil || nt.Name != tt.name || nt.weak != tt.weak || nt.Reason == "" {
			t.Errorf("%q: %+v, want %s (weak %v)", tt.task, nt, tt.name, tt.weak)
			continue
		}
		if diff := cmp.Diff(tt.args, nt.Arguments); diff != "" {
			t.Errorf("%q arguments (-want +got):\n%s", tt.task, diff)
		}
	}
}

func TestShellJoin(t *testing.T) {
	t.Parallel()
	got := shellJoin([]string{"go", "test", "./...", "-run", "Test A", "it's", "", "a$b"})
	want := `go test ./... -run 'Test A' 'it'\''s' '' 'a$b'`
	if got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}

func TestCommandEvidence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		task  string
		argv  []string
		want  []string
		whole bool
	}{
		{"go test", []string{"go", "test", "./..."}, []string{"test"}, true},
		{"Run go test.", []string{"go", "test", "./..."}, []string{"test"}, true},
		{"please run go test ./... now", []string{"go", "test", "./..."}, []string{"test", "./..."}, true},
		{"dotnet format", []string{"dotnet", "format", "--verify-no-changes"}, []string{"format"}, false},
		{"cargo fmt --check", []string{"cargo", "fmt", "--check"}, []string{"fmt", "--check"}, true},
		{"cargo", []string{"cargo", "fmt"}, nil, false},
		{"fmt cargo", []string{"cargo", "fmt"}, nil, false},
		{"run `go fmt ./...`", []string{"go", "fmt", "./..."}, []string{"fmt", "./..."}, true},
		{"pytest -x", []string{"pytest"}, nil, false},
		{"npm run test", []string{"npm", "run", "build"}, nil, false},
		{"go mod tidy", []string{"go", "mod", "download"}, nil, false},
		{"npm run in the project", []string{"npm", "run", "build"}, []string{"run"}, false},
		{"dotnet format --no-restore", []string{"dotnet", "format", "--verify-no-changes"}, []string{"format"}, false},
	}
	for _, tt := range tests {
		got, whole := commandEvidence(commandWords(tt.task), tt.argv)
		if !cmp.Equal(tt.want, got) || whole != tt.whole {
			t.Errorf("commandEvidence(%q, %q) = %q %v, want %q %v", tt.task, tt.argv, got, whole, tt.want, tt.whole)
		}
	}
}

// enums are the argument values the target tools accept.
var enums = map[string][]string{
	"isolation_requirement": {"linux_compatibility", "project_reproducibility", "untrusted_windows"},
	"category":              {"all", "runtimes", "editors", "package_managers", "vcs"},
	"filter":                {"failures", "installs", "sandbox", "approvals"},
	"source":                {"winget", "chocolatey", "scoop"},
}

// FuzzPlan routes arbitrary tasks over the shipped catalog and checks what a route
// promises: a next_tool exactly for selected, package_setup and other_tool, with a
// known tool, arguments of the accepted shapes (printable text drawn from the task,
// bounded queries that never read as options, enum values), missing arguments absent
// from the arguments, and quoted command evidence that the task really quotes.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{"run the go tests in WSL", "search winget for -x", "find a package for " + strings.Repeat("é", 200),
		"run \"\x00\" in linux", "is docker installed", "check my MCP config", "dotnet format --verify-no-changes", "install the deps",
		"npm run build in the dev container", "what failed earlier today", "`", "go go go test test"} {
		f.Add(s)
	}
	cat := shippedCatalog(f)
	f.Fuzz(func(t *testing.T, task string) {
		r := Plan(cat, Request{Task: task, Available: func(string) (string, bool) { return "tool", true }})
		wantNext := r.SelectionStatus == Selected || r.SelectionStatus == PackageSetup || r.SelectionStatus == OtherTool
		if (r.NextTool != nil) != wantNext {
			t.Fatalf("%q: status %s with next_tool %+v", task, r.SelectionStatus, r.NextTool)
		}
		for _, c := range r.CandidateCapabilities {
			for _, m := range c.DiscriminatingMatches {
				if !strings.Contains(strings.ToLower(task), m) && !slices.Contains([]string{"start", "restore", "csharp", "fsharp", "dotnet"}, m) {
					t.Fatalf("%q: %s matched %q, which the task does not say", task, c.Capability, m)
				}
			}
		}
		nt := r.NextTool
		if nt == nil {
			return
		}
		if !slices.Contains([]string{ToolCapabilityRun, ToolPackageSearch, ToolEnvInspect, ToolToolDiscover, ToolSandboxRun,
			ToolEcosystemScan, ToolLogsQuery, ToolMCPAudit}, nt.Name) || nt.Reason == "" {
			t.Fatalf("%q: next tool %+v", task, nt)
		}
		if !slices.Contains([]tools.Class{tools.ReadOnly, tools.Reversible, tools.ApprovalRequired, tools.Forbidden}, nt.Class) ||
			r.Phases[2].SafetyClass != nt.Class && r.SelectionStatus != PackageSetup {
			t.Fatalf("%q: class %s, execute phase %s", task, nt.Class, r.Phases[2].SafetyClass)
		}
		for _, m := range nt.Missing {
			if _, ok := nt.Arguments[m]; ok {
				t.Fatalf("%q: %s both given and missing", task, m)
			}
		}
		for k, v := range nt.Arguments {
			switch k {
			case "include_host":
				if v != true {
					t.Fatalf("%q: include_host %v", task, v)
				}
			case "capability":
				if _, ok := cat.Get(v.(string)); !ok {
					t.Fatalf("%q: capability %v", task, v)
				}
			case "query", "command":
				s := v.(string)
				if s == "" || !utf8.ValidString(s) || s != strings.TrimSpace(s) || k == "query" && (len(s) > maxQuery || strings.HasPrefix(s, "-")) {
					t.Fatalf("%q: %s %q", task, k, s)
				}
				for _, c := range s {
					if !unicode.IsPrint(c) && c != ' ' {
						t.Fatalf("%q: unprintable %q in %s", task, c, k)
					}
				}
			default:
				if !slices.Contains(enums[k], v.(string)) {
					t.Fatalf("%q: %s = %v", task, k, v)
				}
			}
		}
	})
}
