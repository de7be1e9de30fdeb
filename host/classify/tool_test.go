package classify

import (
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// fakeSpecs stand in for catalog-dependent rows: capability_run classifies by a tiny
// catalog (execute true: unknown → approval, flagged forbidden → forbidden,
// extra_args → approval, else the declared class).
func fakeSpecs() (Specs, tools.CatalogLookup) {
	catalog := map[string]tools.Class{"dangerous": tools.Forbidden, "tests": tools.Reversible,
		"lint": tools.ReadOnly, "deploy": tools.ApprovalRequired}
	specs := Specs{
		{Name: "capability_run", ProjectArg: "cwd", Classes: tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
			{When: tools.WhenTrue("execute"), Catalog: &tools.CatalogRef{ID: "capability", Extra: "extra_args"}}}}},
		{Name: "odd", Classes: tools.Classification{Base: "sort-of-safe"}},
	}
	return specs, func(id string) (tools.Class, bool) { c, ok := catalog[id]; return c, ok }
}

func TestShortName(t *testing.T) {
	cases := map[string]string{
		"mcp__windows-dev-agent__env_inspect":                              "env_inspect",
		"mcp__plugin_windows-dev-agent_windows-dev-agent__package_install": "package_install",
		"mcp__windows_dev_agent__workflow_plan":                            "workflow_plan",
		"mcp__windows-dev-agent__":                                         "",
		"mcp__other__env_inspect":                                          "",
		"env_inspect":                                                      "",
		"Bash":                                                             "",
	}
	for in, want := range cases {
		got, ok := ShortName(in)
		if got != want || ok != (want != "") {
			t.Errorf("ShortName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// The shipped tools' classes (docs/safety.md, "One classification, declared once").
func TestToolShipped(t *testing.T) {
	lookup := func(id string) (tools.Class, bool) { c, ok := ShippedCatalog[id]; return c, ok }
	cases := []struct {
		name  string
		input map[string]any
		want  tools.Class
	}{
		{"env_inspect", nil, ro},
		{"workflow_plan", map[string]any{"task": "x"}, ro},
		{"logs_query", nil, ro},
		{"tool_discover", nil, ap},
		{"package_search", map[string]any{"query": "git"}, ap},
		{"ecosystem_scan", nil, ro},
		{"ecosystem_scan", map[string]any{"include_host": false}, ro},
		{"ecosystem_scan", map[string]any{"include_host": true}, ap},
		{"ecosystem_scan", map[string]any{"include_host": "true"}, ro},
		{"mcp_audit", nil, ro},
		{"mcp_audit", map[string]any{"include_host": true}, ap},
		{"mcp_audit", map[string]any{"config_path": "x"}, ap},
		{"mcp_audit", map[string]any{"config_path": "  "}, ro},
		{"package_install", map[string]any{"package_id": "Git.Git", "execute": false}, ro},
		{"package_install", map[string]any{"package_id": "Git.Git"}, ro},
		{"package_install", map[string]any{"package_id": "Git.Git", "execute": true}, ap},
		{"package_install", map[string]any{"package_id": "Git.Git", "execute": true, "user_approved": true}, ap},
		{"package_install", map[string]any{"execute": "true"}, ro},
		{"package_install", map[string]any{"execute": 1}, ro},
		{"sandbox_run", map[string]any{"execute": false}, ro},
		{"sandbox_run", map[string]any{"execute": true}, ap},
		{"capability_run", map[string]any{"capability": "x"}, ro},
		{"unknown_tool", nil, ap},
	}
	for _, c := range cases {
		for _, prefix := range []string{PrefixClaude, PrefixClaudePlugin, PrefixCodex} {
			if got := Tool(Shipped, lookup, prefix+c.name, c.input); got != c.want {
				t.Errorf("Tool(%s%s, %v) = %s, want %s", prefix, c.name, c.input, got, c.want)
			}
		}
	}
}

func TestToolOthers(t *testing.T) {
	specs, lookup := fakeSpecs()
	cases := []struct {
		tool  string
		input map[string]any
		want  tools.Class
	}{
		{"Bash", map[string]any{"command": "git status"}, ro},
		{"PowerShell", map[string]any{"command": "Get-ChildItem C:\\src"}, ro},
		{"Bash", map[string]any{"command": 7}, ap},
		{"Bash", nil, ap},
		{"bash", map[string]any{"command": "git status"}, ap},
		{"Read", map[string]any{"file_path": "x"}, ap},
		{"mcp__other-server__env_inspect", nil, ap},
		{PrefixClaude + "odd", nil, fb}, // an invalid declaration fails closed
		// capability safety (docs/safety.md)
		{PrefixClaudePlugin + "capability_run", map[string]any{"capability": "dangerous", "execute": false}, ro},
		{PrefixClaudePlugin + "capability_run", map[string]any{"capability": "dangerous", "execute": true}, fb},
		{PrefixClaudePlugin + "capability_run", map[string]any{"capability": "deploy", "execute": true}, ap},
		{PrefixClaudePlugin + "capability_run", map[string]any{"capability": "tests", "execute": true}, rev},
		{PrefixClaudePlugin + "capability_run", map[string]any{"capability": "tests", "execute": true, "extra_args": []any{"-k"}}, ap},
		{PrefixClaudePlugin + "capability_run", map[string]any{"capability": "lint", "execute": true, "extra_args": []any{"x"}}, ap},
		{PrefixClaudePlugin + "capability_run", map[string]any{"capability": "nope", "execute": true}, ap},
	}
	for _, c := range cases {
		if got := Tool(specs, lookup, c.tool, c.input); got != c.want {
			t.Errorf("Tool(%s, %v) = %s, want %s", c.tool, c.input, got, c.want)
		}
	}
	if got := Tool(nil, nil, PrefixClaude+"env_inspect", nil); got != ap {
		t.Errorf("no specs gave %s", got)
	}
	if got := Tool(specs, nil, PrefixClaude+"capability_run", map[string]any{"capability": "tests", "execute": true}); got != ap {
		t.Errorf("no catalog gave %s", got)
	}
}

// TestToolCommandsInArguments (issue 22 §1, "Through this server's own tools"): the hook
// classifies the command sandbox_run would run, and the extra arguments of
// capability_run, with the shell classifier, so a forbidden one is denied rather than
// asked; the reason names the shell classifier's rule.
func TestToolCommandsInArguments(t *testing.T) {
	t.Parallel()
	lookup := func(id string) (tools.Class, bool) { c, ok := ShippedCatalog[id]; return c, ok }
	sandbox := func(cmd string, execute bool) map[string]any {
		return map[string]any{"command": cmd, "isolation_requirement": "linux_compatibility", "execute": execute}
	}
	run := func(id string, extra ...any) map[string]any {
		return map[string]any{"capability": id, "execute": true, "extra_args": extra}
	}
	cases := []struct {
		tool  string
		input map[string]any
		want  tools.Class
	}{
		{"sandbox_run", sandbox("rm -rf /mnt/c/Windows/System32", true), fb},
		{"sandbox_run", sandbox("cmd.exe /c format D:", true), fb},
		{"sandbox_run", sandbox("rm -rf /mnt/c/Windows/System32", false), ro}, // a plan runs nothing
		{"sandbox_run", sandbox("make test", true), ap},
		{"sandbox_run", map[string]any{"command": 7, "execute": true}, ap},
		{"capability_run", run("inspect-git", "/c", "format", "D:"), fb},
		{"capability_run", run("test-go", "-Command", "Format-Volume -DriveLetter D"), fb},
		{"capability_run", run("no-such", "/c", "format", "D:"), fb},
		{"capability_run", run("test-go", "-run", "TestX"), ap},
		{"capability_run", run("test-go", 7), ap},
	}
	for _, c := range cases {
		got, why := Decide(Shipped, lookup, PrefixCodex+c.tool, c.input)
		if got != c.want {
			t.Errorf("Decide(%s, %v) = %s (%s), want %s", c.tool, c.input, got, why, c.want)
		}
		if got == fb && !strings.Contains(why, "forbidden") {
			t.Errorf("Decide(%s, %v): reason %q does not say what is forbidden", c.tool, c.input, why)
		}
	}
	// With the catalog's argv known, extra arguments are read after it: a path is
	// forbidden after an argv that removes.
	argv := func(id string) ([][]string, bool) { return [][]string{{"wsl", "rm", "-rf"}}, id == "clean" }
	o := tools.Oracles{Catalog: func(string) (tools.Class, bool) { return ap, true }, CatalogArgv: argv}
	if got, _ := DecideWith(Shipped, o, PrefixClaude+"capability_run", run("clean", "/mnt/c/Windows")); got != fb {
		t.Errorf("argv and extra arguments together: %s, want forbidden", got)
	}
	if got, _ := DecideWith(Shipped, o, PrefixClaude+"capability_run", run("clean", "/tmp/out")); got != ap {
		t.Errorf("argv and harmless extra arguments: %s, want approval-required", got)
	}
}

func TestArgvQuoting(t *testing.T) {
	t.Parallel()
	for argv, want := range map[string]tools.Class{
		"cmd|/c|format D:": fb,
		"pwsh|-NoProfile|-Command|Format-Volume -DriveLetter D": fb,
		"git|log|--grep=format":                                 ro,
	} {
		if got, why := Argv(strings.Split(argv, "|")); got != want {
			t.Errorf("Argv(%s) = %s (%s), want %s", argv, got, why, want)
		}
	}
}
