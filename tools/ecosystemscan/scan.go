package ecosystemscan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/hiddentext"
	"github.com/windows-dev-agent/wda/tools/internal/mcpconfig"
)

// Markers are the agent configuration paths looked for in the project, in report order.
var Markers = []string{".clinerules", ".roo", ".continue", ".agents",
	".github/copilot-instructions.md", "CLAUDE.md", "AGENTS.md"}

// overlapWords mark installed extensions that overlap with agent tooling.
var overlapWords = []string{"cline", "roo", "continue", "copilot", "aider", "agent"}

func scan(ctx context.Context, env *tools.Env, in In, d Deps) (Out, error) {
	if in.IncludePackages && !in.IncludeHost {
		return refuse("include_packages requires include_host=true"), nil
	}
	// Every project read goes through the directory the pipeline bound and holds open,
	// never through its path (docs/safety/project-reads.md).
	proj := env.Project
	if proj == nil {
		return Out{}, errors.New("ecosystem_scan: the project directory is not bound")
	}
	root := proj.Path
	inv := &Inventory{
		ProjectRoot: root, HostInventoryIncluded: in.IncludeHost,
		VSCode: VSCode{Recommended: []string{}, Installed: []string{}},
		MCP:    []mcpconfig.Config{}, AgentConfigs: []string{}, ClaudePlugins: []string{},
		Packages: Packages{Items: []string{}}, Warnings: []string{}, OverlapHints: []string{},
		Findings: []hiddentext.Finding{},
	}
	s := &scanner{ctx: ctx, env: env, deps: d, inv: inv}
	s.recommendations(proj)
	sources := mcpconfig.ProjectSources(proj)
	if in.IncludeHost {
		for _, src := range mcpconfig.HostSources(env) {
			sources = mcpconfig.AppendUnique(sources, src.Contained(proj, ""))
		}
	}
	inv.MCP = mcpconfig.ReadAll(sources)
	s.markers(proj)
	hidden := &hiddenCheck{s: s, seen: map[string]bool{}}
	hidden.project(proj)
	if in.IncludeHost {
		hidden.host(env)
		s.vscodeExtensions()
		s.claudePlugins()
		if env.Host == "codex" {
			cp, warnings := CodexPluginsFor(env)
			inv.CodexPlugins = cp
			inv.Warnings = append(inv.Warnings, warnings...)
		}
		if in.IncludePackages {
			s.packages()
		}
	}
	if hidden.stopped {
		s.warn("Hidden-text check stopped after %d files", MaxAgentFiles)
	}
	inv.Findings, inv.FindingsOmitted = mcpconfig.Cap(inv.Findings, mcpconfig.MaxFindings,
		func(f hiddentext.Finding) string { return f.Severity })
	for _, id := range inv.VSCode.Installed {
		if overlaps(id) {
			inv.OverlapHints = append(inv.OverlapHints, id)
		}
	}
	return Out{Status: tools.Status{Status: "ok", ExecutionStarted: s.started}, Inventory: inv}, nil
}

func refuse(msg string) Out {
	return Out{Status: tools.Status{Status: "invalid_input", Error: msg}}
}

type scanner struct {
	ctx     context.Context
	env     *tools.Env
	deps    Deps
	inv     *Inventory
	started bool
}

// warn adds a warning once: the marker check and the hidden-text walk can meet the
// same link.
func (s *scanner) warn(format string, a ...any) {
	if w := fmt.Sprintf(format, a...); !slices.Contains(s.inv.Warnings, w) {
		s.inv.Warnings = append(s.inv.Warnings, w)
	}
}

// recommendations reads .vscode/extensions.json through the project guard.
func (s *scanner) recommendations(p *tools.Project) {
	rel := filepath.Join(".vscode", "extensions.json")
	doc, err := guard.ReadProjectJSON(p, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		s.warn("Could not parse %s: %v", filepath.Join(p.Path, rel), err)
		return
	}
	if recs, ok := doc["recommendations"].([]any); ok {
		for _, r := range recs {
			if id, ok := r.(string); ok {
				s.inv.VSCode.Recommended = append(s.inv.VSCode.Recommended, id)
			}
		}
	}
}

// markers lists agent config paths that exist, walked from the held project directory.
func (s *scanner) markers(p *tools.Project) {
	for _, m := range Markers {
		e, err := guard.Check(p, filepath.FromSlash(m))
		if err != nil {
			s.warn("%v", err)
			continue
		}
		if e.Exists {
			s.inv.AgentConfigs = append(s.inv.AgentConfigs, e.Path)
		}
	}
}

func overlaps(id string) bool {
	l := strings.ToLower(id)
	for _, w := range overlapWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
