// Package ecosystemscan is the ecosystem_scan tool (docs/tools/ecosystem_scan.md): an inventory of the
// project's AI/editor ecosystem (VS Code recommendations, MCP configs, agent config
// markers) and, with include_host, installed VS Code extensions, Claude plugins, Codex
// plugin folders and user-level MCP configs; with include_packages, winget list. It
// also reports hidden text (tools/internal/hiddentext) in skill, agent, command and
// instructions files, never the hidden text itself.
//
// It owns the tool definition, its classification and the inventory. A project-only
// scan must never resolve an executable or start a process (a test fails if the
// resolver is even consulted); processes start only through internal/proc; project files
// are read only through internal/guard; MCP configs are summarised structurally by
// tools/internal/mcpconfig and never returned raw. Unreadable parts become warnings, never a
// failed scan.
//
// Deliberate decisions (docs/tools/ecosystem_scan.md, "Decisions"): on Codex the host MCP
// configs include $CODEX_HOME/config.toml (as in mcp_audit); a missing `code` CLI is
// reported with the warning "VS Code CLI (code) is not available" (mirroring winget's),
// because an empty installed list would otherwise look like "no extensions"; AGENTS.md is
// an agent config marker (the issue lists it beside CLAUDE.md); winget lines are
// normalised as a console would show them (spinner overwrites removed) and blank lines
// are skipped before the 300-line cut.
package ecosystemscan

import (
	"context"

	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/hiddentext"
	"github.com/windows-dev-agent/wda/tools/internal/mcpconfig"
)

// In is the input of ecosystem_scan.
type In struct {
	Cwd             string `json:"cwd,omitempty"`
	IncludeHost     bool   `json:"include_host,omitempty"`
	IncludePackages bool   `json:"include_packages,omitempty"`
}

// Out is the result of ecosystem_scan. Inventory is absent when the call was refused.
type Out struct {
	tools.Status
	Inventory *Inventory `json:"inventory,omitempty"`
}

// Inventory is what was found. In Go its lists are never nil; its JSON leaves the empty
// ones out (compact.go).
type Inventory struct {
	ProjectRoot           string             `json:"project_root" jsonschema:"required"`
	HostInventoryIncluded bool               `json:"host_inventory_included" jsonschema:"required"`
	VSCode                VSCode             `json:"vscode" jsonschema:"required"`
	MCP                   []mcpconfig.Config `json:"mcp" jsonschema:"required"`
	AgentConfigs          []string           `json:"agent_configs" jsonschema:"required"`
	ClaudePlugins         []string           `json:"claude_plugins" jsonschema:"required"`
	Packages              Packages           `json:"packages" jsonschema:"required"`
	Warnings              []string           `json:"warnings" jsonschema:"required"`
	OverlapHints          []string           `json:"overlap_hints" jsonschema:"required"`
	// Findings are hidden text in agent files (docs/tools/ecosystem_scan.md, "Hidden
	// text"): at most mcpconfig.MaxFindings, the most severe first; FindingsOmitted
	// counts the rest.
	Findings        []hiddentext.Finding `json:"findings"`
	FindingsOmitted int                  `json:"findings_omitted,omitempty"`
	// CodexPlugins is present only on Codex hosts when host inventory was requested.
	CodexPlugins *CodexPlugins `json:"codex_plugins,omitempty"`
}

// VSCode holds workspace recommendations and (host scans) installed extension IDs.
type VSCode struct {
	Recommended []string `json:"recommended" jsonschema:"required"`
	Installed   []string `json:"installed" jsonschema:"required"`
}

// Packages is the winget list inventory; Items holds at most MaxPackageLines lines.
type Packages struct {
	Queried bool     `json:"queried" jsonschema:"required"`
	Items   []string `json:"items" jsonschema:"required"`
}

// CodexPlugins is the Codex plugin-folder inventory (docs/hosts/codex.md).
type CodexPlugins struct {
	// Root is $CODEX_HOME/plugins.
	Root string `json:"root" jsonschema:"required"`
	// Personal are the plugin directory names under Root except cache and data.
	Personal []string `json:"personal" jsonschema:"required"`
	// CacheMarketplaces are the directory names under Root/cache.
	CacheMarketplaces []string `json:"cache_marketplaces" jsonschema:"required"`
	// ConfigFile is $CODEX_HOME/config.toml when it exists, else null.
	ConfigFile *string `json:"config_file" jsonschema:"required,nullable"`
}

// New returns the ecosystem_scan tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "ecosystem_scan",
		Order:       8,
		Title:       "Scan ecosystem",
		Description: "The project's AI and editor setup: VS Code recommendations, MCP configs (structure only), agent files; include_host adds the user's, include_packages WinGet's list.",
		Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
		ProjectArg:  "cwd",
		// A project-only scan is read-only; include_host (exactly true) reads user state
		// and may start processes, so the host should approve it.
		Classes: tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
			{When: tools.WhenTrue("include_host"), Class: tools.ApprovalRequired}}},
		Starts:   tools.WhenTrue("include_host"),
		Statuses: []string{"ok"},
		Handle: func(ctx context.Context, env *tools.Env, in In) (Out, error) {
			return scan(ctx, env, in, d)
		},
	})
}

func init() { tools.Register(New(DefaultDeps())) }
