// Package mcpaudit is the mcp_audit tool.
package mcpaudit

import (
	"context"
	"strings"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of mcp_audit.
type In struct {
	Cwd         string `json:"cwd,omitempty" jsonschema:"description=Project directory (default: the active project)."`
	IncludeHost bool   `json:"include_host,omitempty" jsonschema:"default=false,description=Also read user-level Claude (and on Codex, Codex) MCP configs."`
	ConfigPath  string `json:"config_path,omitempty" jsonschema:"description=One more config file to audit."`
}

// Out is the result of mcp_audit.
type Out struct {
	runtime.Status
}

// Tool is the mcp_audit tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "mcp_audit",
	Order:       10,
	Title:       "Audit MCP configs",
	Description: "Summarise MCP server configurations structurally (name, validity, transport, argument count, whether command/url/env are present) without ever returning commands, URLs, arguments or env values. Project scope by default; include_host and config_path widen it.",
	Annotations: runtime.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
	ProjectArg:  "cwd",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	if a.Bool("include_host") || strings.TrimSpace(a.String("config_path")) != "" {
		return runtime.ApprovalRequired
	}
	return runtime.ReadOnly
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "mcp_audit is " + runtime.NotImplementedSuffix}}, nil
}
