package hook

import (
	"slices"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/tools"
)

// systemPolicy reads the machine's managed policy (docs/policy.md, "Sources"); tests
// pass their own loader to run.
func systemPolicy() policy.State { return policy.Load(policy.System()) }

// policyBlock is the managed policy's refusal of a call, with the class the hook
// computed (docs/policy.md, "Rules"), or nil. A call of this server's tools meets
// every rule. A host's shell command meets the rules about classes only
// (max_execute_class, and a policy that cannot be used), so a model cannot run
// through the host's shell what the policy refuses to capability_run (docs/policy.md,
// "The host's shell"). The policy is read at most once per hook invocation, and never
// for a read-only shell command or a host tool the hooks do not classify, so those
// cost nothing; the block's audit word is kept for the permission record.
func (c *call) policyBlock(tool string, input map[string]any, class tools.Class) *policy.Block {
	short, ours := classify.ShortName(tool)
	if !ours {
		if class.Rank() <= tools.ReadOnly.Rank() || !classify.IsShell(tool) && !slices.Contains(CopilotShellInputTools, tool) {
			return nil
		}
		// Never one of the ten tools' names, so only the class rules can hold; no
		// arguments, so no tool's argument rule can.
		short, input = tool, nil
	}
	if c.policy == nil {
		st := c.loadPolicy()
		c.policy = &st
	}
	b := c.policy.Check(policy.Call{Tool: short, Args: input, Class: class})
	if b != nil {
		c.refusalRule = policy.AuditRule(b.Rule)
	}
	return b
}
