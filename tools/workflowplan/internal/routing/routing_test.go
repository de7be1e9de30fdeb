package routing_test

import (
	"encoding/json"
	"flag"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	wda "github.com/windows-dev-agent/wda"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"run the Python tests", []string{"python", "run", "test", "tests", "the"}},
		{"a b c", []string{}},
		{"Unit-Tests", []string{"test", "tests", "unit", "unit-test", "unit-tests"}},
		{"class pass", []string{"class", "pass"}},
		{"bus gas", []string{"bus", "gas"}}, // not longer than 3 chars: no singular
		{"dotnet.tests+x", []string{"dotnet", "dotnet.tests+x", "test", "tests"}},
		{"C# / C++ builds!", []string{"builds", "build", "c++", "csharp"}},
		{"F# and c#, not x#", []string{"and", "fsharp", "csharp", "not"}},
		{"the .NET tests on ASP.NET.", []string{"the", ".net", "net", "dotnet", "tests", "test", "on", "asp.net.", "asp"}},
		{"dotnet network", []string{"dotnet", "network"}},
		{"go_mod__tidy", []string{"go", "go_mod__tidy", "mod", "tidy"}},
		{"tests.", []string{"test", "tests", "tests."}},
		{"ÜBER über", []string{"ber"}}, // non-ASCII letters split runs
	}
	for _, tt := range tests {
		got := routing.Tokens(tt.in)
		want := append([]string{}, tt.want...)
		slicesSort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Tokens(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func slicesSort(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// avail answers from a fixed map of capability id to tool name.
func avail(m map[string]string) routing.Availability {
	return func(id string) (string, bool) { n, ok := m[id]; return n, ok }
}

func mustLoad(t *testing.T, src string) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const tieCatalog = `
alpha: {description: First widget helper., safety: reversible, tags: [widget], tools: [{name: alpha-tool, argv: [alpha-tool]}]}
beta: {description: Second widget helper., safety: read-only, tags: [widget], tools: [{name: beta-tool, argv: [beta-tool]}]}
gamma: {description: Unrelated gadget., safety: approval-required, tags: [gadget], tools: [{name: gamma-tool, argv: [gamma-tool]}]}
`

// pinCatalog has a two-tool capability, an approval-required one with project files, a
// reversible one with project files and one that installs.
const pinCatalog = `
lint: {description: Lint the code., safety: reversible, tags: [lint], tools: [{name: ruff, argv: [ruff]}, {name: pylint, argv: [pylint]}]}
ship: {description: Ship a release., safety: approval-required, tags: [build, release], tools: [{name: shipper, argv: [shipper]}], project_files: [Makefile]}
make: {description: Make the default target., safety: reversible, tags: [build], tools: [{name: make, argv: [make]}], project_files: [GNUmakefile]}
deps: {description: Restore the dependencies., safety: reversible, tags: [install, dependencies], tools: [{name: restore, argv: [restore]}]}
`

type scenario struct {
	name          string
	catalog       string // "" means the shipped catalog
	task, context string
	available     map[string]string
	project       *routing.ProjectEvidence
	check         func(t *testing.T, r routing.Route)
}

func scenarios() []scenario {
	shippedAll := map[string]string{}
	shipped := mustLoadShipped()
	for _, id := range shipped.IDs() {
		cp, _ := shipped.Get(id)
		shippedAll[id] = cp.Tools[0].Name
	}
	return []scenario{
		{name: "python_tests_selected", task: "run the Python tests", available: map[string]string{"test-python": "pytest"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Selected, "test-python", "test-python")
				c := r.CandidateCapabilities
				if c[0].Capability != "test-python" || c[0].DiscriminatingScore != 1 || c[0].IdentityScore != 2 || c[0].OperationScore != 1 {
					t.Errorf("top candidate %+v", c[0])
				}
				if diff := cmp.Diff([]string{"python"}, c[0].DiscriminatingMatches); diff != "" {
					t.Errorf("discriminating matches (-want +got):\n%s", diff)
				}
				for _, x := range c {
					switch x.Capability {
					case "test-dotnet":
						if x.DiscriminatingScore != 0 || x.IdentityScore != 1 || x.OperationScore != 1 {
							t.Errorf("test-dotnet %+v", x)
						}
					case "lint-python":
						// It names the language but does not test: below every tester.
						if x.DiscriminatingScore != 1 || x.OperationScore != 0 {
							t.Errorf("lint-python %+v", x)
						}
					}
				}
				if r.RouteDiscriminator != nil {
					t.Errorf("selected route has a discriminator %+v", r.RouteDiscriminator)
				}
				if r.Phases[1].Action != "Select capability test-python" || r.Phases[2].SafetyClass != tools.Reversible {
					t.Errorf("phases %+v", r.Phases)
				}
			}},
		{name: "python_tests_without_pytest", task: "run the Python tests", available: map[string]string{"lint-python": "ruff"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.MatchedUnavailable, "test-python", "")
				d := r.RouteDiscriminator
				if d == nil || !cmp.Equal(d.Candidates, []string{"test-python"}) || !cmp.Equal(d.Rank, []int{1, 1, 0, 2, r.MatchedCandidate.DescriptionScore}) ||
					!cmp.Equal(d.ConfiguredTools, map[string][]string{"test-python": {"pytest"}}) || d.Availability != nil {
					t.Errorf("discriminator %+v", d)
				}
				if !strings.Contains(r.Phases[1].Action, "cannot run the task as asked") || !strings.Contains(r.Phases[1].Action, "test-python") {
					t.Errorf("route action %q", r.Phases[1].Action)
				}
				if r.Phases[2].SafetyClass != routing.Unresolved {
					t.Errorf("execute phase %+v", r.Phases[2])
				}
			}},
		{name: "go_tests_selected", task: "run the go tests", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Selected, "test-go", "test-go")
				if *r.SelectedCandidate.AvailableTool != "go" {
					t.Errorf("available tool %v", r.SelectedCandidate.AvailableTool)
				}
			}},
		{name: "generic_words_only", task: "run tests", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.NoMatch, "", "")
				d := r.RouteDiscriminator
				if d == nil || len(d.Candidates) == 0 || len(d.Candidates) > 5 || d.Rank != nil || !strings.Contains(d.Reason, "generic identity overlap") {
					t.Errorf("discriminator %+v", d)
				}
			}},
		{name: "nothing_in_common", task: "paint fence", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.NoMatch, "", "")
				if r.RouteDiscriminator != nil {
					t.Errorf("discriminator %+v, want null", r.RouteDiscriminator)
				}
			}},
		{name: "context_discriminates", task: "run the tests", context: "this is a .NET project, use dotnet", available: shippedAll,
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "test-dotnet", "test-dotnet") }},
		{name: "tie", catalog: tieCatalog, task: "use the widget", available: map[string]string{"alpha": "alpha-tool", "beta": "beta-tool"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Ambiguous, "", "")
				d := r.RouteDiscriminator
				if d == nil || !cmp.Equal(d.Candidates, []string{"alpha", "beta"}) || d.ConfiguredTools != nil {
					t.Fatalf("discriminator %+v", d)
				}
				if !strings.Contains(r.Phases[1].Action, "tied") || r.Phases[2].SafetyClass != routing.Unresolved {
					t.Errorf("phases %+v", r.Phases)
				}
			}},
		{name: "tie_not_broken_by_availability", catalog: tieCatalog, task: "use the widget", available: map[string]string{"beta": "beta-tool"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Ambiguous, "", "")
				d := r.RouteDiscriminator
				b := "beta-tool"
				if diff := cmp.Diff(map[string]*string{"alpha": nil, "beta": &b}, d.Availability); diff != "" {
					t.Errorf("availability (-want +got):\n%s", diff)
				}
			}},
		{name: "description_only", catalog: tieCatalog, task: "second helper", available: map[string]string{"alpha": "alpha-tool", "beta": "beta-tool"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.NoMatch, "", "")
				top := r.CandidateCapabilities[0]
				if top.Capability != "beta" || top.DescriptionScore != 2 || top.DiscriminatingScore != 0 {
					t.Errorf("top %+v", top)
				}
				d := r.RouteDiscriminator
				if d == nil || !strings.Contains(d.Reason, "description-only") || !cmp.Equal(d.Candidates, []string{"beta", "alpha"}) {
					t.Errorf("discriminator %+v", d)
				}
			}},
		{name: "unique_unavailable_no_fallback", catalog: tieCatalog, task: "gadget widget", available: map[string]string{"alpha": "alpha-tool", "beta": "beta-tool"},
			check: func(t *testing.T, r routing.Route) {
				// All three have one discriminating match, so the rank ties three ways.
				want(t, r, routing.Ambiguous, "", "")
			}},
		{name: "unique_gadget_unavailable", catalog: tieCatalog, task: "the gadget", available: map[string]string{"alpha": "alpha-tool", "beta": "beta-tool"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.MatchedUnavailable, "gamma", "")
				if !strings.Contains(r.Phases[1].Action, "cannot run the task as asked") {
					t.Errorf("route action %q", r.Phases[1].Action)
				}
			}},
		{name: "named_tool_not_the_one_that_would_run", catalog: pinCatalog, task: "run pylint", available: map[string]string{"lint": "ruff"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.MatchedUnavailable, "lint", "")
				d := r.RouteDiscriminator
				if !strings.Contains(d.Reason, "names pylint") || !strings.Contains(d.Reason, "would run ruff") {
					t.Errorf("reason %q", d.Reason)
				}
				if !cmp.Equal(r.MatchedCandidate.NamedTools, []string{"pylint"}) {
					t.Errorf("named tools %v", r.MatchedCandidate.NamedTools)
				}
			}},
		{name: "named_tool_is_the_one_that_would_run", catalog: pinCatalog, task: "run pylint", available: map[string]string{"lint": "pylint"},
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "lint", "lint") }},
		{name: "project_never_selects_approval_required", catalog: pinCatalog, task: "build it", available: map[string]string{"ship": "shipper"},
			project: &routing.ProjectEvidence{Inspected: true, Found: []string{"Makefile"}, Files: []string{"Makefile"}, Read: []string{}, Skipped: []routing.SkippedFile{}},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.NoMatch, "", "")
				for _, c := range r.CandidateCapabilities {
					if c.Capability == "ship" && (c.ProjectScore != 0 || !cmp.Equal(c.ProjectEvidence, []string{"Makefile"})) {
						t.Errorf("ship %+v", c)
					}
				}
			}},
		{name: "project_selects_reversible", catalog: pinCatalog, task: "build it", available: map[string]string{"make": "make"},
			project: &routing.ProjectEvidence{Inspected: true, Found: []string{"GNUmakefile"}, Files: []string{"GNUmakefile"}, Read: []string{}, Skipped: []routing.SkippedFile{}},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Selected, "make", "make")
				if c := r.SelectedCandidate; c.ProjectScore != 1 || c.DiscriminatingScore != 0 || c.OperationScore != 1 {
					t.Errorf("selected %+v", c)
				}
			}},
		{name: "project_does_not_override_the_task_subject", task: "run the python tests", available: shippedAll,
			project: &routing.ProjectEvidence{Inspected: true, Found: []string{"go.mod"}, Files: []string{"go.mod"}, Read: []string{}, Skipped: []routing.SkippedFile{}},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Selected, "test-python", "test-python")
				for _, c := range r.CandidateCapabilities {
					if c.Capability == "test-go" && (c.ProjectScore != 0 || !cmp.Equal(c.ProjectEvidence, []string{"go.mod"})) {
						t.Errorf("test-go %+v", c)
					}
				}
			}},
		{name: "polyglot_project_is_ambiguous", task: "run the tests", available: shippedAll,
			project: &routing.ProjectEvidence{Inspected: true, Found: []string{"go.mod", "package.json#scripts.test"}, Files: []string{"go.mod", "package.json"},
				Read: []string{"package.json"}, Skipped: []routing.SkippedFile{}},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Ambiguous, "", "")
				if d := r.RouteDiscriminator; !cmp.Equal(d.Candidates, []string{"test-go", "test-npm"}) || !cmp.Equal(d.Rank, []int{1, 0, 1, 1, 0}) {
					t.Errorf("discriminator %+v", d)
				}
			}},
		{name: "subject_without_the_operation", task: "create the go module", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.NoMatch, "", "")
				d := r.RouteDiscriminator
				if d == nil || !strings.Contains(d.Reason, "do not perform its operation") {
					t.Fatalf("discriminator %+v", d)
				}
				for _, id := range []string{"build-go", "test-go", "vet-go"} {
					if !strings.Contains(d.Reason, id) {
						t.Errorf("reason does not name %s: %q", id, d.Reason)
					}
				}
			}},
		{name: "install_routes_to_package_setup", task: "install git", available: shippedAll,
			project: &routing.ProjectEvidence{Inspected: true, Found: []string{".git"}, Files: []string{".git"}, Read: []string{}, Skipped: []routing.SkippedFile{}},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.PackageSetup, "", "")
				if diff := cmp.Diff(&routing.Setup{Query: "git", SearchArguments: map[string]any{"query": "git"}}, r.PackageSetup); diff != "" {
					t.Errorf("setup (-want +got):\n%s", diff)
				}
				if r.Phases[2].SafetyClass != tools.ApprovalRequired || !strings.Contains(r.Phases[2].Action, "package_install") ||
					!strings.Contains(r.Phases[1].Action, "package_search") {
					t.Errorf("phases %+v", r.Phases)
				}
			}},
		{name: "install_with_a_named_manager", task: "scoop install ripgrep", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.PackageSetup, "", "")
				if diff := cmp.Diff(&routing.Setup{Query: "ripgrep", Source: "scoop", SearchArguments: map[string]any{"query": "ripgrep", "source": "scoop"}}, r.PackageSetup); diff != "" {
					t.Errorf("setup (-want +got):\n%s", diff)
				}
			}},
		// Removing or upgrading starts from the installed packages (issue 25's actions).
		{name: "uninstall_routes_to_the_installed_list", task: "uninstall git", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.PackageSetup, "", "")
				if diff := cmp.Diff(&routing.Setup{Query: "git", Action: "uninstall", SearchArguments: map[string]any{"query": "git", "installed": true}}, r.PackageSetup); diff != "" {
					t.Errorf("setup (-want +got):\n%s", diff)
				}
				if r.NextTool == nil || r.NextTool.Name != routing.ToolPackageSearch || !strings.Contains(r.NextTool.Reason, "action uninstall") {
					t.Errorf("next_tool %+v", r.NextTool)
				}
			}},
		{name: "upgrade_routes_to_the_upgrades_list", task: "choco upgrade python", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.PackageSetup, "", "")
				if diff := cmp.Diff(&routing.Setup{Query: "python", Source: "chocolatey", Action: "upgrade",
					SearchArguments: map[string]any{"query": "python", "upgrades": true, "source": "chocolatey"}}, r.PackageSetup); diff != "" {
					t.Errorf("setup (-want +got):\n%s", diff)
				}
			}},
		{name: "install_capability_in_the_catalog_wins", catalog: pinCatalog, task: "install the dependencies", available: map[string]string{"deps": "restore"},
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "deps", "deps") }},
		// A capability tagged install restores dependencies; it never takes over the
		// install of a program.
		{name: "install_a_program_beside_a_deps_capability", catalog: pinCatalog, task: "install ripgrep", available: map[string]string{"deps": "restore"},
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.PackageSetup, "", "")
				nextTool(t, r, routing.ToolPackageSearch, map[string]any{"query": "ripgrep"}, tools.ApprovalRequired)
			}},
		{name: "npm_install_restores", task: "npm install", available: shippedAll,
			project: goProject("package-lock.json"),
			check:   func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "restore-npm", "restore-npm") }},
		// Project files pick a capability that needs approval when the task names its
		// action in words, never on generic words.
		{name: "project_selects_approval_required_named_action", catalog: pinCatalog, task: "release it", available: map[string]string{"ship": "shipper"},
			project: goProject("Makefile"),
			check:   func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "ship", "ship") }},
		{name: "format_in_a_go_module", task: "format the code", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Selected, "format-go", "format-go")
				if r.Phases[2].SafetyClass != tools.ApprovalRequired {
					t.Errorf("execute class %s", r.Phases[2].SafetyClass)
				}
				nextTool(t, r, routing.ToolCapabilityRun, map[string]any{"capability": "format-go"}, tools.ApprovalRequired)
			}},
		{name: "deploy_is_not_run", task: "deploy the go app", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) {
				if r.SelectedCandidate != nil && r.SelectedCandidate.Capability == "run-go" {
					t.Errorf("deploy selected run-go")
				}
			}},
		{name: "formatting_report_not_rewrite", task: "check the formatting", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "formatting-go", "formatting-go") }},
		{name: "quoted_command_whole_beats_part", task: "dotnet format", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Selected, "format-dotnet", "format-dotnet")
				if got := r.SelectedCandidate.DiscriminatingMatches; !cmp.Equal(got, []string{"dotnet", "format"}) {
					t.Errorf("discriminating %v", got)
				}
			}},
		{name: "quoted_command_with_option", task: "cargo fmt --check", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.Selected, "formatting-cargo", "formatting-cargo")
			}},
		// Other tools (docs/tools/workflow_plan.md, "Other tools").
		{name: "mcp_config_in_a_go_module", task: "check my MCP config", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.OtherTool, "", "")
				nextTool(t, r, routing.ToolMCPAudit, map[string]any{}, tools.ReadOnly)
			}},
		{name: "code_operation_beats_a_subject", task: "run the MCP server tests", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "test-go", "test-go") }},
		{name: "check_my_go_code", task: "check my go code", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.Selected, "vet-go", "vet-go") }},
		{name: "subject_without_evidence_goes_to_its_tool", task: "run the MCP server tests", available: shippedAll,
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.OtherTool, "", "") }},
		{name: "question_beats_capability_evidence", task: "is go installed", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.OtherTool, "", "")
				nextTool(t, r, routing.ToolEnvInspect, map[string]any{}, tools.ReadOnly)
			}},
		{name: "which_python", task: "which Python do I have", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.OtherTool, "", "")
				nextTool(t, r, routing.ToolToolDiscover, map[string]any{"category": "runtimes"}, tools.ApprovalRequired)
			}},
		{name: "install_stays_package_setup", task: "install python if it is not installed", available: shippedAll,
			check: func(t *testing.T, r routing.Route) { want(t, r, routing.PackageSetup, "", "") }},
		{name: "capability_in_wsl", task: "run the go tests in WSL", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.OtherTool, "", "")
				nextTool(t, r, routing.ToolSandboxRun, map[string]any{"command": "go test ./...", "isolation_requirement": "linux_compatibility"}, tools.ApprovalRequired)
				if !strings.Contains(r.Phases[2].Action, "execute:false") {
					t.Errorf("execute %q", r.Phases[2].Action)
				}
			}},
		{name: "something_in_linux", task: "run this in Linux", available: shippedAll,
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.OtherTool, "", "")
				nextTool(t, r, routing.ToolSandboxRun, map[string]any{"isolation_requirement": "linux_compatibility"}, tools.ApprovalRequired)
				if !cmp.Equal(r.NextTool.Missing, []string{"command"}) || !strings.Contains(r.Phases[2].Entry, "command") {
					t.Errorf("missing %v, entry %q", r.NextTool.Missing, r.Phases[2].Entry)
				}
			}},
		{name: "failures_earlier", task: "what failed earlier", available: shippedAll, project: goProject("go.mod"),
			check: func(t *testing.T, r routing.Route) {
				want(t, r, routing.OtherTool, "", "")
				nextTool(t, r, routing.ToolLogsQuery, map[string]any{"filter": "failures"}, tools.ReadOnly)
			}},
	}
}

