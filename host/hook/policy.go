package hook

import (
	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/tools"
)

// systemPolicy reads the machine's managed policy (docs/policy.md, "Sources"); tests
// pass their own loader to run.
func systemPolicy() policy.State { return policy.Load(policy.System()) }

// policyBlock is the managed policy's refusal of a call of this server's tools, with
// the class the hook computed (docs/policy.md, "Rules"), or nil. The policy is read
// only for this server's tools, at most once per hook invocation, so a host's own
// tools cost nothing; the block's audit word is kept for the permission record.
func (c *call) policyBlock(tool string, input map[string]any, class tools.Class) *policy.Block {
	short, ours := classify.ShortName(tool)
	if !ours {
		return nil
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
