package hook

import (
	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/tools"
)

// decide is the class of a PreToolUse call and its reason: the classifier's, except
// that a shell command it finds read-only or reversible which may start git is
// approval-required when the repository at cwd (the event's) names a program git
// would run, or cannot be checked (docs/hooks.md, "Read-only git and the
// repository's configuration"). The check costs nothing for other calls.
func (c *call) decide(tool string, input map[string]any, cwd any) (tools.Class, string) {
	class, why := classify.DecideWith(c.specs, c.oracles(), tool, input)
	if !classify.IsShell(tool) || class.Rank() > tools.Reversible.Rank() {
		return class, why
	}
	if cmd, _ := input["command"].(string); !mayRunGit(cmd) {
		return class, why
	}
	if reason := repoProgram(cwd); reason != "" {
		return tools.ApprovalRequired, reason
	}
	return class, why
}