// goProject is project evidence of a root holding these catalog entries.
func goProject(found ...string) *routing.ProjectEvidence {
	return &routing.ProjectEvidence{Inspected: true, Found: found, Files: found, Read: []string{}, Skipped: []routing.SkippedFile{}}
}

func nextTool(t *testing.T, r routing.Route, name string, args map[string]any, class tools.Class) {
	t.Helper()
	nt := r.NextTool
	if nt == nil || nt.Name != name || nt.Class != class || nt.Reason == "" {
		t.Fatalf("next tool %+v, want %s (%s)", nt, name, class)
	}
	if diff := cmp.Diff(args, nt.Arguments); diff != "" {
		t.Errorf("arguments (-want +got):\n%s", diff)
	}
	if r.Phases[2].SafetyClass != class {
		t.Errorf("execute class %s, want %s", r.Phases[2].SafetyClass, class)
	}
}

func want(t *testing.T, r routing.Route, status, matched, selected string) {
	t.Helper()
	if r.SelectionStatus != status {
		t.Fatalf("selection_status = %q, want %q", r.SelectionStatus, status)
	}
	name := func(c *routing.Candidate) string {
		if c == nil {
			return ""
		}
		return c.Capability
	}
	if name(r.MatchedCandidate) != matched || name(r.SelectedCandidate) != selected {
		t.Fatalf("matched %q selected %q, want %q %q", name(r.MatchedCandidate), name(r.SelectedCandidate), matched, selected)
	}
	if len(r.Phases) != 4 {
		t.Fatalf("%d phases", len(r.Phases))
	}
	for i, p := range []string{"inspect", "route", "execute", "verify"} {
		if r.Phases[i].Phase != p {
			t.Errorf("phase %d = %q, want %q", i, r.Phases[i].Phase, p)
		}
	}
	if (selected == "" && status != routing.PackageSetup && status != routing.OtherTool) != (r.Phases[2].SafetyClass == routing.Unresolved) {
		t.Errorf("execute safety %q with selection %q", r.Phases[2].SafetyClass, selected)
	}
	if (status == routing.Selected || status == routing.PackageSetup || status == routing.OtherTool) != (r.NextTool != nil) {
		t.Errorf("next_tool %+v with status %s", r.NextTool, status)
	}
	if status == routing.OtherTool && (r.MatchedCandidate != nil || r.RouteDiscriminator != nil || r.PackageSetup != nil) {
		t.Errorf("execute safety %q with selection %q", r.Phases[2].SafetyClass, selected)
	}
}

