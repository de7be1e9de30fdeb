package ecosystemscan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/tools"
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
	root := env.ProjectDir
	if env.Project != nil {
		root = env.Project.Path
	}
	inv := &Inventory{
		ProjectRoot: root, HostInventoryIncluded: in.IncludeHost,
		VSCode: VSCode{Recommended: []string{}, Installed: []string{}},
		MCP:    []mcpconfig.Config{}, AgentConfigs: []string{}, ClaudePlugins: []string{},
		Packages: Packages{Items: []string{}}, Warnings: []string{}, OverlapHints: []string{},
	}
	s := &scanner{ctx: ctx, env: env, deps: d, inv: inv}
	s.recommendations(root)
	sources := mcpconfig.ProjectSources(root)
	if in.IncludeHost {
		for _, src := range mcpconfig.HostSources(env) {
			sources = mcpconfig.AppendUnique(sources, src.Contained(root, ""))
		}
	}
	inv.MCP = mcpconfig.ReadAll(sources)
	s.markers(root)
	if in.IncludeHost {
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

func (s *scanner) warn(format string, a ...any) {
	s.inv.Warnings = append(s.inv.Warnings, fmt.Sprintf(format, a...))
}

// recommendations reads .vscode/extensions.json through the project guard.
func (s *scanner) recommendations(root string) {
	rel := filepath.Join(".vscode", "extensions.json")
	doc, err := guard.ReadProjectJSON(root, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		s.warn("Could not parse %s: %v", filepath.Join(root, rel), err)
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

// markers lists agent config paths that exist, containment-checked.
func (s *scanner) markers(root string) {
	for _, m := range Markers {
		abs, exists, err := guard.Check(root, filepath.FromSlash(m))
		if err != nil {
			s.warn("%v", err)
			continue
		}
		if exists {
			s.inv.AgentConfigs = append(s.inv.AgentConfigs, abs)
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
