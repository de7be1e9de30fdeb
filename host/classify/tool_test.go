package classify

import (
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