func TestPlan(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			src := sc.catalog
			if src == "" {
				src = string(wda.CapabilitiesYAML)
			}
			cat := mustLoad(t, src)
			r := routing.Plan(cat, routing.Request{Task: sc.task, Context: sc.context, Available: avail(sc.available), Project: sc.project})
			if len(r.CandidateCapabilities) != len(cat.IDs()) {
				t.Fatalf("%d candidates for %d capabilities: all must be returned", len(r.CandidateCapabilities), len(cat.IDs()))
			}
			sc.check(t, r)
			golden(t, sc.name, r)
		})
	}
}

func mustLoadShipped() *catalog.Catalog {
	c, err := catalog.Load(wda.CapabilitiesYAML)
	if err != nil {
		panic(err)
	}
	return c
}

func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, filepath.Join("testdata", name+".golden.json"), append(got, '\n'), *update)
}

func TestSortOrder(t *testing.T) {
	cat := mustLoad(t, `
b-one: {description: python python, tags: [python], tools: [{name: x1, argv: [x1]}]}
a-two: {description: python thing, tags: [python], tools: [{name: x2, argv: [x2]}]}
c-three: {description: other, tags: [python, test], tools: [{name: x3, argv: [x3]}]}
d-four: {description: nothing, tools: [{name: x4, argv: [x4]}]}
`)
	r := routing.Plan(cat, routing.Request{Task: "python test"})
	var got []string
	for _, c := range r.CandidateCapabilities {
		got = append(got, c.Capability)
	}
	// c-three: (1,2,0); a-two and b-one: (1,1,1) -> id order; d-four: (0,0,0).
	if diff := cmp.Diff([]string{"c-three", "a-two", "b-one", "d-four"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if r.SelectionStatus != routing.MatchedUnavailable {
		t.Errorf("nil availability: status %q", r.SelectionStatus)
	}
}
