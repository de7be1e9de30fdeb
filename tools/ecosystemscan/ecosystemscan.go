// Package ecosystemscan is the ecosystem_scan tool.
package ecosystemscan

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of ecosystem_scan.
type In struct {
	Cwd             string `json:"cwd,omitempty" jsonschema:"description=Project directory (default: the active project)."`
	IncludeHost     bool   `json:"include_host,omitempty" jsonschema:"default=false,description=Also read user-level extensions, plugins and MCP configs."`
	IncludePackages bool   `json:"include_packages,omitempty" jsonschema:"default=false,description=Also list installed WinGet packages (requires include_host)."`
}

// Out is the result of ecosystem_scan.
type Out struct {
	runtime.Status
}

// Tool is the ecosystem_scan tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "ecosystem_scan",
	Order:       8,
	Title:       "Scan ecosystem",
	Description: "Inventory the project's AI/editor ecosystem: VS Code recommendations, MCP configs (structure only), agent config markers. include_host adds installed VS Code extensions and Claude/Codex plugins; include_packages (with include_host) adds winget list.",
	Annotations: runtime.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
	ProjectArg:  "cwd",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	if a.Bool("include_host") {
		return runtime.ApprovalRequired
	}
	return runtime.ReadOnly
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "ecosystem_scan is " + runtime.NotImplementedSuffix}}, nil
}
