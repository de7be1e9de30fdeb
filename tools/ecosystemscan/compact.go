package ecosystemscan

import (
	"encoding/json"

	"github.com/windows-dev-agent/wda/tools/internal/hiddentext"
	"github.com/windows-dev-agent/wda/tools/internal/mcpconfig"
)

// MarshalJSON leaves out of the inventory what says nothing (issue 24, "What the model
// pays"; docs/tools/ecosystem_scan.md, "Output"): empty lists, host_inventory_included
// false (the call asked for the project only) and packages when winget list was not
// asked for. UnmarshalJSON gives them back, so decoding loses nothing.
func (inv Inventory) MarshalJSON() ([]byte, error) {
	type vscode struct {
		Recommended []string `json:"recommended,omitempty"`
		Installed   []string `json:"installed,omitempty"`
	}
	type wire struct {
		ProjectRoot           string        `json:"project_root"`
		HostInventoryIncluded bool          `json:"host_inventory_included,omitempty"`
		VSCode                *vscode       `json:"vscode,omitempty"`
		MCP                   any           `json:"mcp,omitempty"`
		AgentConfigs          []string      `json:"agent_configs,omitempty"`
		ClaudePlugins         []string      `json:"claude_plugins,omitempty"`
		Packages              *Packages     `json:"packages,omitempty"`
		Warnings              []string      `json:"warnings,omitempty"`
		OverlapHints          []string      `json:"overlap_hints,omitempty"`
		Findings              any           `json:"findings,omitempty"`
		FindingsOmitted       int           `json:"findings_omitted,omitempty"`
		CodexPlugins          *CodexPlugins `json:"codex_plugins,omitempty"`
	}
	w := wire{ProjectRoot: inv.ProjectRoot, HostInventoryIncluded: inv.HostInventoryIncluded,
		AgentConfigs: inv.AgentConfigs, ClaudePlugins: inv.ClaudePlugins, Warnings: inv.Warnings,
		OverlapHints: inv.OverlapHints, FindingsOmitted: inv.FindingsOmitted, CodexPlugins: inv.CodexPlugins}
	if len(inv.Findings) > 0 {
		w.Findings = inv.Findings
	}
	if len(inv.VSCode.Recommended) > 0 || len(inv.VSCode.Installed) > 0 {
		w.VSCode = &vscode{inv.VSCode.Recommended, inv.VSCode.Installed}
	}
	if len(inv.MCP) > 0 {
		w.MCP = inv.MCP
	}
	if inv.Packages.Queried {
		p := inv.Packages
		w.Packages = &p
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an inventory as MarshalJSON wrote it, every list an array again.
func (inv *Inventory) UnmarshalJSON(b []byte) error {
	type plain Inventory
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	for _, l := range []*[]string{&p.VSCode.Recommended, &p.VSCode.Installed, &p.AgentConfigs, &p.ClaudePlugins,
		&p.Packages.Items, &p.Warnings, &p.OverlapHints} {
		if *l == nil {
			*l = []string{}
		}
	}
	if p.MCP == nil {
		p.MCP = []mcpconfig.Config{}
	}
	if p.Findings == nil {
		p.Findings = []hiddentext.Finding{}
	}
	*inv = Inventory(p)
	return nil
}
