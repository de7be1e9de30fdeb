package hostcheck

import (
	"context"
	"fmt"
	"strings"
)

// Check is one proof. When a Check of a Group fails, the checks after it in the group
// are not run (they build on it) unless it is Independent: a failed Independent check
// stops nothing.
type Check struct {
	Name        string
	Independent bool
	Run         func(ctx context.Context) error
}

// Group is a sequence of checks sharing state (an installed plugin, a session, a
// packed bundle).
type Group struct {
	Name   string
	Checks []Check
}

// Result is the outcome of one check.
type Result struct {
	Name string
	Err  error
}

// RunGroups runs every check, printing "PASS name" or "FAIL name: reason" as each
// ends, then a summary line; it returns the results in order.
func (e *Env) RunGroups(ctx context.Context, groups []Group) []Result {
	var out []Result
	for _, g := range groups {
		var broken string
		for _, c := range g.Checks {
			var err error
			if broken != "" {
				err = fmt.Errorf("not run: %q failed", broken)
			} else if err = c.Run(ctx); err != nil && !c.Independent {
				broken = c.Name
			}
			r := Result{Name: g.Name + ": " + c.Name, Err: err}
			out = append(out, r)
			if err != nil {
				fmt.Fprintf(e.cfg.Out, "FAIL %s: %v\n", r.Name, err)
			} else {
				fmt.Fprintf(e.cfg.Out, "PASS %s\n", r.Name)
			}
		}
	}
	failed := 0
	for _, r := range out {
		if r.Err != nil {
			failed++
		}
	}
	fmt.Fprintf(e.cfg.Out, "hostcheck: %d passed, %d failed\n", len(out)-failed, failed)
	return out
}

// Groups are every check (docs/hostcheck.md), in order: installing the pinned
// clients; the distribution; Claude Code, Codex and the MCP Inspector; the Agent
// Plugin in the Copilot CLI, the MCP Bundles, the MCP Registry entry and the Gemini
// CLI extension; and the Windows builds of Claude Code and Codex under Wine. Each
// group after the first two installs what the release group settled on.
func (e *Env) Groups() []Group {
	clients := []Group{e.claudeGroup(), e.codexGroup(), e.inspectorGroup(),
		e.agentPluginGroup(), e.mcpbGroup(), e.registryGroup(), e.geminiGroup(), e.remoteGroup()}
	if !e.cfg.SkipWine {
		clients = append(clients, e.wineGroup())
	}
	groups := []Group{e.installGroup(), e.releaseGroup()}
	for _, g := range clients {
		if e.cfg.Only == "" || strings.Contains(g.Name, e.cfg.Only) {
			groups = append(groups, g)
		}
	}
	return groups
}
