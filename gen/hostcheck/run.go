package hostcheck

import (
	"context"
	"fmt"
)

// Check is one proof. When a Check of a Group fails, the checks after it in the group
// are not run (they build on it) unless it is Independent: a failed Independent check
// stops nothing.
type Check struct {
	Name        string
	Independent bool
	Run         func(ctx context.Context) error
}

// Group is a sequence of checks sharing state (an installed plugin, a packed bundle).
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

// Groups are the installation of the pinned clients, then the checks of the Agent
// Plugins, MCPB, MCP Registry and Gemini CLI payloads.
func (e *Env) Groups() []Group {
	return []Group{e.installGroup(), e.agentPluginGroup(), e.mcpbGroup(), e.registryGroup(), e.geminiGroup()}
}
