// Package mcpaudit is the mcp_audit tool (docs/tools/mcp_audit.md): a structural audit of MCP
// server configurations, project scope by default, user-level configs with
// include_host, and one more file with config_path, with the risks found in them
// (findings), offline: no server is started and nothing is sent anywhere.
//
// It owns the tool definition, its classification and the composition of a report. It
// must never return a command, URL, argument or env value (tools/internal/mcpconfig only
// produces structural summaries), never follow a link inside the project (project files
// go through internal/guard) and never start a process.
package mcpaudit

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/mcpconfig"
)

// In is the input of mcp_audit.
type In struct {
	Cwd         string `json:"cwd,omitempty"`
	IncludeHost bool   `json:"include_host,omitempty"`
	ConfigPath  string `json:"config_path,omitempty"`
}

// Out is the result of mcp_audit. Report is absent when the call was refused
// (invalid_input), so a refusal carries only status and error.
type Out struct {
	tools.Status
	*Report
}

// Report is the audit proper. Its fields are not "required" in the schema because a
// refusal omits them; every non-refused result carries all of them.
type Report struct {
	ProjectDir            string                `json:"project_dir"`
	HostInventoryIncluded bool                  `json:"host_inventory_included"`
	Configs               []mcpconfig.Config    `json:"configs"`
	ServerCount           int                   `json:"server_count"`
	DuplicateNames        []string              `json:"duplicate_names"`
	Malformed             []mcpconfig.Malformed `json:"malformed"`
	// Findings are the risks found in the configs (docs/tools/mcp_audit.md, "Findings"):
	// rule, severity, server, file and line, never a value.
	Findings []mcpconfig.Finding `json:"findings"`
	// FindingsOmitted counts the findings left out over mcpconfig.MaxFindings (the most
	// severe are kept).
	FindingsOmitted int `json:"findings_omitted,omitempty"`
}

// New returns the mcp_audit tool. It has no dependencies of its own: it reads files
// through the bound project and the guarded readers.
// Deps are the authorities the tool consults. It needs none beyond the call's own
// environment (the data directory, the bound project); the type keeps the shape every
// tool package has.
type Deps struct{}

// DefaultDeps are the tool's dependencies.
func DefaultDeps() Deps { return Deps{} }

// New returns the tool.
func New(_ Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "mcp_audit",
		Order:       10,
		Title:       "Audit MCP configs",
		Description: "MCP server configs by structure (name, validity, transport, argument count, which of command, url, env are set), never values.",
		Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
		ProjectArg:  "cwd",
		// Project scope is read-only; reading user-level configs or an arbitrary file is
		// a broader request the host should approve.
		Classes: tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
			{When: tools.WhenTrue("include_host"), Class: tools.ApprovalRequired},
			{When: tools.WhenNotBlank("config_path"), Class: tools.ApprovalRequired},
		}},
		Starts:   tools.NeverCond,
		Statuses: []string{"ok", "issues_found"},
		Handle:   handle,
	})
}

func init() { tools.Register(New(DefaultDeps())) }

func handle(_ context.Context, env *tools.Env, in In) (Out, error) {
	// Every project read goes through the directory the pipeline bound and holds open,
	// never through its path (docs/safety/project-reads.md).
	proj := env.Project
	if proj == nil {
		return Out{}, errors.New("mcp_audit: the project directory is not bound")
	}
	root := proj.Path
	lexical := lexicalRoot(env, in.Cwd)
	sources := mcpconfig.ProjectSources(proj)
	if in.IncludeHost {
		for _, s := range mcpconfig.HostSources(env) {
			sources = mcpconfig.AppendUnique(sources, s.Contained(proj, lexical))
		}
	}
	if strings.TrimSpace(in.ConfigPath) != "" {
		sources = mcpconfig.AppendUnique(sources, mcpconfig.ExplicitSource(env, proj, lexical, in.ConfigPath))
	}
	configs, findings := mcpconfig.Audit(sources)
	findings, omitted := mcpconfig.Cap(findings, mcpconfig.MaxFindings, func(f mcpconfig.Finding) string { return f.Severity })
	count, dups, malformed := mcpconfig.Totals(configs)
	status := "ok"
	if len(malformed) > 0 || len(dups) > 0 || len(findings) > 0 {
		status = "issues_found"
	}
	return Out{
		Status: tools.Status{Status: status},
		Report: &Report{ProjectDir: root, HostInventoryIncluded: in.IncludeHost, Configs: configs,
			ServerCount: count, DuplicateNames: dups, Malformed: malformed, Findings: findings, FindingsOmitted: omitted},
	}, nil
}

// lexicalRoot is the project directory as named, before links were resolved, so a
// config_path spelled under it still counts as a project file.
func lexicalRoot(env *tools.Env, cwd string) string {
	if env.Project != nil && env.Project.Named != "" {
		return env.Project.Named
	}
	p := strings.TrimSpace(cwd)
	if p == "" {
		p = env.ProjectDir
	}
	if abs, err := filepath.Abs(p); err == nil && p != "" {
		return abs
	}
	return ""
}
